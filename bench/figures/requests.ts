/**
 * Figure 1 — request minimality. Each of the five pagination styles, Return All, at sizes
 * 0, 1, one page, one page + 1 and 10,000: API requests made (simulator log, token endpoint
 * left out) ÷ the theoretical minimum.
 */
import type { IDataObject } from 'n8n-workflow';
import type { CompanySeed } from '../../test/simulator';
import { SimulatorHandle } from '../simulator-handle';
import { apiKeyStore, executeNode, freshTransport, invoiceGetAll, ratio } from '../support';
import type { Figure } from '../support';

interface Style {
	key: string;
	label: string;
	/** Largest page the API serves in this style. */
	pageSize: number;
	/** Requests that are not pages (the snapshot's create). */
	extra: number;
	parameters: (company: string) => IDataObject;
	/** Routes counted (every API route the operation uses). */
	routes: string[];
}

const NO_FILTERS = { filterMode: 'fields', filters: {} };

const STYLES: Style[] = [
	{
		key: 'page',
		label: 'page (settlements)',
		pageSize: 30,
		extra: 0,
		parameters: (company) => ({
			resource: 'settlement',
			operation: 'getAll',
			companyScope: 'one',
			company,
			returnAll: true,
		}),
		routes: ['listSettlements'],
	},
	{
		key: 'cursor',
		label: 'cursor (invoices)',
		pageSize: 100,
		extra: 0,
		parameters: invoiceGetAll,
		routes: ['listInvoices'],
	},
	{
		key: 'offset',
		label: 'offset (accounts)',
		pageSize: 100,
		extra: 0,
		parameters: (company) => ({
			resource: 'account',
			operation: 'getAll',
			companyScope: 'one',
			company,
			returnAll: true,
		}),
		routes: ['getAccounts'],
	},
	{
		key: 'bodyCursor',
		label: 'body cursor (payables search)',
		pageSize: 100,
		extra: 0,
		parameters: (company) => ({
			resource: 'payable',
			operation: 'getAll',
			companyScope: 'one',
			company,
			returnAll: true,
			...NO_FILTERS,
		}),
		routes: ['searchPayables'],
	},
	{
		key: 'snapshot',
		label: 'snapshot (payables snapshot)',
		pageSize: 30,
		extra: 1,
		parameters: (company) => ({
			resource: 'payable',
			operation: 'getAllSnapshot',
			companyScope: 'one',
			company,
			returnAll: true,
			options: { maxWait: 300 },
			...NO_FILTERS,
		}),
		routes: ['createPayablesSnapshot', 'getPayablesSnapshot'],
	},
];

const sizesOf = (style: Style) => [0, 1, style.pageSize, style.pageSize + 1, 10_000];
const companyFor = (size: number) => `cmp_n${size}`;

export interface RequestRun {
	style: string;
	size: number;
	items: number;
	requests: number;
	minimum: number;
	ratio: number;
}

export async function requestMinimality(): Promise<{ figures: Figure[]; details: RequestRun[] }> {
	const sizes = [...new Set(STYLES.flatMap(sizesOf))].sort((a, b) => a - b);
	const companies: CompanySeed[] = sizes.map((n) => ({
		id: companyFor(n),
		sizes: {
			invoices: n,
			settlements: n,
			accounts: n,
			payables: n,
			analyticalFields: 0,
			expenseCategories: 0,
			intakes: 0,
		},
	}));
	const sim = await SimulatorHandle.start({ seed: { companies }, snapshotPendingPolls: 0 });
	const runs: RequestRun[] = [];
	try {
		freshTransport();
		const store = apiKeyStore(sim.url, sim.orgKey);
		for (const style of STYLES) {
			for (const size of sizesOf(style)) {
				await sim.clearLog();
				const out = await executeNode(store, style.parameters(companyFor(size)));
				if (out.length !== size)
					throw new Error(`${style.key} at ${size}: the node returned ${out.length} items`);
				const log = await sim.apiRequests();
				const other = log.filter((r) => !style.routes.includes(r.route));
				if (other.length)
					throw new Error(
						`${style.key} at ${size}: unexpected requests ${other.map((r) => r.route).join(', ')}`,
					);
				const minimum = Math.max(1, Math.ceil(size / style.pageSize)) + style.extra;
				runs.push({
					style: style.key,
					size,
					items: out.length,
					requests: log.length,
					minimum,
					ratio: log.length / minimum,
				});
			}
		}
	} finally {
		await sim.stop();
	}

	const figures = STYLES.map((style): Figure => {
		const mine = runs.filter((r) => r.style === style.key);
		const worst = Math.max(...mine.map((r) => r.ratio));
		return {
			id: `1-${style.key}`,
			figure: `Requests ÷ minimum, ${style.label}, worst size`,
			value: worst,
			display: ratio(worst),
			target: '1.00',
			pass: worst <= 1,
			note: `requests/minimum by size: ${mine.map((r) => `n=${r.size}: ${r.requests}/${r.minimum}`).join(', ')}`,
		};
	});
	return { figures, details: runs };
}
