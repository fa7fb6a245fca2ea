/**
 * Integration tests of the pagination engine (nodes/Spendesk/transport/paginate.ts) against
 * the simulator, over real HTTP, for the five list styles of the API:
 * page (List settlements, Get companies), cursor (List invoices, List analytical field values),
 * offset (Get accounts), body cursor (Search payables) and snapshot (Get a payables snapshot).
 *
 * For every style and for the sizes 0, 1, exactly one page, one page + 1 and 2.5 pages, Return
 * All must give exactly the simulator's data (same ids, same order) in the fewest requests; with
 * a Limit it must give exactly the first N items in the fewest requests, never asking a page for
 * more than it still needs. Each size lives in its own company (or simulator for Get companies),
 * and request counts come from the simulator's request log.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { nameCalls } from '../../nodes/Spendesk/transport/callName';
import { ENDPOINTS } from '../../nodes/Spendesk/transport/endpoints';
import type { EndpointName } from '../../nodes/Spendesk/transport/endpoints';
import { collect, eachPage, paginate } from '../../nodes/Spendesk/transport/paginate';
import type { ListRequest } from '../../nodes/Spendesk/transport/paginate';
import type { SpendeskContext } from '../../nodes/Spendesk/transport/request';
import type {
	CompanySeed,
	DataSizes,
	LoggedRequest,
	RouteId,
	SpendeskSimulator,
} from '../simulator';
import { NO_DATA } from '../simulator';
import { searchRow } from '../simulator/routes';
import { payableDetail } from '../simulator/routes-reads';
import { contextFor, resetTransport, startSimulator, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { drainBounded } from '../support/lists';
import { ids } from '../support/values';

// ------------------------------------------------------------------------------------ helpers

type TestContext = Awaited<ReturnType<typeof contextFor>>['context'];

interface SizeCase {
	label: string;
	n: number;
	company: string;
}

/**
 * The five sizes of a style whose maximum page size is `max`, one company each. The largest
 * list is in cmp_001, the company of the simulator's company-level API key.
 */
function sizeCases(max: number): SizeCase[] {
	return [
		{ label: '2.5 pages', n: Math.ceil(2.5 * max), company: 'cmp_001' },
		{ label: 'empty', n: 0, company: 'cmp_002' },
		{ label: 'one item', n: 1, company: 'cmp_003' },
		{ label: 'exactly one page', n: max, company: 'cmp_004' },
		{ label: 'one page + 1', n: max + 1, company: 'cmp_005' },
	];
}

function companySeeds(cases: SizeCase[], sizes: (n: number) => Partial<DataSizes>): CompanySeed[] {
	return cases.map(({ company, n }) => ({ id: company, sizes: sizes(n) }));
}

/** The theoretical minimum number of requests to list n items, max per request (an empty list still takes one). */
function minimumRequests(n: number, max: number): number {
	return Math.max(1, Math.ceil(n / max));
}

/** Page sizes a Limit of n needs when each request may carry at most max: [max, max, …, rest]. */
function chunks(n: number, max: number): number[] {
	const out: number[] = [];
	for (let left = n; left > 0; left -= Math.min(max, left)) out.push(Math.min(max, left));
	return out;
}

const asContext = (context: TestContext) => context as unknown as SpendeskContext;

/** Drains a list with a fresh execution context; the request log holds only this drain afterwards. */
async function drain(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	name: EndpointName,
	request: ListRequest,
): Promise<IDataObject[]> {
	const { context } = await contextFor(sim, kind);
	sim.clearLog();
	return await collect(named(context, name), name, request);
}

/**
 * The context of a drain, its calls named as the node's run names them: the operation that
 * reads the endpoint, as the panel shows it (messages name it; transport/callName.ts).
 */
function named(context: TestContext, name: EndpointName): SpendeskContext {
	const ctx = asContext(context);
	nameCalls(ctx, ENDPOINTS[name].operations[0]);
	return ctx;
}

interface Exchange {
	url: string;
	qs?: IDataObject;
	status: number;
	body: IDataObject;
}

/** Records every API call the engine makes through n8n's helper (URL asked, and the answer). */
function recordExchanges(context: TestContext): Exchange[] {
	const exchanges: Exchange[] = [];
	const original = context.helpers.httpRequestWithAuthentication;
	context.helpers.httpRequestWithAuthentication = async function (
		this: unknown,
		type: string,
		options: IHttpRequestOptions,
	) {
		const response = (await original.call(this, type, options)) as {
			statusCode: number;
			body: IDataObject;
		};
		exchanges.push({
			url: options.url,
			qs: options.qs,
			status: response.statusCode,
			body: response.body,
		});
		return response;
	};
	return exchanges;
}

/**
 * drainBounded (test/support/lists.ts) with a fresh organisation-key context, giving up after
 * 10 pages by default; the request log holds only this drain afterwards.
 */
async function drainFresh(
	sim: SpendeskSimulator,
	name: EndpointName,
	request: ListRequest,
	maxPages = 10,
): Promise<{ error?: unknown; pages: number }> {
	const { context } = await contextFor(sim, 'orgKey');
	sim.clearLog();
	return await drainBounded(named(context, name), name, request, maxPages);
}

/** Every request of the drain reached the route successfully (no retries, no errors). */
function expectAllOk(requests: LoggedRequest[], status = 200) {
	expect(requests.map((r) => r.status)).toEqual(requests.map(() => status));
}

/**
 * Page-based Return All: pages 1, 2, … in order, every one asking the maximum page size.
 */
function expectFullPages(requests: LoggedRequest[], n: number, max: number) {
	expect(requests).toHaveLength(minimumRequests(n, max));
	byPage(requests).forEach((r, i) => {
		expect(Number(r.query.page ?? 1)).toBe(i + 1);
		expect(Number(r.query.pageSize ?? max)).toBe(max);
	});
}

/** Requests in page order: pages read ahead are asked concurrently and may arrive in any order. */
function byPage(requests: LoggedRequest[]): LoggedRequest[] {
	return [...requests].sort((a, b) => Number(a.query.page ?? 1) - Number(b.query.page ?? 1));
}

/**
 * Page-based list with a Limit of n: the fewest pages (ceil(n / max)), no item asked twice,
 * no gap, and no more asked than needed. Page arithmetic (page p of size s is items
 * (p-1)·s … p·s) forbids shrinking the last page to the exact rest in general, so "no more
 * than needed" here means: fewer than one surplus item per page, i.e. no more than the
 * smallest page size that reaches n in that many pages (Limit 45 → 2 pages of 23, not 30 + 30).
 */
function expectLimitedPages(requests: LoggedRequest[], n: number, max: number) {
	const pages = Math.ceil(n / max);
	expect(requests).toHaveLength(pages);
	let covered = 0;
	for (const r of byPage(requests)) {
		const page = Number(r.query.page ?? 1);
		const size = Number(r.query.pageSize ?? max);
		expect(size).toBeGreaterThanOrEqual(1);
		expect(size).toBeLessThanOrEqual(max);
		expect((page - 1) * size).toBe(covered);
		covered = page * size;
	}
	expect(covered).toBeGreaterThanOrEqual(n);
	expect(covered - n).toBeLessThan(pages);
}

/** Cursor requests of one drain: same sort and filters, limit as planned, cursor only after page 1, each cursor new. */
function expectCursorRequests(
	requests: LoggedRequest[],
	limits: number[],
	filters: Record<string, string>,
) {
	expect(requests.map((r) => Number(r.query.limit))).toEqual(limits);
	for (const r of requests)
		for (const [k, v] of Object.entries(filters)) expect(r.query[k]).toBe(v);
	expect(requests[0].query.cursor).toBeUndefined();
	const cursors = requests.slice(1).map((r) => r.query.cursor);
	for (const c of cursors) expect(typeof c === 'string' && c.length > 0).toBe(true);
	expect(new Set(cursors).size).toBe(cursors.length);
}

const bodyOf = (r: LoggedRequest) => (r.body ?? {}) as Record<string, unknown>;

/** Body cursor requests: limit as planned, filters unchanged, cursor only after the first, each cursor new. */
function expectBodyRequests(
	requests: LoggedRequest[],
	limits: number[],
	filters: Record<string, unknown> = {},
) {
	expect(requests.map((r) => bodyOf(r).limit)).toEqual(limits);
	for (const r of requests) {
		expect(r.method).toBe('POST');
		expect(r.query.limit).toBeUndefined();
		expect(r.query.cursor).toBeUndefined();
		expect(bodyOf(r)).toMatchObject(filters);
	}
	expect(bodyOf(requests[0]).cursor).toBeUndefined();
	const cursors = requests.slice(1).map((r) => bodyOf(r).cursor);
	for (const c of cursors) expect(typeof c === 'string' && c.length > 0).toBe(true);
	expect(new Set(cursors).size).toBe(cursors.length);
}

// ------------------------------------------------------------------------------- page style

describe('page style: List settlements (pageSize max 30)', () => {
	const MAX = 30;
	const cases = sizeCases(MAX);
	const SHRINKING = 'cmp_006';
	const THREE_PAGES = 'cmp_007';
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			seed: {
				sizes: NO_DATA,
				companies: [
					...companySeeds(cases, (n) => ({ settlements: n })),
					{ id: SHRINKING, sizes: { settlements: 45 } },
					{ id: THREE_PAGES, sizes: { settlements: 90 } },
				],
			},
		},
		(started) => (sim = started),
	);

	test.each(cases)(
		'Return All, $label ($n): exactly the settlements, in order, in the fewest pages',
		async ({ n, company }) => {
			const items = await drain(sim, 'orgKey', 'listSettlements', { company });
			expect(items).toHaveLength(n);
			expect(items).toEqual(sim.data(company).settlements);
			const requests = sim.requestsTo('listSettlements');
			expectAllOk(requests);
			expectFullPages(requests, n, MAX);
			for (const r of requests) expect(r.headers['x-company-id']).toBe(company);
		},
	);

	test('Return All with a company-level API key (no company named)', async () => {
		const items = await drain(sim, 'companyKey', 'listSettlements', {});
		expect(ids(items)).toEqual(ids(sim.data('cmp_001').settlements));
		const requests = sim.requestsTo('listSettlements');
		expectAllOk(requests);
		expectFullPages(requests, 75, MAX);
		for (const r of requests) {
			expect(r.clientId).toBe(sim.credentials.companyKey.clientId);
			expect(r.companyId).toBe('cmp_001');
		}
	});

	test.each([7, 30, 45])(
		'Limit %i: the first N settlements, fewest pages, nothing asked beyond need',
		async (limit) => {
			const items = await drain(sim, 'orgKey', 'listSettlements', { company: 'cmp_001', limit });
			expect(ids(items)).toEqual(ids(sim.data('cmp_001').settlements.slice(0, limit)));
			const requests = sim.requestsTo('listSettlements');
			expectAllOk(requests);
			expectLimitedPages(requests, limit, MAX);
		},
	);

	test('a 404 on a later page ends the list cleanly (items deleted between pages)', async () => {
		const { context } = await contextFor(sim, 'orgKey');
		const settlements = sim.data(SHRINKING).settlements;
		const firstPage = settlements.slice(0, 30);
		sim.clearLog();
		const pages: IDataObject[][] = [];
		for await (const page of paginate(asContext(context), 'listSettlements', {
			company: SHRINKING,
		})) {
			pages.push(page);
			// Page 1 said total 45; 15 settlements disappear before page 2 is asked: page 2 is now past the end.
			if (pages.length === 1) settlements.splice(30);
		}
		expect(ids(pages.flat())).toEqual(ids(firstPage));
		const requests = sim.requestsTo('listSettlements');
		expect(requests.map((r) => [r.query.page, r.status])).toEqual([
			['1', 200],
			['2', 404],
		]);
	});

	test('a 404 on a later page (total claims more) ends the list cleanly with the pages read', async () => {
		sim.injectFault({ route: 'listSettlements', kind: 'status', status: 404, after: 1 });
		const items = await drain(sim, 'orgKey', 'listSettlements', { company: 'cmp_001' });
		expect(ids(items)).toEqual(ids(sim.data('cmp_001').settlements.slice(0, 30)));
		// Page 3 (of the 3 that total 75 needs) was read ahead with page 2; what it held is not given.
		const requests = byPage(sim.requestsTo('listSettlements'));
		expect(requests.map((r) => [r.query.page, r.status])).toEqual([
			['1', 200],
			['2', 404],
			['3', 200],
		]);
	});

	test('a server serving fewer items a page than asked: pages go on until the total has arrived (docs/api.md#page-lists)', async () => {
		sim.injectFault({ route: 'listSettlements', kind: 'cappedPages', pageCap: 20, times: 100 });
		const items = await drain(sim, 'orgKey', 'listSettlements', { company: 'cmp_001' });
		expect(ids(items)).toEqual(ids(sim.data('cmp_001').settlements));
		const requests = byPage(sim.requestsTo('listSettlements'));
		expect(requests.map((r) => r.query.page)).toEqual(['1', '2', '3', '4']);
	});

	test('a last page repeating the previous one fails clearly instead of giving duplicates', async () => {
		sim.injectFault({ route: 'listSettlements', kind: 'repeatLastPage', times: 100 });
		await expect(drain(sim, 'orgKey', 'listSettlements', { company: THREE_PAGES })).rejects.toThrow(
			/^Spendesk sent the same items again for Settlement → Get Many:/,
		);
		expect(byPage(sim.requestsTo('listSettlements')).map((r) => r.query.page)).toEqual([
			'1',
			'2',
			'3',
		]);
	});

	test('a 404 on page 1 is an error naming the endpoint, and is not retried', async () => {
		sim.injectFault({ route: 'listSettlements', kind: 'status', status: 404 });
		await expect(drain(sim, 'orgKey', 'listSettlements', { company: 'cmp_001' })).rejects.toThrow(
			'Spendesk found nothing for Settlement → Get Many in company "cmp_001" (404)',
		);
		const requests = sim.requestsTo('listSettlements');
		expect(requests.map((r) => [r.query.page ?? '1', r.status])).toEqual([['1', 404]]);
	});
});

describe('page style: Get companies (pageSize max 30, organisation-level)', () => {
	const MAX = 30;
	const cases = sizeCases(MAX).map(({ label, n }) => ({ label, n }));
	beforeEach(() => resetTransport());

	test.each(cases)(
		'Return All, $label ($n active companies): exactly the companies, in order, in the fewest pages',
		async ({ n }) => {
			const sim = await startSimulator({
				seed: {
					sizes: NO_DATA,
					// No active company at all still needs one company for the seeded company key.
					companies: n === 0 ? [{ id: 'cmp_001', active: false }] : n,
					deactivated: [],
				},
			});
			try {
				const items = await drain(sim, 'orgKey', 'getCompanies', {});
				const active = sim.companies().filter((c) => c.active);
				expect(active).toHaveLength(n);
				expect(items).toEqual(active.map(({ id, name }) => ({ id, name })));
				const requests = sim.requestsTo('getCompanies');
				expectAllOk(requests);
				expectFullPages(requests, n, MAX);
				for (const r of requests) expect(r.headers['x-company-id']).toBeUndefined();
			} finally {
				await sim.stop();
			}
		},
	);
});

// ----------------------------------------------------------------------------- cursor style

describe('cursor style: List invoices (limit max 100)', () => {
	const MAX = 100;
	const cases = sizeCases(MAX);
	const SORT = { sortBy: 'updatedAt', sort: 'desc' } as const;
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			seed: { sizes: NO_DATA, companies: companySeeds(cases, (n) => ({ invoices: n })) },
		},
		(started) => (sim = started),
	);
	beforeEach(() => sim.configure({ nextUrlOrigin: undefined }));

	test('Return All with a company-level API key (company from the credential)', async () => {
		const items = await drain(sim, 'companyKey', 'listInvoices', { qs: { ...SORT } });
		expect(ids(items)).toEqual(ids(sim.invoicesSorted('cmp_001', SORT.sortBy, SORT.sort)));
		const requests = sim.requestsTo('listInvoices');
		expectAllOk(requests);
		expect(requests).toHaveLength(3);
		for (const r of requests) {
			expect(r.clientId).toBe(sim.credentials.companyKey.clientId);
			expect(r.path).toBe('/v2/companies/cmp_001/invoices');
		}
	});

	test('sortBy, sort and a status filter are identical on every page', async () => {
		const filters = { sortBy: 'createdAt', sort: 'asc', status: 'to_pay' } as const;
		const expected = sim
			.invoicesSorted('cmp_001', filters.sortBy, filters.sort)
			.filter((i) => i.status === filters.status);
		expect(expected.length).toBeGreaterThan(40);
		const items = await drain(sim, 'orgKey', 'listInvoices', {
			company: 'cmp_001',
			qs: { ...filters },
			pageSize: 20,
		});
		expect(items).toEqual(expected);
		const requests = sim.requestsTo('listInvoices');
		expectAllOk(requests);
		expect(requests).toHaveLength(Math.ceil(expected.length / 20));
		expectCursorRequests(
			requests,
			requests.map(() => 20),
			filters,
		);
	});

	test('with a cursor and a same-origin nextUrl, the next request asks exactly what the link names', async () => {
		const { context } = await contextFor(sim, 'orgKey');
		const exchanges = recordExchanges(context);
		sim.clearLog();
		const items = await collect(asContext(context), 'listInvoices', {
			company: 'cmp_001',
			qs: { ...SORT },
		});
		expect(ids(items)).toEqual(ids(sim.invoicesSorted('cmp_001', SORT.sortBy, SORT.sort)));
		const requests = sim.requestsTo('listInvoices');
		expect(requests).toHaveLength(3);
		expect(exchanges).toHaveLength(3);
		for (let i = 0; i < exchanges.length - 1; i++) {
			const pagination = (exchanges[i].body.meta as IDataObject).pagination as IDataObject;
			const nextUrl = new URL(String(pagination.nextUrl));
			expect(nextUrl.origin).toBe(sim.baseUrl);
			// On the wire: the link's path and every parameter of its query, the cursor included.
			expect(requests[i + 1].path).toBe(nextUrl.pathname);
			expect(requests[i + 1].query).toEqual(Object.fromEntries(nextUrl.searchParams));
			expect(requests[i + 1].query.cursor).toBe(pagination.nextCursor);
			expect(requests[i + 1].query).toMatchObject(SORT);
		}
	});

	test('a foreign-origin nextUrl is never requested: the drain goes on with nextCursor on the simulator', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'foreignNextUrl', times: 100 });
		const { context } = await contextFor(sim, 'orgKey');
		const exchanges = recordExchanges(context);
		sim.clearLog();
		const items = await collect(asContext(context), 'listInvoices', {
			company: 'cmp_001',
			qs: { ...SORT },
		});
		expect(ids(items)).toEqual(ids(sim.invoicesSorted('cmp_001', SORT.sortBy, SORT.sort)));
		const requests = sim.requestsTo('listInvoices');
		expectAllOk(requests);
		expect(requests).toHaveLength(3);
		expect(requests.every((r) => r.fault === 'foreignNextUrl')).toBe(true);
		expect(exchanges).toHaveLength(3);
		for (const e of exchanges) expect(new URL(e.url).origin).toBe(sim.baseUrl);
		for (let i = 0; i < exchanges.length - 1; i++) {
			const pagination = (exchanges[i].body.meta as IDataObject).pagination as IDataObject;
			expect(new URL(String(pagination.nextUrl)).origin).not.toBe(sim.baseUrl);
			expect(requests[i + 1].query.cursor).toBe(pagination.nextCursor);
			expect(requests[i + 1].query).toMatchObject(SORT);
		}
	});

	test('a nextUrl on another local server (same host, other port) never receives a request', async () => {
		const hits: string[] = [];
		const trap = http.createServer((req, res) => {
			hits.push(`${req.method} ${req.url} ${req.headers.authorization ? 'with credential' : ''}`);
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify({
					data: [],
					meta: { pagination: { hasNextPage: false, nextCursor: null, nextUrl: null } },
				}),
			);
		});
		await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
		try {
			sim.configure({ nextUrlOrigin: `http://127.0.0.1:${(trap.address() as AddressInfo).port}` });
			const items = await drain(sim, 'orgKey', 'listInvoices', {
				company: 'cmp_001',
				qs: { ...SORT },
			});
			expect(ids(items)).toEqual(ids(sim.invoicesSorted('cmp_001', SORT.sortBy, SORT.sort)));
			expect(hits).toEqual([]);
			const requests = sim.requestsTo('listInvoices');
			expectAllOk(requests);
			expect(requests).toHaveLength(3);
		} finally {
			sim.configure({ nextUrlOrigin: undefined });
			trap.closeAllConnections();
			await new Promise<void>((resolve) => trap.close(() => resolve()));
		}
	});

	test('injected empty pages (hasNextPage true) are followed through and the items stay exact', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'emptyPage', after: 1, times: 2 });
		const items = await drain(sim, 'orgKey', 'listInvoices', {
			company: 'cmp_001',
			qs: { ...SORT },
		});
		expect(items).toEqual(sim.invoicesSorted('cmp_001', SORT.sortBy, SORT.sort));
		const requests = sim.requestsTo('listInvoices');
		expectAllOk(requests);
		expect(requests.map((r) => r.fault)).toEqual([
			undefined,
			'emptyPage',
			'emptyPage',
			undefined,
			undefined,
		]);
		expectCursorRequests(
			requests,
			requests.map(() => MAX),
			SORT,
		);
	});

	test('hasNextPage true with only a same-origin nextUrl (no nextCursor): the link is followed to the end', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'noNextCursor', times: 100 });
		const items = await drain(sim, 'orgKey', 'listInvoices', {
			company: 'cmp_001',
			qs: { ...SORT },
		});
		expect(items).toEqual(sim.invoicesSorted('cmp_001', SORT.sortBy, SORT.sort));
		const requests = sim.requestsTo('listInvoices');
		expectAllOk(requests);
		expect(requests).toHaveLength(3);
	});

	test('hasNextPage true with no nextCursor and a nextUrl on another origin fails clearly (docs/api.md#cursor-lists)', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'noNextCursor', times: 100 });
		sim.configure({ nextUrlOrigin: 'http://evil.example.invalid' });
		try {
			await expect(
				drain(sim, 'orgKey', 'listInvoices', { company: 'cmp_001', qs: { ...SORT } }),
			).rejects.toThrow(/more pages follow for Invoice → Get Many but gave no cursor/);
			expect(sim.requestsTo('listInvoices')).toHaveLength(1);
		} finally {
			sim.configure({ nextUrlOrigin: undefined });
		}
	});

	test.each([
		{ label: 'the text "true", then "false"', more: 'true', last: ' False' },
		{ label: 'absent (nextCursor decides)', more: undefined, last: undefined },
	])('hasNextPage as $label: every invoice, once', async ({ more, last }) => {
		const path = 'meta.pagination.hasNextPage';
		sim.injectFault({ route: 'listInvoices', kind: 'setFields', set: { [path]: more }, times: 2 });
		sim.injectFault({ route: 'listInvoices', kind: 'setFields', set: { [path]: last }, after: 2 });
		const items = await drain(sim, 'orgKey', 'listInvoices', {
			company: 'cmp_001',
			qs: { ...SORT },
		});
		expect(items).toEqual(sim.invoicesSorted('cmp_001', SORT.sortBy, SORT.sort));
		expect(sim.requestsTo('listInvoices')).toHaveLength(3);
	});

	test('a hasNextPage the node cannot read (1) fails naming the endpoint, instead of a short list', async () => {
		sim.injectFault({
			route: 'listInvoices',
			kind: 'setFields',
			set: { 'meta.pagination.hasNextPage': 1 },
		});
		await expect(
			drain(sim, 'orgKey', 'listInvoices', { company: 'cmp_001', qs: { ...SORT } }),
		).rejects.toThrow(
			'Spendesk answered a hasNextPage the node cannot read for Invoice → Get Many (1)',
		);
		expect(sim.requestsTo('listInvoices')).toHaveLength(1);
	});
});

describe('cursor style: List analytical field values (limit max 1000, fieldId in the path)', () => {
	const MAX = 1000;
	const cases = sizeCases(MAX);
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			seed: {
				sizes: NO_DATA,
				companies: companySeeds(cases, (n) => ({ analyticalFields: 1, analyticalFieldValues: n })),
			},
		},
		(started) => (sim = started),
	);

	const fieldOf = (company: string) => sim.data(company).analyticalFields[0];

	test.each(cases)(
		'Return All, $label ($n): exactly the values, in order, in the fewest requests',
		async ({ n, company }) => {
			const field = fieldOf(company);
			const items = await drain(sim, 'orgKey', 'listAnalyticalFieldValues', {
				company,
				pathParams: { fieldId: field.id },
			});
			expect(items).toHaveLength(n);
			expect(items).toEqual(field.values);
			const requests = sim.requestsTo('listAnalyticalFieldValues');
			expectAllOk(requests);
			expect(requests).toHaveLength(minimumRequests(n, MAX));
			for (const r of requests) {
				expect(r.path).toBe(`/v2/analytical-fields/${field.id}/values`);
				expect(r.query.limit).toBe(String(MAX));
				expect(r.headers['x-company-id']).toBe(company);
			}
			expect(requests[0].query.cursor).toBeUndefined();
			for (const r of requests.slice(1)) expect(r.query.cursor).toBeTruthy();
		},
	);

	test.each([
		[7, [7]],
		[1000, [1000]],
		[1500, [1000, 500]],
	])('Limit %i: the first N values, asking limit=%j', async (limit, limits) => {
		const field = fieldOf('cmp_001');
		const items = await drain(sim, 'orgKey', 'listAnalyticalFieldValues', {
			company: 'cmp_001',
			pathParams: { fieldId: field.id },
			limit,
		});
		expect(ids(items)).toEqual(ids(field.values.slice(0, limit)));
		const requests = sim.requestsTo('listAnalyticalFieldValues');
		expectAllOk(requests);
		expect(limits).toEqual(chunks(limit, MAX));
		expect(requests.map((r) => Number(r.query.limit))).toEqual(limits);
	});
});

// ----------------------------------------------------------------------------- offset style

describe('offset style: Get accounts (fetch max 100)', () => {
	const MAX = 100;
	const cases = sizeCases(MAX);
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			seed: { sizes: NO_DATA, companies: companySeeds(cases, (n) => ({ accounts: n })) },
		},
		(started) => (sim = started),
	);
	beforeEach(() => sim.configure({ accountsMaxReturn: undefined }));
	afterEach(() => sim.configure({ accountsMaxReturn: undefined }));

	/** Offsets advance by what was received; the deprecated `limit` is never sent. */
	function expectOffsetRequests(logged: LoggedRequest[], fetches: number[], received: number[]) {
		// Pages read ahead are asked concurrently: they may arrive in any order.
		const requests = [...logged].sort(
			(a, b) => Number(a.query.offset ?? 0) - Number(b.query.offset ?? 0),
		);
		expect(requests.map((r) => Number(r.query.fetch))).toEqual(fetches);
		let offset = 0;
		requests.forEach((r, i) => {
			expect(Number(r.query.offset ?? 0)).toBe(offset);
			offset += received[i];
		});
		for (const r of requests) {
			expect(r.query.limit).toBeUndefined();
			expect(r.deprecatedLimit).not.toBe(true);
		}
	}

	test.each(cases)(
		'Return All, $label ($n): exactly the accounts, in order, in the fewest requests',
		async ({ n, company }) => {
			const items = await drain(sim, 'orgKey', 'getAccounts', { company });
			expect(items).toHaveLength(n);
			expect(items).toEqual(sim.data(company).accounts);
			const requests = sim.requestsTo('getAccounts');
			expectAllOk(requests);
			expect(requests).toHaveLength(minimumRequests(n, MAX));
			const received = n === 0 ? [0] : chunks(n, MAX);
			expectOffsetRequests(
				requests,
				requests.map(() => MAX),
				received,
			);
		},
	);

	test.each(cases)(
		'server returning at most 8 per response, $label ($n): advances by what it received, every account once, stops at totalResults',
		async ({ n, company }) => {
			sim.configure({ accountsMaxReturn: 8 });
			const items = await drain(sim, 'orgKey', 'getAccounts', { company });
			expect(items).toEqual(sim.data(company).accounts);
			expect(new Set(ids(items)).size).toBe(n);
			const requests = sim.requestsTo('getAccounts');
			expectAllOk(requests);
			expect(requests).toHaveLength(minimumRequests(n, 8));
			const received = n === 0 ? [0] : chunks(n, 8);
			expectOffsetRequests(
				requests,
				requests.map(() => MAX),
				received,
			);
		},
	);

	test.each([
		[7, [7]],
		[100, [100]],
		[150, [100, 50]],
	])('Limit %i: the first N accounts, asking fetch=%j', async (limit, fetches) => {
		const items = await drain(sim, 'orgKey', 'getAccounts', { company: 'cmp_001', limit });
		expect(ids(items)).toEqual(ids(sim.data('cmp_001').accounts.slice(0, limit)));
		const requests = sim.requestsTo('getAccounts');
		expectAllOk(requests);
		expect(fetches).toEqual(chunks(limit, MAX));
		expectOffsetRequests(requests, fetches, fetches);
	});

	test('pages that overlap (the server starts a few items early) give every account once', async () => {
		sim.injectFault({ route: 'getAccounts', kind: 'overlappingPages', overlap: 5, after: 1 });
		const items = await drain(sim, 'orgKey', 'getAccounts', { company: 'cmp_001' });
		expect(ids(items)).toEqual(ids(sim.data('cmp_001').accounts));
	});

	test('Limit 20 while the server returns at most 8: asks only for what is still needed (20, 12, 4)', async () => {
		sim.configure({ accountsMaxReturn: 8 });
		const items = await drain(sim, 'orgKey', 'getAccounts', { company: 'cmp_001', limit: 20 });
		expect(ids(items)).toEqual(ids(sim.data('cmp_001').accounts.slice(0, 20)));
		const requests = sim.requestsTo('getAccounts');
		expectAllOk(requests);
		expect(requests).toHaveLength(Math.ceil(20 / 8));
		expectOffsetRequests(requests, [20, 12, 4], [8, 8, 4]);
	});
});

// ------------------------------------------------------------------------ body cursor style

describe('body cursor style: Search payables (body limit max 100)', () => {
	const MAX = 100;
	const cases = sizeCases(MAX);
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			seed: { sizes: NO_DATA, companies: companySeeds(cases, (n) => ({ payables: n })) },
		},
		(started) => (sim = started),
	);

	test('a body filter stays the same on every request', async () => {
		const expected = sim
			.data('cmp_001')
			.payables.filter((p) => p.type !== 'creditNote')
			.map(searchRow);
		expect(expected.length).toBeGreaterThan(40);
		const types = [
			'expenseClaim',
			'invoicePurchase',
			'singlePurchaseCard',
			'subscriptionCard',
			'physicalCard',
			'mileageAllowance',
			'perDiemAllowance',
			'reverseBill',
		];
		const filters = {
			operator: 'and',
			subfilters: [{ field: 'type', operator: '=', value: types }],
		};
		const items = await drain(sim, 'orgKey', 'searchPayables', {
			company: 'cmp_001',
			body: { filters },
			pageSize: 20,
		});
		expect(items).toEqual(expected);
		const requests = sim.requestsTo('searchPayables');
		expectAllOk(requests);
		expect(requests).toHaveLength(Math.ceil(expected.length / 20));
		expectBodyRequests(
			requests,
			requests.map(() => 20),
			{ filters },
		);
	});

	test.each([
		{ kind: 'an object', value: { next: 'x' } },
		{ kind: 'boolean', value: true },
	])(
		'a nextCursor that is $kind fails naming the endpoint, instead of a silently short list',
		async ({ kind, value }) => {
			sim.injectFault({ route: 'searchPayables', kind: 'setFields', set: { nextCursor: value } });
			const { error } = await drainFresh(sim, 'searchPayables', { company: 'cmp_001' });
			expect((error as Error).message).toBe(
				`Spendesk answered a next-page cursor the node cannot send back for Payable → Get Many (${kind})`,
			);
			expect(sim.requestsTo('searchPayables')).toHaveLength(1);
		},
	);
});

// ------------------------------------------------------------------ both cursor styles

/** The cursor in the query (List invoices) or in the JSON body (Search payables), the five sizes of sizeCases(100). */
const CURSOR_STYLES = [
	{
		style: 'cursor',
		name: 'listInvoices' as const,
		sizes: (n: number) => ({ invoices: n }),
		request: { company: 'cmp_001', qs: { sortBy: 'updatedAt', sort: 'desc' } } as ListRequest,
		expected: (sim: SpendeskSimulator, company = 'cmp_001'): object[] =>
			sim.invoicesSorted(company, 'updatedAt', 'desc'),
		pathOf: (company: string) => `/v2/companies/${company}/invoices`,
		cursorOf: (r: LoggedRequest): unknown => r.query.cursor,
		expectRequests: (requests: LoggedRequest[], limits: number[]) =>
			expectCursorRequests(requests, limits, { sortBy: 'updatedAt', sort: 'desc' }),
		// Sent back as its text.
		numericCursor: expect.stringMatching(/^\d+$/),
		operation: 'Invoice → Get Many',
		call: 'GET /v2/companies/{companyId}/invoices',
	},
	{
		style: 'body cursor',
		name: 'searchPayables' as const,
		sizes: (n: number) => ({ payables: n }),
		request: { company: 'cmp_001' } as ListRequest,
		expected: (sim: SpendeskSimulator, company = 'cmp_001'): object[] =>
			sim.data(company).payables.map(searchRow),
		pathOf: () => '/v1/payables/search',
		cursorOf: (r: LoggedRequest): unknown => bodyOf(r).cursor,
		expectRequests: (requests: LoggedRequest[], limits: number[]) =>
			expectBodyRequests(requests, limits),
		// Sent back as the same number.
		numericCursor: expect.any(Number),
		operation: 'Payable → Get Many',
		call: 'POST /v1/payables/search',
	},
];

describe.each(CURSOR_STYLES)(
	'$style style: $name, pages of 100',
	({
		name,
		sizes,
		request,
		expected,
		pathOf,
		cursorOf,
		expectRequests,
		numericCursor,
		operation,
		call,
	}) => {
		let sim: SpendeskSimulator;
		const cases = sizeCases(100);
		simulatorPerSuite(
			{ seed: { sizes: NO_DATA, companies: companySeeds(cases, sizes) } },
			(started) => (sim = started),
		);

		test.each(cases)(
			'Return All, $label ($n): exactly the items, in order, in the fewest requests',
			async ({ n, company }) => {
				const items = await drain(sim, 'orgKey', name, { ...request, company });
				expect(items).toHaveLength(n);
				expect(items).toEqual(expected(sim, company));
				const requests = sim.requestsTo(name);
				expectAllOk(requests);
				expect(requests).toHaveLength(minimumRequests(n, 100));
				expectRequests(
					requests,
					requests.map(() => 100),
				);
				for (const r of requests) expect(r.path).toBe(pathOf(company));
			},
		);

		test.each([
			[7, [7]],
			[100, [100]],
			[150, [100, 50]],
		])('Limit %i: the first N items, asking limit=%j', async (limit, limits) => {
			const items = await drain(sim, 'orgKey', name, { ...request, limit });
			expect(ids(items)).toEqual(ids(expected(sim).slice(0, limit)));
			const requests = sim.requestsTo(name);
			expectAllOk(requests);
			expect(requests).toHaveLength(Math.ceil(limit / 100));
			expect(limits).toEqual(chunks(limit, 100));
			expectRequests(requests, limits);
		});

		test('a cursor repeated once (a server hiccup) is asked once more: exactly the items, none twice', async () => {
			expect(expected(sim).length).toBeGreaterThan(200);
			sim.injectFault({ route: name, kind: 'repeatCursor', after: 1 });
			const items = await drain(sim, 'orgKey', name, request);
			expect(items).toEqual(expected(sim));
			const cursors = sim.requestsTo(name).map(cursorOf);
			expect(cursors).toHaveLength(4);
			expect(cursors[2]).toBe(cursors[1]);
		});

		test('a repeating cursor makes the drain fail, naming the endpoint, after a bounded number of requests', async () => {
			sim.injectFault({ route: name, kind: 'repeatCursor', times: 1000 });
			const { error, pages } = await drainFresh(sim, name, request);
			expect(pages).toBeLessThan(10);
			expect(error).toBeInstanceOf(Error);
			expect((error as Error).message).toBe(
				`Spendesk sent the same page cursor twice for ${operation}`,
			);
			// What Spendesk support needs to know: the call, by its method and path.
			expect((error as { description?: string }).description).toContain(`naming the call ${call}`);
			const requests = sim.requestsTo(name);
			expect(requests.length).toBeGreaterThanOrEqual(2);
			expect(requests.length).toBeLessThanOrEqual(3);
		});

		test('a numeric nextCursor is sent back as it came: every item, once', async () => {
			sim.injectFault({ route: name, kind: 'numericCursor', times: 100 });
			const items = await drain(sim, 'orgKey', name, request);
			expect(items).toEqual(expected(sim));
			expect(sim.requestsTo(name).map(cursorOf)).toEqual([undefined, numericCursor, numericCursor]);
		});

		describe('each page asked only when the reader wants it', () => {
			async function freshContext(): Promise<SpendeskContext> {
				const { context } = await contextFor(sim, 'orgKey');
				sim.clearLog();
				return asContext(context);
			}

			test('a reader that stops after page 1: one request', async () => {
				const ctx = await freshContext();
				for await (const page of paginate(ctx, name, request)) {
					expect(page).toHaveLength(100);
					break;
				}
				expect(sim.requestsTo(name)).toHaveLength(1);
				expect(sim.stats.inFlight).toBe(0);
			});

			test('a Limit met by this page: no further page is asked', async () => {
				const items = await drain(sim, 'orgKey', name, { ...request, limit: 200 });
				expect(items).toEqual(expected(sim).slice(0, 200));
				expect(sim.requestsTo(name)).toHaveLength(2);
				expect(sim.stats.inFlight).toBe(0);
			});

			test('a reader that fails: no request outlives the list', async () => {
				const ctx = await freshContext();
				await expect(
					eachPage(ctx, name, request, () => {
						throw new Error('the reader failed');
					}),
				).rejects.toThrow('the reader failed');
				expect(sim.requestsTo(name)).toHaveLength(1);
				expect(sim.stats.inFlight).toBe(0);
			});

			test('an error on page 2 comes after page 1 was handed out', async () => {
				sim.injectFault({ route: name, kind: 'status', status: 400, after: 1 });
				const ctx = await freshContext();
				const pages: number[] = [];
				await expect(
					eachPage(ctx, name, request, (page) => {
						pages.push(page.length);
					}),
				).rejects.toThrow();
				expect(pages).toEqual([100]);
				expect(sim.requestsTo(name)).toHaveLength(2);
			});
		});
	},
);

// --------------------------------------------------------------------------- snapshot style

describe('snapshot style: Get a payables snapshot (result pages of max 30)', () => {
	const MAX = 30;
	const PENDING = 1;
	const cases = sizeCases(MAX);
	const TWELVE_HOURS_AND_MORE = 13 * 3600 * 1000;
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			snapshotPendingPolls: PENDING,
			seed: { sizes: NO_DATA, companies: companySeeds(cases, (n) => ({ payables: n })) },
		},
		(started) => (sim = started),
	);
	beforeEach(() => {
		sim.configure({ snapshotPendingPolls: PENDING });
		// The same filters reuse a snapshot for 12 h: start every test on a fresh one.
		sim.clock.advance(TWELVE_HOURS_AND_MORE);
	});

	const snapshotRoutes: RouteId[] = ['createPayablesSnapshot', 'getPayablesSnapshot'];

	/** One create, then `pending` polls of page 1, then the result pages (page 1 carried by the first COMPLETE poll). */
	function expectSnapshotRequests(pending: number, pages: number) {
		const creates = sim.requestsTo('createPayablesSnapshot');
		expect(creates).toHaveLength(1);
		expectAllOk(creates, 201);
		const gets = sim.requestsTo('getPayablesSnapshot');
		expectAllOk(gets);
		expect(gets).toHaveLength(pending + pages);
		for (const g of gets.slice(0, pending)) expect(Number(g.query.page ?? 1)).toBe(1);
		// Nothing but the snapshot calls (and the token) was requested.
		expect(sim.log.filter((r) => r.route !== 'token' && !snapshotRoutes.includes(r.route))).toEqual(
			[],
		);
		return gets.slice(pending);
	}

	test.each(cases)(
		'Return All, $label ($n): exactly the payables, one create + 1 pending poll + the fewest pages',
		async ({ n, company }) => {
			const items = await drain(sim, 'orgKey', 'getPayablesSnapshot', {
				company,
				snapshotPollMs: 1,
			});
			expect(items).toHaveLength(n);
			expect(items).toEqual(sim.data(company).payables.map(payableDetail));
			const pages = expectSnapshotRequests(PENDING, minimumRequests(n, MAX));
			expectFullPages(pages, n, MAX);
			for (const r of sim.log.filter((l) => snapshotRoutes.includes(l.route)))
				expect(r.headers['x-company-id']).toBe(company);
		},
	);

	test('with no pending poll (snapshot ready at once): one create + the fewest pages', async () => {
		sim.configure({ snapshotPendingPolls: 0 });
		const items = await drain(sim, 'orgKey', 'getPayablesSnapshot', {
			company: 'cmp_001',
			snapshotPollMs: 1,
		});
		expect(ids(items)).toEqual(ids(sim.data('cmp_001').payables));
		const pages = expectSnapshotRequests(0, 3);
		expectFullPages(pages, 75, MAX);
	});

	test.each([7, 30, 45])(
		'Limit %i: the first N payables, fewest pages, nothing asked beyond need',
		async (limit) => {
			const items = await drain(sim, 'orgKey', 'getPayablesSnapshot', {
				company: 'cmp_001',
				snapshotPollMs: 1,
				limit,
			});
			expect(ids(items)).toEqual(ids(sim.data('cmp_001').payables.slice(0, limit)));
			const pages = expectSnapshotRequests(PENDING, Math.ceil(limit / MAX));
			expectLimitedPages(pages, limit, MAX);
			const gets = sim.requestsTo('getPayablesSnapshot');
			for (const g of gets.slice(0, PENDING))
				expect(Number(g.query.pageSize ?? MAX)).toBeLessThanOrEqual(Math.min(MAX, limit));
		},
	);
});
