/**
 * Transport core, limits: the proactive rate budget read from x-ratelimit-remaining /
 * x-ratelimit-reset (per company), and the cap on requests in flight. Statuses and peaks
 * come from the simulator; no test asserts timing.
 */
import { NodeApiError } from 'n8n-workflow';
import { collect } from '../../nodes/Spendesk/transport/paginate';
import { callSpendesk } from '../../nodes/Spendesk/transport/request';
import type { SpendeskContext } from '../../nodes/Spendesk/transport/request';
import type { SimulatorOptions, SpendeskSimulator } from '../simulator';
import {
	contextFor,
	ctxFor,
	resetTransport,
	startSimulator,
	storeFor,
	simulatorPerSuite,
} from '../support/fixtures';
import { eventually } from '../support/time';

describe('transport: proactive rate budget', () => {
	let sim: SpendeskSimulator;
	const start = async (options: SimulatorOptions) => {
		sim = await startSimulator(options);
	};
	beforeEach(() => resetTransport());
	afterEach(async () => sim?.stop());

	test('draining 8 pages with 5 requests per 2 s window makes ZERO 429 responses', async () => {
		await start({ rateLimit: 5, rateLimitWindowMs: 2000 });
		const ctx = await ctxFor(sim, 'orgKey');
		const items = await collect(ctx, 'listInvoices', { company: 'cmp_001', pageSize: 7 });
		expect(items.map((i) => i.id)).toEqual(sim.invoicesSorted('cmp_001').map((i) => i.id));
		const statuses = sim.requestsTo('listInvoices').map((r) => r.status);
		expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
		expect(sim.log.filter((r) => r.status === 429)).toHaveLength(0);
	});

	test('two companies drained at once each get their own budget: ZERO 429 responses', async () => {
		await start({ rateLimit: 5, rateLimitWindowMs: 2000 });
		const ctx = await ctxFor(sim, 'orgKey');
		const [a, b] = await Promise.all([
			collect(ctx, 'listInvoices', { company: 'cmp_001', pageSize: 7 }),
			collect(ctx, 'listInvoices', { company: 'cmp_002', pageSize: 7 }),
		]);
		expect(a.map((i) => i.id)).toEqual(sim.invoicesSorted('cmp_001').map((i) => i.id));
		expect(b.map((i) => i.id)).toEqual(sim.invoicesSorted('cmp_002').map((i) => i.id));
		for (const company of ['cmp_001', 'cmp_002']) {
			expect(
				sim
					.requestsTo('listInvoices')
					.filter((r) => r.companyId === company)
					.map((r) => r.status),
			).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
		}
		expect(sim.log.filter((r) => r.status === 429)).toHaveLength(0);
	});

	test('budgets are per company: one company exhausted (long window) does not hold back another', async () => {
		// A 60 s window with 5 requests: once cmp_001 has used its 5, the next call would have to
		// wait ~60 s, beyond maxWaitMs, so it is refused without being sent. cmp_002 still has its own 5.
		await start({ rateLimit: 5, rateLimitWindowMs: 60_000 });
		resetTransport({ maxWaitMs: 1000 });
		const ctx = await ctxFor(sim, 'orgKey');
		for (let i = 0; i < 5; i++)
			expect((await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' })).status).toBe(200);

		let error: unknown;
		try {
			await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' });
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).message).toBe(
			'Spendesk rate limit reached for company "cmp_001" and did not reset in time',
		);

		for (let i = 0; i < 5; i++)
			expect((await callSpendesk(ctx, 'walletSummary', { company: 'cmp_002' })).status).toBe(200);

		const log = sim.requestsTo('walletSummary');
		expect(log.filter((r) => r.companyId === 'cmp_001').map((r) => r.status)).toEqual([
			200, 200, 200, 200, 200,
		]);
		expect(log.filter((r) => r.companyId === 'cmp_002').map((r) => r.status)).toEqual([
			200, 200, 200, 200, 200,
		]);
		expect(sim.log.filter((r) => r.status === 429)).toHaveLength(0);
		expect(sim.requestsTo('token')).toHaveLength(1);
	});
});

describe('transport: requests in flight', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({ latencyMs: 30, maxInFlight: 5 }, (started) => (sim = started));
	beforeEach(() => {
		sim.clearLog();
		sim.resetStats();
	});

	const twentyCalls = async (ctx: SpendeskContext) => {
		const companies = ['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004'];
		const calls = Array.from({ length: 20 }, (_, i) => companies[i % 4]);
		return await Promise.all(
			calls.map(async (company) => await callSpendesk(ctx, 'walletSummary', { company })),
		);
	};

	test('twenty concurrent calls across 4 companies: at most 5 in flight and no 429', async () => {
		const ctx = await ctxFor(sim, 'orgKey');
		const results = await twentyCalls(ctx);
		expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
		expect(sim.stats.peakInFlight).toBeLessThanOrEqual(5);
		expect(sim.stats.peakInFlight).toBeGreaterThan(1);
		expect(sim.log.filter((r) => r.status === 429)).toHaveLength(0);
		expect(sim.requestsTo('walletSummary')).toHaveLength(20);
		expect(sim.requestsTo('token')).toHaveLength(1);
	});

	test('with maxInFlight 2: at most 2 in flight and no 429', async () => {
		resetTransport({ maxInFlight: 2 });
		const ctx = await ctxFor(sim, 'orgKey');
		const results = await twentyCalls(ctx);
		expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
		expect(sim.stats.peakInFlight).toBeLessThanOrEqual(2);
		expect(sim.log.filter((r) => r.status === 429)).toHaveLength(0);
		expect(sim.requestsTo('walletSummary')).toHaveLength(20);
	});

	test('the cap holds across several executions sharing the credential', async () => {
		const store = await storeFor(sim, 'orgKey');
		const contexts = await Promise.all(
			[1, 2, 3, 4].map(
				async () =>
					(await contextFor(sim, 'orgKey', { store })).context as unknown as SpendeskContext,
			),
		);
		const results = await Promise.all(contexts.map(async (ctx) => await twentyCalls(ctx)));
		expect(results.flat()).toHaveLength(80);
		expect(sim.stats.peakInFlight).toBeLessThanOrEqual(5);
		expect(sim.log.filter((r) => r.status === 429)).toHaveLength(0);
		expect(sim.requestsTo('token')).toHaveLength(1);
	});
});

/**
 * Another n8n process (a queue-mode worker) uses the same consumer: Spendesk refuses a request
 * over its 5 in flight with a 429 that does not say the rate budget is spent. The process then
 * takes fewer slots, and takes them back once the refusals stop (docs/api.md#rate-limits).
 */
describe('transport: slots shared with another process', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({ latencyMs: 30 }, (started) => (sim = started));
	beforeEach(() => {
		sim.clearLog();
		sim.resetStats();
	});

	const calls = async (ctx: SpendeskContext, count: number) => {
		const companies = ['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004'];
		return await Promise.all(
			Array.from(
				{ length: count },
				async (_, i) => await callSpendesk(ctx, 'walletSummary', { company: companies[i % 4] }),
			),
		);
	};
	/** The most requests in flight at the simulator during `count` calls (log and stats cleared first). */
	const peakOf = async (ctx: SpendeskContext, count: number) => {
		sim.clearLog();
		sim.resetStats();
		await calls(ctx, count);
		return sim.stats.peakInFlight;
	};
	const refused = () =>
		sim.requestsTo('walletSummary').filter((r) => r.errorCode === 'too_many_requests_in_flight');

	test('with 3 of the 5 slots taken elsewhere, the node keeps to the 2 left after the first refusals', async () => {
		// The other process holds 3 of Spendesk's 5 slots: the simulator takes 2 from this one.
		sim.configure({ maxInFlight: 2 });
		const ctx = await ctxFor(sim, 'orgKey');
		sim.clearLog();
		const results = await calls(ctx, 40);
		expect(results.map((r) => r.status)).toEqual(Array(40).fill(200));
		expect(sim.requestsTo('walletSummary').filter((r) => r.status === 200)).toHaveLength(40);
		// The first burst of 5 meets 3 refusals; after that, one probe of a third slot every 10
		// answers at most (40 answers: 4 probes). Page after page at 5 in flight would meet
		// about 3 refusals in every burst.
		expect(refused().length).toBeGreaterThanOrEqual(3);
		expect(refused().length).toBeLessThanOrEqual(3 + 4);
		expect(
			sim.requestsTo('walletSummary').filter((r) => r.errorCode === 'rate_limit_exceeded'),
		).toEqual([]);
	});

	test('once Spendesk accepts 5 again, the node takes its 5 slots back, step by step', async () => {
		sim.configure({ maxInFlight: 2 });
		const ctx = await ctxFor(sim, 'orgKey');
		await calls(ctx, 20);
		expect(refused().length).toBeGreaterThan(0);
		sim.configure({ maxInFlight: 5 });
		// 10 answers without a refusal give back one slot: from 2 to 5 in 30 answers.
		expect(await peakOf(ctx, 20)).toBeLessThan(5);
		await calls(ctx, 40);
		expect(sim.stats.peakInFlight).toBe(5);
		expect(sim.log.filter((r) => r.status === 429)).toEqual([]);
	});

	test('a 429 for the rate (x-ratelimit-remaining 0) does not lower the in-flight cap', async () => {
		sim.configure({ maxInFlight: 5 });
		const ctx = await ctxFor(sim, 'orgKey');
		sim.injectFault({ route: 'walletSummary', kind: 'rateLimit', retryAfterSeconds: 1, times: 1 });
		await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' });
		expect(await peakOf(ctx, 20)).toBe(5);
		expect(sim.log.filter((r) => r.status === 429)).toEqual([]);
	});

	test("a refusal for crowding holds back only the refused request, not the company's other calls", async () => {
		// Spendesk's only slot is held by another consumer (another credential) for 600 ms.
		sim.configure({ maxInFlight: 1 });
		const other = await ctxFor(sim, 'oauthOrg');
		const ctx = await ctxFor(sim, 'orgKey');
		await callSpendesk(other, 'walletSummary', { company: 'cmp_002' });
		await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' });
		sim.clearLog();
		sim.injectFault({ route: 'walletSummary', kind: 'latency', latencyMs: 600, times: 1 });
		const held = callSpendesk(other, 'walletSummary', { company: 'cmp_002' });
		expect(await eventually(() => sim.stats.inFlight === 1)).toBe(true);
		const refusedCall = callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' });
		expect(await eventually(() => refused().length === 1)).toBe(true);
		// Another call of the same company goes out at once (and meets the held slot too): the
		// refusal did not mark the company's rate budget spent, which would have held it back
		// until after the 600 ms.
		const next = callSpendesk(ctx, 'listSettlements', { company: 'cmp_001' });
		await Promise.all([held, refusedCall, next]);
		expect(sim.requestsTo('listSettlements').map((r) => r.status)).toEqual([429, 200]);
		// The held call, the refusal and its retry (logged as each answer ends).
		expect(
			sim
				.requestsTo('walletSummary')
				.map((r) => r.status)
				.sort(),
		).toEqual([200, 200, 429]);
	});
});
