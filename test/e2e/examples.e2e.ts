/**
 * The sandbox of `npm run dev` as a new user first meets it, in a real running n8n: the
 * simulator, credentials and workflows made by the same code as scripts/dev.ts
 * (scripts/sandbox.ts), through n8n's REST API. Every credential passes n8n's own credential
 * test, no credential that cannot run is made (an unconnected OAuth2 one would be picked in new
 * nodes), and every workflow the sandbox lists runs green the first time it is run, the way a
 * user first runs it:
 * - Execute workflow from its manual trigger, or from the polling trigger (Fetch Test Event);
 * - the form: Execute workflow, then the test form submitted with the email of a user of the
 *   company (the sandbox's welcome names one);
 * - the webhook trigger: Execute workflow then a payable created at the simulator (its test
 *   URL), and published then another payable (its production URL), as the welcome says.
 * Green: the execution's status is success, no node ran into an error, and a last node of the
 * workflow gave at least one item. Workflows run in the order the sandbox lists them, on one
 * simulator, as a user trying them one after another would. The examples the documented
 * profile leaves out (they need experimental access) are run there too, to see that each is
 * indeed refused for that reason, so that the list of them cannot go stale.
 */
import { SpendeskSimulator } from '../simulator';
import { purchaseOrdersOf } from '../simulator/purchaseOrders';
import { webhooksOf } from '../simulator/webhooks';
import {
	ensureCredentials,
	ensureWorkflows,
	leftOutExamples,
	preparePayablesForExport,
	SANDBOX_COMPANY,
	SANDBOX_COST_CENTER,
	SANDBOX_CREDENTIALS,
	sandboxExample,
	sandboxWelcomeUser,
	sandboxWorkflows,
	simulatorOptions,
	testCredentials,
} from '../../scripts/sandbox';
import type { Named, Profile, SandboxCredentials, WorkflowJson } from '../../scripts/sandbox';
import { activateWorkflow, deactivateWorkflow, storedWorkflow } from './queue';
import { createHome, ensureN8n, parseTargets } from './runtime';
import type { N8nHome } from './runtime';
import { getExecution, listExecutions, setupOwner, startN8n, waitFor } from './server';
import type { ExecutionSummary, N8nServer, RestSession } from './server';
import type { RunJson } from './workflows';

jest.setTimeout(15 * 60_000);

const PROFILES: Profile[] = ['specification', 'documented'];
const MANUAL = 'n8n-nodes-base.manualTrigger';
const POLLING = 'n8n-nodes-spendesk.spendeskTrigger';
const WEBHOOK = 'n8n-nodes-spendesk.spendeskWebhookTrigger';
const FORM = 'n8n-nodes-base.formTrigger';
const STICKY = 'n8n-nodes-base.stickyNote';

const NONE = { id: 'none', name: 'none' };
/** The workflows of a profile's sandbox, in the order it lists them (credentials do not change their names). */
function workflowsOf(profile: Profile): WorkflowJson[] {
	return sandboxWorkflows({ org: NONE, company: NONE }, profile);
}

/** Where a user first runs a workflow from: its manual trigger if it has one, else its trigger. */
function startOf(workflow: WorkflowJson): { trigger: string; type: string } {
	const manual = workflow.nodes.find((n) => n.type === MANUAL);
	const trigger = manual ?? workflow.nodes.find((n) => [POLLING, WEBHOOK, FORM].includes(n.type));
	if (!trigger) throw new Error(`${workflow.name}: no trigger a user could start it from`);
	return { trigger: trigger.name, type: trigger.type };
}

/** The nodes with no node after them (sticky notes and triggers not run left out). */
function lastNodes(workflow: WorkflowJson, trigger: string): string[] {
	const connections = workflow.connections as Record<string, { main?: unknown[][] }>;
	const feeds = (name: string) => (connections[name]?.main ?? []).some((out) => out?.length);
	const triggers = [MANUAL, POLLING, WEBHOOK, FORM, 'n8n-nodes-base.scheduleTrigger'];
	return workflow.nodes
		.filter((n) => n.type !== STICKY && !(triggers.includes(n.type) && n.name !== trigger))
		.filter((n) => !feeds(n.name))
		.map((n) => n.name);
}

const DONE = new Set(['success', 'error', 'crashed', 'canceled']);

describe.each(parseTargets())('npm run dev: the sandbox (%s)', (target) => {
	describe.each(PROFILES)('%s profile', (profile) => {
		let sim: SpendeskSimulator;
		let home: N8nHome;
		let server: N8nServer | undefined;
		let session: RestSession;
		let credentials: SandboxCredentials;
		let created: Named[];

		beforeAll(async () => {
			sim = new SpendeskSimulator(simulatorOptions(profile));
			preparePayablesForExport(sim);
			await sim.start();
			home = await createHome(await ensureN8n(target));
			server = await startN8n(home);
			session = await setupOwner(server.baseUrl);
			credentials = await ensureCredentials(session, sim);
			created = await ensureWorkflows(session, credentials, profile);
		});

		afterAll(async () => {
			await server?.stop();
			await sim?.stop();
		});

		/** An execution once it has ended, with its run data. */
		async function ended(id: string): Promise<ExecutionSummary & RunJson> {
			await waitFor(
				async () => {
					const { status } = await session.get<ExecutionSummary>(`/executions/${id}`);
					return DONE.has(status) || undefined;
				},
				{ timeoutMs: 5 * 60_000, intervalMs: 500, what: `execution ${id} to end` },
			);
			return await getExecution(session, home, id);
		}

		/** Executions of a workflow that were not there before, once one has ended. */
		async function nextExecution(workflowId: string, before: string[]) {
			const execution = await waitFor(
				async () =>
					(await listExecutions(session, workflowId)).find(
						(e) => !before.includes(e.id) && DONE.has(e.status),
					),
				{ timeoutMs: 2 * 60_000, intervalMs: 500, what: `an execution of ${workflowId}` },
			);
			return await getExecution(session, home, execution.id);
		}

		/** Execute workflow, as the editor's button does; the execution id, or undefined while it waits for a webhook call. */
		async function execute(workflowId: string, trigger: string): Promise<string | undefined> {
			const stored = await storedWorkflow(session, workflowId);
			const answer = await session.post<{ executionId?: string; waitingForWebhook?: boolean }>(
				`/workflows/${workflowId}/run`,
				{ workflowData: stored, triggerToStartFrom: { name: trigger } },
			);
			if (answer.executionId) return String(answer.executionId);
			if (!answer.waitingForWebhook)
				throw new Error(`Execute workflow answered ${JSON.stringify(answer)}`);
			return undefined;
		}

		/** Green: success, no node in error, and a last node gave items. */
		function expectGreen(
			workflow: WorkflowJson,
			trigger: string,
			execution: ExecutionSummary & RunJson,
		): void {
			const { runData, error } = execution.data.resultData;
			const failed = Object.entries(runData)
				.filter(([, runs]) => runs.some((run) => run.error))
				.map(([node, runs]) => `${node}: ${runs.find((r) => r.error)?.error?.message ?? ''}`);
			expect({ status: execution.status, error: error?.message, failed }).toEqual({
				status: 'success',
				error: undefined,
				failed: [],
			});
			const given = lastNodes(workflow, trigger).map(
				(node) => runData[node]?.[0]?.data?.main?.[0]?.length ?? 0,
			);
			expect(Math.max(0, ...given)).toBeGreaterThan(0);
		}

		/**
		 * The first run of a workflow, as a user makes it (see the top of this file); the
		 * execution it gives. A refusal of Execute workflow itself is thrown.
		 */
		async function firstRun(
			id: string,
			workflow: WorkflowJson,
		): Promise<ExecutionSummary & RunJson> {
			const { trigger, type } = startOf(workflow);
			const before = (await listExecutions(session, id)).map((e) => e.id);
			const started = await execute(id, trigger);
			if (type === MANUAL || type === POLLING) {
				if (!started) throw new Error('Execute workflow started no execution');
				return await ended(started);
			}
			expect(started).toBeUndefined(); // waiting for its webhook call
			if (type === FORM) {
				const form = workflow.nodes.find((n) => n.name === trigger)!;
				// What a user types, by the label the form shows; each field of the form is filled.
				const typed: Record<string, string> = {
					'Requester Email': sandboxWelcomeUser(sim).email.toUpperCase(),
					Supplier: 'Northwind Printing',
					Amount: '1200.50',
					'Net Amount': '1000.42',
					'Start Date': '2026-12-01',
					'End Date': '2026-12-31',
				};
				const { formFields } = form.parameters as {
					formFields: { values: Array<{ fieldLabel: string }> };
				};
				const body = new FormData();
				formFields.values.forEach(({ fieldLabel }, index) => {
					if (!(fieldLabel in typed)) throw new Error(`Nothing to type into "${fieldLabel}"`);
					body.set(`field-${index}`, typed[fieldLabel]);
				});
				const response = await fetch(`${server!.baseUrl}/form-test/${String(form.webhookId)}`, {
					method: 'POST',
					body,
				});
				expect(response.status).toBeLessThan(400);
			} else {
				await waitFor(() => webhooksOf(sim, SANDBOX_COMPANY).length > 0 || undefined, {
					what: 'the test webhook registered at the simulator',
				});
				sim.createPayable(SANDBOX_COMPANY);
			}
			return await nextExecution(id, before);
		}

		test('the credentials are the API keys of the profile only, each passing its credential test', async () => {
			const all = await session.get<Named[]>('/credentials');
			const keys = SANDBOX_CREDENTIALS[profile];
			expect(all.map((c) => c.type)).toEqual(keys.map(() => 'spendeskApi'));
			expect(await testCredentials(session, credentials)).toEqual(
				Object.fromEntries(keys.map((key) => [key, 'OK'])),
			);
		});

		test('the sandbox lists the quick start and every example it keeps', () => {
			expect(created.map((w) => w.name)).toEqual(workflowsOf(profile).map((w) => w.name));
			expect(created.length).toBeGreaterThan(1);
		});

		describe.each(workflowsOf(profile).map((w) => [w.name, w] as const))('%s', (name, workflow) => {
			const { trigger, type } = startOf(workflow);
			const idOf = () => created.find((w) => w.name === name)!.id;

			test(`runs green on its first run (Execute workflow from "${trigger}")`, async () => {
				const orders = purchaseOrdersOf(sim, SANDBOX_COMPANY).length;
				expectGreen(workflow, trigger, await firstRun(idOf(), workflow));
				if (type === FORM) {
					const after = purchaseOrdersOf(sim, SANDBOX_COMPANY);
					expect(after).toHaveLength(orders + 1);
					// Charged to the cost center the sandbox picked, one the company has.
					expect(sim.data(SANDBOX_COMPANY).costCenters).toContainEqual(
						expect.objectContaining(SANDBOX_COST_CENTER),
					);
					expect(after[after.length - 1]).toMatchObject({
						costCenterId: SANDBOX_COST_CENTER.id,
					});
				}
			});

			if (type === WEBHOOK)
				test('runs green once published (a payable created, as the welcome says)', async () => {
					await waitFor(() => webhooksOf(sim, SANDBOX_COMPANY).length === 0 || undefined, {
						what: 'the test webhook removed after the test run',
					});
					const before = (await listExecutions(session, idOf())).map((e) => e.id);
					await activateWorkflow(session, idOf());
					try {
						await waitFor(() => webhooksOf(sim, SANDBOX_COMPANY).length > 0 || undefined, {
							what: 'the webhook registered at the simulator',
						});
						sim.createPayable(SANDBOX_COMPANY);
						expectGreen(workflow, trigger, await nextExecution(idOf(), before));
					} finally {
						await deactivateWorkflow(session, idOf());
					}
				});
		});

		const left = leftOutExamples(profile);
		if (left.length)
			test.each(left)(
				'$file is left out: run as it is with the company key, it is refused for want of experimental access',
				async ({ file }) => {
					const workflow = sandboxExample(file, credentials, profile);
					const { nodes, connections, settings } = workflow;
					const { id } = await session.post<Named>('/workflows', {
						name: `${workflow.name} (left out)`,
						nodes,
						connections,
						settings,
						active: false,
					});
					let refusal: string;
					try {
						const execution = await firstRun(id, workflow);
						expect(execution.status).toBe('error');
						refusal = String(execution.data.resultData.error?.message ?? '');
					} catch (error) {
						refusal = (error as Error).message;
					}
					expect(refusal).toMatch(/experimental/i);
				},
			);
	});
});
