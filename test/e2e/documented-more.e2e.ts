/**
 * Supplier → Archive, Unarchive and Update with several items, a documented list filter and an
 * accounting export with a journal template, inside real n8n, against both simulator profiles
 * at once (docs/api.md#supplier-management, #filters, #journal-templates): one workflow holds a
 * branch per profile, run once with `n8n execute`; then one `n8n start` lists the journal
 * templates through n8n's resource-locator endpoint, as the editor's From List does.
 */
import { SpendeskSimulator } from '../simulator';
import { JOURNAL_TEMPLATES } from '../simulator/fileRoutes';
import { createHome, ensureN8n, oneTarget } from './runtime';
import type { N8nHome } from './runtime';
import { setupOwner, startN8n } from './server';
import {
	apiKeyCredential,
	batchWorkflow,
	byId,
	company,
	execute,
	importCredentials,
	importWorkflows,
	items,
	setNode,
	spendeskNode,
	splitOutNode,
} from './workflows';
import type { CredentialRef, Execution, WorkflowNode } from './workflows';

jest.setTimeout(10 * 60_000);

const PROFILES = ['documented', 'specification'] as const;
type Profile = (typeof PROFILES)[number];
const SCOPES = ['experimental:supplier:manage', 'experimental:accounting-export:read'];
const CMP = 'cmp_002';
const one = { companies: 'one', company: company(CMP) };

const keyOf = (profile: Profile): CredentialRef => ({
	id: `more${profile[0].toUpperCase()}${profile.slice(1)}`,
	name: `Spendesk ${profile} organisation key`,
});
/** A node's name in the branch of a profile. */
const named = (profile: Profile, name: string) => `${name} (${profile})`;

/** The branches of one profile: archive then unarchive, update two, a filtered list, an export. */
function branchesOf(profile: Profile, sim: SpendeskSimulator): WorkflowNode[][] {
	const key = keyOf(profile);
	const [a, b, c, d] = sim.data(CMP).suppliers;
	const node = (name: string, params: Record<string, unknown>) =>
		spendeskNode(named(profile, name), { ...one, ...params }, key);
	return [
		[
			setNode(named(profile, 'Two Supplier IDs'), {
				ids: { value: JSON.stringify([a.id, b.id]), type: 'array' },
			}),
			splitOutNode(named(profile, 'One Item Per ID'), 'ids'),
			node('Archive', {
				resource: 'supplier',
				operation: 'archive',
				supplierId: byId('={{ $json.ids }}'),
			}),
			node('Unarchive', {
				resource: 'supplier',
				operation: 'unarchive',
				supplierId: byId('={{ $json.id }}'),
			}),
		],
		[
			setNode(named(profile, 'Two Changes'), {
				changes: {
					value: JSON.stringify([
						{ id: c.id, city: 'Lyon' },
						{ id: d.id, city: 'Nantes' },
					]),
					type: 'array',
				},
			}),
			splitOutNode(named(profile, 'One Item Per Change'), 'changes'),
			node('Update', {
				resource: 'supplier',
				operation: 'update',
				supplierId: byId('={{ $json.id }}'),
				updateFields: { city: '={{ $json.city }}' },
			}),
		],
		[
			node('Settlements Filtered', {
				resource: 'settlement',
				operation: 'getAll',
				returnAll: true,
				filters: {
					bookkeepingStatus: ['exported', 'failedToExport'],
					paidFrom: ['externalAccount'],
				},
				sort: { rule: { direction: 'desc' } },
			}),
		],
		[
			node('Export With Template', {
				resource: 'accountingExport',
				operation: 'create',
				from: '2026-01-01T00:00:00.000Z',
				to: '2026-01-01T02:00:00.000Z',
				options: {
					maxWait: 60,
					templateId: {
						__rl: true,
						mode: 'list',
						value: 'tpl_datev',
						cachedResultName: 'DATEV (tpl_datev)',
					},
				},
			}),
		],
	];
}

describe.each(oneTarget())('documented operations, more (%s)', (target) => {
	const sims = {} as Record<Profile, SpendeskSimulator>;
	let home: N8nHome;
	let run: Execution;
	const out = (profile: Profile, node: string) => items(run.run, named(profile, node));

	beforeAll(async () => {
		for (const profile of PROFILES) {
			const sim = new SpendeskSimulator({
				profile,
				exportPendingPolls: 0,
				seed: { companies: 3, sizes: { invoices: 2, payables: 20, settlements: 12 } },
				grantScopes: { 'sim-org-client': SCOPES },
			});
			await sim.start();
			// Some settlements exported, some failed to export, some paid from an external account
			// (docs/api.md#filters).
			sim.data(CMP).settlements.forEach((s, i) => {
				if (i % 2) s.state = 'exported';
				else if (i % 4 === 0) s.state = 'failedToExport';
				if (i % 3) s.paidFrom = 'externalAccount';
			});
			sims[profile] = sim;
		}
		home = await createHome(await ensureN8n(target));
		await importCredentials(
			home,
			PROFILES.map((p) => apiKeyCredential(keyOf(p), sims[p].baseUrl, sims[p].credentials.orgKey)),
		);
		await importWorkflows(home, [
			batchWorkflow(
				'e2eDocumentedMore',
				'e2eDocumentedMore',
				PROFILES.flatMap((p) => branchesOf(p, sims[p])),
			),
		]);
		run = await execute(home, 'e2eDocumentedMore');
	});

	afterAll(async () => {
		for (const sim of Object.values(sims)) await sim.stop();
	});

	it.each(PROFILES)(
		'%s: Archive then Unarchive two suppliers, one call each, every item paired',
		(profile) => {
			const sim = sims[profile];
			const [a, b] = sim.data(CMP).suppliers;
			expect(out(profile, 'Archive').map((s) => [s.id, s.isArchived])).toEqual([
				[a.id, true],
				[b.id, true],
			]);
			expect(out(profile, 'Unarchive').map((s) => [s.id, s.isArchived])).toEqual([
				[a.id, false],
				[b.id, false],
			]);
			expect(sim.requestsTo('updateSupplierStatus').map((r) => r.body)).toEqual([
				{ supplierIds: [a.id, b.id], isArchived: true },
				{ supplierIds: [a.id, b.id], isArchived: false },
			]);
			expect([a.isArchived, b.isArchived]).toEqual([false, false]);
		},
	);

	it.each(PROFILES)('%s: Update with two items is one bulk call', (profile) => {
		const sim = sims[profile];
		const [, , c, d] = sim.data(CMP).suppliers;
		expect(sim.requestsTo('updateSuppliers').map((r) => r.body)).toEqual([
			[
				{ id: c.id, supplierDetails: { city: 'Lyon' } },
				{ id: d.id, supplierDetails: { city: 'Nantes' } },
			],
		]);
		expect(sim.requestsTo('updateSupplier')).toEqual([]);
		expect(
			out(profile, 'Update').map((s) => [
				s.id,
				// As Spendesk reads a supplier back (docs/api.md#suppliers-as-read).
				(s.address as Record<string, unknown>).city,
			]),
		).toEqual([
			[c.id, 'Lyon'],
			[d.id, 'Nantes'],
		]);
	});

	it.each(PROFILES)('%s: Settlement → Get Many with filters', (profile) => {
		const sim = sims[profile];
		const expected = sim
			.data(CMP)
			.settlements.filter(
				(s) =>
					(s.state === 'exported' || s.state === 'failedToExport') &&
					s.paidFrom === 'externalAccount',
			);
		expect(expected.length).toBeGreaterThan(0);
		// Newest first (Options → Sort), `+` and `-` reaching Spendesk intact.
		expect(out(profile, 'Settlements Filtered').map((s) => s.id)).toEqual(
			expected.map((s) => s.id).reverse(),
		);
		// n8n's request helper sends the two states as the parameter repeated.
		expect(sim.requestsTo('listSettlements')[0].query).toMatchObject({
			paidFrom: 'externalAccount',
			sort: '-createdAt',
		});
		expect(sim.requestsTo('listSettlements')[0].queryRepeated).toEqual({
			state: ['exported', 'failedToExport'],
		});
	});

	it.each(PROFILES)('%s: Accounting Export with the template picked from the list', (profile) => {
		const sim = sims[profile];
		expect(out(profile, 'Export With Template')).toEqual([
			expect.objectContaining({ status: 'COMPLETE', templateId: 'tpl_datev' }),
		]);
		expect(sim.requestsTo('createAccountingExport')[0].body).toMatchObject({
			templateId: 'tpl_datev',
		});
	});

	it("the Template list (From List) through n8n's resource-locator endpoint, in both profiles", async () => {
		const server = await startN8n(home);
		try {
			const session = await setupOwner(server.baseUrl);
			for (const profile of PROFILES) {
				const key = keyOf(profile);
				const found = await session.post<{ results: Array<{ name: string; value: string }> }>(
					'/dynamic-node-parameters/resource-locator-results',
					{
						path: 'parameters.options.templateId',
						nodeTypeAndVersion: { name: 'n8n-nodes-spendesk.spendesk', version: 1 },
						methodName: 'searchJournalTemplates',
						currentNodeParameters: {
							authentication: 'apiKey',
							resource: 'accountingExport',
							operation: 'create',
							...one,
						},
						credentials: { spendeskApi: { id: key.id, name: key.name } },
					},
				);
				expect({ profile, results: found.results }).toEqual({
					profile,
					results: JOURNAL_TEMPLATES.map((t) => ({ name: `${t.name} (${t.id})`, value: t.id })),
				});
			}
		} finally {
			await server.stop();
		}
	});
});
