/**
 * Purchase orders in real n8n (`n8n execute`), with the example
 * examples/purchase-order-from-form.json: its Form Trigger cannot start under `n8n execute`, so
 * a manual trigger and an Edit Fields node named like it give the item n8n's Form Trigger
 * gives for a submission (one field per form label, `submittedAt`, `formMode`). The requester's
 * email picks the user, the purchase order is created for them with the supplier by name, the
 * amounts (sent in minor units with currency and precision), the period (ISO date-times in the
 * workflow's time zone) and the cost center the builder picked in the node, in the body a
 * public client sent to the vendor's sandbox; then it is read (Get), closed, another open one is cancelled, and the
 * open ones are listed (Get Many with a status filter). Every result is compared with the
 * simulator's data, against both simulator profiles in one n8n home (docs/api.md#purchase-orders,
 * docs/api.md#the-documented-profile): the documented profile's company key holds the
 * experimental purchase-order scopes only because it was granted them, as Spendesk does on
 * request.
 *
 * The same n8n runs Supplier → Get Many on a page answered as a bare array, and on an answer
 * that is no list at all: the first gives the suppliers, the second an error naming the
 * operation as the editor shows it (docs/api.md#page-lists), read from the node's parameters
 * as n8n hands them over.
 *
 * The Webhook Trigger's update of an instance in place is not run here: n8n deletes a
 * trigger's instances on every deactivation or change of an active workflow, so a real n8n
 * reaches that update only when it activates a changed trigger without deactivating it first
 * (a restart); test/integration/webhook-trigger.test.ts drives it through n8n's hook calls.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SpendeskSimulator } from '../simulator';
import { purchaseOrdersOf } from '../simulator/purchaseOrders';
import { plain } from '../support/values';
import { createHome, ensureN8n, oneTarget } from './runtime';
import type { N8nHome } from './runtime';
import {
	apiKeyCredential,
	batchWorkflow,
	EXAMPLE_CREDENTIAL_ID,
	EXAMPLES_DIR,
	execute,
	importCredentials,
	importWorkflows,
	items,
	loadExample,
	manualTrigger,
	setNode,
	spendeskNode,
} from './workflows';
import type { CredentialRef, Execution, Workflow } from './workflows';

jest.setTimeout(10 * 60_000);

const EXAMPLE = 'purchase-order-from-form.json';
const FORM = 'Purchase Request Form';
const CREATE = 'Create Purchase Order';
const SCOPES = ['experimental:purchase-order:read', 'experimental:purchase-order:write'];
const PROFILES = ['specification', 'documented'] as const;
/** The workflow's time zone: the form's dates are midnight there. */
const TIMEZONE = 'Europe/Paris';
const eur = (amount: number) => ({ amount, currency: 'EUR', precision: 2 });
type Profile = (typeof PROFILES)[number];

/** What the form's submission gives: the example's labels, as n8n's Form Trigger outputs them. */
const SUBMISSION = {
	Supplier: 'Northwind Printing',
	Amount: 1200.5,
	'Net Amount': 1000.42,
	'Start Date': '2026-04-01',
	'End Date': '2026-06-30',
	submittedAt: '2026-03-20T09:15:00.000+01:00',
	formMode: 'production',
};

const credentialOf = (profile: Profile): CredentialRef => ({
	id: `poCompanyKey${profile}`,
	name: `Spendesk company key (${profile} simulator)`,
});

/**
 * The example with its Form Trigger replaced by a manual trigger and an Edit Fields node of the
 * trigger's name, then, after the creation: Get it, Close it; Cancel another open one; list
 * the open ones. Branches run top to bottom (execution order v1), so the list comes last.
 */
function purchaseOrderWorkflow(
	id: string,
	credential: CredentialRef,
	email: string,
	other: string,
	costCenter: string,
): Workflow {
	const example = loadExample(EXAMPLE, id, credential);
	// What the builder does after import: pick the Cost Center (By ID here) and, here, the time zone.
	const create = example.nodes.find((n) => n.name === CREATE)!;
	create.parameters.costCenterId = { __rl: true, mode: 'id', value: costCenter };
	example.settings = { ...example.settings, timezone: TIMEZONE };
	const form = example.nodes.find((n) => n.name === FORM)!;
	const start = manualTrigger('Start', [form.position[0] - 240, form.position[1]]);
	const submission = setNode(
		FORM,
		Object.fromEntries(
			Object.entries({ 'Requester Email': email, ...SUBMISSION }).map(([name, value]) => [
				name,
				{ value },
			]),
		),
		form.position,
	);
	const at = (column: number, row: number): [number, number] => [1120 + column * 240, row * 200];
	const byId = (value: string) => ({ __rl: true, mode: 'id', value });
	const one = { companies: 'one', company: { __rl: true, mode: 'list', value: '' } };
	const po = { resource: 'purchaseOrder', ...one };
	const added = [
		spendeskNode(
			'Get Purchase Order',
			{ ...po, operation: 'get', purchaseOrderId: byId('={{ $json.id }}') },
			credential,
			at(0, 0),
		),
		spendeskNode(
			'Close Purchase Order',
			{ ...po, operation: 'close', purchaseOrderId: byId('={{ $json.id }}') },
			credential,
			at(1, 0),
		),
		spendeskNode(
			'Cancel Another',
			{ ...po, operation: 'cancel', purchaseOrderId: byId(other) },
			credential,
			at(0, 1),
		),
		spendeskNode(
			'Open Purchase Orders',
			{ ...po, operation: 'getAll', returnAll: true, filters: { status: ['open'] } },
			credential,
			at(1, 1),
		),
	];
	const link = (to: string) => ({ node: to, type: 'main' as const, index: 0 });
	const connections = { ...example.connections };
	delete connections[FORM];
	return {
		...example,
		nodes: [...example.nodes.filter((n) => n.name !== FORM), start, submission, ...added],
		connections: {
			...connections,
			Start: { main: [[link(FORM)]] },
			[FORM]: example.connections[FORM],
			[CREATE]: { main: [[link('Get Purchase Order'), link('Cancel Another')]] },
			'Get Purchase Order': { main: [[link('Close Purchase Order')]] },
			'Cancel Another': { main: [[link('Open Purchase Orders')]] },
		},
	};
}

describe.each(oneTarget())('purchase orders in real n8n (%s)', (target) => {
	const sims = {} as Record<Profile, SpendeskSimulator>;
	const runs = {} as Record<Profile, Execution>;
	const listRuns = {} as Record<Profile, Execution>;
	let home: N8nHome;

	beforeAll(async () => {
		for (const profile of PROFILES) {
			sims[profile] = new SpendeskSimulator({
				profile,
				seed: { companies: 2, sizes: { invoices: 1, payables: 2, suppliers: 3, users: 4 } },
				// As Spendesk grants the experimental purchase-order API on request.
				grantScopes: { 'sim-company-client': SCOPES },
			});
			await sims[profile].start();
		}
		home = await createHome(await ensureN8n(target));
		await importCredentials(
			home,
			PROFILES.map((profile) =>
				apiKeyCredential(
					credentialOf(profile),
					sims[profile].baseUrl,
					sims[profile].credentials.companyKey,
				),
			),
		);
		const workflows = PROFILES.map((profile) => {
			const sim = sims[profile];
			const own = sim.credentials.companyKey.companyId!;
			const requester = sim.data(own).users[1];
			const other = purchaseOrdersOf(sim, own).find((o) => o.status === 'open')!;
			return purchaseOrderWorkflow(
				`e2ePurchaseOrders${profile}`,
				credentialOf(profile),
				// As typed in the form: other case, spaces around.
				` ${requester.email.toUpperCase()} `,
				other.id,
				sim.data(own).costCenters[1].id,
			);
		});
		const suppliers = (name: string, profile: Profile, extra = {}) =>
			spendeskNode(
				name,
				{ resource: 'supplier', operation: 'getAll', returnAll: true, companies: 'one' },
				credentialOf(profile),
				[0, 0],
				extra,
			);
		const lists = PROFILES.map((profile) =>
			batchWorkflow(`e2eLists${profile}`, `Bare lists (${profile})`, [
				[suppliers('Suppliers As Array', profile)],
				[suppliers('Suppliers Unreadable', profile, { onError: 'continueRegularOutput' })],
			]),
		);
		await importWorkflows(home, [...workflows, ...lists]);
		for (const profile of PROFILES) {
			sims[profile].clearLog();
			runs[profile] = await execute(home, `e2ePurchaseOrders${profile}`);
			// The first list answered as a bare array, the second with no list at all.
			sims[profile].injectFault({ route: 'listSuppliers', kind: 'bareArray' });
			sims[profile].injectFault({ route: 'listSuppliers', kind: 'setFields', set: { data: 'x' } });
			listRuns[profile] = await execute(home, `e2eLists${profile}`);
		}
	});

	afterAll(async () => {
		for (const profile of PROFILES) await sims[profile]?.stop();
	});

	it('the example starts with a Form Trigger and uses the placeholder credential', () => {
		const example = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, EXAMPLE), 'utf8')) as Workflow;
		expect(example.nodes.find((n) => n.name === FORM)?.type).toBe('n8n-nodes-base.formTrigger');
		const refs = example.nodes.flatMap((n) => Object.values(n.credentials ?? {}));
		expect(refs.length).toBe(2);
		expect(refs.every((r) => r.id === EXAMPLE_CREDENTIAL_ID)).toBe(true);
		expect(example.nodes.some((n) => n.type === 'n8n-nodes-base.stickyNote')).toBe(true);
	});

	describe.each(PROFILES)('%s profile', (profile) => {
		const sim = () => sims[profile];
		const out = (node: string) => items(runs[profile].run, node);
		const own = () => sim().credentials.companyKey.companyId!;

		it('the form submission creates one purchase order for the requester found by email, with the supplier by name', () => {
			const requester = sim().data(own()).users[1];
			expect(out('Requester').map((u) => u.id)).toEqual([requester.id]);
			const creates = sim().requestsTo('createPurchaseOrder');
			expect(creates).toHaveLength(1);
			expect(creates[0].companyId).toBe(own());
			// The body of the public client's sandbox run (docs/api.md#purchase-orders).
			expect(creates[0].body).toEqual({
				userId: requester.id,
				amount: eur(120050),
				netAmount: eur(100042),
				startDate: '2026-03-31T22:00:00.000Z',
				endDate: '2026-06-29T22:00:00.000Z',
				costCenterId: sim().data(own()).costCenters[1].id,
				customFieldAssociations: [],
				supplierName: 'Northwind Printing',
			});
			expect(creates[0].status).toBe(201);
			const [created] = out(CREATE);
			expect(out(CREATE)).toHaveLength(1);
			expect(created).toMatchObject({
				userId: requester.id,
				status: 'open',
				amount: eur(120050),
				supplier: { id: null, name: 'Northwind Printing' },
			});
			expect(purchaseOrdersOf(sim(), own()).at(-1)!.id).toBe(created.id);
		});

		it('Get reads it as Spendesk holds it; Close closes it; Cancel cancels the other one', () => {
			const orders = purchaseOrdersOf(sim(), own());
			const created = orders.at(-1)!;
			const [got] = out('Get Purchase Order');
			expect(got).toEqual({ ...plain<Record<string, unknown>>(created), ...pick(got) });
			expect(got).toMatchObject({ id: created.id, status: 'open', items: expect.any(Array) });
			expect(out('Close Purchase Order')).toEqual([
				expect.objectContaining({ id: created.id, status: 'closed' }),
			]);
			expect(created.status).toBe('closed');
			const cancelled = sim()
				.requestsTo('cancelPurchaseOrder')
				.map((r) => r.path);
			expect(cancelled).toHaveLength(1);
			const other = orders.find((o) => cancelled[0] === `/v1/purchase-orders/${o.id}/cancel`)!;
			expect(other.status).toBe('cancelled');
			expect(out('Cancel Another')).toEqual([
				expect.objectContaining({ id: other.id, status: 'cancelled' }),
			]);
		});

		it('Supplier → Get Many reads a page answered as a bare array; an answer with no list is an error naming "Supplier → Get Many"', () => {
			const lists = (node: string) => items(listRuns[profile].run, node);
			expect(lists('Suppliers As Array')).toEqual(plain(sim().data(own()).suppliers));
			expect(lists('Suppliers Unreadable')).toEqual([
				expect.objectContaining({
					error: expect.stringMatching(
						/^Spendesk answered Supplier → Get Many for (the credential's own company|company "cmp_001") with something the node cannot read as a list \(page 1: an object with "data"/,
					),
				}),
			]);
			expect(
				sim()
					.requestsTo('listSuppliers')
					.map((r) => r.fault),
			).toEqual(['bareArray', 'setFields']);
		});

		it('Get Many with the Open filter lists exactly the open purchase orders left', () => {
			const open = purchaseOrdersOf(sim(), own()).filter((o) => o.status === 'open');
			expect(open.length).toBeGreaterThan(0);
			expect(out('Open Purchase Orders').map((o) => o.id)).toEqual(open.map((o) => o.id));
			expect(
				sim()
					.requestsTo('listPurchaseOrders')
					.map((r) => r.query.status),
			).toEqual(['open']);
		});
	});
});

/** The fields of a read that change after it (status and dates of the close that followed). */
function pick(read: Record<string, unknown>): Record<string, unknown> {
	const { status, updatedAt, closedAt } = read;
	return { status, updatedAt, closedAt };
}
