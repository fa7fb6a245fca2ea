/**
 * Shared pieces of the benchmark: the node and the trigger run through the n8n 2.8
 * execution-context double of test/support (real HTTP, n8n's authentication flow), with the
 * transport's production settings.
 */
import { transportSeam } from '../test/support/seam';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';
import type { TransportSettings } from '../nodes/Spendesk/transport/settings';
import { createContext } from '../test/support/n8n-context';
import type { CredentialStore } from '../test/support/n8n-context';

// Under tsx, '…/Spendesk.node' resolves to Spendesk.node.json (Node tries .json before tsx's
// .ts), so the node classes are required by their full file names.
/* eslint-disable @typescript-eslint/no-require-imports */
const { Spendesk } =
	require('../nodes/Spendesk/Spendesk.node.ts') as typeof import('../nodes/Spendesk/Spendesk.node');
const { SpendeskTrigger } =
	require('../nodes/Spendesk/SpendeskTrigger.node.ts') as typeof import('../nodes/Spendesk/SpendeskTrigger.node');
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * A new n8n process as far as the transport is concerned: no rate budgets, in-flight slots
 * or warm credentials, production retry and wait settings.
 */
export function freshTransport(overrides: Partial<TransportSettings> = {}): void {
	transportSeam.reset(overrides);
}

export { apiKeyStore } from '../test/support/fixtures';

/** One execution of the Spendesk node (a new execution context, as n8n builds for every run). */
export async function executeNode(
	store: CredentialStore,
	parameters: IDataObject,
): Promise<INodeExecutionData[]> {
	const { context } = createContext({
		store,
		parameters: { authentication: 'apiKey', ...parameters },
	});
	const [out] = await new Spendesk().execute.call(context as unknown as IExecuteFunctions);
	return out;
}

/** One poll of the Spendesk Trigger (a new context; the workflow's static data persists between polls). */
export async function pollTrigger(
	store: CredentialStore,
	staticData: IDataObject,
	parameters: IDataObject,
): Promise<INodeExecutionData[][] | null> {
	const { context } = createContext({
		store,
		staticData,
		mode: 'trigger',
		parameters: { authentication: 'apiKey', ...parameters },
	});
	return await new SpendeskTrigger().poll.call(context as unknown as IPollFunctions);
}

/** The clients of the drain (figure 3): the node, the bare loop, and n8n's request helper alone. */
export type DrainMode = 'node' | 'bare' | 'helper';

/** The drain's rounds run the clients in these orders in turn, so that each goes first as often. */
export const ROUND_ORDERS: DrainMode[][] = [
	['node', 'helper', 'bare'],
	['bare', 'node', 'helper'],
	['helper', 'bare', 'node'],
];

/** Parameters of invoice → Get Many for one company, Return All. */
export function invoiceGetAll(company: string): IDataObject {
	return {
		resource: 'invoice',
		operation: 'getAll',
		companyScope: 'one',
		company,
		returnAll: true,
		filters: '{}',
	};
}

export function elapsed(startedAt: number): number {
	return performance.now() - startedAt;
}

/** One line of the results table. `pass` is undefined for figures reported without a target. */
export interface Figure {
	id: string;
	figure: string;
	value: number;
	/** The value as printed. */
	display: string;
	target: string;
	pass?: boolean;
	/** Short explanation printed under the table. */
	note?: string;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function ratio(value: number): string {
	return value.toFixed(2);
}

/** Seed sizes of a company that has only invoices (plus `invoices: N`). */
export const INVOICES_ONLY = {
	accounts: 0,
	payables: 0,
	settlements: 0,
	analyticalFields: 0,
	expenseCategories: 0,
	intakes: 0,
};

/** A plain-text table with aligned columns. */
export function table(headers: string[], rows: string[][]): string {
	const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
	return [
		line(headers),
		`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
		...rows.map(line),
	].join('\n');
}
