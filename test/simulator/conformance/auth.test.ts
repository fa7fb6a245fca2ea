import { SpendeskSimulator } from '../server';
import { api, basic, err, request, token, tokenResponse } from './helpers';

describe('authentication (docs/api.md#authentication): token endpoint and bearer tokens', () => {
	let sim: SpendeskSimulator;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 10 } } });
		await sim.start();
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('token: JSON body with client_credentials gives 200 Bearer token with expires_in 3600 by default', async () => {
		const res = await tokenResponse(sim, sim.credentials.orgKey);
		expect(res.status).toBe(200);
		expect(typeof res.body.access_token).toBe('string');
		expect(res.body.access_token.length).toBeGreaterThan(0);
		expect(res.body.token_type).toBe('Bearer');
		expect(res.body.expires_in).toBe(3600);
	});

	test("token: the answer lists the key's scopes in `scope`, space-separated, and the token holds those", async () => {
		const key = sim.credentials.companyKey;
		const res = await tokenResponse(sim, key);
		expect(res.body.scope).toBe(key.scopes.join(' '));
		const settlements = await api(sim, res.body.access_token, '/v1/settlements');
		expect(settlements.status).toBe(200);
	});

	test('token: a `scope` in the request restricts the token to the scopes the key holds', async () => {
		const res = await request(sim, '/v1/auth/token', {
			method: 'POST',
			authorization: basic(sim.credentials.companyKey),
			body: { grant_type: 'client_credentials', scope: 'user:read not-a-scope:read' },
		});
		expect(res.status).toBe(200);
		expect(res.body.scope).toBe('user:read');
		expect((await api(sim, res.body.access_token, '/v1/users')).status).toBe(200);
		const refused = await api(sim, res.body.access_token, '/v1/settlements');
		expect([refused.status, err(refused).code]).toEqual([403, 'insufficient_scope']);
	});

	test('token: with tokenAnswerScope false the answer has no `scope`', async () => {
		const bare = new SpendeskSimulator({ profile: 'documented', tokenAnswerScope: false });
		await bare.start();
		try {
			const res = await tokenResponse(bare, bare.credentials.companyKey);
			expect(res.status).toBe(200);
			expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
		} finally {
			await bare.stop();
		}
	});

	test('token: form-encoded grant_type=client_credentials is accepted and the token works', async () => {
		const res = await request(sim, '/v1/auth/token', {
			method: 'POST',
			authorization: basic(sim.credentials.orgKey),
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'grant_type=client_credentials',
		});
		expect(res.status).toBe(200);
		expect(res.body.token_type).toBe('Bearer');
		const companies = await api(sim, res.body.access_token, '/v2/companies');
		expect(companies.status).toBe(200);
	});

	test('token: wrong client secret is 401 invalid_client', async () => {
		const res = await tokenResponse(sim, {
			clientId: sim.credentials.orgKey.clientId,
			clientSecret: 'wrong',
		});
		expect(res.status).toBe(401);
		expect(err(res).code).toBe('invalid_client');
		expect(res.body.access_token).toBeUndefined();
	});

	test('token: unknown client id is 401 invalid_client', async () => {
		const res = await tokenResponse(sim, {
			clientId: 'nobody',
			clientSecret: sim.credentials.orgKey.clientSecret,
		});
		expect(res.status).toBe(401);
		expect(err(res).code).toBe('invalid_client');
	});

	test('token: missing Basic authorization header is 401 invalid_client', async () => {
		const res = await request(sim, '/v1/auth/token', {
			method: 'POST',
			body: { grant_type: 'client_credentials' },
		});
		expect(res.status).toBe(401);
		expect(err(res).code).toBe('invalid_client');
	});

	test('token: grant_type other than client_credentials is 400 unsupported_grant_type', async () => {
		const res = await request(sim, '/v1/auth/token', {
			method: 'POST',
			authorization: basic(sim.credentials.orgKey),
			body: { grant_type: 'password' },
		});
		expect(res.status).toBe(400);
		expect(err(res).code).toBe('unsupported_grant_type');
	});

	test('token: missing grant_type is 400 unsupported_grant_type', async () => {
		const res = await request(sim, '/v1/auth/token', {
			method: 'POST',
			authorization: basic(sim.credentials.orgKey),
			body: {},
		});
		expect(res.status).toBe(400);
		expect(err(res).code).toBe('unsupported_grant_type');
	});

	test('bearer: request without authorization is 401 unauthorized', async () => {
		const res = await request(sim, '/v1/wallet-summary', { companyId: 'cmp_001' });
		expect(res.status).toBe(401);
		expect(err(res).code).toBe('unauthorized');
	});

	test('bearer: unknown bearer token is 401 unauthorized', async () => {
		const res = await api(sim, 'not-a-token', '/v2/companies');
		expect(res.status).toBe(401);
		expect(err(res).code).toBe('unauthorized');
	});

	test('levels (docs/api.md#levels-and-company-placement): a token carries the level of its credential: organisation key reaches Get Companies, company key gets 403', async () => {
		const org = await api(sim, await token(sim, sim.credentials.orgKey), '/v2/companies');
		expect(org.status).toBe(200);
		expect(org.body.data.map((c: { id: string }) => c.id)).toEqual([
			'cmp_001',
			'cmp_002',
			'cmp_003',
			'cmp_004',
		]);
		const comp = await api(sim, await token(sim, sim.credentials.companyKey), '/v2/companies');
		expect(comp.status).toBe(403);
		expect(err(comp).detail).toBe('This endpoint requires an organisation-level token');
	});

	test('levels (docs/api.md#levels-and-company-placement): a company token reaches its own company without X-Company-Id', async () => {
		const t = await token(sim, sim.credentials.companyKey);
		const res = await api(sim, t, '/v1/wallet-summary');
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual(sim.data('cmp_001').walletSummary);
	});

	test('scopes (docs/api.md#scopes): a token holds only the scopes of its credential (registered key with the payables search scope only)', async () => {
		sim.addApiKey({
			clientId: 'k-payables-only',
			clientSecret: 'k-payables-secret',
			level: 'organisation',
			scopes: ['experimental:payable-search:read'],
		});
		const t = await token(sim, { clientId: 'k-payables-only', clientSecret: 'k-payables-secret' });
		const ok = await api(sim, t, '/v1/payables/search', {
			method: 'POST',
			companyId: 'cmp_001',
			body: { limit: 5 },
		});
		expect(ok.status).toBe(200);
		expect(ok.body.payables).toHaveLength(5);
		const refused = await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		expect(refused.status).toBe(403);
		expect(err(refused)).toMatchObject({
			code: 'insufficient_scope',
			detail: 'Missing scope: wallet-summary:read',
		});
	});

	test('sim.expireTokens() makes issued tokens 401 while a new token works', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		expect((await api(sim, t, '/v2/companies')).status).toBe(200);
		sim.expireTokens();
		const expired = await api(sim, t, '/v2/companies');
		expect(expired.status).toBe(401);
		expect(err(expired).code).toBe('unauthorized');
		const fresh = await token(sim, sim.credentials.orgKey);
		expect(fresh).not.toBe(t);
		expect((await api(sim, fresh, '/v2/companies')).status).toBe(200);
	});

	test('an access token is valid until its lifetime passes on the simulated clock, then 401', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		sim.clock.advance(3_590_000);
		expect((await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' })).status).toBe(200);
		sim.clock.advance(11_000);
		const res = await api(sim, t, '/v1/wallet-summary', { companyId: 'cmp_001' });
		expect(res.status).toBe(401);
		expect(err(res).code).toBe('unauthorized');
	});
});

describe('authentication (docs/api.md#authentication): configured token lifetime', () => {
	let sim: SpendeskSimulator;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ tokenLifetimeSeconds: 120, seed: { sizes: { invoices: 5 } } });
		await sim.start();
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('simulator: expires_in equals the configured tokenLifetimeSeconds', async () => {
		const res = await tokenResponse(sim, sim.credentials.companyKey);
		expect(res.status).toBe(200);
		expect(res.body.expires_in).toBe(120);
	});

	test('simulator: token of a 120 s lifetime is 401 after sim.clock.advance(121 s)', async () => {
		const t = await token(sim, sim.credentials.companyKey);
		expect((await api(sim, t, '/v1/wallet-summary')).status).toBe(200);
		sim.clock.advance(121_000);
		const res = await api(sim, t, '/v1/wallet-summary');
		expect(res.status).toBe(401);
		expect(err(res).code).toBe('unauthorized');
	});

	test('simulator: configure({tokenLifetimeSeconds}) changes expires_in of later tokens', async () => {
		sim.configure({ tokenLifetimeSeconds: 30 });
		const res = await tokenResponse(sim, sim.credentials.orgKey);
		expect(res.status).toBe(200);
		expect(res.body.expires_in).toBe(30);
	});
});

describe.each(['specification', 'documented'] as const)(
	'authentication (docs/api.md#authentication): a token request without a body (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		beforeAll(async () => {
			sim = new SpendeskSimulator({ profile, seed: { companies: 2, sizes: { invoices: 1 } } });
			await sim.start();
		});
		afterAll(async () => sim.stop());

		test('Basic authorization and no body is a client-credentials grant: 200 with a token that works', async () => {
			for (const headers of [{}, { 'content-type': 'application/json' }] as Array<
				Record<string, string>
			>) {
				const res = await request(sim, '/v1/auth/token', {
					method: 'POST',
					authorization: basic(sim.credentials.companyKey),
					headers,
				});
				expect(res.status).toBe(200);
				expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
				expect(sim.log.at(-1)).toMatchObject({ route: 'token', body: undefined, status: 200 });
				const used = await api(sim, res.body.access_token, '/v1/suppliers?pageSize=1');
				expect(used.status).toBe(200);
			}
			// Without a body the client still has to authenticate.
			const anonymous = await request(sim, '/v1/auth/token', { method: 'POST' });
			expect(anonymous.status).toBe(401);
		});
	},
);
