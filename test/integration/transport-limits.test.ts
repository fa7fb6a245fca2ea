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
import { contextFor, ctxFor, resetTransport, startSimulator, storeFor } from '../support/fixtures';

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
	beforeAll(async () => {
		sim = await startSimulator({ latencyMs: 30, maxInFlight: 5 });
	});
	afterAll(async () => sim.stop());
	beforeEach(() => {
		resetTransport();
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
