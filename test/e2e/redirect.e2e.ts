/**
 * A redirect from "Spendesk" inside real n8n (docs/api.md#authentication, docs/errors.md row
 * 10): n8n's request helpers follow redirects by default and would carry the bearer token, the
 * Basic client secret and X-Company-Id, or the OAuth2 client secret, code, PKCE verifier and
 * refresh token, to the new host, and take the tokens it answers. Every request of the package
 * leaves through one module that turns following off (nodes/Spendesk/transport/door.ts), so the
 * run fails naming where the redirect pointed (its origin only), and the other host receives
 * nothing: API calls, the API key's token request, the OAuth2 code exchange and its refresh.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';
import { approvalAddress } from '../../nodes/Spendesk/transport/oauth2';
import { SpendeskSimulator } from '../simulator';
import { OAUTH_REDIRECT, oauthTokens } from '../support/fixtures';
import { createHome, ensureN8n, parseTargets } from './runtime';
import type { N8nHome } from './runtime';
import {
	apiKeyCredential,
	batchWorkflow,
	execute,
	importCredentials,
	importWorkflows,
	items,
	runN8n,
	spendeskNode,
} from './workflows';
import type { CredentialRef } from './workflows';

jest.setTimeout(5 * 60_000);

const KEY = { id: 'redirectKey', name: 'Spendesk key behind a redirect' };
const SECRET = 'client-secret-7d41';
const TOKEN = 'api-token-2b9e';

describe.each(parseTargets())('a redirect from the API in real n8n (%s)', (target) => {
	const received: Array<{ url: string; authorization?: string; company?: string }> = [];
	let targetHost = '';
	/** Where the redirects point: records every credential header that reaches it. */
	const other = http.createServer((req, res) => {
		received.push({
			url: req.url ?? '',
			authorization: req.headers.authorization,
			company: req.headers['x-company-id'] as string | undefined,
		});
		req.resume();
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ access_token: 'stolen', expires_in: 3600, data: {} }));
	});
	/** The "API": a token for the token request when `tokenOk`, a 307 to the other host otherwise. */
	let tokenOk = false;
	const api = http.createServer((req, res) => {
		req.resume();
		if (tokenOk && req.url === '/v1/auth/token') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 }));
			return;
		}
		res.writeHead(307, { location: `http://${targetHost}/collect?sig=query-secret-5f` });
		res.end();
	});
	const listen = async (server: http.Server) => {
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		return `127.0.0.1:${(server.address() as AddressInfo).port}`;
	};

	let run: (id: string) => Promise<Record<string, unknown>>;

	beforeAll(async () => {
		targetHost = await listen(other);
		const apiUrl = `http://${await listen(api)}`;
		const home = await createHome(await ensureN8n(target));
		await importCredentials(home, [
			apiKeyCredential(KEY, apiUrl, {
				clientId: 'client-id-redirect',
				clientSecret: SECRET,
				level: 'organisation',
			}),
		]);
		const wallet = spendeskNode(
			'Wallet (continue)',
			{
				resource: 'walletSummary',
				operation: 'get',
				companies: 'one',
				company: { __rl: true, mode: 'id', value: 'cmp_001' },
			},
			KEY,
			[300, 0],
			{ onError: 'continueRegularOutput' },
		);
		await importWorkflows(home, [batchWorkflow('e2eRedirect', 'e2eRedirect', [[wallet]])]);
		run = async (id) => {
			const exec = await execute(home, id);
			const [item] = items(exec.run, 'Wallet (continue)');
			return item;
		};
	});

	afterAll(async () => {
		for (const server of [api, other])
			await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	const expectRefused = (item: Record<string, unknown>) => {
		const text = `${String(item.error)} ${String(item.description)}`;
		expect(text).toContain(targetHost);
		expect(text).toMatch(/never redirects/);
		for (const secret of ['query-secret-5f', SECRET, TOKEN])
			expect(JSON.stringify(item)).not.toContain(secret);
	};

	it('a 307 on the token request: the run says so, and the client secret reaches no other host', async () => {
		tokenOk = false;
		received.length = 0;
		expectRefused(await run('e2eRedirect'));
		expect(received).toEqual([]);
	});

	it('a 307 on an API call: the run says so, and the token and company reach no other host', async () => {
		tokenOk = true;
		received.length = 0;
		const item = await run('e2eRedirect');
		expectRefused(item);
		expect(String(item.error)).toContain('"cmp_001"');
		expect(received).toEqual([]);
	});
});

describe.each(parseTargets())('a redirect on the OAuth2 token calls in real n8n (%s)', (target) => {
	const received: Array<{ method?: string; url?: string }> = [];
	/** The other origin: records any request that reaches it, and answers tokens as a thief would. */
	const other = http.createServer((req, res) => {
		received.push({ method: req.method, url: req.url });
		req.resume();
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ access_token: 'stolen-access', refresh_token: 'stolen-refresh' }));
	});
	let otherOrigin = '';
	const QUERY_SECRET = 'query-secret-0c3d';
	const TYPE = 'spendeskOAuth2Api';
	let sim: SpendeskSimulator;
	let home: N8nHome;
	let fields: IDataObject;
	let landed = '';
	let connected: IDataObject;
	const PASTED: CredentialRef = {
		id: 'oauthPasted',
		name: 'Spendesk OAuth2 pasted',
		type: 'spendeskOAuth2Api',
	};
	const LIVE: CredentialRef = {
		id: 'oauthLive',
		name: 'Spendesk OAuth2 connected',
		type: 'spendeskOAuth2Api',
	};

	beforeAll(async () => {
		await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
		otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
		sim = new SpendeskSimulator({ profile: 'documented', seed: { companies: 2 } });
		await sim.start();
		const client = sim.credentials.oauthClient;
		fields = {
			environment: 'custom',
			baseUrl: sim.baseUrl,
			clientId: client.clientId,
			clientSecret: client.clientSecret,
			redirectUri: OAUTH_REDIRECT,
			accessLevel: 'organisation',
			companyId: '',
		};
		// Approved at Spendesk: the address the user lands on, pasted into one credential.
		const approval = await fetch(approvalAddress(fields)!, { redirect: 'manual' });
		landed = approval.headers.get('location')!;
		// Another credential already connected (its code exchanged here), then expired at Spendesk.
		connected = await oauthTokens(sim, fields, 'organisation');
		home = await createHome(await ensureN8n(target));
		await importCredentials(home, [
			{
				id: PASTED.id,
				name: PASTED.name,
				type: TYPE,
				data: { ...fields, authorizationResponse: landed, connection: '' },
			},
			{ id: LIVE.id, name: LIVE.name, type: TYPE, data: { ...connected, connection: 'connected' } },
		]);
		const node = (name: string, credential: CredentialRef) =>
			spendeskNode(
				name,
				{
					resource: 'walletSummary',
					operation: 'get',
					companies: 'one',
					company: { __rl: true, mode: 'id', value: 'cmp_001' },
				},
				credential,
				[300, 0],
				{ onError: 'continueRegularOutput' },
			);
		await importWorkflows(home, [
			batchWorkflow('e2eOAuthExchange', 'e2eOAuthExchange', [[node('Exchange', PASTED)]]),
			batchWorkflow('e2eOAuthRefresh', 'e2eOAuthRefresh', [[node('Refresh', LIVE)]]),
		]);
	});

	afterAll(async () => {
		await sim?.stop();
		await new Promise<void>((resolve) => other.close(() => resolve()));
	});

	/** The credential as n8n now holds it, decrypted. */
	async function stored(id: string): Promise<Record<string, unknown>> {
		const file = path.join(home.dir, `credential-${id}.json`);
		const result = await runN8n(home, [
			'export:credentials',
			`--id=${id}`,
			'--decrypted',
			`--output=${file}`,
		]);
		expect(result.code).toBe(0);
		const [credential] = JSON.parse(readFileSync(file, 'utf8')) as Array<{
			data: Record<string, unknown>;
		}>;
		return credential.data;
	}

	const expectRefused = (item: Record<string, unknown>, secrets: string[]) => {
		const text = `${String(item.error)} ${String(item.description)}`;
		expect(text).toContain(otherOrigin);
		expect(text).toMatch(/Spendesk's OAuth2 token endpoint answered with a redirect \(307\)/);
		expect(text).toMatch(/never redirects/);
		const whole = JSON.stringify(item);
		expect(whole).not.toContain('/collect');
		for (const secret of [QUERY_SECRET, ...secrets]) expect(whole).not.toContain(secret);
	};
	const redirect = (route: 'oauthTokenCreate' | 'oauthTokenRefresh') =>
		sim.injectFault({
			route,
			kind: 'redirect',
			status: 307,
			location: `${otherOrigin}/collect?sig=${QUERY_SECRET}`,
		});

	it('a 307 on the code exchange: the client secret, code and verifier reach no other origin, no token is saved', async () => {
		received.length = 0;
		sim.clearLog();
		redirect('oauthTokenCreate');
		const exec = await execute(home, 'e2eOAuthExchange');
		const [item] = items(exec.run, 'Exchange');
		const code = new URL(landed).searchParams.get('code')!;
		expectRefused(item, [String(fields.clientSecret), code]);
		expect(received).toEqual([]);
		expect(sim.requestsTo('oauthTokenCreate').map((r) => r.status)).toEqual([307]);
		expect(sim.requestsTo('walletSummary')).toEqual([]);
		const data = await stored(PASTED.id);
		expect(data.accessToken ?? '').toBe('');
		expect(data.refreshToken ?? '').toBe('');
		expect(data.authorizationResponse).toBe(landed);
	});

	it('a 307 on the refresh: the refresh token and client secret reach no other origin, the connection is kept', async () => {
		received.length = 0;
		sim.expireTokens();
		sim.clearLog();
		redirect('oauthTokenRefresh');
		const exec = await execute(home, 'e2eOAuthRefresh');
		const [item] = items(exec.run, 'Refresh');
		expectRefused(item, [
			String(fields.clientSecret),
			String(connected.refreshToken),
			String(connected.accessToken),
		]);
		expect(received).toEqual([]);
		expect(sim.requestsTo('oauthTokenRefresh').map((r) => r.status)).toEqual([307]);
		const data = await stored(LIVE.id);
		expect(data.refreshToken).toBe(connected.refreshToken);
		expect(JSON.stringify(data)).not.toContain('stolen');
	});
});
