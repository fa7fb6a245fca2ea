/**
 * The node panel as n8n's editor shows it, in headless Chromium (Debian's /usr/bin/chromium
 * driven by playwright-core): one workflow holding the Spendesk node on several operations and
 * both triggers; the canvas subtitles read as words, and each node panel shows the texts of
 * n8n's guidelines for verified nodes (record pickers, file field names, no one-option company
 * selector on a write, "Trigger On"). Purchase Order → Create's pickers list what Spendesk has
 * (a custom field's Value: the values of the field chosen beside it). n8n's node panel (the
 * list of apps to add) shows the Spendesk app with the node's description, the polling
 * trigger's events and the node's actions; the examples' sticky notes show their whole text.
 * Each view is saved as a screenshot in test-output/ (editor-<view>-<target>.png).
 *
 * The panel is drawn by n8n's editor, not by n8n's version of the node API, so it runs on the
 * newest n8n of the run only. Override the browser with CHROMIUM_PATH.
 */
import { readdirSync, readFileSync } from 'node:fs';
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
import { createHome, ensureN8n, parseTargets, REPO_ROOT } from './runtime';
import type { N8nHome } from './runtime';
import { setupOwner, startN8n } from './server';
import type { N8nServer, RestSession } from './server';
import { SPENDESK_NODE, SPENDESK_TRIGGER_NODE, company } from './workflows';
import { locatorFromList } from '../support/values';

jest.setTimeout(6 * 60_000);

const targets = parseTargets();
const target = targets[targets.length - 1];

const WEBHOOK_TRIGGER_NODE = 'n8n-nodes-spendesk.spendeskWebhookTrigger';

/** The analytical field of the Create Purchase Order panel's custom field (seeded in cmp_001). */
const CUSTOM_FIELD = 'af_001_002';

/** The node as packed (the build the tarball holds): its description and Operation lists. */
const packedNode = (): {
	description: { description: string; properties: Array<{ name: string; options?: unknown[] }> };
} => {
	const { Spendesk } = jest.requireActual<{ Spendesk: new () => never }>(
		path.join(REPO_ROOT, 'dist/nodes/Spendesk/Spendesk.node.js'),
	);
	return new Spendesk();
};

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
			companies: 'one',
			company: company('cmp_001'),
		},
		subtitle: 'Get Many: Payable',
		shows: ['Return All', 'Filters', 'Output'],
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
		// Every record is a picker: User, Supplier, Cost Center, and each custom field's Field
		// and Value (the values of the field chosen in the same row).
		name: 'Create Purchase Order',
		type: SPENDESK_NODE,
		parameters: {
			resource: 'purchaseOrder',
			operation: 'create',
			company: company('cmp_001'),
			customFields: {
				field: [{ fieldId: locatorFromList(CUSTOM_FIELD), valueId: locatorFromList('') }],
			},
		},
		subtitle: 'Create: Purchase Order',
		shows: ['User', 'Cost Center', 'Custom Fields', 'Field', 'Value', 'Existing Supplier'],
		hides: ['Cost Center ID', 'Field ID', 'Value ID', 'Companies'],
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
		parameters: { event: 'newInvoice', companies: 'one', company: company('cmp_001') },
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
			companies: 'one',
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
			companies: 'one',
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
			companies: 'one',
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

	it("Purchase Order → Create: a custom field's Value lists the values of the field chosen beside it", async () => {
		await step('purchase-order-values', async () => {
			await page.goto(`${server!.baseUrl}/workflow/${workflowId}`);
			await page
				.locator('[data-test-id="canvas-node"][data-node-name="Create Purchase Order"]')
				.dblclick();
			const value = page.getByTestId('resource-locator-valueId');
			await value.scrollIntoViewIfNeeded();
			await value.getByTestId('rlc-input').click();
			const field = sim.data('cmp_001').analyticalFields.find((f) => f.id === CUSTOM_FIELD)!;
			// The first values of the field, as the list shows them ("name (id)").
			for (const v of field.values.slice(0, 3))
				await page.getByText(`${v.name} (${v.id})`, { exact: true }).waitFor();
			// Not the values of another field.
			const other = sim.data('cmp_001').analyticalFields.find((f) => f.id !== CUSTOM_FIELD)!;
			expect(await page.getByText(`(${other.values[0].id})`).count()).toBe(0);
			const file = path.join(OUTPUT_DIR, `editor-purchase-order-values-${target}.png`);
			await page.screenshot({ path: file });
			process.stderr.write(`[editor.e2e ${target}] Purchase Order → Create values: ${file}\n`);
			await page.keyboard.press('Escape');
			await page.getByTestId('ndv-close-button').click();
		});
	});

	it("n8n's node panel: the Spendesk app shows the node's description, the polling trigger's events and the node's actions", async () => {
		await step('node-panel', async () => {
			const { description } = packedNode();
			const operations = description.properties
				.filter((p) => p.name === 'operation')
				.reduce((n, p) => n + (p.options ?? []).length, 0);
			await page.goto(`${server!.baseUrl}/workflow/new`);
			// The empty canvas's "Add first step" (n8n's test IDs differ between versions).
			await page
				.locator('[data-test-id="canvas-add-button"], [data-test-id="canvas-plus-button"]')
				.first()
				.click();
			await page.getByTestId('node-creator-search-bar').fill('Spendesk');
			const names = page.getByTestId('node-creator-item-name');
			// The search filters as the panel re-renders: wait for its result, not the first list
			// (n8n's own entries such as "Trigger manually" show before it).
			await names.first().waitFor();
			let shown = await names.allInnerTexts();
			for (let i = 0; i < 150 && shown.some((name) => !name.startsWith('Spendesk')); i++) {
				await page.waitForTimeout(200);
				shown = await names.allInnerTexts();
			}
			// n8n puts a trigger under an app only when it is named after the node: the polling
			// Spendesk Trigger is under Spendesk; the Webhook Trigger is an app of its own
			// (CONTRIBUTING.md, conventions).
			expect(shown).toEqual(['Spendesk', 'Spendesk Webhook']);
			await page.screenshot({
				path: path.join(OUTPUT_DIR, `editor-node-panel-search-${target}.png`),
			});
			await names.filter({ hasText: /^Spendesk$/ }).click();
			const creator = page.getByTestId('node-creator');
			// The search's list may still slide out beside the app's view, with the same description.
			await creator.getByText(description.description, { exact: true }).first().waitFor();
			await creator.getByText('Triggers (2)').waitFor();
			await creator.getByText(`Actions (${operations})`).waitFor();
			// The app's triggers (the search's list may still slide out beside them): the polling
			// trigger's two events, none of the Webhook Trigger's.
			const items = await creator.getByTestId('node-creator-item-name').allInnerTexts();
			expect(items.filter((name) => name.startsWith('On '))).toEqual([
				'On new invoice',
				'On new or updated invoice',
			]);
			const file = path.join(OUTPUT_DIR, `editor-node-panel-spendesk-${target}.png`);
			await page.screenshot({ path: file });
			process.stderr.write(`[editor.e2e ${target}] node panel: ${file}\n`);
		});
	});

	it("every example's sticky note shows its whole text", async () => {
		await step('sticky-notes', async () => {
			const dir = path.join(REPO_ROOT, 'examples');
			const cut: string[] = [];
			for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
				const example = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
					nodes: Array<Record<string, unknown>>;
					connections: unknown;
				};
				const saved = await session.post<{ id: string }>('/workflows', {
					name: `Example ${file}`,
					active: false,
					nodes: example.nodes,
					connections: example.connections,
					settings: { executionOrder: 'v1' },
				});
				await page.goto(`${server!.baseUrl}/workflow/${saved.id}`);
				const stickies = page.getByTestId('sticky');
				await stickies.first().waitFor();
				// How far the text runs below the note, in screen pixels (0: it fits).
				const overflows = await stickies.evaluateAll((notes) =>
					notes.map((note) => {
						const box = note.getBoundingClientRect();
						const bottoms = Array.from(note.querySelectorAll('p, li, h1, h2, h3, pre, code')).map(
							(e) => e.getBoundingClientRect().bottom,
						);
						return Math.max(0, Math.ceil(Math.max(box.top, ...bottoms) - box.bottom));
					}),
				);
				if (overflows.some((px) => px > 0)) {
					cut.push(`${file}: ${overflows.join(', ')} px below the note`);
					await page.screenshot({
						path: path.join(
							OUTPUT_DIR,
							`editor-sticky-cut-${file.replace(/\.json$/, '')}-${target}.png`,
						),
					});
				}
			}
			expect(cut).toEqual([]);
		});
	});

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
