/**
 * The Spendesk Trigger in a real, running n8n (`n8n start`): a published workflow polls the
 * simulator every minute; one invoice inserted after activation gives exactly one execution
 * holding exactly that invoice, and the next poll gives none. Read back through n8n's REST API.
 *
 * Takes 1–2 minutes per target: n8n polls at most once a minute.
 */
import { SpendeskSimulator } from '../simulator';
import { createHome, ensureN8n, parseTargets } from './runtime';
import type { N8nHome } from './runtime';
import { getExecution, listExecutions, setupOwner, startN8n, waitFor } from './server';
import type { N8nServer, RestSession } from './server';
import { apiKeyCredential, importCredentials, importWorkflows, items } from './workflows';

const WORKFLOW_ID = 'spendeskTriggerE2e';
const TRIGGER = 'Spendesk Trigger';
const COMPANY = 'cmp_002';
/** A poll happens at a random second of every minute; allow two minutes plus slack. */
const POLL_WAIT_MS = 150_000;

jest.setTimeout(8 * 60_000);

describe.each(parseTargets())('Spendesk Trigger in a running n8n (%s)', (target) => {
	let sim: SpendeskSimulator;
	let home: N8nHome;
	let server: N8nServer | undefined;
	let session: RestSession;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 30 } } });
		await sim.start();
		const runtime = await ensureN8n(target);
		home = await createHome(runtime);
		await importCredentials(home, [
			apiKeyCredential(
				{ id: 'spendeskOrgKey', name: 'Spendesk organisation key (simulator)' },
				sim.baseUrl,
				sim.credentials.orgKey,
			),
		]);
		await importWorkflows(
			home,
			[
				{
					id: WORKFLOW_ID,
					name: 'Spendesk Trigger e2e',
					active: false,
					nodes: [
						{
							id: 'f0c6a0de-0000-4000-8000-000000000001',
							name: TRIGGER,
							type: 'n8n-nodes-spendesk.spendeskTrigger',
							typeVersion: 1,
							position: [0, 0],
							parameters: {
								pollTimes: { item: [{ mode: 'everyMinute' }] },
								authentication: 'apiKey',
								event: 'newInvoice',
								companies: 'one',
								company: { __rl: true, mode: 'id', value: COMPANY },
								startFrom: 'now',
							},
							credentials: {
								spendeskApi: {
									id: 'spendeskOrgKey',
									name: 'Spendesk organisation key (simulator)',
								},
							},
						},
					],
					connections: {},
					settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
				},
			],
			[WORKFLOW_ID],
		);
		server = await startN8n(home);
		session = await setupOwner(server.baseUrl);
	});

	afterAll(async () => {
		await server?.stop();
		await sim?.stop();
	});

	const invoicePolls = () =>
		sim.requestsTo('listInvoices').filter((r) => r.path === `/v2/companies/${COMPANY}/invoices`);

	it('emits one new invoice exactly once', async () => {
		const started = Date.now();
		// Activation: n8n polls once while activating the workflow (n8n 2.8 before the editor is up;
		// newer n8n may activate in the background just after); the trigger starts from "now" and
		// emits nothing, then n8n stores the trigger's state.
		const active = await session.get<string[]>('/active-workflows');
		if (!active.includes(WORKFLOW_ID)) {
			const error = await session
				.get<unknown>(`/active-workflows/error/${WORKFLOW_ID}`)
				.catch((e: Error) => e.message);
			throw new Error(
				`Workflow not active (activation error: ${JSON.stringify(error)})\n--- n8n output ---\n${server!.logs().slice(-5000)}`,
			);
		}
		await waitFor(() => invoicePolls().length >= 1, {
			timeoutMs: POLL_WAIT_MS,
			intervalMs: 500,
			what: 'the activation poll',
		});
		const workflow = await waitFor(
			async () => {
				const wf = await session.get<{
					staticData?: Record<string, { companies?: Record<string, unknown> }>;
				}>(`/workflows/${WORKFLOW_ID}`);
				return wf.staticData?.[`node:${TRIGGER}`]?.companies?.[COMPANY] ? wf : undefined;
			},
			{ timeoutMs: 30_000, what: 'the trigger state saved at activation' },
		);
		expect(workflow.staticData).toBeDefined();
		expect(await listExecutions(session, WORKFLOW_ID)).toEqual([]);

		const invoice = sim.insertInvoice(COMPANY);
		const pollsBefore = invoicePolls().length;

		const executions = await waitFor(
			async () => {
				const list = await listExecutions(session, WORKFLOW_ID);
				return list.length > 0 && list.every((e) => e.status !== 'running' && e.status !== 'new')
					? list
					: undefined;
			},
			{ timeoutMs: POLL_WAIT_MS, intervalMs: 1_000, what: 'the execution of the next poll' },
		);
		const firstSeenAfterMs = Date.now() - started;
		expect(executions).toHaveLength(1);
		expect(executions[0]).toMatchObject({
			workflowId: WORKFLOW_ID,
			mode: 'trigger',
			status: 'success',
		});
		expect(invoicePolls().length).toBeGreaterThan(pollsBefore);

		const execution = await getExecution(session, home, executions[0].id);
		const emitted = items(execution, TRIGGER);
		expect(emitted.map((item) => item.id)).toEqual([invoice.id]);
		expect(emitted[0]).toMatchObject({
			id: invoice.id,
			companyId: COMPANY,
			invoiceNumber: invoice.invoiceNumber,
		});

		// One more poll: nothing new, so no second execution.
		const pollsAfterFirst = invoicePolls().length;
		await waitFor(() => invoicePolls().length > pollsAfterFirst, {
			timeoutMs: POLL_WAIT_MS,
			intervalMs: 1_000,
			what: 'one more poll',
		});
		await new Promise((resolve) => setTimeout(resolve, 5_000));
		const after = await listExecutions(session, WORKFLOW_ID);
		expect(after.map((e) => e.id)).toEqual([executions[0].id]);
		expect(sim.requestsTo('listInvoices').every((r) => r.status === 200)).toBe(true);

		process.stderr.write(
			`[trigger.e2e ${target}] invoice ${invoice.id} -> execution ${executions[0].id} after ${firstSeenAfterMs} ms; ` +
				`${invoicePolls().length} polls of ${COMPANY}; whole check ${Date.now() - started} ms\n`,
		);
	});
});
