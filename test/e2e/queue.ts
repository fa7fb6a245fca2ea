/**
 * n8n in queue mode for end-to-end tests: one main process (editor, REST API, triggers and
 * pollers), workers (`n8n worker`) that run the executions, and optionally a webhook
 * processor (`n8n webhook`), all sharing one PostgreSQL database and one Redis job queue
 * (services.ts). Each process has its own N8N_USER_FOLDER with this package installed as a
 * community package (runtime.ts createHome), and the same encryption key.
 */
import type { Postgres, Redis } from './services';
import { createHome } from './runtime';
import type { N8nHome, N8nRuntime } from './runtime';
import { freePort, readinessOk, spawnN8n, waitUntilReady } from './server';
import type { N8nProcess, RestSession } from './server';

/** The environment every process of the cluster shares (CLI imports included). */
export function queueModeEnv(postgres: Postgres, redis: Redis): NodeJS.ProcessEnv {
	return {
		...postgres.n8nEnv,
		...redis.n8nEnv,
		EXECUTIONS_MODE: 'queue',
		// Executions started from the editor or the REST API (mode "manual") run on workers too,
		// not on main (n8n's default in queue mode, deprecated).
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '30',
	};
}

/** A fresh home (user folder with the package installed) whose environment joins the cluster. */
export async function createQueueHome(
	runtime: N8nRuntime,
	env: NodeJS.ProcessEnv,
): Promise<N8nHome> {
	const home = await createHome(runtime);
	home.env = { ...home.env, ...env };
	return home;
}

/** `n8n worker`, restartable: its log spans every run of the worker. */
export class QueueWorker {
	private current?: N8nProcess;
	private previousLogs = '';
	/** Port of the worker's health server (`/healthz/readiness`) in its current run. */
	healthPort = 0;

	constructor(
		readonly name: string,
		readonly home: N8nHome,
		readonly concurrency: number,
	) {}

	get running(): boolean {
		return this.current !== undefined && this.current.exitStatus() === undefined;
	}

	/** Starts the worker and resolves once it takes jobs (its health server says ready). */
	async start(): Promise<void> {
		if (this.running) return;
		if (this.current)
			this.previousLogs += `${this.current.logs()}\n[${this.name} exited: ${this.current.exitStatus()}]\n`;
		this.healthPort = await freePort();
		const env: NodeJS.ProcessEnv = {
			...this.home.env,
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(this.healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			// Its own task broker port, as for every n8n process on this machine.
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		};
		const worker = spawnN8n(this.home, ['worker', `--concurrency=${this.concurrency}`], env);
		this.current = worker;
		const port = this.healthPort;
		await waitUntilReady(
			worker,
			async () => /n8n worker is now ready/.test(worker.logs()) && (await readinessOk(port)),
			`${this.name} (n8n worker)`,
		);
	}

	/** SIGTERM: n8n stops taking jobs and lets running executions finish (up to N8N_GRACEFUL_SHUTDOWN_TIMEOUT). */
	async stop(graceMs = 45_000): Promise<void> {
		await this.current?.stop(graceMs);
	}

	/** Whatever the worker printed, over all its runs. */
	logs(): string {
		return this.previousLogs + (this.current?.logs() ?? '');
	}

	/** Ids of the executions this worker started (its log: "Worker started execution N"). */
	startedExecutions(): string[] {
		return [...this.logs().matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]);
	}

	/** Ids of the executions this worker finished. */
	finishedExecutions(): string[] {
		return [...this.logs().matchAll(/Worker finished execution (\d+)/g)].map((m) => m[1]);
	}
}

/** `n8n webhook` on a fixed port (kept across restarts, as a load balancer would point at it). */
export class WebhookProcessor {
	private current?: N8nProcess;
	private previousLogs = '';

	constructor(
		readonly home: N8nHome,
		readonly port: number,
	) {}

	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	async start(): Promise<void> {
		if (this.current && this.current.exitStatus() === undefined) return;
		if (this.current)
			this.previousLogs += `${this.current.logs()}\n[webhook processor exited: ${this.current.exitStatus()}]\n`;
		const env: NodeJS.ProcessEnv = {
			...this.home.env,
			N8N_PORT: String(this.port),
			WEBHOOK_URL: `${this.baseUrl}/`,
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		};
		const processor = spawnN8n(this.home, ['webhook'], env);
		this.current = processor;
		await waitUntilReady(
			processor,
			async () =>
				/Webhook listener waiting for requests/.test(processor.logs()) &&
				(await readinessOk(this.port)),
			'n8n webhook processor',
		);
	}

	async stop(graceMs = 30_000): Promise<void> {
		await this.current?.stop(graceMs);
	}

	logs(): string {
		return this.previousLogs + (this.current?.logs() ?? '');
	}
}

/** Which worker started an execution (undefined: none of them, i.e. it ran on main). */
export function workerOf(workers: QueueWorker[], executionId: string): string | undefined {
	return workers.find((w) => w.startedExecutions().includes(executionId))?.name;
}

interface StoredWorkflow {
	id: string;
	name: string;
	versionId?: string;
	nodes: Array<{ name: string; type: string }>;
	[key: string]: unknown;
}

/** Publishes (activates) a workflow through the REST API, as the editor's Publish button does. */
export async function activateWorkflow(session: RestSession, workflowId: string): Promise<void> {
	const workflow = await session.get<StoredWorkflow>(`/workflows/${workflowId}`);
	await session.post(`/workflows/${workflowId}/activate`, { versionId: workflow.versionId });
}

export async function deactivateWorkflow(session: RestSession, workflowId: string): Promise<void> {
	await session.post(`/workflows/${workflowId}/deactivate`, {});
}

/**
 * Starts one run of a stored workflow through the REST API, from its trigger node, as
 * *Execute workflow* in the editor does; resolves with the execution id (the run goes on).
 */
export async function startRun(
	session: RestSession,
	workflow: StoredWorkflow,
	trigger: string,
): Promise<string> {
	const result = await session.post<{ executionId?: string; waitingForWebhook?: boolean }>(
		`/workflows/${workflow.id}/run`,
		{
			workflowData: workflow,
			triggerToStartFrom: { name: trigger },
		},
	);
	if (!result.executionId)
		throw new Error(
			`POST /rest/workflows/${workflow.id}/run started no execution: ${JSON.stringify(result)}`,
		);
	return String(result.executionId);
}

export async function storedWorkflow(
	session: RestSession,
	workflowId: string,
): Promise<StoredWorkflow> {
	return await session.get<StoredWorkflow>(`/workflows/${workflowId}`);
}
