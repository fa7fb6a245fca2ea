import { SpendeskSimulator } from '../server';
/**
 * OAuth2 as the simulator serves it (docs/api.md#oauth2), through the documented contract:
 * consent by role and level, the code exchange, rotating refreshes, and what the tokens reach.
 * The contract's details (bodies, statuses, lifetimes) are in oauth2-documented.test.ts.
 */
import {
	api,
	authorize,
	clientQuery,
	err,
	oauthLogin,
	oauthRefreshCall,
	oauthTokenCall,
	REDIRECT_URI,
} from './helpers';

describe('OAuth2 authorization code with PKCE (docs/api.md#oauth2)', () => {
	let sim: SpendeskSimulator;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 12 } } });
		await sim.start();
		sim.addUser({
			id: 'u_controller',
			name: 'Controller',
			role: 'controller',
			companyIds: ['cmp_002', 'cmp_003'],
		});
		sim.addUser({ id: 'u_lonely', name: 'Lonely', role: 'admin', companyIds: ['cmp_005'] });
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('authorize redirects 302 to redirect_uri with code and the same state', async () => {
		const a = await authorize(sim, { user: 'u_owner', consent: 'organisation', state: 'xyz-42' });
		expect(a.status).toBe(302);
		expect(a.location).not.toBeNull();
		expect(`${a.location!.origin}${a.location!.pathname}`).toBe(REDIRECT_URI);
		expect(a.location!.searchParams.get('state')).toBe('xyz-42');
		expect(a.location!.searchParams.get('code')).toBeTruthy();
	});

	test('the code exchange with the S256 verifier gives access and refresh tokens', async () => {
		const a = await authorize(sim, { user: 'u_owner', consent: 'organisation' });
		// the helper sends code_challenge = base64url(sha256(verifier)), method S256
		const code = a.location!.searchParams.get('code')!;
		const res = await oauthTokenCall(sim, {
			grant_type: 'authorization_code',
			code,
			redirect_uri: REDIRECT_URI,
			code_verifier: a.verifier,
		});
		expect(res.status).toBe(201);
		expect(res.body.token_type).toBe('Bearer');
		expect(typeof res.body.access_token).toBe('string');
		expect(typeof res.body.refresh_token).toBe('string');
		expect(res.body.expires_in).toBeUndefined();
		const companies = await api(sim, res.body.access_token, '/v2/companies');
		expect(companies.status).toBe(200);
	});

	test('a wrong code_verifier is 400 invalid_grant', async () => {
		const a = await authorize(sim, { user: 'u_owner', consent: 'organisation' });
		const res = await oauthTokenCall(sim, {
			grant_type: 'authorization_code',
			code: a.location!.searchParams.get('code')!,
			redirect_uri: REDIRECT_URI,
			code_verifier: a.verifier + 'x',
		});
		expect(res.status).toBe(400);
		expect(err(res).code).toBe('invalid_grant');
		expect(res.body.access_token).toBeUndefined();
	});

	test('an authorization code cannot be used twice (400 invalid_grant)', async () => {
		const a = await authorize(sim, { user: 'u_owner', consent: 'organisation' });
		const params = {
			grant_type: 'authorization_code',
			code: a.location!.searchParams.get('code')!,
			redirect_uri: REDIRECT_URI,
			code_verifier: a.verifier,
		};
		expect((await oauthTokenCall(sim, params)).status).toBe(201);
		const again = await oauthTokenCall(sim, params);
		expect(again.status).toBe(400);
		expect(err(again).code).toBe('invalid_grant');
	});

	test('authorize without code_challenge is 400', async () => {
		const a = await authorize(sim, { user: 'u_owner', consent: 'organisation', challenge: '' });
		expect(a.status).toBe(400);
	});

	test('authorize with code_challenge_method plain is 400', async () => {
		const a = await authorize(sim, { user: 'u_owner', consent: 'organisation', method: 'plain' });
		expect(a.status).toBe(400);
	});

	test('authorize with an unknown client is 400', async () => {
		const a = await authorize(sim, { user: 'u_owner', clientId: 'unknown-client' });
		expect(a.status).toBe(400);
	});

	test('refresh rotates: new tokens work, the old refresh token is refused with invalid_grant', async () => {
		const first = await oauthLogin(sim, { user: 'u_owner', consent: 'organisation' });
		const refreshed = await oauthRefreshCall(sim, first.refresh_token);
		expect(refreshed.status).toBe(200);
		expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
		expect(refreshed.body.access_token).not.toBe(first.access_token);
		const old = await oauthRefreshCall(sim, first.refresh_token);
		expect(old.status).toBe(400);
		expect(err(old).code).toBe('invalid_grant');
		const next = await oauthRefreshCall(sim, refreshed.body.refresh_token);
		expect(next.status).toBe(200);
	});

	test.each([
		['no query at all', {}, 'query.client_id'],
		['client_id only', { client_id: 'sim-oauth-client' }, 'query.client_secret'],
		['client_secret only', { client_secret: 'x' }, 'query.client_id'],
	])('real-world: a refresh with %s is 400 with the API error body', async (_, query, source) => {
		const first = await oauthLogin(sim, { user: 'u_owner', consent: 'organisation' });
		const res = await oauthRefreshCall(sim, first.refresh_token, query);
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual([
			{ code: 'invalid_request', detail: expect.stringContaining('query parameter'), source },
		]);
		// The refused refresh did not use up the refresh token.
		expect((await oauthRefreshCall(sim, first.refresh_token)).status).toBe(200);
	});

	test('real-world: a refresh whose query names a wrong client secret is 401 invalid_client', async () => {
		const first = await oauthLogin(sim, { user: 'u_owner', consent: 'organisation' });
		const res = await oauthRefreshCall(sim, first.refresh_token, {
			...clientQuery(sim),
			client_secret: 'not-the-secret',
		});
		expect(res.status).toBe(401);
		expect(err(res).code).toBe('invalid_client');
		expect(JSON.stringify(res.body)).not.toContain('access_token');
	});

	test('the refreshed successor of an organisation OAuth2 token is organisation-level', async () => {
		const first = await oauthLogin(sim, { user: 'u_owner', consent: 'organisation' });
		const refreshed = await oauthRefreshCall(sim, first.refresh_token);
		expect(refreshed.status).toBe(200);
		const res = await api(sim, refreshed.body.access_token, '/v2/companies');
		expect(res.status).toBe(200);
		expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([
			'cmp_001',
			'cmp_002',
			'cmp_003',
			'cmp_004',
		]);
	});

	test('organisation consent by a requester is refused (302 with error=access_denied)', async () => {
		const a = await authorize(sim, {
			user: 'u_requester',
			consent: 'organisation',
			state: 's-req',
		});
		expect(a.status).toBe(302);
		expect(a.location!.searchParams.get('error')).toBe('access_denied');
		expect(a.location!.searchParams.get('code')).toBeNull();
		expect(a.location!.searchParams.get('state')).toBe('s-req');
	});

	test('organisation consent by a controller is allowed', async () => {
		const a = await authorize(sim, { user: 'u_controller', consent: 'organisation' });
		expect(a.status).toBe(302);
		expect(a.location!.searchParams.get('error')).toBeNull();
		expect(a.location!.searchParams.get('code')).toBeTruthy();
	});

	test('company consent by a requester gives a company-level token (Get Companies 403)', async () => {
		const t = await oauthLogin(sim, { user: 'u_requester', consent: 'company' });
		const res = await api(sim, t.access_token, '/v2/companies');
		expect(res.status).toBe(403);
		expect(err(res).detail).toBe('This endpoint requires an organisation-level token');
		const own = await api(sim, t.access_token, '/v1/wallet-summary');
		expect(own.status).toBe(200);
		expect(own.body.data).toEqual(sim.data('cmp_001').walletSummary);
	});

	test('company consent with company=cmp_002 gives a token for cmp_002 only', async () => {
		const t = await oauthLogin(sim, { user: 'u_admin', consent: 'company', company: 'cmp_002' });
		const res = await api(sim, t.access_token, '/v1/wallet-summary', { companyId: 'cmp_001' });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual(sim.data('cmp_002').walletSummary);
	});

	test('Get Companies (docs/api.md#companies): an OAuth2 organisation token lists only the approving user’s active companies', async () => {
		const admin = await oauthLogin(sim, { user: 'u_admin', consent: 'organisation' });
		const res = await api(sim, admin.access_token, '/v2/companies');
		expect(res.status).toBe(200);
		expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(['cmp_001', 'cmp_002']);
		expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 2 });
	});

	test('page lists (docs/api.md#page-lists): the first page is 200 with empty data for an OAuth2 user with no active company', async () => {
		const lonely = await oauthLogin(sim, { user: 'u_lonely', consent: 'organisation' });
		const res = await api(sim, lonely.access_token, '/v2/companies');
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual([]);
		expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 0 });
		const second = await api(sim, lonely.access_token, '/v2/companies?page=2');
		expect(second.status).toBe(404);
		expect(err(second).code).toBe('not_found');
	});

	test('company placement (docs/api.md#levels-and-company-placement): an OAuth2 organisation token reaches a member company by path and by header', async () => {
		const t = await oauthLogin(sim, { user: 'u_controller', consent: 'organisation' });
		const inv = await api(sim, t.access_token, '/v2/companies/cmp_003/invoices?limit=100');
		expect(inv.status).toBe(200);
		expect(inv.body.data.map((i: { id: string }) => i.id)).toEqual(
			sim.invoicesSorted('cmp_003', 'createdAt', 'asc').map((i) => i.id),
		);
		const wallet = await api(sim, t.access_token, '/v1/wallet-summary', { companyId: 'cmp_002' });
		expect(wallet.status).toBe(200);
		expect(wallet.body.data).toEqual(sim.data('cmp_002').walletSummary);
	});

	test('errors (docs/api.md#errors): an OAuth2 organisation token on a company the user never belonged to is 403 User does not belong to this company', async () => {
		const t = await oauthLogin(sim, { user: 'u_controller', consent: 'organisation' });
		const res = await api(sim, t.access_token, '/v2/companies/cmp_001/invoices');
		expect(res.status).toBe(403);
		expect(err(res).detail).toBe('User does not belong to this company');
	});

	test('an OAuth2 organisation token is refused with 403 after sim.removeUserFromCompany (path and header)', async () => {
		sim.addUser({
			id: 'u_leaver',
			name: 'Leaver',
			role: 'admin',
			companyIds: ['cmp_001', 'cmp_002'],
		});
		const t = await oauthLogin(sim, { user: 'u_leaver', consent: 'organisation' });
		expect((await api(sim, t.access_token, '/v2/companies/cmp_002/invoices')).status).toBe(200);
		sim.removeUserFromCompany('u_leaver', 'cmp_002');
		const byPath = await api(sim, t.access_token, '/v2/companies/cmp_002/invoices');
		expect(byPath.status).toBe(403);
		expect(err(byPath).detail).toBe('User does not belong to this company');
		const byHeader = await api(sim, t.access_token, '/v1/wallet-summary', { companyId: 'cmp_002' });
		expect(byHeader.status).toBe(403);
		expect(err(byHeader).detail).toBe('User does not belong to this company');
		const stillMember = await api(sim, t.access_token, '/v2/companies/cmp_001/invoices');
		expect(stillMember.status).toBe(200);
	});

	test('scopes (docs/api.md#scopes): a token granted a subset of scopes is refused the others (403 insufficient_scope)', async () => {
		const t = await oauthLogin(sim, {
			user: 'u_owner',
			consent: 'organisation',
			scope: 'experimental:company:read',
		});
		expect((await api(sim, t.access_token, '/v2/companies')).status).toBe(200);
		const res = await api(sim, t.access_token, '/v2/companies/cmp_001/invoices');
		expect(res.status).toBe(403);
		expect(err(res)).toMatchObject({
			code: 'insufficient_scope',
			detail: 'Missing scope: experimental:invoice:read',
		});
	});
});
