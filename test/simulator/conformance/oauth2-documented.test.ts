/**
 * Spendesk's documented OAuth2 contract for partner apps (docs/api.md#oauth2), served by both profiles:
 * GET /v1/oauth2/authorize, POST /v1/oauth2/token/create, POST /v1/oauth2/token/refresh.
 */
import { SpendeskSimulator } from '../server';
import type { SimulatorProfile } from '../profile';
import { api, basic, pkce, REDIRECT_URI, request } from './helpers';
import type { ApiResponse } from './helpers';

const DAY_MS = 24 * 3600 * 1000;

interface AuthorizeV1Options {
	user?: string;
	consent?: 'organisation' | 'company';
	company?: string;
	/** The scope parameter; null leaves it out. Default: two documented read scopes. */
	scope?: string | null;
	/** The code_challenge_method; null leaves it out. Default S256. */
	method?: string | null;
	/** The challenge sent; null leaves it out. Default: the S256 challenge of the verifier. */
	challenge?: string | null;
	state?: string;
	redirectUri?: string;
}

interface AuthorizeV1Result {
	status: number;
	location: URL | null;
	verifier: string;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
}

async function authorizeV1(
	sim: SpendeskSimulator,
	opts: AuthorizeV1Options = {},
	path = '/v1/oauth2/authorize',
): Promise<AuthorizeV1Result> {
	const { verifier, challenge } = pkce();
	const q = new URLSearchParams({
		response_type: 'code',
		client_id: sim.credentials.oauthClient.clientId,
		redirect_uri: opts.redirectUri ?? REDIRECT_URI,
		state: opts.state ?? 'st-v1',
	});
	const scope = opts.scope === undefined ? 'wallet-summary:read user:read' : opts.scope;
	if (scope !== null) q.set('scope', scope);
	const ch = opts.challenge === undefined ? challenge : opts.challenge;
	if (ch !== null) q.set('code_challenge', ch);
	const method = opts.method === undefined ? 'S256' : opts.method;
	if (method !== null) q.set('code_challenge_method', method);
	if (opts.user) q.set('user', opts.user);
	if (opts.consent) q.set('consent', opts.consent);
	if (opts.company) q.set('company', opts.company);
	const res = await fetch(`${sim.baseUrl}${path}?${q.toString()}`, { redirect: 'manual' });
	const loc = res.headers.get('location');
	const text = await res.text();
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		// not JSON: keep the text
	}
	return { status: res.status, location: loc ? new URL(loc) : null, verifier, body };
}

/** POST /v1/oauth2/token/create with a JSON body (fields override the correct ones; undefined drops one). */
async function create(
	sim: SpendeskSimulator,
	a: AuthorizeV1Result,
	fields: Record<string, string | undefined> = {},
	init: { headers?: Record<string, string>; authorization?: string; form?: boolean } = {},
): Promise<ApiResponse> {
	const c = sim.credentials.oauthClient;
	const all: Record<string, string | undefined> = {
		grant_type: 'authorization_code',
		client_id: c.clientId,
		client_secret: c.clientSecret,
		redirect_uri: REDIRECT_URI,
		code: a.location?.searchParams.get('code') ?? '',
		code_verifier: a.verifier,
		...fields,
	};
	const body = Object.fromEntries(
		Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined),
	);
	return request(sim, '/v1/oauth2/token/create', {
		method: 'POST',
		authorization: init.authorization,
		headers: init.form
			? { 'content-type': 'application/x-www-form-urlencoded', ...init.headers }
			: init.headers,
		body: init.form ? new URLSearchParams(body).toString() : body,
	});
}

/** POST /v1/oauth2/token/refresh with the client in the query and a JSON body. */
async function refresh(
	sim: SpendeskSimulator,
	refreshToken: string,
	query: Record<string, string | undefined> = {},
	init: { form?: boolean; body?: Record<string, string> } = {},
): Promise<ApiResponse> {
	const c = sim.credentials.oauthClient;
	const all = { client_id: c.clientId, client_secret: c.clientSecret, ...query };
	const q = new URLSearchParams(
		Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined),
	);
	const body = init.body ?? { grant_type: 'refresh_token', refresh_token: refreshToken };
	return request(sim, `/v1/oauth2/token/refresh?${q.toString()}`, {
		method: 'POST',
		headers: init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : undefined,
		body: init.form ? new URLSearchParams(body).toString() : body,
	});
}

/** Authorize then create; the 201 body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function connect(sim: SpendeskSimulator, opts: AuthorizeV1Options = {}): Promise<any> {
	const a = await authorizeV1(sim, opts);
	const res = await create(sim, a);
	if (res.status !== 201)
		throw new Error(`token/create answered ${res.status}: ${JSON.stringify(res.body)}`);
	return res.body;
}

/** The error code each profile gives a status, and its field-name style. */
const CODES: Record<SimulatorProfile, (status: number, code: string) => string> = {
	specification: (_status, code) => code,
	documented: (status) =>
		({ 400: 'BAD_REQUEST_INCORRECT_OR_MISSING_FIELD', 401: 'AUTHENTICATION_ERROR' })[status]!,
};
const SOURCES: Record<SimulatorProfile, (source: string) => string> = {
	specification: (source) => source,
	documented: (source) => source.replace(/^(query|body|headers)\./, ''),
};

describe.each<SimulatorProfile>(['specification', 'documented'])(
	'the documented OAuth2 contract, %s profile (docs/api.md#oauth2)',
	(profile) => {
		let sim: SpendeskSimulator;

		/** The answer is the OAuth error `error` with status, in the profile's error style. */
		function expectOAuthError(
			res: ApiResponse | AuthorizeV1Result,
			status: number,
			error: string,
			source?: string,
		): void {
			expect(res.status).toBe(status);
			expect(res.body.error).toBe(error);
			expect(typeof res.body.error_description).toBe('string');
			expect(res.body.errors).toHaveLength(1);
			expect(res.body.errors[0].code).toBe(CODES[profile](status, error));
			expect(res.body.errors[0].detail).toBe(res.body.error_description);
			if (source !== undefined) expect(res.body.errors[0].source).toBe(SOURCES[profile](source));
		}

		beforeAll(async () => {
			sim = new SpendeskSimulator({ profile });
			await sim.start();
		});
		afterAll(async () => {
			await sim.stop();
		});

		describe('GET /v1/oauth2/authorize', () => {
			test('redirects 302 to redirect_uri with the code and the same state', async () => {
				const a = await authorizeV1(sim, { state: 'xyz-42' });
				expect(a.status).toBe(302);
				expect(`${a.location!.origin}${a.location!.pathname}`).toBe(REDIRECT_URI);
				expect(a.location!.searchParams.get('state')).toBe('xyz-42');
				expect(a.location!.searchParams.get('code')).toBeTruthy();
			});

			test('scope is required: without it, or empty, 400 invalid_request', async () => {
				expectOAuthError(
					await authorizeV1(sim, { scope: null }),
					400,
					'invalid_request',
					'query.scope',
				);
				expectOAuthError(
					await authorizeV1(sim, { scope: ' ' }),
					400,
					'invalid_request',
					'query.scope',
				);
			});

			test('PKCE S256 is required: plain, no method or no challenge is a 400', async () => {
				expectOAuthError(await authorizeV1(sim, { method: 'plain' }), 400, 'invalid_request');
				expectOAuthError(await authorizeV1(sim, { method: null }), 400, 'invalid_request');
				expectOAuthError(
					await authorizeV1(sim, { challenge: null, method: null }),
					400,
					'invalid_request',
				);
				expectOAuthError(await authorizeV1(sim, { challenge: null }), 400, 'invalid_request');
			});

			test('a Requester cannot approve organisation-level access (error=access_denied)', async () => {
				const a = await authorizeV1(sim, {
					user: 'u_requester',
					consent: 'organisation',
					state: 's-1',
				});
				expect(a.status).toBe(302);
				expect(a.location!.searchParams.get('error')).toBe('access_denied');
				expect(a.location!.searchParams.get('state')).toBe('s-1');
				expect(a.location!.searchParams.get('code')).toBeNull();
				const company = await authorizeV1(sim, { user: 'u_requester', consent: 'company' });
				expect(company.location!.searchParams.get('code')).toBeTruthy();
			});

			test('the scopes asked for, space-separated, are the scopes granted', async () => {
				const tokens = await connect(sim, { scope: 'wallet-summary:read supplier:read' });
				expect(tokens.scope).toBe('wallet-summary:read supplier:read');
				const wallet = await api(sim, tokens.access_token, '/v1/wallet-summary', {
					companyId: 'cmp_001',
				});
				expect(wallet.status).toBe(200);
				const users = await api(sim, tokens.access_token, '/v1/users', { companyId: 'cmp_001' });
				expect(users.status).toBe(403);
			});
		});

		describe('POST /v1/oauth2/token/create', () => {
			test('answers 201 {token_type, access_token, scope, refresh_token}, without expires_in', async () => {
				const a = await authorizeV1(sim);
				const res = await create(sim, a);
				expect(res.status).toBe(201);
				expect(Object.keys(res.body).sort()).toEqual([
					'access_token',
					'refresh_token',
					'scope',
					'token_type',
				]);
				expect(res.body.token_type).toBe('Bearer');
				expect(res.body.scope).toBe('wallet-summary:read user:read');
				expect(res.body).not.toHaveProperty('expires_in');
				const wallet = await api(sim, res.body.access_token, '/v1/wallet-summary', {
					companyId: 'cmp_001',
				});
				expect(wallet.status).toBe(200);
			});

			test('a form body is a 400, even with every field right', async () => {
				const a = await authorizeV1(sim);
				expectOAuthError(
					await create(sim, a, {}, { form: true }),
					400,
					'invalid_request',
					'headers.content-type',
				);
				// The code was not spent by the refused call.
				expect((await create(sim, a)).status).toBe(201);
			});

			test('a Basic header is not client authentication: the client goes in the body', async () => {
				const a = await authorizeV1(sim);
				const auth = basic(sim.credentials.oauthClient);
				const noBodyClient = await create(
					sim,
					a,
					{ client_id: undefined, client_secret: undefined },
					{ authorization: auth },
				);
				expectOAuthError(noBodyClient, 400, 'invalid_request', 'body.client_id');
				const wrongBodySecret = await create(
					sim,
					a,
					{ client_secret: 'wrong' },
					{ authorization: auth },
				);
				expectOAuthError(wrongBodySecret, 401, 'invalid_client');
				expect((await create(sim, a, {}, { authorization: auth })).status).toBe(201);
			});

			test('a wrong client secret or an unknown client is 401 invalid_client', async () => {
				const a = await authorizeV1(sim);
				expectOAuthError(
					await create(sim, a, { client_secret: 'wrong' }),
					401,
					'invalid_client',
					'body.client_secret',
				);
				expectOAuthError(await create(sim, a, { client_id: 'nobody' }), 401, 'invalid_client');
			});

			test('a wrong verifier, a reused code or another redirect_uri is 400 invalid_grant', async () => {
				const a = await authorizeV1(sim);
				expectOAuthError(
					await create(sim, a, { code_verifier: pkce().verifier }),
					400,
					'invalid_grant',
					'body.code_verifier',
				);
				expectOAuthError(
					await create(sim, a, { redirect_uri: 'http://localhost:9999/callback' }),
					400,
					'invalid_grant',
					'body.redirect_uri',
				);
				expect((await create(sim, a)).status).toBe(201);
				expectOAuthError(await create(sim, a), 400, 'invalid_grant', 'body.code');
				expectOAuthError(await create(sim, a, { code: 'sac_unknown' }), 400, 'invalid_grant');
			});

			test('redirect_uri, code and code_verifier are required', async () => {
				const a = await authorizeV1(sim);
				for (const name of ['redirect_uri', 'code', 'code_verifier'])
					expectOAuthError(
						await create(sim, a, { [name]: undefined }),
						400,
						'invalid_request',
						`body.${name}`,
					);
			});

			test('grant_type refresh_token is not accepted here: 400', async () => {
				const tokens = await connect(sim);
				const c = sim.credentials.oauthClient;
				const res = await request(sim, '/v1/oauth2/token/create', {
					method: 'POST',
					body: {
						grant_type: 'refresh_token',
						refresh_token: tokens.refresh_token,
						client_id: c.clientId,
						client_secret: c.clientSecret,
					},
				});
				expectOAuthError(res, 400, 'unsupported_grant_type', 'body.grant_type');
				// Still valid: the refused call did not consume it.
				expect((await refresh(sim, tokens.refresh_token)).status).toBe(200);
			});
		});

		describe('POST /v1/oauth2/token/refresh', () => {
			test('answers 200 {token_type, access_token, scope, refresh_token}, without expires_in', async () => {
				const tokens = await connect(sim);
				const res = await refresh(sim, tokens.refresh_token);
				expect(res.status).toBe(200);
				expect(Object.keys(res.body).sort()).toEqual([
					'access_token',
					'refresh_token',
					'scope',
					'token_type',
				]);
				expect(res.body.token_type).toBe('Bearer');
				expect(res.body.scope).toBe(tokens.scope);
				expect(res.body.access_token).not.toBe(tokens.access_token);
				expect(res.body.refresh_token).not.toBe(tokens.refresh_token);
				const wallet = await api(sim, res.body.access_token, '/v1/wallet-summary', {
					companyId: 'cmp_001',
				});
				expect(wallet.status).toBe(200);
			});

			test('the new refresh token invalidates the old one (400 invalid_grant)', async () => {
				const tokens = await connect(sim);
				const first = await refresh(sim, tokens.refresh_token);
				expect(first.status).toBe(200);
				expectOAuthError(
					await refresh(sim, tokens.refresh_token),
					400,
					'invalid_grant',
					'body.refresh_token',
				);
				expect((await refresh(sim, first.body.refresh_token)).status).toBe(200);
			});

			test('client_id and client_secret are mandatory query parameters: else 400', async () => {
				const tokens = await connect(sim);
				expectOAuthError(
					await refresh(sim, tokens.refresh_token, { client_id: undefined }),
					400,
					'invalid_request',
					'query.client_id',
				);
				expectOAuthError(
					await refresh(sim, tokens.refresh_token, { client_secret: undefined }),
					400,
					'invalid_request',
					'query.client_secret',
				);
				// The client in the body does not stand in for the query.
				const c = sim.credentials.oauthClient;
				const inBody = await refresh(
					sim,
					tokens.refresh_token,
					{ client_id: undefined, client_secret: undefined },
					{
						body: {
							grant_type: 'refresh_token',
							refresh_token: tokens.refresh_token,
							client_id: c.clientId,
							client_secret: c.clientSecret,
						},
					},
				);
				expectOAuthError(inBody, 400, 'invalid_request');
				expect((await refresh(sim, tokens.refresh_token)).status).toBe(200);
			});

			test('a wrong client secret in the query is 401 invalid_client', async () => {
				const tokens = await connect(sim);
				expectOAuthError(
					await refresh(sim, tokens.refresh_token, { client_secret: 'wrong' }),
					401,
					'invalid_client',
					'query.client_secret',
				);
			});

			test('a form body is a 400', async () => {
				const tokens = await connect(sim);
				expectOAuthError(
					await refresh(sim, tokens.refresh_token, {}, { form: true }),
					400,
					'invalid_request',
					'headers.content-type',
				);
				expect((await refresh(sim, tokens.refresh_token)).status).toBe(200);
			});

			test('grant_type must be refresh_token', async () => {
				const tokens = await connect(sim);
				const res = await refresh(
					sim,
					tokens.refresh_token,
					{},
					{ body: { grant_type: 'authorization_code', refresh_token: tokens.refresh_token } },
				);
				expectOAuthError(res, 400, 'unsupported_grant_type', 'body.grant_type');
			});
		});

		describe('consent level', () => {
			test('organisation-level tokens and their refreshed successors are organisation-level', async () => {
				const tokens = await connect(sim, { user: 'u_owner', consent: 'organisation' });
				const successor = (await refresh(sim, tokens.refresh_token)).body;
				for (const token of [tokens.access_token, successor.access_token]) {
					// An organisation-level token names its company.
					const bare = await api(sim, token, '/v1/wallet-summary');
					expect(bare.status).toBe(400);
					const placed = await api(sim, token, '/v1/wallet-summary', { companyId: 'cmp_002' });
					expect(placed.status).toBe(200);
				}
			});

			test('company-level tokens and their refreshed successors reach their company only', async () => {
				const tokens = await connect(sim, {
					user: 'u_owner',
					consent: 'company',
					company: 'cmp_002',
				});
				const successor = (await refresh(sim, tokens.refresh_token)).body;
				for (const token of [tokens.access_token, successor.access_token]) {
					const res = await api(sim, token, '/v1/wallet-summary', { companyId: 'cmp_003' });
					expect(res.status).toBe(200);
					expect(sim.log.at(-1)!.companyId).toBe('cmp_002');
				}
			});
		});

		describe('lifetimes and revocation (each on a simulator of its own)', () => {
			let own: SpendeskSimulator;
			beforeEach(async () => {
				own = new SpendeskSimulator({ profile, tokenLifetimeSeconds: 120 });
				await own.start();
			});
			afterEach(async () => {
				await own.stop();
			});

			test('access tokens live tokenLifetimeSeconds; an expired one is answered 401', async () => {
				const tokens = await connect(own);
				own.clock.advance(119 * 1000);
				const alive = await api(own, tokens.access_token, '/v1/wallet-summary', {
					companyId: 'cmp_001',
				});
				expect(alive.status).toBe(200);
				own.clock.advance(1000);
				const expired = await api(own, tokens.access_token, '/v1/wallet-summary', {
					companyId: 'cmp_001',
				});
				expect(expired.status).toBe(401);
				// The refresh token outlives it.
				const renewed = await refresh(own, tokens.refresh_token);
				expect(renewed.status).toBe(200);
			});

			test('access tokens live 3600 seconds by default', async () => {
				const byDefault = new SpendeskSimulator({ profile });
				await byDefault.start();
				try {
					const tokens = await connect(byDefault);
					byDefault.clock.advance(3599 * 1000);
					const path = '/v1/wallet-summary';
					const init = { companyId: 'cmp_001' };
					expect((await api(byDefault, tokens.access_token, path, init)).status).toBe(200);
					byDefault.clock.advance(1000);
					expect((await api(byDefault, tokens.access_token, path, init)).status).toBe(401);
				} finally {
					await byDefault.stop();
				}
			});

			test('refresh tokens live 30 days', async () => {
				const early = await connect(own);
				const late = await connect(own);
				own.clock.advance(30 * DAY_MS - 1000);
				expect((await refresh(own, early.refresh_token)).status).toBe(200);
				own.clock.advance(1000);
				expectOAuthError(await refresh(own, late.refresh_token), 400, 'invalid_grant');
			});

			test('a revoked connection: refresh 400 invalid_grant, access token 401', async () => {
				const tokens = await connect(own);
				own.revokeOAuth2(own.credentials.oauthClient.clientId);
				expectOAuthError(await refresh(own, tokens.refresh_token), 400, 'invalid_grant');
				const call = await api(own, tokens.access_token, '/v1/wallet-summary', {
					companyId: 'cmp_001',
				});
				expect(call.status).toBe(401);
				// Connecting again works.
				expect((await connect(own)).access_token).toBeTruthy();
			});

			test('revoking one user keeps the connections other users approved', async () => {
				const owner = await connect(own, { user: 'u_owner' });
				const admin = await connect(own, { user: 'u_admin' });
				own.revokeOAuth2(own.credentials.oauthClient.clientId, 'u_admin');
				expect((await refresh(own, owner.refresh_token)).status).toBe(200);
				expectOAuthError(await refresh(own, admin.refresh_token), 400, 'invalid_grant');
			});
		});

		test('the log names each route and redacts every secret', async () => {
			sim.clearLog();
			const tokens = await connect(sim);
			const renewed = await refresh(sim, tokens.refresh_token);
			const routes = sim.log.map((l) => l.route);
			expect(routes).toEqual(['oauthAuthorize', 'oauthTokenCreate', 'oauthTokenRefresh']);
			const dump = JSON.stringify(sim.log);
			const codeQuery = sim.log[0];
			expect(codeQuery.query.code_challenge).toBeTruthy();
			for (const secret of [
				sim.credentials.oauthClient.clientSecret,
				tokens.access_token,
				tokens.refresh_token,
				renewed.body.access_token,
				renewed.body.refresh_token,
			])
				expect(dump.includes(secret)).toBe(false);
			const createLog = sim.log[1];
			expect(createLog.status).toBe(201);
			expect(createLog.body).toMatchObject({
				client_secret: '<redacted>',
				code: '<redacted>',
				code_verifier: '<redacted>',
			});
			const refreshLog = sim.log[2];
			expect(refreshLog.query.client_secret).toBe('<redacted>');
			expect(refreshLog.body).toMatchObject({ refresh_token: '<redacted>' });
		});
	},
);

describe.each(['specification', 'documented'] as SimulatorProfile[])(
	'no other OAuth2 paths (%s profile)',
	(profile) => {
		test('/oauth2/authorize and /oauth2/token answer 404 like any unknown path', async () => {
			const sim = new SpendeskSimulator({ profile });
			await sim.start();
			try {
				const a = await authorizeV1(sim, {}, '/oauth2/authorize');
				expect(a.status).toBe(404);
				const c = sim.credentials.oauthClient;
				const token = await request(sim, '/oauth2/token', {
					method: 'POST',
					body: { grant_type: 'refresh_token', refresh_token: 'x', client_id: c.clientId },
				});
				expect(token.status).toBe(404);
				expect(sim.log.map((l) => l.route)).toEqual(['notFound', 'notFound']);
			} finally {
				await sim.stop();
			}
		});
	},
);
