/**
 * Page and offset lists read ahead: once the first page gives the total, the pages still
 * needed are asked concurrently (nodes/Spendesk/transport/pagination/ahead.ts) within the
 * in-flight cap and the company's rate budget, and handed out in page order
 * (docs/api.md#page-lists, docs/api.md#offset-lists, docs/api.md#rate-limits).
 *
 * Against the simulator over real HTTP, with latency on every answer so that requests overlap:
 * the items must be exactly the simulator's, in order; the requests the fewest; the simulator's
 * own count of requests in flight shows the concurrency and its cap; a Limit, a 404 or a short
 * page past the end, a total that lies and a 429 in the middle keep their guarantees.
 */
import type { IDataObject } from 'n8n-workflow';
import { collect } from '../../nodes/Spendesk/transport/paginate';
import type { ListRequest } from '../../nodes/Spendesk/transport/paginate';
import type { EndpointName } from '../../nodes/Spendesk/transport/endpoints';
import type { SpendeskContext } from '../../nodes/Spendesk/transport/request';
import { NO_DATA } from '../simulator';
import type { LoggedRequest, SpendeskSimulator } from '../simulator';
import { contextFor, simulatorPerSuite } from '../support/fixtures';
import { apiRequests, runNode } from '../support/node';
import { ids } from '../support/values';

/** 20 pages of 30 settlements, 10 pages of 100 accounts, 20 snapshot pages of 30 payables. */
const BIG = 'cmp_001';
/** 75 settlements: 3 pages, the last one short. */
const SHORT_LAST = 'cmp_002';
/** Companies of the All Companies test: 5 pages of settlements each. */
const FAN_OUT = ['cmp_003', 'cmp_004', 'cmp_005', 'cmp_006', 'cmp_007', 'cmp_008'];

const LATENCY_MS = 30;

async function drain(
	sim: SpendeskSimulator,
	name: EndpointName,
	request: ListRequest,
): Promise<IDataObject[]> {
	const { context } = await contextFor(sim, 'orgKey');
	sim.clearLog();
	sim.resetStats();
	return await collect(context as unknown as SpendeskContext, name, request);
}

const pageOf = (r: LoggedRequest) => Number(r.query.page ?? 1);
const pagesAsked = (requests: LoggedRequest[]) => requests.map(pageOf).sort((a, b) => a - b);
const range = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('lists read ahead: page and offset lists fetched concurrently', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			latencyMs: LATENCY_MS,
			// Spendesk's cap: a sixth request in flight would be answered 429.
			maxInFlight: 5,
			seed: {
				sizes: NO_DATA,
				companies: [
					{ id: BIG, sizes: { settlements: 600, accounts: 1000, payables: 600 } },
					{ id: SHORT_LAST, sizes: { settlements: 75 } },
					...FAN_OUT.map((id) => ({ id, sizes: { settlements: 150 } })),
				],
			},
		},
		(started) => (sim = started),
	);
	beforeEach(() => sim.configure({ latencyMs: LATENCY_MS, snapshotPendingPolls: 0 }));

	test('a page list of 20 pages: every settlement once, in order, 20 requests, 5 in flight at most', async () => {
		// Page 2 answers last: the pages after it must still come out after it.
		sim.injectFault({ route: 'listSettlements', kind: 'latency', latencyMs: 200, after: 1 });
		const items = await drain(sim, 'listSettlements', { company: BIG });
		expect(ids(items)).toEqual(ids(sim.data(BIG).settlements));
		const requests = sim.requestsTo('listSettlements');
		expect(pagesAsked(requests)).toEqual(range(1, 20));
		expect(requests.every((r) => r.status === 200)).toBe(true);
		expect(sim.stats.peakInFlight).toBe(5);
	});

	test('an offset list of 10 pages: every account once, in order, 10 requests, concurrent', async () => {
		sim.injectFault({ route: 'getAccounts', kind: 'latency', latencyMs: 200, after: 1 });
		const items = await drain(sim, 'getAccounts', { company: BIG });
		expect(ids(items)).toEqual(ids(sim.data(BIG).accounts));
		const requests = sim.requestsTo('getAccounts');
		expect(requests.map((r) => Number(r.query.offset ?? 0)).sort((a, b) => a - b)).toEqual(
			range(0, 9).map((i) => i * 100),
		);
		expect(requests.every((r) => r.status === 200)).toBe(true);
		expect(sim.stats.peakInFlight).toBe(5);
	});

	test('snapshot result pages are read ahead the same way', async () => {
		const items = await drain(sim, 'getPayablesSnapshot', { company: BIG, snapshotPollMs: 1 });
		expect(ids(items)).toEqual(ids(sim.data(BIG).payables));
		const gets = sim.requestsTo('getPayablesSnapshot');
		expect(pagesAsked(gets)).toEqual(range(1, 20));
		expect(sim.requestsTo('createPayablesSnapshot')).toHaveLength(1);
		expect(sim.stats.peakInFlight).toBe(5);
	});

	test('a Limit: only the pages the Limit needs are asked, and the first N items come back', async () => {
		const items = await drain(sim, 'listSettlements', { company: BIG, limit: 95 });
		expect(ids(items)).toEqual(ids(sim.data(BIG).settlements.slice(0, 95)));
		const requests = sim.requestsTo('listSettlements');
		// 95 in pages of 24 (no page asks more than the Limit needs): 4 pages.
		expect(pagesAsked(requests)).toEqual([1, 2, 3, 4]);
		expect(requests.every((r) => r.query.pageSize === '24')).toBe(true);

		const accounts = await drain(sim, 'getAccounts', { company: BIG, limit: 250 });
		expect(ids(accounts)).toEqual(ids(sim.data(BIG).accounts.slice(0, 250)));
		expect(
			sim
				.requestsTo('getAccounts')
				.map((r) => [Number(r.query.offset ?? 0), Number(r.query.fetch)]),
		).toEqual(
			expect.arrayContaining([
				[0, 100],
				[100, 100],
				[200, 50],
			]),
		);
		expect(sim.requestsTo('getAccounts')).toHaveLength(3);
	});

	test('a short last page ends the list: 3 requests for 75 settlements', async () => {
		const items = await drain(sim, 'listSettlements', { company: SHORT_LAST });
		expect(ids(items)).toEqual(ids(sim.data(SHORT_LAST).settlements));
		expect(pagesAsked(sim.requestsTo('listSettlements'))).toEqual([1, 2, 3]);
	});

	test('a 404 in the middle ends the list with the pages before it, nothing after it', async () => {
		sim.injectFault({ route: 'listSettlements', kind: 'status', status: 404, after: 6 });
		const items = await drain(sim, 'listSettlements', { company: BIG });
		const requests = sim.requestsTo('listSettlements');
		const notFound = requests.filter((r) => r.status === 404).map(pageOf);
		expect(notFound).toHaveLength(1);
		// Items of the pages before the 404, in order; none of the pages read ahead after it.
		expect(ids(items)).toEqual(ids(sim.data(BIG).settlements.slice(0, (notFound[0] - 1) * 30)));
		// Read ahead at most the in-flight cap beyond the page that answered 404.
		expect(Math.max(...requests.map(pageOf))).toBeLessThanOrEqual(notFound[0] + 4);
	});

	test('a total above the truth: the pages past the end answer 404 and the list is exact', async () => {
		sim.injectFault({ route: 'listSettlements', kind: 'understatedTotal', total: 900, times: 100 });
		const items = await drain(sim, 'listSettlements', { company: BIG });
		expect(ids(items)).toEqual(ids(sim.data(BIG).settlements));
		const requests = sim.requestsTo('listSettlements');
		expect(
			requests
				.filter((r) => r.status === 200)
				.map(pageOf)
				.sort((a, b) => a - b),
		).toEqual(range(1, 20));
		const past = requests.filter((r) => r.status === 404).map(pageOf);
		expect(past.length).toBeGreaterThanOrEqual(1);
		expect(past.length).toBeLessThanOrEqual(5);
		expect(past.every((p) => p > 20)).toBe(true);
	});

	test.each([
		{ route: 'listSettlements', perPage: 30, pages: 20 },
		{ route: 'getAccounts', perPage: 100, pages: 10 },
	] as const)(
		'$route: a total of 1e12 plans no pages in memory: the list is exact, a window past its end',
		async ({ route, perPage, pages }) => {
			sim.injectFault({ route, kind: 'understatedTotal', total: 1e12, times: 100 });
			const items = await drain(sim, route, { company: BIG });
			const list = route === 'listSettlements' ? 'settlements' : 'accounts';
			expect(ids(items)).toEqual(ids(sim.data(BIG)[list]));
			expect(items).toHaveLength(perPage * pages);
			// The pages past the end are at most the in-flight cap read ahead.
			const requests = sim.requestsTo(route);
			expect(requests.length).toBeGreaterThan(pages);
			expect(requests.length).toBeLessThanOrEqual(pages + 5);
		},
	);

	test('a total below the truth is not believed once the pages prove it wrong: the list is exact', async () => {
		sim.injectFault({ route: 'listSettlements', kind: 'understatedTotal', total: 100, times: 100 });
		const items = await drain(sim, 'listSettlements', { company: BIG });
		expect(ids(items)).toEqual(ids(sim.data(BIG).settlements));
		const requests = sim.requestsTo('listSettlements');
		// Pages 2–4 read ahead on the total of page 1, then one by one until the end (page 21: 404).
		expect(pagesAsked(requests)).toEqual(range(1, 21));
		expect(requests.filter((r) => r.status === 404).map(pageOf)).toEqual([21]);
	});

	test('a 429 in the middle is waited out: every settlement once, in order, no error', async () => {
		sim.injectFault({
			route: 'listSettlements',
			kind: 'rateLimit',
			retryAfterSeconds: 1,
			after: 5,
		});
		const items = await drain(sim, 'listSettlements', { company: BIG });
		expect(ids(items)).toEqual(ids(sim.data(BIG).settlements));
		const requests = sim.requestsTo('listSettlements');
		expect(requests.filter((r) => r.status === 429)).toHaveLength(1);
		expect(
			requests
				.filter((r) => r.status === 200)
				.map(pageOf)
				.sort((a, b) => a - b),
		).toEqual(range(1, 20));
	});

	/** The 20 pages of settlements under `rateLimit` requests per window: exact, no 429, the fewest requests. */
	async function drainUnderRate(rateLimit: number, rateLimitWindowMs: number) {
		sim.configure({ rateLimit, rateLimitWindowMs, latencyMs: 5 });
		try {
			const items = await drain(sim, 'listSettlements', { company: BIG });
			expect(ids(items)).toEqual(ids(sim.data(BIG).settlements));
			const requests = sim.requestsTo('listSettlements');
			expect(requests.filter((r) => r.status !== 200)).toEqual([]);
			expect(pagesAsked(requests)).toEqual(range(1, 20));
			return requests;
		} finally {
			sim.configure({ rateLimit: 1_000, rateLimitWindowMs: 60_000 });
		}
	}

	test('a rate budget learned while pages are in flight is never overrun: no 429 on the wire', async () => {
		// 6 requests a second for this company: pages in flight when the first answer tells the
		// budget count as spent, so the drain waits for the window instead of meeting a 429.
		await drainUnderRate(6, 1_000);
	});

	test('offset pages that overlap: read ahead is given up and the list goes on from where it got to', async () => {
		sim.injectFault({ route: 'getAccounts', kind: 'overlappingPages', overlap: 5, after: 1 });
		const items = await drain(sim, 'getAccounts', { company: BIG });
		expect(ids(items)).toEqual(ids(sim.data(BIG).accounts));
	});

	test('All Companies × page lists: never more than 5 in flight, no 429, every settlement', async () => {
		sim.resetStats();
		const { out } = await runNode(
			sim,
			'orgKey',
			{ resource: 'settlement', operation: 'getAll', companies: 'all', returnAll: true },
			{},
		);
		const requests = apiRequests(sim).filter((r) => r.route === 'listSettlements');
		expect(requests.filter((r) => r.status !== 200)).toEqual([]);
		expect(sim.stats.peakInFlight).toBeLessThanOrEqual(5);
		expect(sim.stats.peakInFlight).toBeGreaterThan(1);
		for (const company of FAN_OUT) {
			expect(out.filter((o) => o.json.companyId === company).map((o) => o.json.id)).toEqual(
				ids(sim.data(company).settlements),
			);
			expect(pagesAsked(requests.filter((r) => r.headers['x-company-id'] === company))).toEqual(
				range(1, 5),
			);
		}
	});
});
