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

export type StyleKey = 'page' | 'cursor' | 'offset' | 'bodyCursor' | 'snapshot';

/** A list of one company whose ids the benchmark compares a client's output with. */
export type ListName = 'invoices' | 'settlements' | 'accounts' | 'payables';

/** One pagination style: the list that shows it and the Spendesk node's parameters to read it all. */
export interface Style {
	key: StyleKey;
	label: string;
	list: ListName;
	/** Largest page the API serves in this style. */
	pageSize: number;
	/** Requests that are not pages (the snapshot's create). */
	extra: number;
	/** Every API route the operation uses. */
	routes: string[];
	parameters: (company: string) => IDataObject;
}

/** Get Many of `resource` for one company, Return All (`more`: other parameters). */
const getAll =
	(resource: string, more: IDataObject = {}) =>
	(company: string): IDataObject => ({
		resource,
		operation: 'getAll',
		companies: 'one',
		company,
		returnAll: true,
		...more,
	});
const NO_FILTERS = { filterMode: 'fields', filters: {} };
const style = (
	key: StyleKey,
	label: string,
	list: ListName,
	pageSize: number,
	routes: string[],
	parameters: Style['parameters'],
): Style => ({ key, label, list, pageSize, extra: routes.length - 1, routes, parameters });

export const STYLES: Record<StyleKey, Style> = {
	page: style(
		'page',
		'page (settlements)',
		'settlements',
		30,
		['listSettlements'],
		getAll('settlement'),
	),
	cursor: style(
		'cursor',
		'cursor (invoices)',
		'invoices',
		100,
		['listInvoices'],
		getAll('invoice', { filters: '{}' }),
	),
	offset: style('offset', 'offset (accounts)', 'accounts', 100, ['getAccounts'], getAll('account')),
	bodyCursor: style(
		'bodyCursor',
		'body cursor (payables search)',
		'payables',
		100,
		['searchPayables'],
		getAll('payable', NO_FILTERS),
	),
	snapshot: style(
		'snapshot',
		'snapshot (payables snapshot)',
		'payables',
		30,
		['createPayablesSnapshot', 'getPayablesSnapshot'],
		getAll('payable', { operation: 'getAllSnapshot', options: { maxWait: 300 }, ...NO_FILTERS }),
	),
};

/** The theoretical minimum of requests for n items: every page once (at least one), plus the snapshot's create. */
export function minimumRequests(style: Style, items: number): number {
	return Math.max(1, Math.ceil(items / style.pageSize)) + style.extra;
}

/** How many of the requests (in order of arrival) fall in each window, a window opening with the first request after the last one closed. */
export function perWindow(requests: Array<{ at: number }>, windowMs: number): number[] {
	const counts: number[] = [];
	let opened = -Infinity;
	for (const r of requests) {
		if (r.at >= opened + windowMs) {
			counts.push(0);
			opened = r.at;
		}
		counts[counts.length - 1]++;
	}
	return counts;
}

export function elapsed(startedAt: number): number {
	return performance.now() - startedAt;
}

/** One line of the results table (`display`: the value as printed; `pass` undefined: reported without a target; `note`: printed under the table). */
export interface Figure {
	id: string;
	figure: string;
	value: number;
	display: string;
	target: string;
	pass?: boolean;
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
