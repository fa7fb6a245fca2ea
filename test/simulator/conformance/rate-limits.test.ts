import { SpendeskSimulator } from '../server';
import { api, err, sleep, token, tokenResponse } from './helpers';

const sizes = { invoices: 3, accounts: 3, payables: 3, settlements: 3 };

describe('rate limits (docs/api.md#rate-limits): rateLimit 5 per minute', () => {
	let sim: SpendeskSimulator;

	beforeEach(async () => {
		sim = new SpendeskSimulator({ rateLimit: 5, rateLimitWindowMs: 60_000, seed: { sizes } });
		await sim.start();
	});
	afterEach(async () => {
		await sim.stop();
	});

	test('x-ratelimit-limit/remaining/reset headers are sent and remaining decreases', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		const remaining: number[] = [];
		for (let i = 0; i < 3; i++) {
			const res = await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
			expect(res.status).toBe(200);
			expect(res.headers.get('x-ratelimit-limit')).toBe('5');
			const reset = Number(res.headers.get('x-ratelimit-reset'));
			expect(Number.isInteger(reset)).toBe(true);
			expect(reset).toBeGreaterThan(0);
			expect(reset).toBeLessThanOrEqual(60);
			remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
		}
		expect(remaining).toEqual([4, 3, 2]);
	});

	test('a request over the limit is 429 rate_limit_exceeded with Retry-After', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		for (let i = 0; i < 5; i++) {
			expect((await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' })).status).toBe(200);
		}
		const res = await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		expect(res.status).toBe(429);
		expect(err(res).code).toBe('rate_limit_exceeded');
		const retry = Number(res.headers.get('retry-after'));
		expect(Number.isInteger(retry)).toBe(true);
		expect(retry).toBeGreaterThan(0);
		expect(retry).toBeLessThanOrEqual(60);
		expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
	});

	test('counted per company: another X-Company-Id has its own budget', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		for (let i = 0; i < 5; i++) await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		expect((await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' })).status).toBe(429);
		const other = await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_002' });
		expect(other.status).toBe(200);
		expect(other.headers.get('x-ratelimit-remaining')).toBe('4');
	});

	test('counted per company: the path company and header company share one budget per company', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		for (let i = 0; i < 3; i++) await api(sim, t, '/v2/companies/cmp_003/invoices');
		for (let i = 0; i < 2; i++) await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_003' });
		const over = await api(sim, t, '/v2/companies/cmp_003/invoices');
		expect(over.status).toBe(429);
		const fresh = await api(sim, t, '/v2/companies/cmp_004/invoices');
		expect(fresh.status).toBe(200);
		expect(fresh.headers.get('x-ratelimit-remaining')).toBe('4');
	});

	test('Get Companies is counted at organisation level, apart from company budgets', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		for (let i = 0; i < 5; i++) await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		expect((await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' })).status).toBe(429);
		const companies = await api(sim, t, '/v2/companies');
		expect(companies.status).toBe(200);
		expect(companies.headers.get('x-ratelimit-remaining')).toBe('4');
		for (let i = 0; i < 4; i++) await api(sim, t, '/v2/companies');
		const over = await api(sim, t, '/v2/companies');
		expect(over.status).toBe(429);
		expect((await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_002' })).status).toBe(200);
	});

	test('counted per credential: the company key has its own budget on the same company', async () => {
		const org = await token(sim, sim.credentials.orgKey);
		for (let i = 0; i < 5; i++) await api(sim, org, '/v1/wallet-summary', { companyId: 'cmp_001' });
		expect((await api(sim, org, '/v1/wallet-summary', { companyId: 'cmp_001' })).status).toBe(429);
		const comp = await token(sim, sim.credentials.companyKey);
		const res = await api(sim, comp, '/v1/wallet-summary');
		expect(res.status).toBe(200);
		expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
	});

	test('the token endpoint is not rate limited', async () => {
		for (let i = 0; i < 8; i++) {
			const res = await tokenResponse(sim, sim.credentials.orgKey);
			expect(res.status).toBe(200);
		}
	});

	test('simulator: configure({rateLimit}) changes the limit at runtime', async () => {
		sim.configure({ rateLimit: 2 });
		const t = await token(sim, sim.credentials.orgKey);
		const a = await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_002' });
		expect(a.headers.get('x-ratelimit-limit')).toBe('2');
		await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_002' });
		expect((await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_002' })).status).toBe(429);
	});
});

describe('rate limits (docs/api.md#rate-limits): window reset', () => {
	let sim: SpendeskSimulator;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ rateLimit: 3, rateLimitWindowMs: 1_000, seed: { sizes } });
		await sim.start();
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('a new window restores the budget', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		let last = await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		// loop a little longer than the limit in case a window boundary falls inside the burst
		for (let i = 0; i < 10 && last.status === 200; i++) {
			last = await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		}
		expect(last.status).toBe(429);
		await sleep(1_100);
		const after = await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		expect(after.status).toBe(200);
		expect(after.headers.get('x-ratelimit-remaining')).toBe('2');
	});
});

describe('rate limits (docs/api.md#rate-limits): requests in flight', () => {
	let sim: SpendeskSimulator;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes } });
		await sim.start();
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('with maxInFlight 2 and latency, 4 concurrent requests give 2 answers and 2 × 429 too_many_requests_in_flight', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		sim.configure({ maxInFlight: 2, latencyMs: 400 });
		sim.resetStats();
		try {
			const results = await Promise.all(
				['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004'].map((c) =>
					api(sim, t, '/v1/wallet-summary', { companyId: c }),
				),
			);
			const statuses = results.map((r) => r.status).sort();
			expect(statuses).toEqual([200, 200, 429, 429]);
			for (const r of results.filter((x) => x.status === 429)) {
				expect(err(r).code).toBe('too_many_requests_in_flight');
			}
			expect(sim.stats.peakInFlight).toBe(2);
			expect(sim.stats.inFlight).toBe(0);
		} finally {
			sim.configure({ maxInFlight: undefined, latencyMs: 0 });
		}
	});

	test('simulator: stats.peakInFlight counts concurrent requests without a cap', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		sim.configure({ latencyMs: 300, maxInFlight: 100 });
		sim.resetStats();
		try {
			const results = await Promise.all(
				[1, 2, 3].map(() => api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' })),
			);
			expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
			expect(sim.stats.peakInFlight).toBe(3);
		} finally {
			sim.configure({ latencyMs: 0 });
		}
	});
});
