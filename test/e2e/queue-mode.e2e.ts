/**
 * The package in n8n's queue mode (n8n's own scale-out): PostgreSQL as the database, Redis as
 * the job queue, one main process (editor, REST API, the polling trigger), two workers
 * (`n8n worker`) that run the executions, and a webhook processor (`n8n webhook`) that
 * receives production webhooks, main being told not to (N8N_DISABLE_PRODUCTION_MAIN_PROCESS).
 * Every process has the package installed as a community package; all run against the simulator.
 *
 * 1. The Spendesk Trigger polls on main and its executions run on the workers: every invoice
 *    inserted is emitted exactly once, across a restart of the worker running an execution
 *    (stopped with SIGTERM in the middle of it: n8n lets it finish).
 * 2. 40 runs of an All Companies invoice drain started at once through the REST API, spread
 *    over both workers, against a simulator with Spendesk's in-flight cap (5) and a tight rate
 *    limit: every run's items are exact and nothing fails; the figures (token requests, peak
 *    in flight, 429s on the wire, time) are compared with the same 40 on one worker, and with
 *    two workers and no server-side limits (what the per-process cap of 5 adds up to).
 * 3. The Spendesk Webhook Trigger receives deliveries through the webhook processor and they
 *    run on the workers: one execution per event, repeats to the same process included. A
 *    repeat after the webhook processor restarted is recognised from the workflow's static
 *    data where n8n saves it (2.8.4; 2.41.1 does not, see WEBHOOK_STATIC_DATA_SAVED).
 *
 * The figures are printed and written to test-output/queue-mode/<target>.json. Takes about
 * 5 minutes per target (the trigger test waits for two of n8n's once-a-minute polls).
 * QUEUE_E2E_TARGETS limits the n8n versions of this file (default: those of E2E_TARGETS).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SpendeskSimulator } from '../simulator';
import type { Invoice, LoggedRequest } from '../simulator';
import { webhooksOf } from '../simulator/webhooks';
import {
	activateWorkflow,
	createQueueHome,
	deactivateWorkflow,
	queueModeEnv,
	QueueWorker,
	startRun,
	storedWorkflow,
	WebhookProcessor,
	workerOf,
} from './queue';
import { ensureN8n, installedVersion, parseTargets, REPO_ROOT } from './runtime';
import type { N8nHome, N8nTarget } from './runtime';
import { serviceVersions, startPostgres, startRedis } from './services';
import type { Postgres, Redis } from './services';
import { freePort, getExecution, listExecutions, setupOwner, startN8n, waitFor } from './server';
import type { ExecutionSummary, N8nServer, RestSession } from './server';
import {
	apiKeyCredential,
	importCredentials,
	importWorkflows,
	items,
	loadExample,
	manualTrigger,
	spendeskNode,
	workflow,
} from './workflows';
import type { CredentialRef, Workflow, WorkflowNode } from './workflows';

jest.setTimeout(12 * 60_000);

const TRIGGER_WORKFLOW = 'queueTrigger';
const TRIGGER = 'Spendesk Trigger';
const TRIGGER_COMPANY = 'cmp_002';
const DRAIN_NODE = 'Invoices';
const DRAIN_RUNS = 40;
const WORKER_CONCURRENCY = 10;
const WEBHOOK_WORKFLOW = 'queueWebhook';
const WEBHOOK_TRIGGER = 'Spendesk Webhook Trigger';
const WEBHOOK_EXAMPLE = 'payable-created-webhook.json';

/** One credential per test, so that each starts without a token (the drain's token requests are counted). */
const TRIGGER_CREDENTIAL: CredentialRef = {
	id: 'queueTriggerKey',
	name: 'Spendesk organisation key (trigger)',
};
const DRAIN_CREDENTIAL: CredentialRef = {
	id: 'queueDrainKey',
	name: 'Spendesk organisation key (drain)',
};
const WEBHOOK_CREDENTIAL: CredentialRef = {
	id: 'queueWebhookKey',
	name: 'Spendesk organisation key (webhook)',
};

/** Spendesk's limits as the drain meets them: 5 requests in flight, 60 requests per company every 10 s, 50 ms per answer. */
const SPENDESK_LIMITS = {
	maxInFlight: 5,
	rateLimit: 60,
	rateLimitWindowMs: 10_000,
	latencyMs: 50,
} as const;
const NO_LIMITS = {
	maxInFlight: undefined,
	rateLimit: 1_000_000,
	rateLimitWindowMs: 60_000,
	latencyMs: 50,
} as const;

/** A poll happens at a random second of every minute; allow two minutes plus slack. */
const POLL_WAIT_MS = 150_000;

const pause = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const finished = (e: ExecutionSummary) => !['new', 'running', 'waiting'].includes(e.status);

/** This file's n8n versions: QUEUE_E2E_TARGETS, else E2E_TARGETS (else all). */
function queueTargets(): N8nTarget[] {
	return parseTargets(process.env.QUEUE_E2E_TARGETS?.trim() || undefined);
}

/**
 * Whether n8n saves what a webhook method writes to the workflow's static data. n8n 2.41.1
 * does not: when it starts the execution (WorkflowRunner.establishContextForPersistence) it
 * builds another Workflow over the same static data, which resets the change flag, so the save
 * after the delivery is skipped. The Webhook Trigger's memory of recent events then lives in
 * the receiving process only.
 */
const WEBHOOK_STATIC_DATA_SAVED: Record<string, boolean> = { '2.8.4': true, '2.41.1': false };

/** Trigger (New Invoice, one company, every minute) → Wait 6 s, so an execution is still running when its worker is stopped. */
function triggerWorkflow(): Workflow {
	const trigger: WorkflowNode = {
		id: 'queue-trigger-node',
		name: TRIGGER,
		type: 'n8n-nodes-spendesk.spendeskTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			authentication: 'apiKey',
			event: 'newInvoice',
			companies: 'one',
			company: { __rl: true, mode: 'id', value: TRIGGER_COMPANY },
			startFrom: 'now',
		},
		credentials: { spendeskApi: TRIGGER_CREDENTIAL },
	};
	const wait: WorkflowNode = {
		id: 'queue-trigger-wait',
		name: 'Wait',
		type: 'n8n-nodes-base.wait',
		typeVersion: 1.1,
		position: [250, 0],
		parameters: { resume: 'timeInterval', amount: 6, unit: 'seconds' },
		webhookId: '0b7c1e52-3f0a-4d8e-9a61-2c4b5d6e7f80',
	};
	const wf = workflow(
		TRIGGER_WORKFLOW,
		'Queue mode: Spendesk Trigger',
		[trigger, wait],
		[[TRIGGER, 'Wait']],
	);
	return { ...wf, settings: { ...wf.settings, saveDataSuccessExecution: 'all' } };
}

/** Manual trigger → every invoice of every company (All Companies, Return All). */
function drainWorkflow(id: string, name: string): Workflow {
	const node = spendeskNode(
		DRAIN_NODE,
		{
			resource: 'invoice',
			operation: 'getAll',
			companies: 'all',
			sort: { rule: { field: 'createdAt', direction: 'asc' } },
			returnAll: true,
		},
		DRAIN_CREDENTIAL,
		[250, 0],
	);
	return workflow(id, name, [manualTrigger('Start'), node], [['Start', DRAIN_NODE]]);
}

interface DrainFigures {
	label: string;
	workers: number;
	limits: 'spendesk' | 'none';
	executions: number;
	succeeded: number;
	/** Executions per worker name. */
	perWorker: Record<string, number>;
	items: number;
	/** From the first REST call to the last execution's end (its stoppedAt). */
	seconds: number;
	apiRequests: number;
	tokenRequests: number;
	peakInFlight: number;
	inFlight429: number;
	rate429: number;
}

describe.each(queueTargets())(
	'The package in n8n queue mode: main + 2 workers + webhook processor, PostgreSQL, Redis (%s)',
	(target) => {
		let sim: SpendeskSimulator;
		let postgres: Postgres | undefined;
		let redis: Redis | undefined;
		const homes: N8nHome[] = [];
		let main: N8nServer | undefined;
		let session: RestSession;
		let workers: QueueWorker[] = [];
		let webhook: WebhookProcessor | undefined;
		const report: Record<string, unknown> = {};

		beforeAll(async () => {
			const setupStarted = Date.now();
			sim = new SpendeskSimulator({ seed: { sizes: { invoices: 250, payables: 20 } } });
			await sim.start();
			// Both started before either failure is thrown, so that afterAll stops the one that started.
			const [pg, rd] = await Promise.allSettled([startPostgres(), startRedis()]);
			if (pg.status === 'fulfilled') postgres = pg.value;
			if (rd.status === 'fulfilled') redis = rd.value;
			if (pg.status === 'rejected') throw pg.reason;
			if (rd.status === 'rejected') throw rd.reason;
			const runtime = await ensureN8n(target);
			const env = queueModeEnv(pg.value, rd.value);
			const [mainHome, ...workerHomes] = await Promise.all(
				[0, 1, 2, 3].map(async () => await createQueueHome(runtime, env)),
			);
			homes.push(mainHome, ...workerHomes);

			await importCredentials(
				mainHome,
				[TRIGGER_CREDENTIAL, DRAIN_CREDENTIAL, WEBHOOK_CREDENTIAL].map((ref) =>
					apiKeyCredential(ref, sim.baseUrl, sim.credentials.orgKey),
				),
			);
			await importWorkflows(mainHome, [
				triggerWorkflow(),
				drainWorkflow('queueDrainTwoWorkers', 'Queue mode: drain (2 workers)'),
				drainWorkflow('queueDrainNoLimits', 'Queue mode: drain (2 workers, no server limits)'),
				drainWorkflow('queueDrainOneWorker', 'Queue mode: drain (1 worker)'),
				drainWorkflow(
					'queueDrainOneWorkerNoLimits',
					'Queue mode: drain (1 worker, no server limits)',
				),
				loadExample(WEBHOOK_EXAMPLE, WEBHOOK_WORKFLOW, WEBHOOK_CREDENTIAL),
			]);

			webhook = new WebhookProcessor(workerHomes[2], await freePort());
			// Production webhooks are registered with the webhook processor's URL and main does not serve them.
			main = await startN8n(mainHome, {
				env: { WEBHOOK_URL: `${webhook.baseUrl}/`, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
			});
			session = await setupOwner(main.baseUrl);
			workers = [
				new QueueWorker('worker-1', workerHomes[0], WORKER_CONCURRENCY),
				new QueueWorker('worker-2', workerHomes[1], WORKER_CONCURRENCY),
			];
			await Promise.all([...workers.map(async (w) => await w.start()), webhook.start()]);

			report.n8n = installedVersion(runtime);
			report.node = execFileSync(runtime.nodeBin, ['--version']).toString().trim();
			report.services = await serviceVersions();
			report.machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load ${os
				.loadavg()
				.map((l) => l.toFixed(2))
				.join(' ')}`;
			report.setupSeconds = Math.round((Date.now() - setupStarted) / 1000);
		});

		afterAll(async () => {
			const logDir = path.join(REPO_ROOT, 'test-output', 'queue-mode');
			mkdirSync(logDir, { recursive: true });
			const keep = (name: string, text: string | undefined) =>
				text && writeFileSync(path.join(logDir, `${target}-${name}.log`), text);
			keep('main', main?.logs());
			for (const w of workers) keep(w.name, w.logs());
			keep('webhook', webhook?.logs());
			keep('postgres', postgres?.logs());
			keep('redis', redis?.logs());
			writeFileSync(path.join(logDir, `${target}.json`), `${JSON.stringify(report, null, 2)}\n`);

			await Promise.allSettled([
				webhook?.stop(),
				...workers.map(async (w) => await w.stop(10_000)),
			]);
			await main?.stop().catch(() => undefined);
			await Promise.allSettled([postgres?.stop(), redis?.stop(), sim?.stop()]);
			for (const home of homes) rmSync(home.dir, { recursive: true, force: true });
		});

		// ------------------------------------------------------------------ 1. polling trigger

		it('the polling trigger runs on main, its executions on the workers: every inserted invoice is emitted exactly once, across a restart of one worker', async () => {
			const started = Date.now();
			const polls = () =>
				sim
					.requestsTo('listInvoices')
					.filter((r) => r.path === `/v2/companies/${TRIGGER_COMPANY}/invoices`);
			const executions = async () => await listExecutions(session, TRIGGER_WORKFLOW);
			const emitted = async (id: string) =>
				items(await getExecution(session, homes[0], id), TRIGGER).map((i) => String(i.id));

			await activateWorkflow(session, TRIGGER_WORKFLOW);
			await waitFor(() => polls().length >= 1, {
				timeoutMs: POLL_WAIT_MS,
				intervalMs: 500,
				what: 'the activation poll',
			});
			await waitFor(
				async () => {
					const wf = await session.get<{
						staticData?: Record<string, { companies?: Record<string, unknown> }>;
					}>(`/workflows/${TRIGGER_WORKFLOW}`);
					return wf.staticData?.[`node:${TRIGGER}`]?.companies?.[TRIGGER_COMPANY] !== undefined;
				},
				{ timeoutMs: 30_000, what: 'the trigger state saved at activation' },
			);
			expect(await executions()).toEqual([]);

			// A: emitted by the next poll; the execution is stopped in the middle (SIGTERM to its worker).
			const batchA = [sim.insertInvoice(TRIGGER_COMPANY), sim.insertInvoice(TRIGGER_COMPANY)];
			const first = await waitFor(
				async () => {
					const list = await executions();
					return list.find((e) => workerOf(workers, e.id) !== undefined);
				},
				{ timeoutMs: POLL_WAIT_MS, intervalMs: 250, what: 'the first poll execution on a worker' },
			);
			const restarted = workers.find((w) => w.name === workerOf(workers, first.id))!;
			const firstStillRunning = !restarted.finishedExecutions().includes(first.id);
			const stopping = restarted.stop();
			// B: inserted while that worker shuts down; it is started again before or after the next poll.
			const batchB = [
				sim.insertInvoice(TRIGGER_COMPANY),
				sim.insertInvoice(TRIGGER_COMPANY),
				sim.insertInvoice(TRIGGER_COMPANY),
			];
			await stopping;
			expect(restarted.running).toBe(false);
			// n8n's graceful shutdown let the running execution finish on the stopped worker.
			expect(restarted.finishedExecutions()).toContain(first.id);
			await restarted.start();

			// B is emitted by the next poll: exactly B (A is not emitted again).
			await waitFor(
				async () => {
					const list = await executions();
					return list.length >= 2 && list.every(finished) ? list : undefined;
				},
				{
					timeoutMs: POLL_WAIT_MS,
					intervalMs: 1_000,
					what: 'the execution of the poll after the stop',
				},
			);
			await deactivateWorkflow(session, TRIGGER_WORKFLOW);
			await pause(2_000);

			const finalList = (await executions()).sort((a, b) => Number(a.id) - Number(b.id));
			expect(finalList.map((e) => [e.mode, e.status])).toEqual([
				['trigger', 'success'],
				['trigger', 'success'],
			]);
			const ran = finalList.map((e) => workerOf(workers, e.id));
			expect(ran.every((name) => name !== undefined)).toBe(true);
			const byExecution = await Promise.all(finalList.map(async (e) => await emitted(e.id)));
			const ids = (batch: Invoice[]) => batch.map((i) => i.id).sort();
			expect(byExecution.map((list) => list.slice().sort())).toEqual([ids(batchA), ids(batchB)]);
			const everything = byExecution.flat();
			expect(new Set(everything).size).toBe(everything.length);
			expect(polls().every((r) => r.status === 200)).toBe(true);

			report.trigger = {
				executions: finalList.map((e, i) => ({
					id: e.id,
					worker: ran[i],
					invoices: byExecution[i].length,
				})),
				restartedWorker: restarted.name,
				firstExecutionRunningAtStop: firstStillRunning,
				polls: polls().length,
				seconds: Math.round((Date.now() - started) / 1000),
			};
			process.stderr.write(
				`[queue-mode.e2e ${target}] trigger: ${JSON.stringify(report.trigger)}\n`,
			);
		});

		// ------------------------------------------------------------------ 2. 40 drains at once

		/** Starts DRAIN_RUNS runs of a drain workflow at once and checks every run's items. */
		async function drain(
			workflowId: string,
			label: string,
			limits: 'spendesk' | 'none',
		): Promise<DrainFigures> {
			sim.configure(limits === 'spendesk' ? { ...SPENDESK_LIMITS } : { ...NO_LIMITS });
			const active = sim.companies().filter((c) => c.active);
			const expected = active
				.flatMap((c) => sim.invoicesSorted(c.id).map((i) => `${c.id}/${i.id}`))
				.sort();
			const stored = await storedWorkflow(session, workflowId);
			const logFrom = sim.log.length;
			sim.resetStats();
			const started = Date.now();
			const ids = await Promise.all(
				Array.from({ length: DRAIN_RUNS }, async () => await startRun(session, stored, 'Start')),
			);
			const list = await waitFor(
				async () => {
					const all = await listExecutions(session, workflowId);
					return all.length === DRAIN_RUNS && all.every(finished) ? all : undefined;
				},
				{
					timeoutMs: 8 * 60_000,
					intervalMs: 500,
					what: `${DRAIN_RUNS} drain executions (${label})`,
				},
			);
			const ended = Math.max(...list.map((e) => Date.parse(e.stoppedAt ?? '') || Date.now()));
			const requests: LoggedRequest[] = sim.log.slice(logFrom);
			const peakInFlight = sim.stats.peakInFlight;
			sim.configure({ ...NO_LIMITS, latencyMs: 0 });

			expect(list.map((e) => e.id).sort()).toEqual(ids.slice().sort());
			expect(list.filter((e) => e.status !== 'success').map((e) => [e.id, e.status])).toEqual([]);
			let itemCount = 0;
			for (const id of ids) {
				const execution = await getExecution(session, homes[0], id);
				expect(execution.data.resultData.error).toBeUndefined();
				const got = items(execution, DRAIN_NODE).map(
					(i) => `${String(i.companyId)}/${String(i.id)}`,
				);
				itemCount += got.length;
				expect(got.sort()).toEqual(expected);
			}
			const perWorker: Record<string, number> = {};
			for (const id of ids) {
				const name = workerOf(workers, id) ?? 'main';
				perWorker[name] = (perWorker[name] ?? 0) + 1;
			}
			const api = requests.filter((r) => r.route !== 'token');
			const figures: DrainFigures = {
				label,
				workers: workers.filter((w) => w.running).length,
				limits,
				executions: list.length,
				succeeded: list.filter((e) => e.status === 'success').length,
				perWorker,
				items: itemCount,
				seconds: Math.round((ended - started) / 100) / 10,
				apiRequests: api.length,
				tokenRequests: requests.filter((r) => r.route === 'token').length,
				peakInFlight,
				inFlight429: api.filter(
					(r) => r.status === 429 && r.errorCode === 'too_many_requests_in_flight',
				).length,
				rate429: api.filter((r) => r.status === 429 && r.errorCode === 'rate_limit_exceeded')
					.length,
			};
			process.stderr.write(`[queue-mode.e2e ${target}] drain: ${JSON.stringify(figures)}\n`);
			return figures;
		}

		it(`${DRAIN_RUNS} All Companies drains started at once run on both workers: every run's items exact, no error, within Spendesk's limits or recovered`, async () => {
			// Fresh credential: no token yet in the database.
			const twoWorkers = await drain(
				'queueDrainTwoWorkers',
				'2 workers, Spendesk limits',
				'spendesk',
			);
			const twoNoLimits = await drain('queueDrainNoLimits', '2 workers, no server limits', 'none');
			await workers[1].stop();
			const oneWorker = await drain('queueDrainOneWorker', '1 worker, Spendesk limits', 'spendesk');
			const oneNoLimits = await drain(
				'queueDrainOneWorkerNoLimits',
				'1 worker, no server limits',
				'none',
			);
			await workers[1].start();
			report.drain = [twoWorkers, twoNoLimits, oneWorker, oneNoLimits];
			report.limits = {
				spendesk: SPENDESK_LIMITS,
				none: NO_LIMITS,
				workerConcurrency: WORKER_CONCURRENCY,
				drainRuns: DRAIN_RUNS,
			};

			// Pages of 100 invoices over the active companies.
			const pages = sim
				.companies()
				.filter((c) => c.active)
				.reduce((n, c) => n + Math.max(1, Math.ceil(sim.invoicesSorted(c.id).length / 100)), 0);
			// Both workers took part; the one-worker runs all ran on worker-1.
			expect(Object.keys(twoWorkers.perWorker).sort()).toEqual(['worker-1', 'worker-2']);
			expect(Object.keys(twoNoLimits.perWorker).sort()).toEqual(['worker-1', 'worker-2']);
			expect(oneWorker.perWorker).toEqual({ 'worker-1': DRAIN_RUNS });
			for (const f of [twoWorkers, twoNoLimits, oneWorker, oneNoLimits]) {
				expect(f.succeeded).toBe(DRAIN_RUNS);
				// Every successful request is needed: Get Companies once per run, then the pages of each company.
				expect(f.apiRequests - f.inFlight429 - f.rate429).toBe(DRAIN_RUNS * (1 + pages));
			}
			// n8n shares the token through the database: at most one per process that started cold, none afterwards.
			expect(twoWorkers.tokenRequests).toBeGreaterThanOrEqual(1);
			expect(twoWorkers.tokenRequests).toBeLessThanOrEqual(2);
			expect(twoNoLimits.tokenRequests + oneWorker.tokenRequests + oneNoLimits.tokenRequests).toBe(
				0,
			);
			// With the server's cap, never more than 5 in flight there; without it, the cap of 5 per
			// process adds up: up to 5 per worker.
			expect(twoWorkers.peakInFlight).toBeLessThanOrEqual(5);
			expect(oneWorker.peakInFlight).toBeLessThanOrEqual(5);
			expect(oneNoLimits.peakInFlight).toBeLessThanOrEqual(5);
			expect(twoNoLimits.peakInFlight).toBeLessThanOrEqual(10);
			// One process alone never meets the in-flight cap.
			expect(oneWorker.inFlight429).toBe(0);
		});

		// ------------------------------------------------------------------ 3. webhook trigger

		it('the Webhook Trigger receives deliveries through the webhook processor and runs them on the workers: one execution per event, repeats included', async () => {
			const started = Date.now();
			const trigger = loadExample(WEBHOOK_EXAMPLE, WEBHOOK_WORKFLOW, WEBHOOK_CREDENTIAL).nodes.find(
				(n) => n.name === WEBHOOK_TRIGGER,
			) as { webhookId?: string };
			const url = `${webhook!.baseUrl}/webhook/${trigger.webhookId}/webhook`;
			const active = sim.companies().filter((c) => c.active);
			const deliveries = () => sim.webhookDeliveries().filter((d) => d.url === url);
			const executions = async () => await listExecutions(session, WEBHOOK_WORKFLOW);

			await activateWorkflow(session, WEBHOOK_WORKFLOW);
			await waitFor(() => active.every((c) => webhooksOf(sim, c.id).length === 1) || undefined, {
				timeoutMs: 60_000,
				what: 'the webhook instances registered at activation',
			});
			for (const c of active)
				expect(webhooksOf(sim, c.id)[0]).toMatchObject({
					url,
					companyId: c.id,
					events: ['payables:created'],
				});

			// Two payables per company, created at once: 8 events, delivered concurrently.
			const created = active.flatMap((c) => [sim.createPayable(c.id), sim.createPayable(c.id)]);
			const list = await waitFor(
				async () => {
					const all = await executions();
					return all.length >= created.length && all.every(finished) ? all : undefined;
				},
				{ timeoutMs: 120_000, intervalMs: 500, what: `${created.length} webhook executions` },
			);
			await sim.whenWebhooksIdle();
			expect(list).toHaveLength(created.length);
			expect(list.every((e) => e.mode === 'webhook' && e.status === 'success')).toBe(true);
			const ran = list.map((e) => workerOf(workers, e.id));
			expect(ran.every((name) => name !== undefined)).toBe(true);
			const payableIds = await Promise.all(
				list.map(async (e) => {
					const out = items(await getExecution(session, homes[0], e.id), WEBHOOK_TRIGGER);
					expect(out).toHaveLength(1);
					return String(out[0].id);
				}),
			);
			expect(payableIds.sort()).toEqual(created.map((c) => c.payable.id).sort());
			expect(deliveries().map((d) => d.status)).toEqual(created.map(() => 200));

			// Spendesk delivers every event again, to the same webhook processor: answered 200, nothing runs.
			for (const { event } of created) sim.redeliverWebhookEvent(event.id);
			await sim.whenWebhooksIdle();
			await pause(3_000);
			const afterRepeat = await executions();

			// Again after the webhook processor restarted (its memory of recent events is gone: the
			// workflow's static data in the database remains).
			await webhook!.stop();
			await webhook!.start();
			for (const { event } of created) sim.redeliverWebhookEvent(event.id);
			await sim.whenWebhooksIdle();
			await pause(3_000);
			const afterRestart = await executions();

			report.webhook = {
				events: created.length,
				executions: list.length,
				perWorker: Object.fromEntries(
					['worker-1', 'worker-2'].map((name) => [name, ran.filter((r) => r === name).length]),
				),
				repeatsSameProcess: {
					deliveries: created.length,
					newExecutions: afterRepeat.length - list.length,
				},
				repeatsAfterRestart: {
					deliveries: created.length,
					newExecutions: afterRestart.length - list.length - (afterRepeat.length - list.length),
				},
				deliveryStatuses: [...new Set(deliveries().map((d) => d.status))],
				seconds: Math.round((Date.now() - started) / 1000),
			};
			process.stderr.write(
				`[queue-mode.e2e ${target}] webhook: ${JSON.stringify(report.webhook)}\n`,
			);

			expect(deliveries()).toHaveLength(created.length * 3);
			expect(deliveries().every((d) => d.status === 200)).toBe(true);
			expect(afterRepeat.map((e) => e.id).sort()).toEqual(list.map((e) => e.id).sort());
			// Every event id reached the database (overlapping deliveries included), where n8n saves
			// static data after a delivery; otherwise each repeat after the restart runs again.
			const saved = WEBHOOK_STATIC_DATA_SAVED[String(report.n8n)] ?? true;
			expect(afterRestart.length - list.length).toBe(saved ? 0 : created.length);
			expect(afterRestart.every((e) => e.status === 'success')).toBe(true);

			await deactivateWorkflow(session, WEBHOOK_WORKFLOW);
			await waitFor(() => active.every((c) => webhooksOf(sim, c.id).length === 0) || undefined, {
				timeoutMs: 30_000,
				what: 'the instances deleted at deactivation',
			});
		});
	},
);
