import { SpendeskSimulator } from '../server';
import { api, basic, ids, oauthLogin, oauthRefreshCall, request, token } from './helpers';

describe('request log', () => {
	let sim: SpendeskSimulator;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 5 } } });
		await sim.start();
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('simulator: log records method, path, query, route, status, clientId and companyId in arrival order', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		sim.clearLog();
		await api(sim, t, '/v2/companies/cmp_002/invoices?limit=2&sort=desc');
		await api(sim, t, '/v1/wallet-summary');
		await api(sim, t, '/nowhere');
		expect(sim.log).toHaveLength(3);
		const [a, b, c] = sim.log;
		expect(a).toMatchObject({
			method: 'GET',
			path: '/v2/companies/cmp_002/invoices',
			query: { limit: '2', sort: 'desc' },
			route: 'listInvoices',
			status: 200,
			clientId: 'sim-org-client',
			companyId: 'cmp_002',
		});
		expect(b).toMatchObject({ route: 'walletSummary', status: 400, path: '/v1/wallet-summary' });
		expect(c).toMatchObject({ route: 'notFound', status: 404 });
		expect(b.seq).toBeGreaterThan(a.seq);
		expect(c.seq).toBeGreaterThan(b.seq);
	});

	test('simulator: log entries of error answers carry the error code (which 429 it was); successes carry none', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		sim.clearLog();
		await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		await api(sim, t, '/v1/wallet-summary');
		sim.injectFault({ route: 'walletSummary', kind: 'rateLimit' });
		await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		sim.configure({ maxInFlight: 0 });
		try {
			await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		} finally {
			sim.configure({ maxInFlight: undefined });
		}
		expect(sim.log.map((l) => [l.status, l.errorCode])).toEqual([
			[200, undefined],
			[400, 'missing_company_id'],
			[429, 'rate_limit_exceeded'],
			[429, 'too_many_requests_in_flight'],
		]);
	});

	test('simulator: log entries carry the simulated clock time', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		sim.clearLog();
		sim.clock.advance(5_000_000);
		const before = sim.clock.now();
		await api(sim, await token(sim, sim.credentials.orgKey), '/v2/companies');
		const after = sim.clock.now();
		expect(t).toBeTruthy();
		const entry = sim.requestsTo('getCompanies')[0];
		expect(entry.at).toBeGreaterThanOrEqual(before);
		expect(entry.at).toBeLessThanOrEqual(after);
		expect(entry.at - Date.now()).toBeGreaterThan(4_900_000);
	});

	test('simulator: requestsTo filters by route and clearLog empties the log', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_003' });
		expect(sim.requestsTo('walletSummary').length).toBeGreaterThanOrEqual(2);
		expect(sim.requestsTo('walletSummary').every((l) => l.route === 'walletSummary')).toBe(true);
		sim.clearLog();
		expect(sim.log).toHaveLength(0);
		await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		expect(sim.requestsTo('walletSummary')).toHaveLength(1);
		expect(sim.requestsTo('getCompanies')).toHaveLength(0);
	});

	test('simulator: secrets are redacted — no client secret, access or refresh token appears in the log', async () => {
		sim.clearLog();
		const orgRes = await request(sim, '/v1/auth/token', {
			method: 'POST',
			authorization: basic(sim.credentials.orgKey),
			body: { grant_type: 'client_credentials' },
		});
		const compRes = await request(sim, '/v1/auth/token', {
			method: 'POST',
			authorization: basic(sim.credentials.companyKey),
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'grant_type=client_credentials',
		});
		await request(sim, '/v1/auth/token', {
			method: 'POST',
			authorization: basic({ clientId: 'sim-org-client', clientSecret: 'leaky-wrong-secret' }),
			body: { grant_type: 'client_credentials' },
		});
		const oauth = await oauthLogin(sim, { user: 'u_owner', consent: 'organisation' });
		const refreshed = await oauthRefreshCall(sim, oauth.refresh_token);
		await api(sim, orgRes.body.access_token, '/v2/companies');
		await api(sim, compRes.body.access_token, '/v1/wallet-summary');
		await api(sim, oauth.access_token, '/v2/companies');
		await api(sim, refreshed.body.access_token, '/v2/companies');
		const dump = JSON.stringify(sim.log);
		expect(sim.log.length).toBeGreaterThanOrEqual(9);
		for (const secret of [
			sim.credentials.orgKey.clientSecret,
			sim.credentials.companyKey.clientSecret,
			sim.credentials.oauthClient.clientSecret,
			'leaky-wrong-secret',
			basic(sim.credentials.orgKey).slice('Basic '.length),
			orgRes.body.access_token,
			compRes.body.access_token,
			oauth.access_token,
			oauth.refresh_token,
			refreshed.body.access_token,
			refreshed.body.refresh_token,
		]) {
			expect(typeof secret).toBe('string');
			expect(dump.includes(secret)).toBe(false);
		}
		// the scheme may be kept ('Bearer <redacted>'); the credential part must be replaced
		expect(sim.log.find((l) => l.route === 'getCompanies')!.headers.authorization).toMatch(
			/^(Bearer )?<redacted>$/,
		);
		expect(sim.log.find((l) => l.route === 'token')!.headers.authorization).toMatch(
			/^(Basic )?<redacted>$/,
		);
	});
});

describe('seed determinism', () => {
	const sims: SpendeskSimulator[] = [];
	afterAll(async () => {
		await Promise.all(sims.map((s) => s.stop()));
	});
	async function started(seed: number): Promise<SpendeskSimulator> {
		const s = new SpendeskSimulator({ seed: { seed, sizes: { invoices: 25 } } });
		await s.start();
		sims.push(s);
		return s;
	}

	test('simulator: two simulators with the same seed serve identical data', async () => {
		const a = await started(7);
		const b = await started(7);
		expect(a.companies()).toEqual(b.companies());
		expect(a.data('cmp_002')).toEqual(b.data('cmp_002'));
		const ta = await token(a, a.credentials.orgKey);
		const tb = await token(b, b.credentials.orgKey);
		const ra = await api(
			a,
			ta,
			'/v2/companies/cmp_002/invoices?limit=100&sortBy=updatedAt&sort=desc',
		);
		const rb = await api(
			b,
			tb,
			'/v2/companies/cmp_002/invoices?limit=100&sortBy=updatedAt&sort=desc',
		);
		expect(ra.status).toBe(200);
		expect(ra.body.data).toEqual(rb.body.data);
		expect(ra.body.data).toHaveLength(25);
	});

	test('simulator: a different seed gives different data', async () => {
		const a = await started(7);
		const c = await started(8);
		expect(a.data('cmp_001')).not.toEqual(c.data('cmp_001'));
		const ta = await token(a, a.credentials.orgKey);
		const tc = await token(c, c.credentials.orgKey);
		const ra = await api(a, ta, '/v2/companies/cmp_001/invoices?limit=100');
		const rc = await api(c, tc, '/v2/companies/cmp_001/invoices?limit=100');
		expect(ra.status).toBe(200);
		expect(rc.status).toBe(200);
		expect(ra.body.data).not.toEqual(rc.body.data);
	});

	test('simulator: the default seed has cmp_001…cmp_005 with cmp_005 deactivated and the documented users', async () => {
		const s = new SpendeskSimulator({ seed: { sizes: { invoices: 2 } } });
		await s.start();
		sims.push(s);
		expect(s.companies().map((c) => [c.id, c.active])).toEqual([
			['cmp_001', true],
			['cmp_002', true],
			['cmp_003', true],
			['cmp_004', true],
			['cmp_005', false],
		]);
		const users = Object.fromEntries(s.users().map((u) => [u.id, u]));
		expect(users.u_owner.companyIds).toEqual([
			'cmp_001',
			'cmp_002',
			'cmp_003',
			'cmp_004',
			'cmp_005',
		]);
		expect(users.u_admin.companyIds).toEqual(['cmp_001', 'cmp_002']);
		expect(users.u_requester).toMatchObject({ role: 'requester', companyIds: ['cmp_001'] });
		const t = await token(s, s.credentials.orgKey);
		const res = await api(s, t, '/v2/companies');
		expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([
			'cmp_001',
			'cmp_002',
			'cmp_003',
			'cmp_004',
		]);
	});

	test('simulator: default sizes per company (invoices 50, accounts 45, payables 45, settlements 45, 3 fields × 40 values, 25 categories, 5 intakes)', async () => {
		const s = new SpendeskSimulator();
		await s.start();
		sims.push(s);
		const d = s.data('cmp_003');
		expect(d.invoices).toHaveLength(50);
		expect(d.accounts).toHaveLength(45);
		expect(d.payables).toHaveLength(45);
		expect(d.settlements).toHaveLength(45);
		expect(d.analyticalFields).toHaveLength(3);
		expect(d.analyticalFields.every((f) => f.values.length === 40)).toBe(true);
		expect(d.expenseCategories).toHaveLength(25);
		expect(d.intakes).toHaveLength(5);
		const t = await token(s, s.credentials.orgKey);
		const res = await api(s, t, '/v1/settlements', { companyId: 'cmp_003' });
		expect(res.body.meta.pagination.total).toBe(45);
	});
});

describe('a company with 100,000 invoices', () => {
	let sim: SpendeskSimulator;

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			seed: {
				companies: [
					{ id: 'cmp_001', sizes: { invoices: 100_000 } },
					{ id: 'cmp_002', sizes: { invoices: 5 } },
				],
				sizes: { accounts: 2, payables: 2, settlements: 2 },
			},
		});
		await sim.start();
	}, 120_000);
	afterAll(async () => {
		await sim.stop();
	});

	test('simulator: seeding 100,000 invoices works and the first pages of a drain are right (updatedAt desc)', async () => {
		expect(sim.data('cmp_001').invoices).toHaveLength(100_000);
		const t = await token(sim, sim.credentials.orgKey);
		const expected = ids(sim.invoicesSorted('cmp_001', 'updatedAt', 'desc'));
		expect(expected).toHaveLength(100_000);
		expect(new Set(expected).size).toBe(100_000);
		const p1 = await api(
			sim,
			t,
			'/v2/companies/cmp_001/invoices?sortBy=updatedAt&sort=desc&limit=100',
		);
		expect(p1.status).toBe(200);
		expect(ids(p1.body.data)).toEqual(expected.slice(0, 100));
		const p2 = await api(sim, t, p1.body.meta.pagination.nextUrl);
		expect(ids(p2.body.data)).toEqual(expected.slice(100, 200));
		expect(p2.body.meta.pagination.hasNextPage).toBe(true);
		const p3 = await api(
			sim,
			t,
			`/v2/companies/cmp_001/invoices?sortBy=updatedAt&sort=desc&limit=100&cursor=${encodeURIComponent(
				p2.body.meta.pagination.nextCursor,
			)}`,
		);
		expect(ids(p3.body.data)).toEqual(expected.slice(200, 300));
	}, 60_000);

	test('simulator: with 100,000 invoices the last page of the drain (= first page of the reverse order) is right', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		const desc = ids(sim.invoicesSorted('cmp_001', 'updatedAt', 'desc'));
		const asc = ids(sim.invoicesSorted('cmp_001', 'updatedAt', 'asc'));
		expect(asc).toEqual([...desc].reverse());
		const res = await api(
			sim,
			t,
			'/v2/companies/cmp_001/invoices?sortBy=updatedAt&sort=asc&limit=100',
		);
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(asc.slice(0, 100));
		expect(ids(res.body.data).reverse()).toEqual(desc.slice(-100));
	}, 60_000);
});
