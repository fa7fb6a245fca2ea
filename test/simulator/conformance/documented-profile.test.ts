import { SpendeskSimulator } from '../server';
import { DOCUMENTED_SCOPES } from '../profile';
import { api, err, request, token, tokenResponse } from './helpers';

/** The documented profile, rule by rule (docs/api.md#the-documented-profile). */
describe('documented profile (docs/api.md#the-documented-profile)', () => {
	let sim: SpendeskSimulator;
	let company: string;
	let org: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			profile: 'documented',
			seed: { companies: 3, sizes: { invoices: 5, settlements: 4, payables: 3 } },
		});
		await sim.start();
		company = await token(sim, sim.credentials.companyKey);
		org = await token(sim, sim.credentials.orgKey);
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('the specification profile stays the default', () => {
		expect(new SpendeskSimulator().profile).toBe('specification');
		expect(sim.profile).toBe('documented');
	});

	test('every seeded key holds the documented scopes and no experimental one', () => {
		const { orgKey, companyKey, orgKeyNoExperimental, oauthClient, companyKeys } = sim.credentials;
		for (const holder of [orgKey, companyKey, orgKeyNoExperimental, oauthClient])
			expect([...holder.scopes].sort()).toEqual([...DOCUMENTED_SCOPES].sort());
		expect(DOCUMENTED_SCOPES.some((s) => s.startsWith('experimental:'))).toBe(false);
		expect(Object.keys(companyKeys)).toEqual(['cmp_001', 'cmp_002', 'cmp_003']);
	});

	test('a company-level API key per company, each reaching its own company', async () => {
		// cmp_003, the last company, is seeded deactivated.
		for (const id of ['cmp_001', 'cmp_002']) {
			const key = sim.credentials.companyKeys[id];
			expect(key).toMatchObject({ level: 'company', companyId: id });
			const t = await token(sim, key);
			const res = await api(sim, t, '/v1/expense-categories');
			expect(res.status).toBe(200);
			expect(sim.log.at(-1)?.companyId).toBe(id);
		}
	});

	test('a company created later gets its company-level key too', async () => {
		const sim2 = new SpendeskSimulator({ profile: 'documented', seed: { companies: 1 } });
		const created = sim2.createCompany();
		expect(sim2.credentials.companyKeys[created.id]).toMatchObject({
			level: 'company',
			companyId: created.id,
		});
	});

	test('every /v2 call is 403 FORBIDDEN_ERROR without its experimental scope, for company and organisation keys', async () => {
		for (const [t, path] of [
			[company, '/v2/companies/cmp_001/invoices'],
			[company, '/v2/companies/cmp_001/intakes'],
			[org, '/v2/companies'],
			[org, '/v2/analytical-fields'],
			[company, '/v2/anything-else'],
		] as const) {
			const res = await api(sim, t, path, { companyId: t === org ? 'cmp_001' : undefined });
			expect(res.status).toBe(403);
			expect(err(res)).toMatchObject({ code: 'FORBIDDEN_ERROR', source: 'scope' });
		}
	});

	test('a /v2 call without a token is 401 AUTHENTICATION_ERROR', async () => {
		const res = await request(sim, '/v2/anything-else');
		expect(res.status).toBe(401);
		expect(err(res)).toMatchObject({ code: 'AUTHENTICATION_ERROR', source: 'authorization' });
	});

	test('an experimental scope granted to a key opens its /v2 endpoint (tokens issued after the grant)', async () => {
		const sim2 = new SpendeskSimulator({
			profile: 'documented',
			grantScopes: { 'sim-org-client': ['experimental:company:read'] },
		});
		await sim2.start();
		try {
			const o = await token(sim2, sim2.credentials.orgKey);
			expect((await api(sim2, o, '/v2/companies')).status).toBe(200);
			const c = await token(sim2, sim2.credentials.companyKey);
			expect((await api(sim2, c, '/v2/companies/cmp_001/invoices')).status).toBe(403);
			sim2.grantScopes('sim-company-client', ['experimental:invoice:read']);
			expect((await api(sim2, c, '/v2/companies/cmp_001/invoices')).status).toBe(403);
			const c2 = await token(sim2, sim2.credentials.companyKey);
			expect((await api(sim2, c2, '/v2/companies/cmp_001/invoices')).status).toBe(200);
		} finally {
			await sim2.stop();
		}
	});

	test('errors carry the documented codes, and source is a field name', async () => {
		const bad = await api(sim, company, '/v1/expense-categories?pageSize=31');
		expect(bad.status).toBe(400);
		expect(err(bad)).toMatchObject({
			code: 'BAD_REQUEST_INCORRECT_OR_MISSING_FIELD',
			source: 'pageSize',
		});
		const noCompany = await api(sim, org, '/v1/expense-categories');
		expect(noCompany.status).toBe(400);
		expect(err(noCompany)).toMatchObject({
			code: 'BAD_REQUEST_INCORRECT_OR_MISSING_FIELD',
			source: 'x-company-id',
		});
		const unauthenticated = await api(sim, 'not-a-token', '/v1/settlements');
		expect(err(unauthenticated)).toMatchObject({
			code: 'AUTHENTICATION_ERROR',
			source: 'authorization',
		});
		const missing = await api(sim, company, '/v1/users/usr_nobody');
		expect(missing.status).toBe(404);
		expect(err(missing)).toMatchObject({ code: 'NOT_FOUND', source: 'userId' });
		const scope = await api(sim, company, '/v1/accounts');
		expect(scope.status).toBe(403);
		expect(err(scope)).toMatchObject({
			code: 'FORBIDDEN_ERROR',
			detail: 'Missing scope: account:read',
		});
		sim.injectFault({ route: 'listSettlements', kind: 'status', status: 500 });
		const failed = await api(sim, company, '/v1/settlements');
		expect(failed.status).toBe(500);
		expect(err(failed).code).toBe('INTERNAL_SERVER_ERROR');
	});

	test('single objects of a GET come bare, without the data wrapper; lists and the wallet summary keep theirs', async () => {
		const user = sim.data('cmp_001').users[0];
		const one = await api(sim, company, `/v1/users/${user.id}`);
		expect(one.status).toBe(200);
		expect(one.body).toEqual(user);
		// The vendor's older document answers the wallet summary as {data, meta} (docs/api.md#response-shapes).
		const summary = await api(sim, company, '/v1/wallet-summary');
		expect(summary.body).toEqual({
			data: sim.data('cmp_001').walletSummary,
			meta: { pagination: { page: 1, pageSize: 1, total: 1 } },
		});
		const supplier = sim.data('cmp_001').suppliers[0];
		expect((await api(sim, company, `/v1/suppliers/${supplier.id}`)).body).toMatchObject({
			id: supplier.id,
		});
		const list = await api(sim, company, '/v1/users');
		expect(Array.isArray(list.body.data)).toBe(true);
		expect(list.body.meta.pagination).toMatchObject({ page: 1 });
	});

	test('rate limit: 50 requests a minute per company, x-ratelimit headers and no Retry-After on the 429', async () => {
		const sim2 = new SpendeskSimulator({ profile: 'documented', seed: { companies: 3 } });
		await sim2.start();
		try {
			expect(sim2.options).toMatchObject({ rateLimit: 50, maxInFlight: 5 });
			const t = await token(sim2, sim2.credentials.orgKey);
			for (let i = 0; i < 50; i++) {
				const res = await api(sim2, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
				expect(res.status).toBe(200);
				expect(res.headers.get('x-ratelimit-limit')).toBe('50');
			}
			const limited = await api(sim2, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
			expect(limited.status).toBe(429);
			expect(err(limited).code).toBe('TOO_MANY_REQUESTS');
			expect(limited.headers.get('retry-after')).toBeNull();
			expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
			expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
			// Another company has its own budget.
			expect((await api(sim2, t, '/v1/wallet-summary', { companyId: 'cmp_002' })).status).toBe(200);
		} finally {
			await sim2.stop();
		}
	});

	test('at most 5 requests in flight: the sixth is 429 TOO_MANY_REQUESTS', async () => {
		const sim2 = new SpendeskSimulator({ profile: 'documented', latencyMs: 150 });
		await sim2.start();
		try {
			const t = await token(sim2, sim2.credentials.companyKey);
			const answers = await Promise.all(
				Array.from({ length: 6 }, () => api(sim2, t, '/v1/wallet-summary')),
			);
			const statuses = answers.map((a) => a.status).sort();
			expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
			const refused = answers.find((a) => a.status === 429)!;
			expect(err(refused).code).toBe('TOO_MANY_REQUESTS');
			expect(refused.headers.get('retry-after')).toBeNull();
		} finally {
			await sim2.stop();
		}
	});

	test('options override the documented limits', async () => {
		const sim2 = new SpendeskSimulator({ profile: 'documented', rateLimit: 7, maxInFlight: 2 });
		expect(sim2.options).toMatchObject({ rateLimit: 7, maxInFlight: 2 });
	});

	test('the token endpoint works as in the specification profile', async () => {
		const res = await tokenResponse(sim, sim.credentials.companyKey);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
	});
});
