/**
 * The workflows of the n8n comparison (bench/figures/n8n.ts): for each pagination style, the
 * Spendesk node with Return All, and what a user who knows the API well would build instead
 * with n8n's HTTP Request node (its built-in pagination, the package's API-key credential as a
 * predefined credential type, a Split Out node to get one item per record); the HTTP Request
 * node as commonly set up (complete on a short page) for the traps; for All Companies, the
 * HTTP Request node fed by the company list.
 *
 * The HTTP Request node's settings are written as the editor of n8n 2.8.4 saves them (version
 * 4.4). Expressions see `$response` (the previous page: `body`, `headers`, `statusCode`) and
 * `$pageCount` (pages received so far); on the first request `$response` is empty.
 */
import type { CredentialRef, Workflow, WorkflowNode } from '../test/e2e/workflows';
import {
	company,
	manualTrigger,
	spendeskNode,
	splitOutNode,
	workflow,
} from '../test/e2e/workflows';
import { STYLES } from './support';
import type { StyleKey } from './support';

/** The HTTP Request node version the editor of n8n 2.8.4 adds. */
export const HTTP_REQUEST_VERSION = 4.4;

let counter = 0;

interface Pagination {
	/** Parameter name → expression; `body.cursor` for the body. */
	set: Record<string, string>;
	complete: string;
	/** Pause between pages (ms): the way to stay under a rate limit. */
	interval?: number;
}

interface HttpSettings {
	url: string;
	query?: Record<string, string>;
	headers?: Record<string, string>;
	/** JSON body, as written: a POST. */
	jsonBody?: string;
	pagination?: Pagination;
}

const pairs = (values: Record<string, string> = {}) => ({
	parameters: Object.entries(values).map(([name, value]) => ({ name, value })),
});

/** An HTTP Request node authenticated by the Spendesk API-key credential (predefined credential type). */
export function httpRequestNode(
	name: string,
	s: HttpSettings,
	credential: CredentialRef,
	x = 250,
): WorkflowNode {
	const p = s.pagination;
	const pagination = p && {
		pagination: {
			paginationMode: 'updateAParameterInEachRequest',
			parameters: {
				parameters: Object.entries(p.set).map(([key, value]) => ({
					type: key.startsWith('body.') ? 'body' : 'qs',
					name: key.replace(/^body\./, ''),
					value,
				})),
			},
			paginationCompleteWhen: 'other',
			completeExpression: p.complete,
			...(p.interval ? { requestInterval: p.interval } : {}),
		},
	};
	return {
		id: `bench-n8n-${++counter}`,
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		position: [x, 0],
		parameters: {
			method: s.jsonBody === undefined ? 'GET' : 'POST',
			url: s.url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'spendeskApi',
			sendQuery: s.query !== undefined,
			queryParameters: pairs(s.query),
			sendHeaders: s.headers !== undefined,
			headerParameters: pairs(s.headers),
			sendBody: s.jsonBody !== undefined,
			...(s.jsonBody !== undefined
				? { contentType: 'json', specifyBody: 'json', jsonBody: s.jsonBody }
				: {}),
			options: pagination ? { pagination } : {},
		},
		credentials: { spendeskApi: { id: credential.id, name: credential.name } },
	};
}

const CURSOR: Pagination = {
	set: { cursor: '={{ $pageCount === 0 ? "" : $response.body.meta.pagination.nextCursor }}' },
	complete: '={{ !$response.body.meta.pagination.hasNextPage }}',
};
/** page = pages so far + 1, until `total` says the last page was read (a 404 past the end also ends it). */
const pages = (meta: string): Pagination => ({
	set: { page: '={{ $pageCount + 1 }}' },
	complete: `={{ $response.statusCode === 404 || ${meta}.page * ${meta}.pageSize >= ${meta}.total }}`,
});
/** The common setting: complete on a page shorter than the size asked. */
const shortPage = (field: string, size: number, set: Record<string, string>): Pagination => ({
	set,
	complete: `={{ $response.body.${field}.length < ${size} }}`,
});

/** Manual trigger → nodes in a chain. */
export function chain(id: string, name: string, nodes: WorkflowNode[]): Workflow {
	const all = [manualTrigger('Start', [0, 0]), ...nodes];
	const edges = all.slice(1).map((n, i): [string, string] => [all[i].name, n.name]);
	return workflow(id, name, all, edges);
}

/** The Spendesk node reading one list of one company, Return All (no company: All Companies' invoices). */
export function nodeWorkflow(
	id: string,
	style: StyleKey,
	companyId: string | undefined,
	credential: CredentialRef,
): Workflow {
	const parameters = companyId
		? { ...STYLES[style].parameters(companyId), company: company(companyId) }
		: { ...STYLES[style].parameters(''), companies: 'all', company: undefined };
	return chain(id, `Spendesk node: ${STYLES[style].label} of ${companyId ?? 'All Companies'}`, [
		spendeskNode('Spendesk', parameters, credential, [250, 0]),
	]);
}

/**
 * The HTTP Request node(s) and Split Out reading one list of one company: as an expert would
 * (`common`: as commonly set up, the cursor, page and offset lists only); `interval` between pages.
 */
export function httpWorkflow(
	id: string,
	style: StyleKey,
	companyId: string,
	baseUrl: string,
	credential: CredentialRef,
	options: { common?: boolean; interval?: number } = {},
): Workflow {
	const headers = { 'X-Company-Id': companyId };
	const paged = (expert: Pagination, common?: Pagination): Pagination => ({
		...(options.common ? common! : expert),
		interval: options.interval,
	});
	const list = (s: HttpSettings, field = 'data') => [
		httpRequestNode('HTTP Request', s, credential),
		splitOutNode('Split Out', field, [500, 0]),
	];
	const nodes: Record<StyleKey, () => WorkflowNode[]> = {
		cursor: () =>
			list({
				url: `${baseUrl}/v2/companies/${companyId}/invoices`,
				query: { sortBy: 'updatedAt', sort: 'desc', limit: '100' },
				pagination: paged(CURSOR, shortPage('data', 100, CURSOR.set)),
			}),
		page: () =>
			list({
				url: `${baseUrl}/v1/settlements`,
				query: { pageSize: '30' },
				headers,
				pagination: paged(
					pages('$response.body.meta.pagination'),
					shortPage('data', 30, { page: '={{ $pageCount + 1 }}' }),
				),
			}),
		// The next offset is what the server says it served (it may serve fewer than `fetch` asks), until totalResults.
		offset: () =>
			list({
				url: `${baseUrl}/v1/accounts`,
				query: { fetch: '100' },
				headers,
				pagination: paged(
					{
						set: {
							offset:
								'={{ $pageCount === 0 ? 0 : $response.body.currentOffset + $response.body.data.length }}',
						},
						complete:
							'={{ $response.body.data.length === 0 || $response.body.currentOffset + $response.body.data.length >= $response.body.totalResults }}',
					},
					shortPage('data', 100, { offset: '={{ $pageCount * 100 }}' }),
				),
			}),
		// The search answers its list as `payables` (docs/api.md#body-cursor-lists).
		bodyCursor: () =>
			list(
				{
					url: `${baseUrl}/v1/payables/search`,
					headers,
					jsonBody: '{ "limit": 100 }',
					pagination: paged({
						set: { 'body.cursor': '={{ $pageCount === 0 ? null : $response.body.nextCursor }}' },
						complete: '={{ !$response.body.nextCursor }}',
					}),
				},
				'payables',
			),
		// Create, then page through the result. The wait for COMPLETE cannot be part of the paged
		// request (a PENDING answer would count as a page): a workflow needs an IF + Wait loop
		// between the two when the snapshot is not ready at once.
		snapshot: () => [
			httpRequestNode(
				'Create Snapshot',
				{ url: `${baseUrl}/v1/snapshots/payables`, headers, jsonBody: '{}' },
				credential,
			),
			httpRequestNode(
				'HTTP Request',
				{
					url: `=${baseUrl}/v1/snapshots/payables/{{ $json.key }}`,
					query: { pageSize: '30' },
					headers,
					pagination: paged(pages('$response.body.result.meta.pagination')),
				},
				credential,
				500,
			),
			splitOutNode('Split Out', 'result.data', [750, 0]),
		],
	};
	const how = options.common ? 'as commonly set up' : 'as an expert would';
	return chain(id, `HTTP Request ${how}: ${STYLES[style].label} of ${companyId}`, nodes[style]());
}

// ---------------------------------------------------------------- All Companies

/** HTTP Request nodes: the company list, then the invoices of each listed company. */
function allCompaniesNodes(baseUrl: string, credential: CredentialRef, x: number) {
	const companies = { url: `${baseUrl}/v2/companies`, query: { pageSize: '30' } };
	return [
		httpRequestNode(
			'Companies',
			{ ...companies, pagination: pages('$response.body.meta.pagination') },
			credential,
		),
		splitOutNode('Split Companies', 'data', [500, 0]),
		httpRequestNode(
			'Invoices',
			{
				url: `=${baseUrl}/v2/companies/{{ $json.id }}/invoices`,
				query: { sortBy: 'updatedAt', sort: 'desc', limit: '100' },
				pagination: CURSOR,
			},
			credential,
			x,
		),
		splitOutNode('Split Invoices', 'data', [x + 250, 0]),
	];
}

/**
 * HTTP Request fed by the company list, every company at once: the node starts the paged reads
 * of all its input items together (one request in flight per company).
 */
export function httpAllCompaniesAtOnceWorkflow(
	id: string,
	baseUrl: string,
	credential: CredentialRef,
): Workflow {
	return chain(
		id,
		'HTTP Request: invoices of every listed company, all at once',
		allCompaniesNodes(baseUrl, credential, 750),
	);
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
	const [companies, split, invoices, splitInvoices] = allCompaniesNodes(baseUrl, credential, 1000);
	const loop: WorkflowNode = {
		id: `bench-n8n-${++counter}`,
		name: 'Loop Over Items',
		type: 'n8n-nodes-base.splitInBatches',
		typeVersion: 3,
		position: [750, 0],
		parameters: { batchSize: batch, options: {} },
	};
	const result = workflow(
		id,
		`HTTP Request: invoices of every listed company, ${batch} at a time (Loop Over Items)`,
		[manualTrigger('Start', [0, 0]), companies, split, loop, invoices, splitInvoices],
		[
			['Start', 'Companies'],
			['Companies', 'Split Companies'],
			['Split Companies', 'Loop Over Items'],
			['Invoices', 'Split Invoices'],
			['Split Invoices', 'Loop Over Items'],
		],
	);
	// Output 0 is "done" (nothing follows), output 1 "loop".
	result.connections['Loop Over Items'] = {
		main: [[], [{ node: 'Invoices', type: 'main', index: 0 }]],
	};
	return result;
}
