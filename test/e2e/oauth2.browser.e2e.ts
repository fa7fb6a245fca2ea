/**
 * The Spendesk OAuth2 credential in real n8n, against the simulator's documented contract
 * (docs/api.md#oauth2), the way a user connects it, in the editor (headless Chromium):
 * - create the credential: the notice says how to connect, and nothing is red; save: the Test
 *   passes and still nothing is red (screenshots test-output/oauth2-<target>-*.png);
 * - run a workflow: the node's error "Connect the credential …" holds a link to Spendesk's
 *   approval page; click it: the simulator approves and sends the browser to the Redirect URI,
 *   n8n's own OAuth callback URL (which shows an error page; the address is what counts);
 * - paste an address that is not the answer: the Test is red (so the check above can fail);
 *   paste the address the browser landed on: the notice says the next run connects, the
 *   field is plain text, the Test passes; run: the code is exchanged (one JSON call, 201) and
 *   the node returns the simulator's data;
 * - with 3-second access tokens, three runs across three expiries: one refresh each, JSON body,
 *   client in the query, the old refresh token refused afterwards;
 * - two runs at once across an expiry both succeed, and a third after them;
 * - once the connection is revoked in Spendesk, a run fails with "Reconnect the credential",
 *   and neither the execution nor n8n's debug log holds the secret, a refresh token or the code.
 *
 * Override the browser with CHROMIUM_PATH.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { SpendeskSimulator } from '../simulator';
import { sleep } from '../support/time';
import { createHome, ensureN8n, parseTargets } from './runtime';
import {
	browserStep,
	launchChromium,
	OUTPUT_DIR,
	prepareBrowserTests,
	signIn,
	UI_TIMEOUT,
} from './browser';
import type { N8nHome } from './runtime';
import { getCredential, getExecution, setupOwner, startN8n, waitFor } from './server';
import type { N8nServer, RestSession } from './server';
import { items } from './workflows';

const TYPE = 'spendeskOAuth2Api';
const COMPANY = 'cmp_002';
/** Access tokens issued after the first run live this long (the simulator's option). */
const SHORT_LIFETIME_S = 3;

jest.setTimeout(8 * 60_000);

const targets = parseTargets();

describe.each(targets)('Spendesk OAuth2 credential in real n8n (%s)', (target) => {
	let sim: SpendeskSimulator;
	let home: N8nHome;
	let server: N8nServer | undefined;
	let session: RestSession;
	let browser: Browser | undefined;
	let context: BrowserContext;
	let page: Page;
	let credentialId: string;
	/** The name n8n gave the new credential. */
	let credentialName: string;
	let workflowId: string;
	/** The authorization code the browser landed with. */
	let code: string;
	/** Every refresh token the simulator issued, in order (the code exchange's first). */
	const issued: string[] = [];
	/** Every access token the simulator issued. */
	const accessTokens: string[] = [];
	/** The screenshots taken, in order. */
	const shots: string[] = [];

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
		home = await createHome(await ensureN8n(target));
		// Debug level: the secret-free check at the end covers everything n8n logs.
		server = await startN8n(home, { env: { N8N_LOG_LEVEL: 'debug' } });
		session = await setupOwner(server.baseUrl);
		browser = await launchChromium();
		context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
		context.setDefaultTimeout(UI_TIMEOUT);
		page = await context.newPage();
		await signIn(page, server.baseUrl);
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		await sim?.stop();
	});

	function note(message: string): void {
		process.stderr.write(`[oauth2.e2e ${target}] ${message}\n`);
	}

	/** On failure, a screenshot of where the browser was, next to the error. */
	const step = (name: string, body: () => Promise<void>) =>
		browserStep(`oauth2-failure-${target}-${name}`, { page, server }, body);

	/** A screenshot of the page, kept in test-output/. */
	async function shot(name: string, of: Page = page): Promise<void> {
		const file = path.join(OUTPUT_DIR, `oauth2-${target}-${name}.png`);
		await of.screenshot({ path: file });
		shots.push(file);
	}

	/**
	 * What n8n shows in red in the credential modal: its danger banners ("Couldn't connect with
	 * these settings", "Please check the errors below") and a required field's error.
	 */
	async function redShown(modal: Locator): Promise<string[]> {
		const red = [
			modal.locator('.el-tag--danger'),
			modal.getByText(/Couldn.t connect with these settings/),
			modal.getByText(/check the errors below/i),
			modal.getByText('This field is required'),
		];
		const shown: string[] = [];
		for (const locator of red)
			for (const element of await locator.all())
				if (await element.isVisible()) shown.push((await element.innerText()).slice(0, 200));
		return shown;
	}

	/** The editor's Test, as n8n runs it on Save: the result for the saved credential. */
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

	/** The credential modal, opened on the saved credential. */
	async function openCredential(): Promise<Locator> {
		await page.goto(`${server!.baseUrl}/home/credentials/${credentialId}`);
		const modal = page.getByTestId('editCredential-modal');
		await modal.getByTestId('parameter-input-authorizationResponse').waitFor();
		return modal;
	}

	/** Pastes into Authorization Response, saves, and waits for n8n's Test on Save. */
	async function pasteAndSave(modal: Locator, pasted: string): Promise<void> {
		const field = modal.getByTestId('parameter-input-authorizationResponse').locator('input');
		await field.fill(pasted);
		await modal.getByTestId('credential-save-button').click();
		await waitFor(
			async () => {
				const stored = await getCredential(session, credentialId);
				return stored.data?.authorizationResponse === pasted ? true : undefined;
			},
			{ timeoutMs: UI_TIMEOUT, what: 'the pasted answer saved' },
		);
	}

	/** Runs the workflow from the editor (its Execute button) and opens the Spendesk node. */
	async function runInEditor(): Promise<Locator> {
		await page.goto(`${server!.baseUrl}/workflow/${workflowId}`);
		await page.getByTestId('execute-workflow-button').click();
		await waitFor(
			async () => {
				const runs = await session.get<{ results: Array<{ status: string }> }>(
					`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=1`,
				);
				const status = runs.results[0]?.status;
				return status && status !== 'running' && status !== 'new' ? status : undefined;
			},
			{ timeoutMs: 60_000, what: 'the run from the editor' },
		);
		await page.locator('[data-test-id="canvas-node"][data-node-name="Spendesk"]').dblclick();
		const panel = page.getByTestId('ndv');
		await panel.waitFor();
		return panel;
	}

	it("connects as a user does, in the editor: notice, save, the run's link, approve, paste, save, run", async () => {
		const client = sim.credentials.oauthClient;
		const callback = `${server!.baseUrl}/rest/oauth2-credential/callback`;

		await step('new-credential', async () => {
			await page.goto(`${server!.baseUrl}/home/credentials/create`);
			await page.getByPlaceholder('Search for app...').fill('Spendesk Partner App');
			await page.getByText('Spendesk Partner App OAuth2 API', { exact: true }).click();
			await page.getByRole('button', { name: 'Continue' }).click();
			const modal = page.getByTestId('editCredential-modal');
			await modal.getByText('Connecting takes one paste').waitFor();
			// n8n names it after the display name, unlike the API key's "Spendesk account".
			await expect(modal.getByTestId('credential-name').innerText()).resolves.toBe(
				'Spendesk Partner App account',
			);
			await shot('1-new-credential');
			expect(await redShown(modal)).toEqual([]);
		});

		await step('fill-and-save', async () => {
			const modal = page.getByTestId('editCredential-modal');
			const input = (name: string) => modal.getByTestId(`parameter-input-${name}`).locator('input');
			await input('clientId').fill(client.clientId);
			await input('clientSecret').fill(client.clientSecret);
			await modal.getByTestId('parameter-input-environment').click();
			await page.getByRole('option', { name: /Custom Base URL/ }).click();
			await input('baseUrl').fill(sim.baseUrl);
			await input('redirectUri').fill(callback);
			await modal.getByTestId('parameter-input-accessLevel').click();
			await page.getByRole('option', { name: /^Organisation/ }).click();
			// The answer is plain text: a one-time code, not a secret kept.
			expect(
				await modal
					.getByTestId('parameter-input-authorizationResponse')
					.locator('input')
					.getAttribute('type'),
			).not.toBe('password');
			await modal.getByTestId('credential-save-button').click();
			await modal.getByTestId('credentials-config-container-test-success').waitFor();
			await shot('2-saved');
			expect(await redShown(modal)).toEqual([]);
			await modal.getByText('Connecting takes one paste').waitFor();
		});

		const created = await waitFor(
			async () => {
				const list =
					await session.get<Array<{ id: string; name: string; type: string }>>('/credentials');
				const found = list.filter((c) => c.type === TYPE);
				return found.length ? found : undefined;
			},
			{ timeoutMs: UI_TIMEOUT, what: 'the saved credential' },
		);
		expect(created).toHaveLength(1);
		credentialId = created[0].id;
		credentialName = created[0].name;
		expect(credentialName).toBe('Spendesk Partner App account');
		expect(await testCredential()).toEqual({
			status: 'OK',
			message:
				'Settings complete. Not connected yet: the next run of a Spendesk node gives the approval link.',
		});

		const workflow = await session.post<{ id: string }>('/workflows', {
			name: 'Spendesk OAuth2 wallet summary',
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
						authentication: 'oAuth2',
						resource: 'walletSummary',
						operation: 'get',
						companies: 'one',
						company: { __rl: true, mode: 'id', value: COMPANY },
					},
					credentials: { [TYPE]: { id: credentialId, name: credentialName } },
				},
			],
			connections: { Start: { main: [[{ node: 'Spendesk', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		});
		workflowId = workflow.id;

		let landed = '';
		await step('run-gives-the-link', async () => {
			sim.clearLog();
			const panel = await runInEditor();
			const message = panel.getByTestId('node-error-message').first();
			await message.waitFor();
			expect(await message.innerText()).toBe(
				`Connect the credential "${credentialName}" to Spendesk: approve at the link below, then paste the address you land on into the credential and save`,
			);
			const link = panel
				.getByTestId('node-error-description')
				.getByRole('link', { name: "Spendesk's approval page" });
			await link.waitFor();
			const href = new URL((await link.getAttribute('href'))!);
			expect(href.origin + href.pathname).toBe(`${sim.baseUrl}/v1/oauth2/authorize`);
			expect(href.searchParams.get('redirect_uri')).toBe(callback);
			expect(href.searchParams.get('client_id')).toBe(client.clientId);
			expect(href.searchParams.get('code_challenge_method')).toBe('S256');
			expect(href.searchParams.get('scope')!.split(' ')).toContain('wallet-summary:read');
			await shot('3-run-gives-the-link');
			// No call reached Spendesk: nothing to call with.
			expect(sim.log).toEqual([]);

			// The user clicks the link; Spendesk (the simulator) approves at once and sends the
			// browser to the Redirect URI, n8n's own callback, which shows an error page of its own.
			const opened = context.waitForEvent('page');
			await link.click();
			const approval = await opened;
			await approval.waitForURL((url) => url.toString().startsWith(callback));
			await approval.waitForLoadState();
			landed = approval.url();
			await shot('4-landed-on-the-redirect-uri', approval);
			await approval.close();
			const landedUrl = new URL(landed);
			code = landedUrl.searchParams.get('code')!;
			expect(code).toMatch(/^sac_/);
			expect(landedUrl.searchParams.get('state')).toBe(href.searchParams.get('state'));
			expect(sim.requestsTo('oauthAuthorize').map((r) => r.status)).toEqual([302]);
		});

		await step('wrong-paste-is-red', async () => {
			// The check for red can fail: an answer that is not this credential's is an error.
			const modal = await openCredential();
			await pasteAndSave(modal, landed.replace(/state=[^&]+/, 'state=not.ours'));
			await modal.getByText(/Couldn.t connect with these settings/).waitFor();
			await shot('5-wrong-paste-is-red');
			expect((await redShown(modal)).length).toBeGreaterThan(0);
		});

		await step('paste-and-save', async () => {
			const modal = await openCredential();
			const field = modal.getByTestId('parameter-input-authorizationResponse').locator('input');
			await field.fill('');
			await modal.getByText('Connecting takes one paste').waitFor();
			await field.fill(landed);
			await shot('6-pasted');
			const pasted = modal.getByText('Authorization Response pasted. Once it is saved');
			await pasted.scrollIntoViewIfNeeded();
			// The red banner of the wrong paste stays until this one is saved and tested.
			await shot('6b-pasted-notice');
			await modal.getByTestId('credential-save-button').click();
			await modal.getByTestId('credentials-config-container-test-success').waitFor();
			await shot('7-pasted-and-saved');
			expect(await redShown(modal)).toEqual([]);
			// The Test never spends the code.
			expect(sim.requestsTo('oauthTokenCreate')).toEqual([]);
			expect(await testCredential()).toEqual({
				status: 'OK',
				message:
					"The pasted answer is this credential's: the next run of a Spendesk node connects (start it within 10 minutes of approving).",
			});
		});

		await step('run-connects', async () => {
			sim.clearLog();
			const panel = await runInEditor();
			const wallet = sim.data(COMPANY).walletSummary;
			await panel.getByTestId('output-panel').getByText(wallet.currency).first().waitFor();
			const runs = await session.get<{ results: Array<{ id: string; status: string }> }>(
				`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=1`,
			);
			const last = runs.results[0];
			expectWalletSummary({
				executionId: last.id,
				execution: await getExecution(session, home, last.id),
			});
			await shot('8-run-connects');
			const exchanges = sim.requestsTo('oauthTokenCreate');
			expect(exchanges.map((r) => r.status)).toEqual([201]);
			expect(exchanges[0].headers['content-type']).toMatch(/^application\/json/);
			expect(exchanges[0].body).toEqual({
				grant_type: 'authorization_code',
				client_id: client.clientId,
				client_secret: '<redacted>',
				redirect_uri: callback,
				code: '<redacted>',
				code_verifier: '<redacted>',
			});
			expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([200]);
			expect(issued).toHaveLength(1);
		});

		// Saved by n8n: the tokens, the paste emptied, the connection held.
		const stored = await getCredential(session, credentialId);
		expect(stored.data?.authorizationResponse ?? '').toBe('');
		expect(await testCredential()).toEqual({
			status: 'OK',
			message:
				'Settings complete, and the credential holds a connection: runs renew access by themselves.',
		});
		note(`screenshots:\n  ${shots.join('\n  ')}`);
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
		expect(String(error?.message)).toBe(
			`Reconnect the credential "${credentialName}" to Spendesk: approve at the link below, then paste the address you land on into the credential and save`,
		);
		expect(String(error?.description)).toContain(`href="${sim.baseUrl}/v1/oauth2/authorize?`);
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
