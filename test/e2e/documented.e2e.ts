/**
 * The package for an ordinary customer, inside real n8n (the newest target of the run): a
 * company-level API key, checked by the credential test of n8n's editor (REST
 * `/rest/credentials/test`), runs every operation of the documented world in one workflow,
 * every result compared with the simulator's data; an organisation-level key shows the
 * experimental-access errors. A credential created as a user fills it in (Environment with the
 * simulator's Custom Base URL, Client ID and Client Secret, nothing else) passes its test and
 * runs a generally available operation (docs/api.md#testing-an-api-key). The same workflows
 * run against both simulator profiles (docs/api.md#the-documented-profile): what differs is
 * only what the experimental API gives.
 */
import { SpendeskSimulator } from '../simulator';
import type { SimulatorOptions } from '../simulator';
import { C, DOCUMENTED, DOCUMENTED_SIZES } from '../support/documented';
import { plain } from '../support/values';
import { createHome, ensureN8n, parseTargets } from './runtime';
import type { N8nHome } from './runtime';
import { getExecution, setupOwner, startN8n, waitFor } from './server';
import type { N8nServer, RestSession } from './server';
import {
	apiKeyCredential,
	batchWorkflow,
	execute,
	importCredentials,
	importWorkflows,
	items,
	manualTrigger,
	spendeskNode,
	workflow,
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

/** What the test says of the simulator's company key of the documented profile (the documented read scopes). */
const GA_READS =
	'It reads settlements, payables, payable attachments, suppliers, users, cost centers, expense categories, analytical fields, bank fees, wallet loads and the wallet summary; experimental features: none.';

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
		let session: RestSession | undefined;
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
			const one = { companies: 'one', company: { __rl: true, mode: 'id', value: '' } };
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
						companies: 'one',
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
					expect(String(item.error)).toContain(
						`${resource === 'invoices' ? 'Invoice' : 'Intake'} → Get Many uses Spendesk's experimental API`,
					);
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
					error: `Company → Get Many needs an organisation-level credential; "${COMPANY_KEY.name}" is company-level`,
				}),
			]);
		});

		it('an organisation-level key: Get Companies needs experimental access (documented), a named company works', () => {
			const companies = items(orgRun.run, 'Companies (continue)');
			if (profile === 'documented') {
				expect(companies).toEqual([
					expect.objectContaining({
						error: `Company → Get Many uses Spendesk's experimental API, and the credential "${ORG_KEY.name}" has no access to it`,
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

		/** The editor's Test button on a saved credential: n8n's credential test of its stored data. */
		const testSaved = async (id: string) => {
			const saved = await session!.get<{ id: string; name: string; type: string }>(
				`/credentials/${id}?includeData=true`,
			);
			return await session!.post<{ status: string; message: string }>('/credentials/test', {
				credentials: saved,
			});
		};

		it("n8n's credential test (the editor's Test button) tells a working key from a broken one", async () => {
			server = await startN8n(home);
			session = await setupOwner(server.baseUrl);
			const company = await testSaved(COMPANY_KEY.id);
			if (profile === 'documented') {
				expect(company).toEqual({
					status: 'OK',
					message: `The key works for its company ('Company ID' "${C}"). ${GA_READS}`,
				});
			} else {
				expect(company.status).toBe('OK');
				expect(company.message).toMatch(
					new RegExp(
						`^The key works for its company \\('Company ID' "${C}"\\)\\. It reads settlements, `,
					),
				);
			}
			const wrong = await testSaved(WRONG_SECRET.id);
			expect(wrong.status).toBe('Error');
			expect(wrong.message).toContain("Spendesk refused 'Client ID' or 'Client Secret'");
			expect(wrong.message).not.toContain('not-the-secret');
			const org = await testSaved(ORG_KEY.id);
			if (profile === 'documented') {
				expect(org.status).toBe('Error');
				expect(org.message).toContain('this key has no organisation-level access');
				expect(org.message).toContain(`set 'Access Level' to "Company"`);
			} else {
				expect(org.status).toBe('OK');
				expect(org.message).toMatch(
					/^The key works at organisation level: it reaches 2 companies\. It reads settlements, /,
				);
			}
		});

		it('a new credential with only Environment, Client ID and Client Secret passes its Test and runs a generally available operation', async () => {
			expect(session).toBeDefined();
			const key = sim.credentials.companyKey;
			// What the editor saves when only these fields are filled in: Access Level and Company ID left at their defaults.
			const created = await session!.post<{ id: string; name: string }>('/credentials', {
				name: 'Spendesk key as it comes',
				type: 'spendeskApi',
				data: {
					environment: 'custom',
					baseUrl: sim.baseUrl,
					clientId: key.clientId,
					clientSecret: key.clientSecret,
				},
			});
			sim.clearLog();
			const tested = await testSaved(created.id);
			if (profile === 'documented') {
				expect(tested).toEqual({
					status: 'OK',
					message: `The key works for its company. ${GA_READS}`,
				});
			} else {
				expect(tested.status).toBe('OK');
				expect(tested.message).toMatch(/^The key works for its company\. It reads settlements, /);
			}
			expect(sim.log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
				'POST /v1/auth/token 200',
				'GET /v1/settlements 200',
			]);

			const start = manualTrigger('Start');
			const settlements = spendeskNode(
				'Settlements',
				{
					companies: 'one',
					company: { __rl: true, mode: 'id', value: '' },
					resource: 'settlement',
					operation: 'getAll',
					returnAll: true,
				},
				{ id: created.id, name: created.name },
				[250, 0],
			);
			const { name, nodes, connections, settings } = workflow(
				'e2eKeyAsItComes',
				'Spendesk key as it comes',
				[start, settlements],
				[['Start', 'Settlements']],
			);
			const saved = await session!.post<Record<string, unknown> & { id: string }>('/workflows', {
				name,
				active: false,
				nodes,
				connections,
				settings,
			});
			sim.clearLog();
			const { executionId } = await session!.post<{ executionId: string }>(
				`/workflows/${saved.id}/run`,
				{ workflowData: saved, triggerToStartFrom: { name: 'Start' } },
			);
			const execution = await waitFor(
				async () => {
					const e = await getExecution(session!, home, executionId);
					return e.finished || ['success', 'error', 'crashed'].includes(e.status) ? e : undefined;
				},
				{ timeoutMs: 60_000, what: `execution ${executionId}` },
			);
			expect(execution.status).toBe('success');
			expect(items(execution, 'Settlements')).toEqual(plain(sim.data(C).settlements));
			// The company key's own company, on the documented v1 endpoint, without X-Company-Id.
			const calls = sim.log.filter((r) => r.path !== '/v1/auth/token');
			expect(calls.length).toBeGreaterThan(0);
			expect(calls.every((r) => r.path === '/v1/settlements' && r.companyId === C)).toBe(true);
			expect(calls.every((r) => r.headers['x-company-id'] === undefined)).toBe(true);
		});
	},
);
