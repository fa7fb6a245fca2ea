/**
 * An error as the user sees it in n8n's editor, in headless Chromium: a workflow run from the
 * canvas ("Execute workflow") whose Spendesk node fails, then the node opened: its output panel
 * shows the message and the description the node gave, in the words of the panel (the operation
 * named as the panel shows it, parameter names in quotes: docs/errors.md#error-messages). Two
 * failures: Payable → Get Many refused by Spendesk's experimental API (a 403 on the payables
 * search), and a company outside the organisation typed in 'Company'. Each open panel is saved as
 * a screenshot in test-output/ (editor-error-<case>-<target>.png).
 *
 * The panel is drawn by n8n's editor, so this runs on the newest n8n of the run only, as
 * editor.browser.e2e.ts does. Override the browser with CHROMIUM_PATH.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SpendeskSimulator } from '../simulator';
import {
	browserStep,
	launchChromium,
	OUTPUT_DIR,
	prepareBrowserTests,
	signIn,
	UI_TIMEOUT,
} from './browser';
import { createHome, ensureN8n, parseTargets } from './runtime';
import type { N8nHome } from './runtime';
import { setupOwner, startN8n } from './server';
import type { N8nServer, RestSession } from './server';
import { company, manualTrigger, spendeskNode, workflow } from './workflows';
import type { CredentialRef } from './workflows';

jest.setTimeout(6 * 60_000);

const targets = parseTargets();
const target = targets[targets.length - 1];

interface ErrorCase {
	slug: string;
	/** The Spendesk node's name on the canvas. */
	node: string;
	parameters: Record<string, unknown>;
	/** What the simulator does before the run (the failure to show). */
	arrange?: (sim: SpendeskSimulator) => void;
	/** The message and description the output panel must show, as the node gave them. */
	message: string;
	description: string;
}

const CASES: ErrorCase[] = [
	{
		slug: 'experimental-api',
		node: 'Payables To Export',
		parameters: {
			resource: 'payable',
			operation: 'getAll',
			companies: 'one',
			company: company('cmp_001'),
			limit: 5,
		},
		// The organisation's key lacks the payables search, as a key without experimental access does.
		arrange: (sim) =>
			sim.injectFault({
				route: 'searchPayables',
				kind: 'status',
				status: 403,
				detail: 'Missing scope: experimental:payable-search:read',
				times: 10,
			}),
		message:
			'Payable → Get Many uses Spendesk\'s experimental API, and the credential "Spendesk simulator" has no access to it for company "cmp_001"',
		description:
			'Ask your Spendesk contact to enable experimental access for this key (scope "experimental:payable-search:read")',
	},
	{
		slug: 'foreign-company',
		node: 'Wallet Of Another Company',
		parameters: { resource: 'walletSummary', operation: 'get', company: company('cmp_999') },
		message: 'Company "cmp_999" does not belong to your organisation',
		description: "Check the company ID, or pick the company from the list in 'Company'.",
	},
];

describe(`an error in n8n's editor (${target})`, () => {
	let sim: SpendeskSimulator;
	let home: N8nHome;
	let server: N8nServer | undefined;
	let session: RestSession;
	let browser: Browser | undefined;
	let page: Page;
	const workflowIds = new Map<string, string>();

	beforeAll(async () => {
		prepareBrowserTests();
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 5 } } });
		await sim.start();
		home = await createHome(await ensureN8n(target));
		server = await startN8n(home);
		session = await setupOwner(server.baseUrl);
		const key = sim.credentials.orgKey;
		const credential = await session.post<{ id: string; name: string }>('/credentials', {
			name: 'Spendesk simulator',
			type: 'spendeskApi',
			data: {
				environment: 'custom',
				baseUrl: sim.baseUrl,
				clientId: key.clientId,
				clientSecret: key.clientSecret,
				accessLevel: 'organisation',
				sessionToken: '',
			},
		});
		const ref: CredentialRef = { id: credential.id, name: credential.name, type: 'spendeskApi' };
		for (const [index, errorCase] of CASES.entries()) {
			const nodes = [
				manualTrigger('Start', [0, 0]),
				spendeskNode(errorCase.node, errorCase.parameters, ref, [260, 0]),
			];
			const {
				name,
				nodes: saved,
				connections,
				settings,
			} = workflow(`e2e-error-${index}`, `Spendesk error: ${errorCase.slug}`, nodes, [
				['Start', errorCase.node],
			]);
			const created = await session.post<{ id: string }>('/workflows', {
				name,
				active: false,
				nodes: saved,
				connections,
				settings,
			});
			workflowIds.set(errorCase.slug, created.id);
		}
		browser = await launchChromium();
		const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
		context.setDefaultTimeout(UI_TIMEOUT);
		page = await context.newPage();
		await signIn(page, server.baseUrl);
	});

	afterAll(async () => {
		await browser?.close();
		await server?.stop();
		await sim?.stop();
	});

	it.each(CASES.map((errorCase) => [errorCase.slug, errorCase] as const))(
		'%s: the node panel shows the message and what to do',
		async (slug, errorCase) => {
			await browserStep(`editor-error-failure-${target}-${slug}`, { page, server }, async () => {
				sim.clearFaults();
				errorCase.arrange?.(sim);
				await page.goto(`${server!.baseUrl}/workflow/${workflowIds.get(slug)}`);
				const node = page.locator(
					`[data-test-id="canvas-node"][data-node-name="${errorCase.node}"]`,
				);
				await node.waitFor();
				await page.getByTestId('execute-workflow-button').first().click();
				// The run ends with the node marked as failed (a notification says so); its panel shows why.
				await page
					.getByText(new RegExp(`Problem in node .${errorCase.node}.`))
					.first()
					.waitFor();
				await node.dblclick();
				const message = page.getByTestId('node-error-message').first();
				await message.waitFor();
				expect((await message.innerText()).trim()).toBe(errorCase.message);
				const description = page.getByTestId('node-error-description').first();
				expect(await description.innerText()).toContain(errorCase.description);
				const file = path.join(OUTPUT_DIR, `editor-error-${slug}-${target}.png`);
				await page.screenshot({ path: file });
				process.stderr.write(`[errors.e2e ${target}] ${slug}: ${file}\n`);
				await page.getByTestId('ndv-close-button').click();
			});
		},
	);
});
