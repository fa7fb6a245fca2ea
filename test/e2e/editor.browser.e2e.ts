/**
 * The node panel as n8n's editor shows it, in headless Chromium (Debian's /usr/bin/chromium
 * driven by playwright-core): one workflow holding the Spendesk node on several operations and
 * both triggers; the canvas subtitles read as words, and each node panel shows the texts of
 * n8n's guidelines for verified nodes (record pickers, file field names, no one-option company
 * selector on a write, "Trigger On"). Each panel is saved as a screenshot in test-output/
 * (editor-<node>-<target>.png).
 *
 * The panel is drawn by n8n's editor, not by n8n's version of the node API, so it runs on the
 * newest n8n of the run only. Override the browser with CHROMIUM_PATH.
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
import { SPENDESK_NODE, SPENDESK_TRIGGER_NODE, company } from './workflows';

jest.setTimeout(6 * 60_000);

const targets = parseTargets();
const target = targets[targets.length - 1];

const WEBHOOK_TRIGGER_NODE = 'n8n-nodes-spendesk.spendeskWebhookTrigger';

interface Panel {
	/** Node name on the canvas. */
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	/** The subtitle the canvas shows under the node name. */
	subtitle: string;
	/** Texts the open panel shows. */
	shows: string[];
	/** Texts the open panel must not show. */
	hides: string[];
}

const PANELS: Panel[] = [
	{
		name: 'Payables',
		type: SPENDESK_NODE,
		parameters: {
			resource: 'payable',
			operation: 'getAll',
			companyScope: 'one',
			company: company('cmp_001'),
		},
		subtitle: 'Get Many: Payable',
		shows: ['Return All', 'Filters', 'Simplify'],
		hides: ['POST', '/v1/'],
	},
	{
		name: 'Mark Exported',
		type: SPENDESK_NODE,
		parameters: {
			resource: 'payable',
			operation: 'updateBookkeepingStatus',
			company: company('cmp_001'),
		},
		subtitle: 'Update Bookkeeping Status: Payable',
		shows: ['Payable', 'Bookkeeping Status', 'Version'],
		// A write runs on one company: no Companies selector with a single option.
		hides: ['Companies', 'One Company'],
	},
	{
		name: 'Update Supplier',
		type: SPENDESK_NODE,
		parameters: { resource: 'supplier', operation: 'update', company: company('cmp_001') },
		subtitle: 'Update: Supplier',
		shows: ['Supplier', 'Update Fields'],
		hides: ['Companies', 'Supplier ID'],
	},
	{
		name: 'Upload File',
		type: SPENDESK_NODE,
		parameters: {
			resource: 'intake',
			operation: 'uploadFile',
			company: company('cmp_001'),
		},
		subtitle: 'Upload File: Intake',
		shows: ['Input Data Field Name', 'Intake'],
		hides: ['Binary Property'],
	},
	{
		name: 'New Invoices',
		type: SPENDESK_TRIGGER_NODE,
		parameters: { event: 'newInvoice', companyScope: 'one', company: company('cmp_001') },
		subtitle: 'New Invoice',
		shows: ['Trigger On', 'New Invoice'],
		hides: [],
	},
	{
		// The event from an expression: the subtitle still reads as words.
		name: 'Changed Invoices',
		type: SPENDESK_TRIGGER_NODE,
		parameters: {
			event: '={{ "newOrUpdatedInvoice" }}',
			companyScope: 'one',
			company: company('cmp_001'),
		},
		subtitle: 'New or Updated Invoice',
		shows: ['Trigger On'],
		hides: [],
	},
	{
		name: 'Payable Events',
		type: WEBHOOK_TRIGGER_NODE,
		parameters: {
			events: ['payables:created', 'settlements:created'],
			companyScope: 'one',
			company: company('cmp_001'),
		},
		subtitle: 'Payable Created, Settlement Created',
		shows: ['Trigger On', 'Payable Created'],
		hides: ['payables:created'],
	},
	{
		name: 'Prepared Payables',
		type: WEBHOOK_TRIGGER_NODE,
		parameters: {
			events: '={{ ["payables:prepared"] }}',
			companyScope: 'one',
			company: company('cmp_001'),
		},
		subtitle: 'Payable Prepared',
		shows: ['Trigger On'],
		hides: [],
	},
];

describe(`the node panel in n8n's editor (${target})`, () => {
	let sim: SpendeskSimulator;
	let home: N8nHome;
	let server: N8nServer | undefined;
	let session: RestSession;
	let browser: Browser | undefined;
	let page: Page;
	let workflowId: string;

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
		const ref = { id: credential.id, name: credential.name };
		const workflow = await session.post<{ id: string }>('/workflows', {
			name: 'Spendesk editor texts',
			active: false,
			nodes: PANELS.map((panel, index) => ({
				id: `c3d2e1f0-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
				name: panel.name,
				type: panel.type,
				typeVersion: 1,
				position: [index * 260, 0],
				parameters: { authentication: 'apiKey', ...panel.parameters },
				credentials: { spendeskApi: ref },
			})),
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		workflowId = workflow.id;
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

	/** On failure, a screenshot of where the browser was, next to the error. */
	const step = (name: string, body: () => Promise<void>) =>
		browserStep(`editor-failure-${target}-${name}`, { page, server }, body);

	const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

	it('the canvas shows each node with a subtitle in words', async () => {
		await step('canvas', async () => {
			await page.goto(`${server!.baseUrl}/workflow/${workflowId}`);
			for (const panel of PANELS) {
				const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${panel.name}"]`);
				await node.waitFor();
				await expectWithin(node, panel.subtitle);
			}
			await page.screenshot({ path: path.join(OUTPUT_DIR, `editor-canvas-${target}.png`) });
		});
	});

	it.each(PANELS.map((panel) => [panel.name, panel] as const))(
		'the panel of "%s" shows the new texts',
		async (_name, panel) => {
			await step(slug(panel.name), async () => {
				await page.goto(`${server!.baseUrl}/workflow/${workflowId}`);
				await page
					.locator(`[data-test-id="canvas-node"][data-node-name="${panel.name}"]`)
					.dblclick();
				const parameters = page.getByTestId('node-parameters');
				await parameters.waitFor();
				for (const text of panel.shows) await expectWithin(parameters, text);
				const shown = await shownIn(parameters);
				for (const text of panel.hides) expect(shown).not.toContain(text);
				const file = path.join(OUTPUT_DIR, `editor-${slug(panel.name)}-${target}.png`);
				await page.screenshot({ path: file });
				process.stderr.write(`[editor.e2e ${target}] ${panel.name}: ${file}\n`);
				await page.getByTestId('ndv-close-button').click();
			});
		},
	);

	/** What `scope` shows: its text and the values of its fields (a chosen option shows as a value). */
	async function shownIn(scope: ReturnType<Page['locator']>): Promise<string> {
		const values = await scope
			.locator('input, textarea')
			.evaluateAll((fields) => fields.map((field) => (field as HTMLInputElement).value));
		return `${await scope.innerText()}\n${values.join('\n')}`;
	}

	/** Waits until `text` shows inside `scope` (as text or as a field's value); fails with what is shown instead. */
	async function expectWithin(scope: ReturnType<Page['locator']>, text: string): Promise<void> {
		const deadline = Date.now() + UI_TIMEOUT;
		let shown = '';
		while (Date.now() < deadline) {
			shown = await shownIn(scope);
			if (shown.includes(text)) return;
			await page.waitForTimeout(250);
		}
		throw new Error(`"${text}" is not shown; shown: ${shown.slice(0, 1500)}`);
	}
});
