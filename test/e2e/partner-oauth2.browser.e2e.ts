/**
 * The Spendesk Partner OAuth2 credential in real n8n, against the simulator's documented
 * contract (docs/api.md#oauth2), the way a user connects it:
 * - create the credential (REST), click Test (`POST /rest/credentials/test`): its message holds
 *   the authorization address; open it in headless Chromium, the simulator approves and sends
 *   the browser to the Redirect URI, a small page this test serves on 127.0.0.1; paste the
 *   address the browser landed on into Authorization Response, save, Test again: valid;
 * - a workflow run exchanges the code (one JSON call to /v1/oauth2/token/create, 201) and
 *   returns the simulator's data;
 * - with 3-second access tokens, three runs across three expiries: one refresh each, JSON body,
 *   client in the query, the old refresh token refused afterwards;
 * - two runs at once across an expiry both succeed, and a third after them;
 * - once the connection is revoked in Spendesk, a run fails with "Reconnect the credential",
 *   and neither the execution nor n8n's debug log holds the secret, a refresh token or the code.
 *
 * Override the browser with CHROMIUM_PATH.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { SpendeskSimulator } from '../simulator';
import { sleep } from '../support/time';
import { createHome, ensureN8n, parseTargets } from './runtime';
import { launchChromium, prepareBrowserTests, UI_TIMEOUT } from './browser';
import type { N8nHome } from './runtime';
import { getCredential, getExecution, setupOwner, startN8n, waitFor } from './server';
import type { N8nServer, RestSession } from './server';
import { items } from './workflows';

const TYPE = 'spendeskPartnerOAuth2Api';
const CREDENTIAL_NAME = 'Spendesk partner';
const COMPANY = 'cmp_002';
/** Access tokens issued after the first run live this long (the simulator's option). */
const SHORT_LIFETIME_S = 3;

jest.setTimeout(6 * 60_000);

const targets = parseTargets();

/** The Redirect URI: a page that only shows the address it was opened with. */
async function startRedirectPage(): Promise<{ url: string; close: () => Promise<void> }> {
	const server = http.createServer((req, res) => {
		const shown = (req.url ?? '/').replace(
			/[<>&"]/g,
			(c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!,
		);
		res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
		res.end(
			`<!doctype html><title>Spendesk callback</title><p>You landed on:</p><pre id="landed">${shown}</pre>`,
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/spendesk/callback`,
		close: async () =>
			await new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

describe.each(targets)('Spendesk Partner OAuth2 credential in real n8n (%s)', (target) => {
	let sim: SpendeskSimulator;
	let home: N8nHome;
	let server: N8nServer | undefined;
	let session: RestSession;
	let browser: Browser | undefined;
	let page: Page;
	let redirect: Awaited<ReturnType<typeof startRedirectPage>> | undefined;
	let credentialId: string;
	let workflowId: string;
	/** The authorization code the browser landed with. */
	let code: string;
	/** Every refresh token the simulator issued, in order (the code exchange's first). */
	const issued: string[] = [];
	/** Every access token the simulator issued. */
	const accessTokens: string[] = [];

	beforeAll(async () => {
		prepareBrowserTests();
		sim = new SpendeskSimulator({ profile: 'documented', seed: { companies: 3 } });
		// The tokens the simulator hands out, to check later that n8n never shows or logs them.
		const issueRefreshToken = sim.issueRefreshToken.bind(sim);
		sim.issueRefreshToken = (grant) => {
			const value = issueRefreshToken(grant);
			issued.push(value);
			return value;
		};
		const issueAccessToken = sim.issueAccessToken.bind(sim);
		sim.issueAccessToken = (info) => {
			const answer = issueAccessToken(info);
			accessTokens.push(answer.access_token);
			return answer;
		};
		await sim.start();
		redirect = await startRedirectPage();
		home = await createHome(await ensureN8n(target));
		// Debug level: the secret-free check at the end covers everything n8n logs.
		server = await startN8n(home, { env: { N8N_LOG_LEVEL: 'debug' } });
		session = await setupOwner(server.baseUrl);
		browser = await launchChromium();
		const context = await browser.newContext();
		context.setDefaultTimeout(UI_TIMEOUT);
		page = await context.newPage();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		await redirect?.close();
		await sim?.stop();
	});

	function note(message: string): void {
		process.stderr.write(`[partner-oauth2.e2e ${target}] ${message}\n`);
	}

	/** The editor's Test button: n8n's credential test of the saved credential. */
	async function testCredential(): Promise<{ status: string; message: string }> {
		const saved = await session.get<Record<string, unknown>>(
			`/credentials/${credentialId}?includeData=true`,
		);
		return await session.post<{ status: string; message: string }>('/credentials/test', {
			credentials: saved,
		});
	}

	/** Runs the saved workflow through the REST API and waits for its execution to end. */
	async function runWorkflow(id = workflowId) {
		const saved = await session.get<Record<string, unknown> & { id: string }>(`/workflows/${id}`);
		const { executionId } = await session.post<{ executionId: string }>(`/workflows/${id}/run`, {
			workflowData: saved,
			triggerToStartFrom: { name: 'Start' },
		});
		const execution = await waitFor(
			async () => {
				const e = await getExecution(session, home, executionId);
				return e.finished || ['success', 'error', 'crashed'].includes(e.status) ? e : undefined;
			},
			{ timeoutMs: 60_000, what: `execution ${executionId}` },
		);
		return { executionId, execution };
	}

	type Run = Awaited<ReturnType<typeof runWorkflow>>;

	function expectWalletSummary({ execution }: Run): void {
		expect(execution.data.resultData.error).toBeUndefined();
		expect(execution.status).toBe('success');
		expect(items(execution, 'Spendesk')).toEqual([
			JSON.parse(JSON.stringify(sim.data(COMPANY).walletSummary)),
		]);
	}

	/** A refresh sent straight to the simulator, as n8n sends it. */
	async function refreshDirectly(refreshToken: string) {
		const client = sim.credentials.oauthClient;
		const query = new URLSearchParams({
			client_id: client.clientId,
			client_secret: client.clientSecret,
		});
		const response = await fetch(`${sim.baseUrl}/v1/oauth2/token/refresh?${query}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: refreshToken }),
		});
		return { status: response.status, body: (await response.json()) as Record<string, unknown> };
	}

	it('connects as a user does: Test gives the address, the browser lands on the Redirect URI, the pasted address is valid', async () => {
		const client = sim.credentials.oauthClient;
		const created = await session.post<{ id: string; name: string }>('/credentials', {
			name: CREDENTIAL_NAME,
			type: TYPE,
			data: {
				environment: 'custom',
				baseUrl: sim.baseUrl,
				clientId: client.clientId,
				clientSecret: client.clientSecret,
				redirectUri: redirect!.url,
				accessLevel: 'organisation',
				experimentalFeatures: [],
			},
		});
		credentialId = created.id;
		expect(created.name).toBe(CREDENTIAL_NAME);

		const first = await testCredential();
		expect(first.status).toBe('Error');
		expect(first.message).toContain('Not connected yet. Open this address, approve');
		expect(first.message).not.toContain(client.clientSecret);
		const address = new URL(/(https?:\/\/\S+)$/.exec(first.message)![1]);
		expect(address.origin + address.pathname).toBe(`${sim.baseUrl}/v1/oauth2/authorize`);
		expect(address.searchParams.get('redirect_uri')).toBe(redirect!.url);
		expect(address.searchParams.get('client_id')).toBe(client.clientId);
		expect(address.searchParams.get('code_challenge_method')).toBe('S256');
		expect(address.searchParams.get('scope')!.split(' ')).toContain('wallet-summary:read');

		// The user opens the address; the simulator approves at once and redirects.
		await page.goto(address.toString());
		await page.waitForURL((url) => url.toString().startsWith(redirect!.url));
		const landed = page.url();
		expect(await page.locator('#landed').innerText()).toBe(
			landed.slice(new URL(landed).origin.length),
		);
		const landedUrl = new URL(landed);
		code = landedUrl.searchParams.get('code')!;
		expect(code).toMatch(/^sac_/);
		expect(landedUrl.searchParams.get('state')).toBe(address.searchParams.get('state'));
		expect(sim.requestsTo('oauthAuthorizeV1').map((r) => r.status)).toEqual([302]);

		// Pasted into Authorization Response and saved (the redacted secret stays as stored).
		const saved = await getCredential(session, credentialId);
		await session.patch(`/credentials/${credentialId}`, {
			name: saved.name,
			type: saved.type,
			data: { ...saved.data, authorizationResponse: landed },
		});
		const second = await testCredential();
		expect(second).toEqual({
			status: 'OK',
			message:
				'The authorization answer is valid. The next execution of a Spendesk node connects (within 10 minutes of approving).',
		});
		// The test never spends the code.
		expect(sim.requestsTo('oauthTokenCreate')).toEqual([]);
		note(`connected credential ${credentialId} through ${redirect!.url}`);
	});

	it('the first run exchanges the code (one JSON call, 201) and returns the wallet summary', async () => {
		expect(credentialId).toBeDefined();
		const workflow = await session.post<{ id: string }>('/workflows', {
			name: 'Spendesk Partner OAuth2 wallet summary',
			active: false,
			nodes: [
				{
					id: 'c3d2e1f0-0000-4000-8000-000000000001',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'c3d2e1f0-0000-4000-8000-000000000002',
					name: 'Spendesk',
					type: 'n8n-nodes-spendesk.spendesk',
					typeVersion: 1,
					position: [240, 0],
					parameters: {
						authentication: 'partnerOAuth2',
						resource: 'walletSummary',
						operation: 'get',
						companyScope: 'one',
						company: { __rl: true, mode: 'id', value: COMPANY },
					},
					credentials: { [TYPE]: { id: credentialId, name: CREDENTIAL_NAME } },
				},
			],
			connections: { Start: { main: [[{ node: 'Spendesk', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		});
		workflowId = workflow.id;
		sim.clearLog();
		const run = await runWorkflow();
		expectWalletSummary(run);
		const exchanges = sim.requestsTo('oauthTokenCreate');
		expect(exchanges.map((r) => r.status)).toEqual([201]);
		expect(exchanges[0].headers['content-type']).toMatch(/^application\/json/);
		expect(exchanges[0].body).toEqual({
			grant_type: 'authorization_code',
			client_id: sim.credentials.oauthClient.clientId,
			client_secret: '<redacted>',
			redirect_uri: redirect!.url,
			code: '<redacted>',
			code_verifier: '<redacted>',
		});
		expect(sim.requestsTo('oauthTokenRefresh')).toEqual([]);
		expect(issued).toHaveLength(1);
		// The code is spent: the next Test asks to connect again rather than calling it valid.
		const after = await testCredential();
		expect(after.status).toBe('Error');
		expect(after.message).toContain('This credential holds a connection');
		note(`execution ${run.executionId}: code exchanged, wallet summary of ${COMPANY}`);
	});

	it('three runs across three expiries: one JSON refresh each, client in the query, the old refresh token dead', async () => {
		expect(workflowId).toBeDefined();
		const client = sim.credentials.oauthClient;
		sim.configure({ tokenLifetimeSeconds: SHORT_LIFETIME_S });
		// The exchange's token lives an hour; from now on tokens live 3 s.
		sim.expireTokens();
		for (let run = 1; run <= 3; run++) {
			if (run > 1) await sleep(SHORT_LIFETIME_S * 1000 + 500);
			sim.clearLog();
			const before = issued.length;
			const old = issued.at(-1)!;
			expectWalletSummary(await runWorkflow());
			const refreshes = sim.requestsTo('oauthTokenRefresh');
			expect(refreshes.map((r) => r.status)).toEqual([200]);
			expect(refreshes[0].query).toEqual({
				client_id: client.clientId,
				client_secret: '<redacted>',
			});
			expect(refreshes[0].body).toEqual({
				grant_type: 'refresh_token',
				refresh_token: '<redacted>',
			});
			expect(refreshes[0].headers['content-type']).toMatch(/^application\/json/);
			expect(refreshes[0].headers.authorization).toBeUndefined();
			expect(sim.requestsTo('oauthTokenCreate')).toEqual([]);
			// The transport's 401, the same request letting n8n see the 401 (it renews), the retry.
			expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([401, 401, 200]);
			expect(issued).toHaveLength(before + 1);
			// n8n spent the previous refresh token: Spendesk refuses it now.
			const replay = await refreshDirectly(old);
			expect(replay.status).toBe(400);
			expect(replay.body.error).toBe('invalid_grant');
		}
		note('3 runs, 3 refreshes, each old refresh token refused afterwards');
	});

	it('two runs at once across an expiry both succeed, and the credential works afterwards', async () => {
		expect(workflowId).toBeDefined();
		await sleep(SHORT_LIFETIME_S * 1000 + 500);
		sim.clearLog();
		const runs = await Promise.all([runWorkflow(), runWorkflow()]);
		for (const run of runs) expectWalletSummary(run);
		const refreshes = sim.requestsTo('oauthTokenRefresh').map((r) => r.status);
		note(
			`two concurrent runs: ${refreshes.length} refresh(es) ${JSON.stringify(refreshes)}, wallet summary calls ${JSON.stringify(sim.requestsTo('walletSummary').map((r) => r.status))}`,
		);
		expect(refreshes.length).toBeGreaterThanOrEqual(1);
		expect(refreshes.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
		// The refresh token n8n holds now is a live one: a third run (after another expiry) works.
		await sleep(SHORT_LIFETIME_S * 1000 + 500);
		sim.clearLog();
		expectWalletSummary(await runWorkflow());
		expect(sim.requestsTo('oauthTokenRefresh').map((r) => r.status)).toEqual([200]);
	});

	it('a connection revoked in Spendesk: the run says to reconnect, and nothing secret is shown or logged', async () => {
		expect(workflowId).toBeDefined();
		const client = sim.credentials.oauthClient;
		sim.revokeOAuth2(client.clientId);
		sim.clearLog();
		const { execution } = await runWorkflow();
		expect(execution.status).toBe('error');
		const error = execution.data.resultData.error as Record<string, unknown> | undefined;
		note(`revoked: ${String(error?.message)} / ${String(error?.description)}`);
		expect(String(error?.message)).toMatch(
			new RegExp(`^Reconnect the credential "${CREDENTIAL_NAME}": open it, click Test`),
		);
		expect(sim.requestsTo('oauthTokenRefresh').map((r) => r.status)).toEqual([400]);

		const secrets: Array<[string, string]> = [
			['client secret', client.clientSecret],
			['code', code],
			...issued.map((t, i): [string, string] => [`refresh token ${i}`, t]),
			...accessTokens.map((t, i): [string, string] => [`access token ${i}`, t]),
		];
		const shown = JSON.stringify(execution);
		const logs = server!.logs();
		// Debug level indeed, and the whole run's log.
		expect(logs).toMatch(/debug/i);
		for (const [what, value] of secrets) {
			expect({ what, inExecution: shown.includes(value) }).toEqual({ what, inExecution: false });
			expect({ what, inLog: logs.includes(value) }).toEqual({ what, inLog: false });
		}
		note(`checked ${secrets.length} secrets against ${logs.length} characters of n8n's log`);
	});
});
