/**
 * The Spendesk OAuth2 credential in n8n's editor, in headless Chromium (Debian's
 * /usr/bin/chromium driven by playwright-core; no browser is downloaded):
 * - log in as the owner, create a "Spendesk OAuth2 API" credential through the UI (custom
 *   environment = the simulator), click the connect button; the simulator's authorize step
 *   approves and redirects to n8n's callback, n8n exchanges the code (PKCE) and stores the token;
 * - open a workflow with the Spendesk node, open the Company "From List" dropdown (companies
 *   come from the simulator through that credential), screenshot it to test-output/, pick a
 *   company, save, and run the workflow through the REST API: the wallet summary of that company;
 * - shorten the simulator's token lifetime and run it again and again: n8n refreshes the token
 *   each time, with client_id and client_secret in the refresh query as the API demands, and the
 *   rotated refresh token each time; a failing token endpoint gives an error without the secret;
 *   n8n's debug log never holds the secret.
 *
 * Override the browser with CHROMIUM_PATH.
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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

jest.setTimeout(6 * 60_000);

const targets = parseTargets();

describe.each(targets)('Spendesk OAuth2 credential in the n8n editor (%s)', (target) => {
	let sim: SpendeskSimulator;
	let home: N8nHome;
	let server: N8nServer | undefined;
	let session: RestSession;
	let browser: Browser | undefined;
	let context: BrowserContext;
	let page: Page;
	let credentialId: string;
	let credentialName: string;
	let workflowId: string;

	beforeAll(async () => {
		prepareBrowserTests();
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 10 } } });
		await sim.start();
		home = await createHome(await ensureN8n(target));
		// Debug level: the secret-free check below covers everything n8n logs about OAuth2.
		server = await startN8n(home, { env: { N8N_LOG_LEVEL: 'debug' } });
		session = await setupOwner(server.baseUrl);
		browser = await launchChromium();
		context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
		context.setDefaultTimeout(UI_TIMEOUT);
		page = await context.newPage();
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		await sim?.stop();
	});

	/** On failure, a screenshot of where the browser was, next to the error. */
	const step = (name: string, body: () => Promise<void>) =>
		browserStep(`oauth2-failure-${target}-${name}`, { page, server }, body);

	it('connects the credential through the authorize redirect', async () => {
		const started = Date.now();
		await step('login', () => signIn(page, server!.baseUrl));

		await step('create-credential', async () => {
			await page.goto(`${server!.baseUrl}/home/credentials/create`);
			await page.getByPlaceholder('Search for app...').fill('Spendesk OAuth2');
			await page.getByText('Spendesk OAuth2 API', { exact: true }).click();
			await page.getByRole('button', { name: 'Continue' }).click();
			const modal = page.getByTestId('editCredential-modal');
			// The default name ("Spendesk account") is kept: renaming inline raced with Save on n8n 2.41.
			await modal
				.getByTestId('parameter-input-clientId')
				.locator('input')
				.fill(sim.credentials.oauthClient.clientId);
			await modal
				.getByTestId('parameter-input-clientSecret')
				.locator('input')
				.fill(sim.credentials.oauthClient.clientSecret);
			await modal.getByTestId('parameter-input-environment').click();
			await page.getByRole('option', { name: /Custom Base URL/ }).click();
			await modal.getByTestId('parameter-input-baseUrl').locator('input').fill(sim.baseUrl);
			await modal.getByTestId('parameter-input-accessLevel').click();
			await page.getByRole('option', { name: /^Organisation/ }).click();
			// Get Companies needs organisation-level access, the payable picker the payables
			// search and the intake picker the intakes, three Experimental Features: the scopes asked for on Connect are the
			// documented read scopes plus those of the features ticked.
			const features = modal.getByTestId('parameter-input-experimentalFeatures');
			await features.click();
			await page.getByRole('option', { name: /^Organisation-Level Access/ }).click();
			await page.getByRole('option', { name: /^Payables Search/ }).click();
			await page.getByRole('option', { name: /^Invoices and Intakes/ }).click();
			// A second click on the field closes the list (Escape would close the modal).
			await features.click();
			// The redirect URL n8n shows is the one the simulator will be asked to redirect to.
			await expectText(modal, `${server!.baseUrl}/rest/oauth2-credential/callback`);
			await modal.getByTestId('credential-save-button').click();
			await connectButton(modal).waitFor();
		});

		// Saving is asynchronous: the connect button can show before n8n has stored the credential.
		const created = await waitFor(
			async () => {
				const list =
					await session.get<Array<{ id: string; name: string; type: string }>>('/credentials');
				const found = list.filter((c) => c.type === 'spendeskOAuth2Api');
				return found.length ? found : undefined;
			},
			{ timeoutMs: UI_TIMEOUT, what: 'the saved credential' },
		);
		expect(created).toHaveLength(1);
		credentialId = created[0].id;
		credentialName = created[0].name;
		expect((await getCredential(session, credentialId)).data?.oauthTokenData).toBeUndefined();

		await step('connect', async () => {
			const modal = page.getByTestId('editCredential-modal');
			const popup = context.waitForEvent('page');
			await connectButton(modal).click();
			// The popup goes to the simulator's /oauth2/authorize, which approves and redirects to
			// n8n's callback; n8n exchanges the code and the callback page closes itself.
			const window = await popup;
			await window.waitForEvent('close', { timeout: UI_TIMEOUT }).catch(async () => {
				throw new Error(
					`The OAuth2 popup did not close; it shows ${window.url()}:\n${(await window.content()).slice(0, 2000)}`,
				);
			});
			await modal.getByText('Account connected').waitFor();
		});

		const authorize = sim.requestsTo('oauthAuthorize');
		expect(authorize).toHaveLength(1);
		expect(authorize[0]).toMatchObject({ status: 302 });
		expect(authorize[0].query).toMatchObject({
			response_type: 'code',
			client_id: sim.credentials.oauthClient.clientId,
			redirect_uri: `${server!.baseUrl}/rest/oauth2-credential/callback`,
			code_challenge_method: 'S256',
		});
		const asked = authorize[0].query.scope.split(' ');
		expect(asked).toEqual(
			expect.arrayContaining([
				'experimental:company:read',
				'experimental:payable-search:read',
				'experimental:intake:read',
				'wallet-summary:read',
			]),
		);
		// Only the feature ticked: no experimental scope of another feature.
		expect(asked).not.toContain('experimental:webhooks:read');
		expect(
			sim
				.requestsTo('oauthToken')
				.map((r) => [r.status, (r.body as Record<string, unknown>)?.grant_type]),
		).toEqual([[200, 'authorization_code']]);
		const stored = await getCredential(session, credentialId);
		expect(stored.data).toMatchObject({
			environment: 'custom',
			baseUrl: sim.baseUrl,
			clientId: sim.credentials.oauthClient.clientId,
		});
		// n8n's REST API reports a held token as `oauthTokenData: true` without revealing it.
		expect(stored.data?.oauthTokenData).toBe(true);
		process.stderr.write(
			`[oauth2.e2e ${target}] credential ${credentialId} connected in ${Date.now() - started} ms\n`,
		);
	});

	it('lists companies in the editor and runs a workflow with the connected credential', async () => {
		expect(credentialId).toBeDefined();
		const started = Date.now();
		const workflow = await session.post<Record<string, unknown> & { id: string }>('/workflows', {
			name: 'Spendesk OAuth2 wallet summary',
			active: false,
			nodes: [
				{
					id: 'b7c1d0a2-0000-4000-8000-000000000001',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'b7c1d0a2-0000-4000-8000-000000000002',
					name: 'Spendesk',
					type: 'n8n-nodes-spendesk.spendesk',
					typeVersion: 1,
					position: [240, 0],
					parameters: {
						authentication: 'oAuth2',
						resource: 'walletSummary',
						operation: 'get',
						companyScope: 'one',
						company: { __rl: true, mode: 'list', value: '' },
					},
					credentials: { spendeskOAuth2Api: { id: credentialId, name: credentialName } },
				},
			],
			connections: { Start: { main: [[{ node: 'Spendesk', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		});

		// test-output/company-list-<target>.png, and company-list.png for the first target of the run.
		const screenshot = path.join(OUTPUT_DIR, `company-list-${target}.png`);
		await step('company-list', async () => {
			await page.goto(`${server!.baseUrl}/workflow/${workflow.id}`);
			await page.locator('[data-test-id="canvas-node"][data-node-name="Spendesk"]').dblclick();
			const locator = page.getByTestId('resource-locator-company');
			await locator.getByTestId('rlc-input').click();
			// Companies the OAuth2 token reaches, from the simulator's Get Companies.
			await page.getByTestId('rlc-item').filter({ hasText: 'Acme France SAS' }).waitFor();
			await page.getByTestId('rlc-item').filter({ hasText: 'Acme Deutschland GmbH' }).waitFor();
			await page.screenshot({ path: screenshot });
			if (target === targets[0])
				copyFileSync(screenshot, path.join(OUTPUT_DIR, 'company-list.png'));
			const names = (await page.getByTestId('rlc-item').allInnerTexts()).map((t) => t.trim());
			const active = sim.companies().filter((c) => c.active);
			expect(names.sort()).toEqual(active.map((c) => `${c.name} (${c.id})`).sort());
			// Pick the second company and save the workflow.
			await page.getByTestId('rlc-item').filter({ hasText: 'cmp_002' }).click();
			await page.getByTestId('ndv-close-button').click();
			await page.keyboard.press('Control+s');
			await waitFor(
				async () => {
					const saved = await session.get<{
						nodes: Array<{ name: string; parameters: Record<string, unknown> }>;
					}>(`/workflows/${workflow.id}`);
					const company = saved.nodes.find((n) => n.name === 'Spendesk')?.parameters.company as
						| { value?: string }
						| undefined;
					return company?.value === 'cmp_002';
				},
				{ timeoutMs: UI_TIMEOUT, what: 'the workflow saved with company cmp_002' },
			);
		});
		expect(sim.requestsTo('getCompanies').length).toBeGreaterThanOrEqual(1);
		expect(
			sim
				.requestsTo('getCompanies')
				.every((r) => r.status === 200 && r.clientId === sim.credentials.oauthClient.clientId),
		).toBe(true);

		workflowId = workflow.id;
		const { executionId, execution } = await runWorkflow(workflow.id);
		expect(execution.data.resultData.error).toBeUndefined();
		expect(execution.status).toBe('success');
		expect(items(execution, 'Spendesk')).toEqual([
			JSON.parse(JSON.stringify(sim.data('cmp_002').walletSummary)),
		]);
		const wallet = sim.requestsTo('walletSummary');
		expect(wallet.map((r) => [r.status, r.companyId, r.clientId])).toEqual([
			[200, 'cmp_002', sim.credentials.oauthClient.clientId],
		]);
		process.stderr.write(
			`[oauth2.e2e ${target}] companies listed, screenshot ${screenshot}, execution ${executionId} in ${Date.now() - started} ms\n`,
		);
	});

	it("the record pickers (From List) list the chosen company's records through n8n's resource-locator endpoint", async () => {
		expect(credentialId).toBeDefined();
		const company = 'cmp_002';
		const data = sim.data(company);
		const pickers: Array<[string, string, string, string[]]> = [
			[
				'analyticalField',
				'getValues',
				'searchAnalyticalFields',
				data.analyticalFields.map((f) => f.id),
			],
			['payable', 'get', 'searchPayables', data.payables.map((p) => p.id)],
			['supplier', 'get', 'searchSuppliers', data.suppliers.map((p) => p.id)],
			['user', 'get', 'searchUsers', data.users.map((p) => p.id)],
			['intake', 'uploadFile', 'searchIntakeRecords', data.intakes.map((p) => p.id)],
		];
		for (const [resource, operation, methodName, expected] of pickers) {
			const found = await session.post<{ results: Array<{ name: string; value: string }> }>(
				'/dynamic-node-parameters/resource-locator-results',
				{
					path: 'parameters.id',
					nodeTypeAndVersion: { name: 'n8n-nodes-spendesk.spendesk', version: 1 },
					methodName,
					currentNodeParameters: {
						authentication: 'oAuth2',
						resource,
						operation,
						companyScope: 'one',
						company: { __rl: true, mode: 'list', value: company },
					},
					credentials: { spendeskOAuth2Api: { id: credentialId, name: credentialName } },
				},
			);
			expect({ methodName, values: found.results.map((r) => r.value) }).toEqual({
				methodName,
				values: expected,
			});
		}
		process.stderr.write(
			`[oauth2.e2e ${target}] ${pickers.length} record pickers listed ${company}'s records\n`,
		);
	});

	it('keeps working across refreshes: client_id and client_secret in each refresh query, the refresh token rotated each time', async () => {
		expect(workflowId).toBeDefined();
		const client = sim.credentials.oauthClient;
		// From now on tokens live 3 s; the one from Connect has lived its hour.
		sim.configure({ tokenLifetimeSeconds: 3 });
		sim.expireTokens();
		sim.clearLog();
		const runs = 3;
		for (let run = 1; run <= runs; run++) {
			if (run > 1) await sleep(3_500); // the token the previous run got has expired
			const { execution } = await runWorkflow(workflowId);
			expect(execution.data.resultData.error).toBeUndefined();
			expect(execution.status).toBe('success');
			expect(items(execution, 'Spendesk')).toEqual([
				JSON.parse(JSON.stringify(sim.data('cmp_002').walletSummary)),
			]);
		}
		const refreshes = sim.requestsTo('oauthToken');
		// One refresh per run, each accepted: the simulator takes a refresh token once only, so n8n
		// stored the rotated one every time.
		expect(
			refreshes.map((r) => [r.status, (r.body as Record<string, unknown>).grant_type]),
		).toEqual(Array.from({ length: runs }, () => [200, 'refresh_token']));
		// The simulator's log keeps the query's names and redacts the secret's value.
		for (const r of refreshes)
			expect(r.query).toEqual({ client_id: client.clientId, client_secret: '<redacted>' });
		expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual(
			Array.from({ length: runs }, () => [401, 401, 200]).flat(),
		);
		process.stderr.write(
			`[oauth2.e2e ${target}] ${refreshes.length} refreshes with rotating refresh tokens\n`,
		);
	});

	it('a token endpoint that fails the refresh gives an error without the secret, and n8n never logs the secret', async () => {
		expect(workflowId).toBeDefined();
		const secret = sim.credentials.oauthClient.clientSecret;
		sim.clearLog();
		sim.expireTokens();
		sim.injectFault({ route: 'oauthToken', kind: 'status', status: 500, times: 50 });
		const { execution } = await runWorkflow(workflowId);
		sim.clearFaults();
		expect(execution.status).toBe('error');
		expect(sim.requestsTo('oauthToken').length).toBeGreaterThanOrEqual(1);
		expect(sim.requestsTo('oauthToken').every((r) => r.status === 500)).toBe(true);
		const error = execution.data.resultData.error as Record<string, unknown> | undefined;
		expect(error).toBeDefined();
		process.stderr.write(`[oauth2.e2e ${target}] failed refresh: ${String(error?.message)}\n`);
		// Spendesk failing is not the connection being revoked: retried, then not "Reconnect".
		expect(sim.requestsTo('oauthToken').length).toBeGreaterThan(1);
		expect(String(error?.message)).not.toMatch(/Reconnect/);
		expect(JSON.stringify(execution)).not.toContain(secret);
		expect(JSON.stringify(execution)).not.toContain(encodeURIComponent(secret));
		// The stored credential holds the token URL's expression, not a URL with the secret in it.
		const stored = await getCredential(session, credentialId);
		expect(String(stored.data?.accessTokenUrl ?? '')).not.toContain(secret);
		// n8n's own log (debug level) over the whole suite: Connect, refreshes, the failed refresh.
		expect(server!.logs()).toContain('OAuth2');
		expect(server!.logs()).not.toContain(secret);
		// And it works again once the token endpoint does.
		const { execution: again } = await runWorkflow(workflowId);
		expect(again.status).toBe('success');
	});

	/** Runs the saved workflow through the REST API and waits for its execution to end. */
	async function runWorkflow(id: string) {
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
});

/** "Connect my account" (n8n 2.8) or the not-connected banner's "Connect" (n8n 2.41). */
function connectButton(modal: ReturnType<Page['getByTestId']>) {
	return modal
		.getByTestId('oauth-connect-button')
		.or(modal.getByTestId('quick-connect-button'))
		.filter({ visible: true })
		.first();
}

async function expectText(scope: ReturnType<Page['getByTestId']>, text: string): Promise<void> {
	const inputs = await scope
		.locator('input')
		.evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
	const body = await scope.innerText();
	if (!body.includes(text) && !inputs.includes(text))
		throw new Error(`"${text}" is not shown in the credential form`);
}
