/**
 * The workflows of the n8n comparison (bench/figures/n8n.ts): for each pagination style, the
 * Spendesk node with Return All, and what a user who knows the API well would build instead
 * with n8n's HTTP Request node (its built-in pagination, the package's API-key credential as
 * a predefined credential type, a Split Out node to get one item per record); for All
 * Companies, the HTTP Request node fed by the company list.
 *
 * The HTTP Request node's settings are written as the editor saves them (n8n 2.8.4, HTTP
 * Request version 4.4, the version the editor adds). Expressions see `$response` (the
 * previous page: `body`, `headers`, `statusCode`) and `$pageCount` (pages received so far);
 * on the first request `$response` is empty and `$pageCount` is 0.
 */
import type { CredentialRef, Workflow, WorkflowNode } from '../test/e2e/workflows';
import { company, manualTrigger, spendeskNode, splitOutNode } from '../test/e2e/workflows';
import type { ListName } from './simulator-protocol';

export type StyleKey = 'cursor' | 'page' | 'offset' | 'bodyCursor' | 'snapshot';

/** The HTTP Request node version the editor of n8n 2.8.4 adds. */
export const HTTP_REQUEST_VERSION = 4.4;

/** One list of one company, read by either client. */
export interface ListCase {
	style: StyleKey;
	/** Company (in the simulator) and list read. */
	company: string;
	list: ListName;
	/** Largest page the API serves in this style. */
	pageSize: number;
	/** Requests that are not pages (the snapshot's create). */
	extra: number;
	/** Routes that count as requests of this list. */
	routes: string[];
}

export const STYLE_INFO: Record<
	StyleKey,
	{ label: string; list: ListName; pageSize: number; extra: number; routes: string[] }
> = {
	cursor: {
		label: 'cursor (invoices)',
		list: 'invoices',
		pageSize: 100,
		extra: 0,
		routes: ['listInvoices'],
	},
	page: {
		label: 'page (settlements)',
		list: 'settlements',
		pageSize: 30,
		extra: 0,
		routes: ['listSettlements'],
	},
	offset: {
		label: 'offset (accounts)',
		list: 'accounts',
		pageSize: 100,
		extra: 0,
		routes: ['getAccounts'],
	},
	bodyCursor: {
		label: 'body cursor (payables search)',
		list: 'payables',
		pageSize: 100,
		extra: 0,
		routes: ['searchPayables'],
	},
	snapshot: {
		label: 'snapshot (payables snapshot)',
		list: 'payables',
		pageSize: 30,
		extra: 1,
		routes: ['createPayablesSnapshot', 'getPayablesSnapshot'],
	},
};

export function listCase(style: StyleKey, companyId: string): ListCase {
	const { list, pageSize, extra, routes } = STYLE_INFO[style];
	return { style, company: companyId, list, pageSize, extra, routes };
}

/** The theoretical minimum of requests for n items: every page once (at least one), plus the snapshot's create. */
export function minimumRequests(c: ListCase, items: number): number {
	return Math.max(1, Math.ceil(items / c.pageSize)) + c.extra;
}

let counter = 0;
const nodeId = () => `bench-n8n-${++counter}`;

/** The Spendesk node, Return All, for one list of one company. */
export function spendeskListNode(
	c: ListCase,
	credential: CredentialRef,
	name = 'Spendesk',
): WorkflowNode {
	const one = { companyScope: 'one', company: company(c.company), returnAll: true };
	const parameters: Record<StyleKey, Record<string, unknown>> = {
		cursor: { resource: 'invoice', operation: 'getAll', ...one },
		page: { resource: 'settlement', operation: 'getAll', ...one },
		offset: { resource: 'account', operation: 'getAll', ...one },
		bodyCursor: {
			resource: 'payable',
			operation: 'getAll',
			...one,
			filterMode: 'fields',
			filters: {},
		},
		snapshot: {
			resource: 'payable',
			operation: 'getAllSnapshot',
			...one,
			options: { maxWait: 60 },
			filterMode: 'fields',
			filters: {},
		},
	};
	return spendeskNode(name, parameters[c.style], credential, [250, 0]);
}

interface PaginationSettings {
	paginationMode: 'updateAParameterInEachRequest' | 'responseContainsNextURL';
	parameters?: Array<{ type: 'qs' | 'body' | 'headers'; name: string; value: string }>;
	nextURL?: string;
	completeExpression: string;
	/** Pause between pages (ms): the way to stay under a rate limit. */
	requestInterval?: number;
}

interface HttpSettings {
	method?: 'GET' | 'POST';
	url: string;
	query?: Record<string, string>;
	headers?: Record<string, string>;
	/** JSON body (sent as written). */
	jsonBody?: string;
	pagination?: PaginationSettings;
}

/** An HTTP Request node authenticated by the Spendesk API-key credential (predefined credential type). */
export function httpRequestNode(
	name: string,
	settings: HttpSettings,
	credential: CredentialRef,
	position: [number, number] = [250, 0],
): WorkflowNode {
	const parameters: Record<string, unknown> = {
		method: settings.method ?? 'GET',
		url: settings.url,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'spendeskApi',
		sendQuery: settings.query !== undefined,
		queryParameters: {
			parameters: Object.entries(settings.query ?? {}).map(([n, value]) => ({ name: n, value })),
		},
		sendHeaders: settings.headers !== undefined,
		headerParameters: {
			parameters: Object.entries(settings.headers ?? {}).map(([n, value]) => ({ name: n, value })),
		},
		sendBody: settings.jsonBody !== undefined,
		...(settings.jsonBody !== undefined
			? { contentType: 'json', specifyBody: 'json', jsonBody: settings.jsonBody }
			: {}),
		options: {},
	};
	const p = settings.pagination;
	if (p) {
		parameters.options = {
			pagination: {
				pagination: {
					paginationMode: p.paginationMode,
					...(p.parameters ? { parameters: { parameters: p.parameters } } : {}),
					...(p.nextURL ? { nextURL: p.nextURL } : {}),
					paginationCompleteWhen: 'other',
					completeExpression: p.completeExpression,
					...(p.requestInterval ? { requestInterval: p.requestInterval } : {}),
				},
			},
		};
	}
	return {
		id: nodeId(),
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		position,
		parameters,
		credentials: { spendeskApi: { id: credential.id, name: credential.name } },
	};
}

/** Cursor pagination of a v2 list: the next cursor from the previous page, until hasNextPage is false. */
export const CURSOR_PAGINATION: PaginationSettings = {
	paginationMode: 'updateAParameterInEachRequest',
	parameters: [
		{
			type: 'qs',
			name: 'cursor',
			value: '={{ $pageCount === 0 ? "" : $response.body.meta.pagination.nextCursor }}',
		},
	],
	completeExpression: '={{ !$response.body.meta.pagination.hasNextPage }}',
};

/** Page pagination: page = pages so far + 1, until `total` says the last page was read (a 404 past the end also ends it). */
const PAGE_COMPLETE = (meta: string) =>
	`={{ $response.statusCode === 404 || ${meta}.page * ${meta}.pageSize >= ${meta}.total }}`;
const PAGE_PAGINATION = (meta: string): PaginationSettings => ({
	paginationMode: 'updateAParameterInEachRequest',
	parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
	completeExpression: PAGE_COMPLETE(meta),
});

export interface HttpVariant {
	/** How the HTTP Request node is set, in one line (for the report). */
	summary: string;
	/** Pause between pages (rate limits). */
	requestInterval?: number;
}

/**
 * The HTTP Request nodes (and Split Out) that read one list as an expert would, chained after
 * the trigger. The last node's output holds the records.
 */
export function httpListNodes(
	c: ListCase,
	baseUrl: string,
	credential: CredentialRef,
	variant: HttpVariant = { summary: 'expert' },
): WorkflowNode[] {
	const header = { 'X-Company-Id': c.company };
	const interval = variant.requestInterval;
	const withInterval = (p: PaginationSettings): PaginationSettings =>
		interval ? { ...p, requestInterval: interval } : p;
	switch (c.style) {
		case 'cursor':
			return [
				httpRequestNode(
					'HTTP Request',
					{
						url: `${baseUrl}/v2/companies/${c.company}/invoices`,
						query: { sortBy: 'updatedAt', sort: 'desc', limit: '100' },
						pagination: withInterval(CURSOR_PAGINATION),
					},
					credential,
				),
				splitOutNode('Split Out', 'data', [500, 0]),
			];
		case 'page':
			return [
				httpRequestNode(
					'HTTP Request',
					{
						url: `${baseUrl}/v1/settlements`,
						query: { pageSize: '30' },
						headers: header,
						pagination: withInterval(PAGE_PAGINATION('$response.body.meta.pagination')),
					},
					credential,
				),
				splitOutNode('Split Out', 'data', [500, 0]),
			];
		case 'offset':
			// The next offset is what the server says it served (it may serve fewer than `fetch` asks), until totalResults.
			return [
				httpRequestNode(
					'HTTP Request',
					{
						url: `${baseUrl}/v1/accounts`,
						query: { fetch: '100' },
						headers: header,
						pagination: withInterval({
							paginationMode: 'updateAParameterInEachRequest',
							parameters: [
								{
									type: 'qs',
									name: 'offset',
									value:
										'={{ $pageCount === 0 ? 0 : $response.body.currentOffset + $response.body.data.length }}',
								},
							],
							completeExpression:
								'={{ $response.body.data.length === 0 || $response.body.currentOffset + $response.body.data.length >= $response.body.totalResults }}',
						}),
					},
					credential,
				),
				splitOutNode('Split Out', 'data', [500, 0]),
			];
		case 'bodyCursor':
			return [
				httpRequestNode(
					'HTTP Request',
					{
						method: 'POST',
						url: `${baseUrl}/v1/payables/search`,
						headers: header,
						jsonBody: '{ "limit": 100 }',
						pagination: withInterval({
							paginationMode: 'updateAParameterInEachRequest',
							parameters: [
								{
									type: 'body',
									name: 'cursor',
									value: '={{ $pageCount === 0 ? null : $response.body.nextCursor }}',
								},
							],
							completeExpression: '={{ !$response.body.nextCursor }}',
						}),
					},
					credential,
				),
				// The search answers its list as `payables` (docs/api.md#body-cursor-lists).
				splitOutNode('Split Out', 'payables', [500, 0]),
			];
		case 'snapshot':
			// Create, then page through the result. The wait for COMPLETE cannot be part of the paged
			// request (a PENDING answer would count as a page): a workflow needs an IF + Wait loop
			// between the two when the snapshot is not ready at once.
			return [
				httpRequestNode(
					'Create Snapshot',
					{
						method: 'POST',
						url: `${baseUrl}/v1/snapshots/payables`,
						headers: header,
						jsonBody: '{}',
					},
					credential,
				),
				httpRequestNode(
					'HTTP Request',
					{
						url: `=${baseUrl}/v1/snapshots/payables/{{ $json.key }}`,
						query: { pageSize: '30' },
						headers: header,
						pagination: withInterval(PAGE_PAGINATION('$response.body.result.meta.pagination')),
					},
					credential,
					[500, 0],
				),
				splitOutNode('Split Out', 'result.data', [750, 0]),
			];
	}
}

/** Manual trigger → nodes in a chain. */
export function chainWorkflow(id: string, name: string, nodes: WorkflowNode[]): Workflow {
	const start = manualTrigger('Start', [0, 0]);
	const all = [start, ...nodes];
	const connections: Workflow['connections'] = {};
	for (let i = 0; i + 1 < all.length; i++)
		connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	return { id, name, active: false, nodes: all, connections, settings: { executionOrder: 'v1' } };
}

/** The Spendesk node reading one list, Return All. */
export function nodeWorkflow(id: string, c: ListCase, credential: CredentialRef): Workflow {
	return chainWorkflow(id, `Spendesk node: ${STYLE_INFO[c.style].label} of ${c.company}`, [
		spendeskListNode(c, credential),
	]);
}

/** The HTTP Request node(s) reading one list. */
export function httpWorkflow(
	id: string,
	c: ListCase,
	baseUrl: string,
	credential: CredentialRef,
	variant?: HttpVariant,
): Workflow {
	return chainWorkflow(
		id,
		`HTTP Request: ${STYLE_INFO[c.style].label} of ${c.company}`,
		httpListNodes(c, baseUrl, credential, variant),
	);
}

// ---------------------------------------------------------------- All Companies

/** The Spendesk node: invoices of every company in one step. */
export function nodeAllCompaniesWorkflow(id: string, credential: CredentialRef): Workflow {
	const node = spendeskNode(
		'Spendesk',
		{
			resource: 'invoice',
			operation: 'getAll',
			companyScope: 'all',
			returnAll: true,
		},
		credential,
		[250, 0],
	);
	return chainWorkflow(id, 'Spendesk node: invoices of All Companies', [node]);
}

function companyListNodes(baseUrl: string, credential: CredentialRef): WorkflowNode[] {
	return [
		httpRequestNode(
			'Companies',
			{
				url: `${baseUrl}/v2/companies`,
				query: { pageSize: '30' },
				pagination: PAGE_PAGINATION('$response.body.meta.pagination'),
			},
			credential,
			[250, 0],
		),
		splitOutNode('Split Companies', 'data', [500, 0]),
	];
}

function invoicesOfNodes(baseUrl: string, credential: CredentialRef, x: number): WorkflowNode[] {
	return [
		httpRequestNode(
			'Invoices',
			{
				url: `=${baseUrl}/v2/companies/{{ $json.id }}/invoices`,
				query: { sortBy: 'updatedAt', sort: 'desc', limit: '100' },
				pagination: CURSOR_PAGINATION,
			},
			credential,
			[x, 0],
		),
		splitOutNode('Split Invoices', 'data', [x + 250, 0]),
	];
}

/**
 * HTTP Request fed by the company list, every company at once: the node starts the paged
 * reads of all its input items together (one request in flight per company).
 */
export function httpAllCompaniesAtOnceWorkflow(
	id: string,
	baseUrl: string,
	credential: CredentialRef,
): Workflow {
	return chainWorkflow(id, 'HTTP Request: invoices of every listed company, all at once', [
		...companyListNodes(baseUrl, credential),
		...invoicesOfNodes(baseUrl, credential, 750),
	]);
}

/**
 * HTTP Request fed by the company list through Loop Over Items, `batch` companies at a time
 * (Spendesk allows 5 requests in flight per consumer). The records come out of the loop's
 * "done" output.
 */
export function httpAllCompaniesLoopWorkflow(
	id: string,
	baseUrl: string,
	credential: CredentialRef,
	batch: number,
): Workflow {
	const start = manualTrigger('Start', [0, 0]);
	const [companies, splitCompanies] = companyListNodes(baseUrl, credential);
	const loop: WorkflowNode = {
		id: nodeId(),
		name: 'Loop Over Items',
		type: 'n8n-nodes-base.splitInBatches',
		typeVersion: 3,
		position: [750, 0],
		parameters: { batchSize: batch, options: {} },
	};
	const [invoices, splitInvoices] = invoicesOfNodes(baseUrl, credential, 1000);
	const to = (node: string) => ({ node, type: 'main' as const, index: 0 });
	return {
		id,
		name: `HTTP Request: invoices of every listed company, ${batch} at a time (Loop Over Items)`,
		active: false,
		nodes: [start, companies, splitCompanies, loop, invoices, splitInvoices],
		connections: {
			Start: { main: [[to('Companies')]] },
			Companies: { main: [[to('Split Companies')]] },
			'Split Companies': { main: [[to('Loop Over Items')]] },
			// Output 0 is "done" (nothing follows), output 1 "loop".
			'Loop Over Items': { main: [[], [to('Invoices')]] },
			Invoices: { main: [[to('Split Invoices')]] },
			'Split Invoices': { main: [[to('Loop Over Items')]] },
		},
		settings: { executionOrder: 'v1' },
	};
}
