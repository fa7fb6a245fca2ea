import { SpendeskSimulator } from '../server';
import { api, err, ids, token } from './helpers';

describe('fault injection', () => {
	let sim: SpendeskSimulator;
	let org: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			seed: { sizes: { invoices: 30, accounts: 5, payables: 30, settlements: 5 } },
		});
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
	});
	afterAll(async () => {
		await sim.stop();
	});
	afterEach(() => {
		sim.clearFaults();
	});

	const wallet = (c = 'cmp_001') => api(sim, org, '/v1/wallet-summary', { companyId: c });

	test('simulator: status fault answers 503 with an error body for the next N requests, then recovers', async () => {
		sim.injectFault({ route: 'walletSummary', kind: 'status', status: 503, times: 2 });
		const a = await wallet();
		const b = await wallet();
		const c = await wallet();
		expect([a.status, b.status, c.status]).toEqual([503, 503, 200]);
		expect(Array.isArray(a.body.errors)).toBe(true);
		expect(c.body.data).toEqual(sim.data('cmp_001').walletSummary);
	});

	test('simulator: every answer carries a Date header from the simulated clock (errors too)', async () => {
		const ahead = new SpendeskSimulator({
			seed: { companies: 1, deactivated: [] },
			tokenLifetimeSeconds: 30 * 24 * 3600,
		});
		await ahead.start();
		try {
			const key = await token(ahead, ahead.credentials.orgKey);
			ahead.clock.advance(3 * 24 * 3_600_000);
			const ok = await api(ahead, key, '/v1/wallet-summary', { companyId: 'cmp_001' });
			ahead.injectFault({ route: 'walletSummary', kind: 'status', status: 503 });
			const failed = await api(ahead, key, '/v1/wallet-summary', { companyId: 'cmp_001' });
			expect([ok.status, failed.status]).toEqual([200, 503]);
			for (const res of [ok, failed]) {
				const date = Date.parse(res.headers.get('date') ?? '');
				expect(Math.abs(date - ahead.clock.now())).toBeLessThan(5_000);
				expect(date - Date.now()).toBeGreaterThan(2 * 24 * 3_600_000);
			}
		} finally {
			await ahead.stop();
		}
	});

	test('simulator: status fault defaults to 500 and one request', async () => {
		sim.injectFault({ route: 'walletSummary', kind: 'status' });
		const a = await wallet();
		const b = await wallet();
		expect(a.status).toBe(500);
		expect(Array.isArray(a.body.errors)).toBe(true);
		expect(b.status).toBe(200);
	});

	test('simulator: fault `after` lets that many matching requests pass first', async () => {
		sim.injectFault({ route: 'walletSummary', kind: 'status', status: 502, after: 2, times: 1 });
		const statuses: number[] = [];
		for (let i = 0; i < 4; i++) statuses.push((await wallet()).status);
		expect(statuses).toEqual([200, 200, 502, 200]);
	});

	test('simulator: a fault on one route leaves other routes alone', async () => {
		sim.injectFault({ route: 'listSettlements', kind: 'status', status: 503, times: 1 });
		expect((await wallet()).status).toBe(200);
		expect((await api(sim, org, '/v1/settlements', { companyId: 'cmp_001' })).status).toBe(503);
	});

	test('simulator: route * affects API routes but not the token endpoint', async () => {
		sim.injectFault({ route: '*', kind: 'status', status: 503, times: 1 });
		const t = await token(sim, sim.credentials.orgKey);
		expect(typeof t).toBe('string');
		const res = await api(sim, t, '/v2/companies');
		expect(res.status).toBe(503);
		expect((await api(sim, t, '/v2/companies')).status).toBe(200);
	});

	test('simulator: reset fault destroys the connection so fetch rejects; the next request works', async () => {
		sim.injectFault({ route: 'walletSummary', kind: 'reset' });
		await expect(wallet()).rejects.toThrow();
		const ok = await wallet();
		expect(ok.status).toBe(200);
	});

	test('simulator: latency fault delays the answer by latencyMs', async () => {
		sim.injectFault({ route: 'walletSummary', kind: 'latency', latencyMs: 400 });
		const t0 = Date.now();
		const res = await wallet();
		const elapsed = Date.now() - t0;
		expect(res.status).toBe(200);
		expect(elapsed).toBeGreaterThanOrEqual(390);
		const t1 = Date.now();
		await wallet();
		expect(Date.now() - t1).toBeLessThan(390);
	});

	test('simulator: latencyMs option delays every request', async () => {
		sim.configure({ latencyMs: 300 });
		try {
			const t0 = Date.now();
			const res = await wallet();
			expect(res.status).toBe(200);
			expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
		} finally {
			sim.configure({ latencyMs: 0 });
		}
	});

	test('simulator: rateLimit fault answers 429 rate_limit_exceeded with Retry-After = retryAfterSeconds', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'rateLimit', retryAfterSeconds: 7 });
		const res = await api(sim, org, '/v2/companies/cmp_001/invoices');
		expect(res.status).toBe(429);
		expect(err(res).code).toBe('rate_limit_exceeded');
		expect(res.headers.get('retry-after')).toBe('7');
		expect(res.headers.get('x-ratelimit-reset')).toBe('7');
		expect((await api(sim, org, '/v2/companies/cmp_001/invoices')).status).toBe(200);
	});

	test('simulator: repeatCursor fault sends back the request’s own cursor as nextCursor', async () => {
		const first = await api(sim, org, '/v2/companies/cmp_001/invoices?limit=5');
		const cursor = first.body.meta.pagination.nextCursor as string;
		sim.injectFault({ route: 'listInvoices', kind: 'repeatCursor' });
		const second = await api(
			sim,
			org,
			`/v2/companies/cmp_001/invoices?limit=5&cursor=${encodeURIComponent(cursor)}`,
		);
		expect(second.status).toBe(200);
		expect(second.body.meta.pagination.nextCursor).toBe(cursor);
		expect(ids(second.body.data)).toEqual(
			ids(sim.invoicesSorted('cmp_001', 'createdAt', 'asc')).slice(5, 10),
		);
	});

	test('simulator: repeatCursor fault on payables search repeats the body cursor', async () => {
		const first = await api(sim, org, '/v1/payables/search', {
			method: 'POST',
			companyId: 'cmp_001',
			body: { limit: 5 },
		});
		const cursor = first.body.nextCursor as string;
		expect(typeof cursor).toBe('string');
		sim.injectFault({ route: 'searchPayables', kind: 'repeatCursor' });
		const second = await api(sim, org, '/v1/payables/search', {
			method: 'POST',
			companyId: 'cmp_001',
			body: { limit: 5, cursor },
		});
		expect(second.status).toBe(200);
		expect(second.body.nextCursor).toBe(cursor);
	});

	test('simulator: foreignNextUrl fault puts nextUrl on http://evil.example.invalid', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'foreignNextUrl' });
		const res = await api(sim, org, '/v2/companies/cmp_001/invoices?limit=5');
		expect(res.status).toBe(200);
		expect(new URL(res.body.meta.pagination.nextUrl).origin).toBe('http://evil.example.invalid');
		expect(res.body.data).toHaveLength(5);
	});

	test('simulator: reroutingNextUrlOnly fault links to /v1/accounts and gives no nextCursor', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'reroutingNextUrlOnly' });
		const res = await api(sim, org, '/v2/companies/cmp_001/invoices?limit=5');
		expect(res.status).toBe(200);
		const { pagination } = res.body.meta;
		expect(pagination.hasNextPage).toBe(true);
		expect(pagination.nextCursor).toBeNull();
		const link = new URL(pagination.nextUrl);
		expect(link.origin + link.pathname).toBe(`${sim.baseUrl}/v1/accounts`);
		expect(link.searchParams.get('cursor')).toEqual(expect.any(String));
	});

	test('simulator: ignorePosition fault answers the first page again, with a fresh cursor (cursor lists)', async () => {
		const first = await api(sim, org, '/v2/companies/cmp_001/invoices?limit=5');
		const cursor = first.body.meta.pagination.nextCursor as string;
		sim.injectFault({ route: 'listInvoices', kind: 'ignorePosition' });
		const second = await api(
			sim,
			org,
			`/v2/companies/cmp_001/invoices?limit=5&cursor=${encodeURIComponent(cursor)}`,
		);
		expect(second.status).toBe(200);
		expect(ids(second.body.data)).toEqual(ids(first.body.data));
		expect(second.body.meta.pagination.hasNextPage).toBe(true);
		expect(second.body.meta.pagination.nextCursor).not.toBe(cursor);
	});

	test('simulator: ignorePosition fault answers offset 0 (accounts), the first cursor page (search) and page 1 (settlements)', async () => {
		sim.injectFault({ route: 'getAccounts', kind: 'ignorePosition' });
		const accounts = await api(sim, org, '/v1/accounts?offset=2&fetch=2', { companyId: 'cmp_001' });
		expect(ids(accounts.body.data)).toEqual(ids(sim.data('cmp_001').accounts.slice(0, 2)));

		const first = await api(sim, org, '/v1/payables/search', {
			method: 'POST',
			companyId: 'cmp_001',
			body: { limit: 5 },
		});
		sim.injectFault({ route: 'searchPayables', kind: 'ignorePosition' });
		const again = await api(sim, org, '/v1/payables/search', {
			method: 'POST',
			companyId: 'cmp_001',
			body: { limit: 5, cursor: first.body.nextCursor },
		});
		expect(ids(again.body.payables)).toEqual(ids(first.body.payables));
		expect(typeof again.body.nextCursor).toBe('string');

		sim.injectFault({ route: 'listSettlements', kind: 'ignorePosition' });
		const page2 = await api(sim, org, '/v1/settlements?page=2&pageSize=2', {
			companyId: 'cmp_001',
		});
		expect(ids(page2.body.data)).toEqual(ids(sim.data('cmp_001').settlements.slice(0, 2)));
		expect(page2.body.meta.pagination.page).toBe(2);
	});

	test('simulator: understatedTotal fault reports the given total (default one page) on page lists', async () => {
		sim.injectFault({ route: 'listSettlements', kind: 'understatedTotal', total: 1 });
		const res = await api(sim, org, '/v1/settlements?pageSize=2', { companyId: 'cmp_001' });
		expect(res.body.meta.pagination.total).toBe(1);
		expect(res.body.data).toHaveLength(2);
		sim.injectFault({ route: 'listSettlements', kind: 'understatedTotal' });
		expect(
			(await api(sim, org, '/v1/settlements?pageSize=2', { companyId: 'cmp_001' })).body.meta
				.pagination.total,
		).toBe(2);
	});

	test('simulator: redirect fault answers 307 (or `status`) with Location, also on the token endpoints', async () => {
		sim.injectFault({
			route: 'walletSummary',
			kind: 'redirect',
			location: 'http://127.0.0.1:9/collect?x=1',
		});
		const headers = { authorization: `Bearer ${org}`, 'x-company-id': 'cmp_001' };
		const moved = await fetch(`${sim.baseUrl}/v1/wallet-summary`, { headers, redirect: 'manual' });
		expect(moved.status).toBe(307);
		expect(moved.headers.get('location')).toBe('http://127.0.0.1:9/collect?x=1');
		sim.injectFault({ route: 'oauthTokenRefresh', kind: 'redirect', status: 308 });
		const refresh = await fetch(`${sim.baseUrl}/v1/oauth2/token/refresh`, {
			method: 'POST',
			redirect: 'manual',
		});
		expect(refresh.status).toBe(308);
		expect(refresh.headers.get('location')).toBe('http://redirect.example.invalid/');
		expect((await wallet()).status).toBe(200);
	});

	test('simulator: htmlBody fault answers 200 with an HTML page; noContent answers 204 without a body', async () => {
		sim.injectFault({ route: 'walletSummary', kind: 'htmlBody' });
		const html = await wallet();
		expect(html.status).toBe(200);
		expect(html.headers.get('content-type')).toMatch(/^text\/html/);
		expect(String(html.body)).toMatch(/^<!DOCTYPE html>/);
		sim.injectFault({ route: 'walletSummary', kind: 'noContent' });
		const empty = await wallet();
		expect(empty.status).toBe(204);
		expect(empty.body).toBeUndefined();
		expect((await wallet()).status).toBe(200);
	});

	test('simulator: spentBudget fault answers normally with x-ratelimit-remaining 0 and reset = retryAfterSeconds', async () => {
		sim.injectFault({ route: 'walletSummary', kind: 'spentBudget', retryAfterSeconds: 86_400 });
		const res = await wallet();
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual(sim.data('cmp_001').walletSummary);
		expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
		expect(res.headers.get('x-ratelimit-reset')).toBe('86400');
	});

	test('simulator: clearFaults removes pending faults', async () => {
		sim.injectFault({ route: 'walletSummary', kind: 'status', status: 503, times: 5 });
		sim.clearFaults();
		expect((await wallet()).status).toBe(200);
	});

	test('simulator: the log records which fault was applied', async () => {
		sim.clearLog();
		sim.injectFault({ route: 'walletSummary', kind: 'status', status: 503 });
		await wallet();
		await wallet();
		const logged = sim.requestsTo('walletSummary');
		expect(logged.map((l) => [l.status, l.fault])).toEqual([
			[503, 'status'],
			[200, undefined],
		]);
	});
});
