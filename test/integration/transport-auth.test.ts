/**
 * Transport core, authentication: one token per credential lifetime (shared by executions
 * through the credential store), renewal after expiry (API key and OAuth2), refused
 * credentials, and the base-URL rule.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import { collect, paginate } from '../../nodes/Spendesk/transport/paginate';
import { callSpendesk } from '../../nodes/Spendesk/transport/request';
import type { SpendeskSimulator } from '../simulator';
import {
	ctxFor,
	expectRefusedBeforeAnyRequest,
	failure,
	resetTransport,
	storeFor,
	simulatorPerSuite,
} from '../support/fixtures';
import { CredentialStore } from '../support/n8n-context';

describe('transport: tokens', () => {
	let sim: SpendeskSimulator;
	// Six companies, cmp_001…cmp_005 active (cmp_006 deactivated).
	simulatorPerSuite({ seed: { companies: 6 } }, (started) => (sim = started));
	beforeEach(() => {
		sim.clearLog();
	});

	test('one token request across many calls and several executions sharing one credential store', async () => {
		const store = await storeFor(sim, 'orgKey');
		sim.clearLog();
		for (let execution = 0; execution < 3; execution++) {
			const ctx = await ctxFor(sim, 'orgKey', { store });
			for (const company of ['cmp_001', 'cmp_002', 'cmp_003']) {
				const res = await callSpendesk(ctx, 'walletSummary', { company });
				expect(res.status).toBe(200);
			}
			const settlements = await collect(ctx, 'listSettlements', { company: 'cmp_004' });
			expect(settlements).toHaveLength(45);
		}
		expect(sim.requestsTo('token')).toHaveLength(1);
		expect(store.writes).toEqual(['spendeskApi']);
		const api = sim.log.filter((r) => r.route !== 'token');
		// 3 executions × (3 wallet summaries + 2 settlement pages of 30)
		expect(api).toHaveLength(15);
		expect(api.every((r) => r.status === 200)).toBe(true);
		expect(new Set(api.map((r) => r.clientId))).toEqual(new Set(['sim-org-client']));
	});

	test('five concurrent first calls on different companies with a fresh store make ONE token request', async () => {
		const ctx = await ctxFor(sim, 'orgKey');
		sim.clearLog();
		const companies = ['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004', 'cmp_005'];
		const results = await Promise.all(
			companies.map(
				async (company) => await callSpendesk<IDataObject>(ctx, 'walletSummary', { company }),
			),
		);
		expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
		// The wallet summary names its wallet (`wal_` and the company's number), not the company.
		expect(results.map((r) => (r.body.data as IDataObject).id)).toEqual(
			companies.map((c) => `wal_${c.slice(4)}`),
		);
		expect(sim.requestsTo('token')).toHaveLength(1);
		expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
	});

	test('five concurrent executions sharing a fresh store make ONE token request', async () => {
		const store = await storeFor(sim, 'orgKey');
		const contexts = await Promise.all(
			[1, 2, 3, 4, 5].map(async () => await ctxFor(sim, 'orgKey', { store })),
		);
		sim.clearLog();
		const companies = ['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004', 'cmp_005'];
		await Promise.all(
			contexts.map(
				async (ctx, i) => await callSpendesk(ctx, 'walletSummary', { company: companies[i] }),
			),
		);
		expect(sim.requestsTo('token')).toHaveLength(1);
		expect(sim.requestsTo('walletSummary').filter((r) => r.status === 200)).toHaveLength(5);
		expect(sim.log.filter((r) => r.status === 401)).toHaveLength(0);
	});

	test.each(['2.8' as const, '2.9' as const])(
		'n8n %s: five concurrent calls that all meet an expired token renew it once',
		async (n8nVersion) => {
			const store = await storeFor(sim, 'orgKey');
			const ctx = await ctxFor(sim, 'orgKey', { store, n8nVersion });
			await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' });
			sim.expireTokens();
			sim.clearLog();
			const companies = ['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004', 'cmp_001'];
			const results = await Promise.all(
				companies.map(async (company) => await callSpendesk(ctx, 'walletSummary', { company })),
			);
			expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
			expect(sim.requestsTo('token')).toHaveLength(1);
		},
	);

	test.each([
		// The transport reads every status itself, then asks again letting the 401 throw so n8n renews: one extra 401.
		['2.8' as const, [200, 401, 401, 200, 200]],
		['2.9' as const, [200, 401, 401, 200, 200]],
	])(
		'n8n %s: a token expired mid-drain is renewed exactly once and the drain returns the exact items',
		async (n8nVersion, statuses) => {
			const ctx = await ctxFor(sim, 'orgKey', { n8nVersion });
			sim.clearLog();
			const pages: IDataObject[][] = [];
			for await (const page of paginate(ctx, 'listInvoices', {
				company: 'cmp_002',
				pageSize: 20,
				qs: { sortBy: 'updatedAt', sort: 'desc' },
			})) {
				pages.push(page);
				if (pages.length === 1) sim.expireTokens();
			}
			const expected = sim.invoicesSorted('cmp_002', 'updatedAt', 'desc').map((i) => i.id);
			expect(expected).toHaveLength(50);
			expect(pages.map((p) => p.length)).toEqual([20, 20, 10]);
			expect(pages.flat().map((i) => i.id)).toEqual(expected);
			expect(sim.requestsTo('token')).toHaveLength(2);
			expect(sim.requestsTo('listInvoices').map((r) => r.status)).toEqual(statuses);
		},
	);

	test.each([
		['2.8' as const, [401, 401, 200]],
		['2.9' as const, [401, 401, 200]],
	])(
		'n8n %s: OAuth2 organisation credential refreshes once (refresh_token grant) after expiry and the call succeeds',
		async (n8nVersion, statuses) => {
			const store = await storeFor(sim, 'oauthOrg');
			const before = store.get('spendeskOAuth2Api');
			const ctx = await ctxFor(sim, 'oauthOrg', { store, n8nVersion });
			sim.clearLog();
			sim.expireTokens();
			const res = await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' });
			expect(res.status).toBe(200);
			expect(res.body).toMatchObject({ data: sim.data('cmp_001').walletSummary });
			const refresh = sim.requestsTo('oauthTokenRefresh');
			expect(refresh).toHaveLength(1);
			expect(refresh[0].status).toBe(200);
			expect((refresh[0].body as IDataObject).grant_type).toBe('refresh_token');
			expect(sim.requestsTo('token')).toHaveLength(0);
			expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual(statuses);
			const after = store.get('spendeskOAuth2Api');
			expect(after.accessToken).not.toBe(before.accessToken);

			// The refreshed token is kept: the next call needs no refresh.
			sim.clearLog();
			await callSpendesk(ctx, 'walletSummary', { company: 'cmp_002' });
			expect(sim.requestsTo('oauthTokenRefresh')).toHaveLength(0);
			expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([200]);
		},
	);

	test.each(['2.8' as const, '2.9' as const])(
		'n8n %s: OAuth2 keeps working an hour later and an hour after that: two refreshes, each with client_id and client_secret in the query, each with the rotated refresh token',
		async (n8nVersion) => {
			const store = await storeFor(sim, 'oauthOrg');
			const ctx = await ctxFor(sim, 'oauthOrg', { store, n8nVersion });
			const client = sim.credentials.oauthClient;
			const refreshTokens = [String(store.get('spendeskOAuth2Api').refreshToken)];
			for (const company of ['cmp_001', 'cmp_002']) {
				sim.clearLog();
				sim.clock.advance(61 * 60_000);
				const res = await callSpendesk(ctx, 'walletSummary', { company });
				expect(res.body).toMatchObject({ data: sim.data(company).walletSummary });
				const refresh = sim.requestsTo('oauthTokenRefresh');
				expect(refresh.map((r) => [r.status, (r.body as IDataObject).grant_type])).toEqual([
					[200, 'refresh_token'],
				]);
				// Both in the query (the log redacts the secret's value, not its presence).
				expect(refresh[0].query).toEqual({
					client_id: client.clientId,
					client_secret: '<redacted>',
				});
				// Asked, refused (401), asked again letting the 401 throw so that n8n refreshes, then 200.
				expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([401, 401, 200]);
				refreshTokens.push(String(store.get('spendeskOAuth2Api').refreshToken));
			}
			// Rotated at each refresh; the used ones are dead.
			expect(new Set(refreshTokens).size).toBe(3);
			expect(sim.consumeRefreshToken(refreshTokens[0])).toBeUndefined();
			expect(sim.consumeRefreshToken(refreshTokens[1])).toBeUndefined();
		},
	);

	test('OAuth2 refresh with a client secret that needs URL-encoding (& = + / % # space)', async () => {
		const client = sim.credentials.oauthClient;
		const original = client.clientSecret;
		client.clientSecret = 'p&ss=w+rd/%#? x';
		try {
			const store = await storeFor(sim, 'oauthOrg');
			const ctx = await ctxFor(sim, 'oauthOrg', { store });
			sim.clearLog();
			sim.clock.advance(61 * 60_000);
			const res = await callSpendesk(ctx, 'walletSummary', { company: 'cmp_003' });
			expect(res.status).toBe(200);
			expect(sim.requestsTo('oauthTokenRefresh').map((r) => r.status)).toEqual([200]);
		} finally {
			client.clientSecret = original;
		}
	});

	test.each(['2.8' as const, '2.9' as const])(
		'n8n %s: a refused OAuth2 refresh (revoked refresh token) says to reconnect the credential, once, without any token',
		async (n8nVersion) => {
			const store = await storeFor(sim, 'oauthOrg');
			const tokens = store.get('spendeskOAuth2Api');
			store.update('spendeskOAuth2Api', {
				...store.stored('spendeskOAuth2Api'),
				refreshToken: 'revoked-refresh-token',
			});
			const ctx = await ctxFor(sim, 'oauthOrg', { store, n8nVersion });
			sim.clearLog();
			sim.expireTokens();
			const error = await failure(
				callSpendesk(ctx, 'walletSummary', { company: 'cmp_002', itemIndex: 3 }),
			);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(
				'Reconnect the credential "Spendesk OAuth2" to Spendesk: approve at the link below, then paste the address you land on into the credential and save',
			);
			const description = (error as NodeApiError).description ?? '';
			expect(description).toContain('a call of the node "Spendesk" for company "cmp_002"');
			expect(description).toContain('Spendesk refused to renew access');
			expect(description).toContain(`href="${sim.baseUrl}/v1/oauth2/authorize?`);
			expect((error as NodeApiError).context.itemIndex).toBe(3);
			// One refusal from the token endpoint; the API was asked once (401) and never again.
			expect(sim.requestsTo('oauthTokenRefresh').map((r) => r.status)).toEqual([400]);
			expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([401, 401]);
			const text = `${JSON.stringify(error)} ${description} ${error.message}`;
			expect(text).not.toContain(String(tokens.accessToken));
			expect(text).not.toContain('revoked-refresh-token');
			expect(text).not.toContain(sim.credentials.oauthClient.clientSecret);
			expect(text).not.toContain('check your parameters');
		},
	);

	test.each(['2.8' as const, '2.9' as const])(
		'n8n %s: a token endpoint failing the refresh once (500) is retried and the call succeeds; failing for good is not "reconnect"',
		async (n8nVersion) => {
			const store = await storeFor(sim, 'oauthOrg');
			const ctx = await ctxFor(sim, 'oauthOrg', { store, n8nVersion });
			sim.clearLog();
			sim.expireTokens();
			sim.injectFault({ route: 'oauthTokenRefresh', kind: 'status', status: 500, times: 1 });
			const res = await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' });
			expect(res.status).toBe(200);
			expect(sim.requestsTo('oauthTokenRefresh').map((r) => r.status)).toEqual([500, 200]);

			sim.clearLog();
			sim.expireTokens();
			sim.injectFault({ route: 'oauthTokenRefresh', kind: 'status', status: 500, times: 20 });
			const error = await failure(callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }));
			sim.clearFaults();
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).not.toMatch(/Reconnect/);
			expect(error.message).toContain('500');
			expect(sim.requestsTo('oauthTokenRefresh').length).toBe(5);
			expect(JSON.stringify(error)).not.toContain(sim.credentials.oauthClient.clientSecret);
		},
	);

	test('after a successful OAuth2 refresh, an API refusal of the retried call keeps its own message', async () => {
		const store = await storeFor(sim, 'oauthOrg');
		const ctx = await ctxFor(sim, 'oauthOrg', { store });
		sim.clearLog();
		sim.expireTokens();
		const error = await failure(callSpendesk(ctx, 'walletSummary', { company: 'cmp_006' }));
		expect(error.message).toBe('Company "cmp_006" is deactivated');
		expect(sim.requestsTo('oauthTokenRefresh').map((r) => r.status)).toEqual([200]);
		expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([401, 401, 403]);
	});

	test('a wrong client secret gives "Spendesk refused the credential" (401) without the secret', async () => {
		const store = await storeFor(sim, 'orgKey');
		const secret = 'wrong-secret-4f9a1c';
		store.set('spendeskApi', { ...store.get('spendeskApi'), clientSecret: secret });
		const ctx = await ctxFor(sim, 'orgKey', { store });
		sim.clearLog();
		const error = await failure(callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Spendesk refused the credential "Spendesk API key" (401)');
		expect((error as NodeApiError).httpCode).toBe('401');
		// n8n asks for a token, gets 401, and asks once more in its 401 retry path; no API call is made.
		expect(sim.requestsTo('token').map((r) => r.status)).toEqual([401, 401]);
		expect(sim.log.filter((r) => r.route !== 'token')).toHaveLength(0);
		const text = `${JSON.stringify(error)} ${(error as NodeApiError).description ?? ''} ${error.message}`;
		expect(text).not.toContain(secret);
		expect(text).not.toContain('sim-org-secret');
		expect(text).not.toContain('sat_');
		expect(text).not.toContain('Bearer ');
	});
});

describe('transport: base URL', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({}, (started) => (sim = started));
	beforeEach(() => sim.clearLog());
	afterEach(() => jest.restoreAllMocks());

	test('plain HTTP on another host is refused before any request', async () => {
		const store = new CredentialStore();
		store.set('spendeskApi', {
			environment: 'custom',
			baseUrl: 'http://example.com',
			clientId: sim.credentials.orgKey.clientId,
			clientSecret: sim.credentials.orgKey.clientSecret,
			accessLevel: 'organisation',
			companyId: '',
		});
		const ctx = await ctxFor(sim, 'orgKey', { store });
		const fetchSpy = jest.spyOn(globalThis, 'fetch');
		const error = await expectRefusedBeforeAnyRequest(
			sim,
			callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }),
			'The custom base URL "http://example.com" must use HTTPS: plain HTTP is only accepted for a server on this machine (localhost, 127.0.0.1 or [::1])',
		);
		expect(error.message).not.toContain(sim.credentials.orgKey.clientSecret);
		expect(fetchSpy).not.toHaveBeenCalled();
		expect(store.writes).toEqual([]);
	});

	test('http://127.0.0.1:<port> (the simulator) is accepted', async () => {
		expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		const ctx = await ctxFor(sim, 'orgKey');
		const res = await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' });
		expect(res.status).toBe(200);
		expect(sim.requestsTo('token')).toHaveLength(1);
		expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([200]);
	});
});

describe('transport: a token endpoint refusing the client with 400 (docs/api.md#authentication)', () => {
	let server: http.Server;
	let baseUrl: string;
	const tokenRequests: string[] = [];
	beforeAll(async () => {
		// A token endpoint answering a wrong secret as RFC 6749 allows: 400 invalid_client.
		server = http.createServer((req, res) => {
			tokenRequests.push(`${req.method} ${req.url}`);
			req.resume();
			res.writeHead(400, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify({
					error: 'invalid_client',
					error_description: 'Client authentication failed',
				}),
			);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));
	beforeEach(() => resetTransport());

	test('says the credential was refused and to check the Client ID and Client Secret, without the secret', async () => {
		const secret = 'wrong-secret-7d2e91';
		const store = new CredentialStore();
		store.set('spendeskApi', {
			environment: 'custom',
			baseUrl,
			clientId: 'client-id-1',
			clientSecret: secret,
			accessLevel: 'organisation',
			companyId: '',
		});
		const ctx = await ctxFor(undefined as never, 'orgKey', { store });
		const error = await failure(callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Spendesk refused the credential "Spendesk API key" (400)');
		const description = (error as NodeApiError).description ?? '';
		expect(description).toContain("Check 'Client ID' and 'Client Secret' in the credential");
		expect(description).not.toContain('parameters of this operation');
		expect(tokenRequests).toEqual(['POST /v1/auth/token']);
		expect(`${JSON.stringify(error)} ${description} ${error.message}`).not.toContain(secret);
	});
});

describe('transport: redirects from the API are refused (docs/api.md#authentication)', () => {
	/** The origin a redirect points at: records every credential header it receives. */
	let target: http.Server;
	let targetHost: string;
	const received: Array<{ url: string; authorization?: string; company?: string }> = [];
	/** The "API": answers every call (and, unless `tokenOk`, the token request) with a 307 to the target. */
	let api: http.Server;
	let apiUrl: string;
	let tokenOk = false;
	const listen = async (server: http.Server) => {
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		return `127.0.0.1:${(server.address() as AddressInfo).port}`;
	};
	beforeAll(async () => {
		target = http.createServer((req, res) => {
			received.push({
				url: req.url ?? '',
				authorization: req.headers.authorization,
				company: req.headers['x-company-id'] as string | undefined,
			});
			req.resume();
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ access_token: 'stolen-token', expires_in: 3600, data: {} }));
		});
		targetHost = await listen(target);
		api = http.createServer((req, res) => {
			req.resume();
			if (tokenOk && req.url === '/v1/auth/token') {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ access_token: 'api-token-5e1c', expires_in: 3600 }));
				return;
			}
			res.writeHead(307, { location: `http://${targetHost}/collect?sig=query-secret-91ab` });
			res.end();
		});
		apiUrl = `http://${await listen(api)}`;
	});
	afterAll(async () => {
		for (const server of [api, target])
			await new Promise<void>((resolve) => server.close(() => resolve()));
	});
	beforeEach(() => {
		resetTransport();
		received.length = 0;
	});

	const storeAt = () => {
		const store = new CredentialStore();
		store.set('spendeskApi', {
			environment: 'custom',
			baseUrl: apiUrl,
			clientId: 'client-id-1',
			clientSecret: 'client-secret-3c77',
			accessLevel: 'organisation',
			companyId: '',
		});
		return store;
	};
	const expectRefused = (error: Error) => {
		const description = (error as { description?: string }).description ?? '';
		const text = `${error.message} ${description}`;
		expect(text).toContain(targetHost);
		expect(text).toMatch(/never redirects/);
		expect(text).toContain("check 'Environment' (or 'Base URL') in the credential");
		for (const secret of ['query-secret-91ab', 'client-secret-3c77', 'api-token-5e1c'])
			expect(`${text} ${JSON.stringify(error)}`).not.toContain(secret);
	};

	test('a 307 on the token request is an error naming the redirect, and the client secret goes nowhere else', async () => {
		tokenOk = false;
		const ctx = await ctxFor(undefined as never, 'orgKey', { store: storeAt() });
		const error = await failure(callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }));
		expect(received).toEqual([]);
		expectRefused(error);
	});

	test('a 307 on an API call is an error naming the redirect, and the token and company go nowhere else', async () => {
		tokenOk = true;
		const ctx = await ctxFor(undefined as never, 'orgKey', { store: storeAt() });
		const error = await failure(callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }));
		expect(received).toEqual([]);
		expectRefused(error);
		expect(error.message).toContain('"cmp_001"');
	});
});
