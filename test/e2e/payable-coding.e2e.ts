/**
 * examples/code-payables-then-export.json, "code payables from a mapping table, then export",
 * inside real n8n against both simulator profiles at once (docs/api.md#payable-accounting, #receipt-upload, #accounting-exports): a Set
 * node holds a mapping table (supplier → cost center and expense account); Payable → Get Many
 * reads the payables; Payable → Update (Change Some) sets each payable's cost center and
 * expense account from the table; Payable → Upload Receipt attaches a file made by Convert to
 * File; Accounting Export → Create exports. One `n8n execute` per n8n target runs a
 * branch per simulator; the simulators' state is then checked: lines written, receipts
 * attached, no credential on the file host. A second branch per simulator changes the cost
 * center of one line of a payable whose lines carry expense and VAT accounts (Change Some, the
 * payable read first): every account must survive the write-back (docs/api.md#payable-accounting).
 */
import type { SimulatorOptions } from '../simulator';
import { SpendeskSimulator } from '../simulator';
import { payableDetail } from '../simulator/routes-reads';
import { createHome, ensureN8n, oneTarget } from './runtime';
import {
	apiKeyCredential,
	batchWorkflow,
	byId,
	company,
	execute,
	importCredentials,
	importWorkflows,
	items,
	loadExample,
	SPENDESK_NODE,
	spendeskNode,
} from './workflows';
import type { CredentialRef, Execution, WorkflowNode } from './workflows';

jest.setTimeout(10 * 60_000);

/** The example workflow this test runs (examples/README.md). */
const EXAMPLE = 'code-payables-then-export.json';
const PROFILES = ['specification', 'documented'] as const;
type Profile = (typeof PROFILES)[number];
const C = 'cmp_001';
/**
 * The company of the second branch, and its payable whose two lines carry an expense and a VAT
 * account each, no cost center of their own, and the payable's cost center cc_002_0002 (seed.ts).
 */
const ACCOUNTS = 'cmp_002';
const TWO_LINES = 'pay_002_000038';
/** Every payable of the company is read and coded. */
const CODED = 6;
const SCOPES = [
	'experimental:payable-search:read',
	'experimental:accounting:update',
	'experimental:payable-attachment:write',
	'experimental:accounting-export:read',
];
/** The example's stand-in receipt, as its Receipt Text node holds it (base64). */
function exampleReceipt(): Buffer {
	const nodes = loadExample(EXAMPLE, 'unused', { id: 'unused', name: 'unused' }).nodes;
	const text = nodes.find((n) => n.name === 'Receipt Text')!.parameters.assignments as {
		assignments: Array<{ name: string; value: string }>;
	};
	return Buffer.from(text.assignments.find((a) => a.name === 'receipt')!.value, 'base64');
}
const RECEIPT = exampleReceipt();

const credentialOf = (profile: Profile): CredentialRef => ({
	id: `coding-${profile}`,
	name: `Spendesk (${profile} profile)`,
});

/** The mapping table of a company: every supplier of its payables → a cost center and an expense account. */
function mappingOf(
	sim: SpendeskSimulator,
): Record<string, { costCenterId: string; expenseAccountId: string }> {
	const suppliers = [
		...new Set(sim.data(C).payables.map((p) => payableDetail(p).counterparty.name)),
	].sort();
	const centers = sim.data(C).costCenters;
	return Object.fromEntries(
		suppliers.map((name, i) => [
			name,
			{ costCenterId: centers[i % centers.length].id, expenseAccountId: `ea_${6060 + i}` },
		]),
	);
}

/**
 * One branch of the workflow: the example's chain for one simulator, as the example holds it,
 * with its node names suffixed by the profile (two branches share the workflow), the
 * simulator's mapping table, and the company chosen.
 */
function branch(profile: Profile, sim: SpendeskSimulator): WorkflowNode[] {
	const example = loadExample(EXAMPLE, 'unused', credentialOf(profile));
	let nodes = example.nodes.filter(
		(n) => n.type !== 'n8n-nodes-base.stickyNote' && n.type !== 'n8n-nodes-base.manualTrigger',
	);
	let text = JSON.stringify(nodes);
	for (const node of nodes)
		text = text.split(`$('${node.name}')`).join(`$('${node.name} (${profile})')`);
	nodes = JSON.parse(text) as WorkflowNode[];
	for (const node of nodes) {
		node.name = `${node.name} (${profile})`;
		node.id = `${node.id}-${profile}`;
		if (node.type === SPENDESK_NODE) node.parameters.company = company(C);
	}
	const table = nodes.find((n) => n.name === `Mapping Table (${profile})`)!;
	const [assignment] = (table.parameters.assignments as { assignments: Array<{ value: unknown }> })
		.assignments;
	assignment.value = JSON.stringify(mappingOf(sim));
	return nodes;
}

/** The second branch: Change Some on line 2 of TWO_LINES, its cost center only, the version read first. */
function oneLineBranch(profile: Profile): WorkflowNode[] {
	return [
		spendeskNode(
			`Change One Line (${profile})`,
			{
				resource: 'payable',
				operation: 'update',
				companies: 'one',
				company: company(ACCOUNTS),
				payableId: byId(TWO_LINES),
				version: '',
				lineItemsMode: 'changeSome',
				lineChanges: {
					change: [{ applyTo: 'oneLine', lineNumber: 2, costCenterId: byId('cc_002_0004') }],
				},
			},
			credentialOf(profile),
		),
	];
}

describe.each(oneTarget())('code payables from a mapping table, then export (%s)', (target) => {
	const sims = {} as Record<Profile, SpendeskSimulator>;
	const before = {} as Record<
		Profile,
		{
			versions: Map<string, number>;
			attachments: Map<string, number>;
			vatAccounts: Map<string, unknown[]>;
			twoLines: ReturnType<typeof payableDetail>;
		}
	>;
	let run: Execution;

	beforeAll(async () => {
		for (const profile of PROFILES) {
			const options: SimulatorOptions = {
				profile,
				rateLimit: 10_000,
				exportPendingPolls: 0,
				seed: {
					companies: [
						{ id: C },
						{ id: ACCOUNTS, sizes: { payables: 40 } },
						{ id: 'cmp_003', active: false },
					],
					sizes: { invoices: 1, payables: CODED, suppliers: 3 },
				},
				grantScopes: { 'sim-org-client': SCOPES },
			};
			const sim = new SpendeskSimulator(options);
			await sim.start();
			// This month's payables, not exported yet: their accounting can still change.
			for (const payable of sim.data(C).payables) payable.bookkeepingStatus = 'created';
			sims[profile] = sim;
			before[profile] = {
				versions: new Map(sim.data(C).payables.map((p) => [p.id, payableDetail(p).version])),
				attachments: new Map(
					sim.data(C).payables.map((p) => [p.id, sim.files.attachmentsOf(p.id).length]),
				),
				vatAccounts: new Map(
					sim
						.data(C)
						.payables.map((p) => [p.id, payableDetail(p).lineItems.map((l) => l.vatAccount)]),
				),
				twoLines: payableDetail(sim.data(ACCOUNTS).payables.find((p) => p.id === TWO_LINES)!),
			};
		}
		const home = await createHome(await ensureN8n(target));
		await importCredentials(
			home,
			PROFILES.map((profile) =>
				apiKeyCredential(
					credentialOf(profile),
					sims[profile].baseUrl,
					sims[profile].credentials.orgKey,
				),
			),
		);
		await importWorkflows(home, [
			batchWorkflow(
				'e2ePayableCoding',
				'Code payables from a mapping table, then export',
				PROFILES.flatMap((profile) => [branch(profile, sims[profile]), oneLineBranch(profile)]),
			),
		]);
		run = await execute(home, 'e2ePayableCoding');
	});

	afterAll(async () => {
		for (const sim of Object.values(sims)) await sim.stop();
	});

	describe.each(PROFILES)('%s profile', (profile) => {
		const coded = () => items(run.run, `Code Payable (${profile})`);

		test('every payable read is coded from the table: each line has the mapped cost center and expense account, one version on', () => {
			const sim = sims[profile];
			const table = mappingOf(sim);
			const read = items(run.run, `Payables (${profile})`);
			expect(read).toHaveLength(CODED);
			expect(coded().map((i) => i.id)).toEqual(read.map((i) => i.id));
			for (const item of read) {
				const payable = payableDetail(sim.data(C).payables.find((p) => p.id === item.id)!);
				const wanted = table[payable.counterparty.name];
				expect(payable.version).toBe(before[profile].versions.get(payable.id)! + 1);
				expect(payable.lineItems.length).toBeGreaterThan(0);
				for (const line of payable.lineItems)
					expect(line).toMatchObject({
						costCenterId: wanted.costCenterId,
						expenseAccount: expect.objectContaining({ id: wanted.expenseAccountId }),
					});
				// The VAT accounts the lines had, kept: Get answers them as objects, sent back as IDs.
				expect(payable.lineItems.map((l) => l.vatAccount)).toEqual(
					before[profile].vatAccounts.get(payable.id),
				);
				expect(payable.lineItems.reduce((sum, l) => sum + l.financial.grossAmount, 0)).toBe(
					payable.amount,
				);
			}
			const patches = sim.log.filter((r) => r.method === 'PATCH' && r.companyId === C);
			expect(patches).toHaveLength(CODED);
			expect(sim.log.filter((r) => r.route === 'getPayable' && r.companyId === C)).toHaveLength(
				CODED,
			);
		});

		test('each coded payable has the receipt attached, byte for byte; the file host never saw a credential', () => {
			const sim = sims[profile];
			const uploaded = items(run.run, `Upload Receipt (${profile})`);
			expect(uploaded.map((i) => i.payableId)).toEqual(coded().map((i) => i.id));
			for (const item of uploaded) {
				expect(item).toMatchObject({ mimeType: 'application/pdf', size: RECEIPT.length });
				const id = String(item.payableId);
				const attached = sim.files.attachmentsOf(id);
				expect(attached).toHaveLength(before[profile].attachments.get(id)! + 1);
				expect(Buffer.compare(attached.at(-1)!.content, RECEIPT)).toBe(0);
			}
			const onFiles = sim.log.filter((r) => r.host === 'files');
			expect(onFiles).toHaveLength(CODED);
			for (const entry of onFiles) {
				expect(entry.headers).not.toHaveProperty('authorization');
				expect(entry.headers).not.toHaveProperty('x-company-id');
			}
		});

		test('Change Some on one line of a payable whose lines carry accounts: every expense and VAT account survives, the other line takes the payable’s cost center', () => {
			const sim = sims[profile];
			const was = before[profile].twoLines;
			expect(was.lineItems).toHaveLength(2);
			const accounts = was.lineItems.map((l) => [l.expenseAccount?.id, l.vatAccount?.id]);
			expect(accounts.flat().every((id) => typeof id === 'string')).toBe(true);
			const now = payableDetail(sim.data(ACCOUNTS).payables.find((p) => p.id === TWO_LINES)!);
			expect(items(run.run, `Change One Line (${profile})`)).toEqual([
				expect.objectContaining({ id: TWO_LINES, version: was.version + 1 }),
			]);
			expect(now.version).toBe(was.version + 1);
			expect(now.lineItems.map((l) => l.expenseAccount)).toEqual(
				was.lineItems.map((l) => l.expenseAccount),
			);
			expect(now.lineItems.map((l) => l.vatAccount)).toEqual(
				was.lineItems.map((l) => l.vatAccount),
			);
			expect(now.lineItems.map((l) => l.financial.grossAmount)).toEqual(
				was.lineItems.map((l) => l.financial.grossAmount),
			);
			expect(now.lineItems.map((l) => l.costCenterId)).toEqual([was.costCenterId, 'cc_002_0004']);
			const [patch] = sim.log.filter((r) => r.method === 'PATCH' && r.companyId === ACCOUNTS);
			expect(patch.body).toEqual({
				version: was.version,
				lineItems: was.lineItems.map((l, i) => ({
					grossAmount: l.financial.grossAmount,
					expenseAccountId: accounts[i][0],
					taxAccountId: accounts[i][1],
					costCenterId: i === 0 ? was.costCenterId : 'cc_002_0004',
					analyticalFieldValues: [],
				})),
			});
		});

		test('then one accounting export is created and waited for', () => {
			const exported = items(run.run, `Export (${profile})`);
			expect(exported).toHaveLength(1);
			expect(sims[profile].log.filter((r) => r.route === 'createAccountingExport')).toHaveLength(1);
		});
	});
});
