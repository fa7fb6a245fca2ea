/**
 * The package for an ordinary customer, inside real n8n (the newest target of the run): a
 * company-level API key, checked by the credential test of n8n's editor (REST
 * `/rest/credentials/test`), runs every operation of the documented world in one workflow,
 * every result compared with the simulator's data; an organisation-level key shows the
 * experimental-access errors. The same workflows run against both simulator profiles
 * (docs/api.md#the-documented-profile): what differs is only what the experimental API gives.
 */
import { SpendeskSimulator } from '../simulator';
import type { SimulatorOptions } from '../simulator';
import { C, DOCUMENTED, DOCUMENTED_SIZES } from '../support/documented';
import { plain } from '../support/values';
import { createHome, ensureN8n, parseTargets } from './runtime';
import type { N8nHome } from './runtime';
import { setupOwner, startN8n } from './server';
import type { N8nServer } from './server';
import {
	apiKeyCredential,
	batchWorkflow,
	execute,
	importCredentials,
	importWorkflows,
	items,
	spendeskNode,
} from './workflows';
import type { CredentialRef, Execution, WorkflowNode } from './workflows';

jest.setTimeout(10 * 60_000);

/** The newest n8n of the run: the documented world does not depend on n8n's version. */
const TARGET = parseTargets().at(-1)!;

const COMPANY_KEY: CredentialRef = { id: 'docCompanyKey', name: 'Spendesk company key' };
const ORG_KEY: CredentialRef = { id: 'docOrgKey', name: 'Spendesk organisation key' };
const WRONG_SECRET: CredentialRef = { id: 'docWrongSecret', name: 'Spendesk wrong secret' };

const EXPERIMENTAL = [
	{ name: 'Invoices (continue)', params: { resource: 'invoice', operation: 'getAll' } },
	{ name: 'Intakes (continue)', params: { resource: 'intake', operation: 'getAll' } },
] as const;

const ids = (list: ReadonlyArray<{ id: string }>) => list.map((r) => r.id).sort();

/** A workflow with one branch per node, each fed by the manual trigger's single item. */
function branches(id: string, nodes: WorkflowNode[]) {
	return batchWorkflow(
		id,
		id,
		nodes.map((n) => [n]),
	);
}

describe.each(['documented', 'specification'] as const)(
	`an ordinary company key in real n8n (${TARGET}), %s profile`,
	(profile) => {
		let sim: SpendeskSimulator;
		let home: N8nHome;
		let server: N8nServer | undefined;
		let companyRun: Execution;
		let orgRun: Execution;
		const out = (node: string) => items(companyRun.run, node);

		beforeAll(async () => {
			const options: SimulatorOptions = {
				profile,
				snapshotPendingPolls: 0,
				exportPendingPolls: 0,
				seed: { companies: 3, sizes: DOCUMENTED_SIZES },
			};
			sim = new SpendeskSimulator(options);
			await sim.start();
			home = await createHome(await ensureN8n(TARGET));
			const keys = sim.credentials;
			await importCredentials(home, [
				apiKeyCredential(COMPANY_KEY, sim.baseUrl, keys.companyKey),
				apiKeyCredential(ORG_KEY, sim.baseUrl, keys.orgKey),
				apiKeyCredential(WRONG_SECRET, sim.baseUrl, {
					...keys.companyKey,
					clientSecret: 'not-the-secret',
				}),
			]);
			const one = { companyScope: 'one', company: { __rl: true, mode: 'id', value: '' } };
			const continueOnFail = { onError: 'continueRegularOutput' } as const;
			const companyNodes = [
				...DOCUMENTED.map((c, i) =>
					spendeskNode(c.name, { ...one, ...c.params(sim) }, COMPANY_KEY, [300, i * 100]),
				),
				...EXPERIMENTAL.map((e, i) =>
					spendeskNode(
						e.name,
						{ ...one, ...e.params, returnAll: true },
						COMPANY_KEY,
						[600, i * 100],
						continueOnFail,
					),
				),
				spendeskNode(
					'Companies With Company Key (continue)',
					{ resource: 'company', operation: 'getAll', returnAll: true },
					COMPANY_KEY,
					[600, 300],
					continueOnFail,
				),
			];
			const orgNodes = [
				spendeskNode(
					'Companies (continue)',
					{ resource: 'company', operation: 'getAll', returnAll: true },
					ORG_KEY,
					[300, 0],
					continueOnFail,
				),
				spendeskNode(
					'Settlements Of A Named Company',
					{
						companyScope: 'one',
						company: { __rl: true, mode: 'id', value: 'cmp_002' },
						resource: 'settlement',
						operation: 'getAll',
						returnAll: true,
					},
					ORG_KEY,
					[300, 100],
				),
			];
			await importWorkflows(home, [
				branches('e2eDocumentedCompanyKey', companyNodes),
				branches('e2eDocumentedOrgKey', orgNodes),
			]);
			companyRun = await execute(home, 'e2eDocumentedCompanyKey');
			orgRun = await execute(home, 'e2eDocumentedOrgKey');
		});

		afterAll(async () => {
			await server?.stop();
			await sim?.stop();
		});

		it.each(DOCUMENTED.map((c) => [c.name, c] as const))(
			'%s: every item as the simulator holds it, on the documented v1 endpoints',
			(name, c) => {
				expect(out(name)).toEqual(plain(c.expected(sim)));
			},
		);

		it('the company key never sends X-Company-Id, and every documented call is on /v1', () => {
			const documented = sim.log
				.filter((r) => r.host !== 'files' && r.clientId === sim.credentials.companyKey.clientId)
				.filter((r) => !r.path.startsWith('/v2/') && r.path !== '/v1/auth/token');
			expect(documented.length).toBeGreaterThan(DOCUMENTED.length);
			expect(documented.every((r) => r.path.startsWith('/v1/'))).toBe(true);
			expect(documented.every((r) => r.headers['x-company-id'] === undefined)).toBe(true);
		});

		it('operations of the experimental API: an error saying so (documented) or their data (specification)', () => {
			for (const [node, resource] of [
				['Invoices (continue)', 'invoices'],
				['Intakes (continue)', 'intakes'],
			] as const) {
				if (profile === 'documented') {
					const [item] = out(node);
					expect(String(item.error)).toContain("belongs to Spendesk's experimental API");
					expect(String(item.error)).toContain(`for company "${C}"`);
				} else {
					expect(
						out(node)
							.map((i) => i.id)
							.sort(),
					).toEqual(ids(sim.data(C)[resource]));
				}
			}
			expect(out('Companies With Company Key (continue)')).toEqual([
				expect.objectContaining({
					error: `"Get companies" needs an organisation-level credential; "${COMPANY_KEY.name}" is company-level`,
				}),
			]);
		});

		it('an organisation-level key: Get Companies needs experimental access (documented), a named company works', () => {
			const companies = items(orgRun.run, 'Companies (continue)');
			if (profile === 'documented') {
				expect(companies).toEqual([
					expect.objectContaining({
						error: `"Get companies" belongs to Spendesk's experimental API, and the credential "${ORG_KEY.name}" has no access to it`,
					}),
				]);
			} else {
				expect(companies).toEqual(
					sim
						.companies()
						.filter((c) => c.active)
						.map(({ id, name }) => ({ id, name })),
				);
			}
			expect(items(orgRun.run, 'Settlements Of A Named Company')).toEqual(
				plain(sim.data('cmp_002').settlements),
			);
		});

		it("n8n's credential test (the editor's Test button) tells a working key from a broken one", async () => {
			server = await startN8n(home);
			const session = await setupOwner(server.baseUrl);
			const test = async (ref: CredentialRef) => {
				const saved = await session.get<{ id: string; name: string; type: string }>(
					`/credentials/${ref.id}?includeData=true`,
				);
				return await session.post<{ status: string; message: string }>('/credentials/test', {
					credentials: saved,
				});
			};
			expect(await test(COMPANY_KEY)).toEqual({
				status: 'OK',
				message: `The key works for company "${C}".`,
			});
			const wrong = await test(WRONG_SECRET);
			expect(wrong.status).toBe('Error');
			expect(wrong.message).toContain('Spendesk refused the client ID or secret');
			expect(wrong.message).not.toContain('not-the-secret');
			const org = await test(ORG_KEY);
			if (profile === 'documented') {
				expect(org.status).toBe('Error');
				expect(org.message).toContain('organisation-level access is not enabled for this key');
				expect(org.message).toContain('set Access Level to Company');
			} else {
				expect(org).toEqual({ status: 'OK', message: 'The key works at organisation level.' });
			}
		});
	},
);
