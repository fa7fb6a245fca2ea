/**
 * A real n8n for the comparison of bench/figures/n8n.ts, on top of the end-to-end suite's
 * installs (test/e2e): n8n 2.8.4 with this package installed as a community package,
 * credentials and workflows imported, then `n8n start`. Workflows run through the REST API
 * (POST /rest/workflows/{id}/run, as the editor's "Execute workflow"), and for each run:
 *
 * - time: the execution's own `stoppedAt − startedAt` as n8n records it (executions list), so
 *   n8n's start-up and the REST round trips are not counted;
 * - memory: the peak resident set of the n8n process during the run, /proc/<pid>/status `VmHWM`
 *   after resetting it (`echo 5 > /proc/<pid>/clear_refs`) just before the run, which follows
 *   two full garbage collections through n8n's V8 inspector (on a free loopback port);
 * - output: the records' ids, read back from the saved execution.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { N8nHome } from '../test/e2e/runtime';
import { createHome, ensureN8n, installedVersion } from '../test/e2e/runtime';
import type { ExecutionSummary, N8nServer, RestSession } from '../test/e2e/server';
import {
	freePort,
	getExecution,
	n8nRequire,
	setupOwner,
	startN8n,
	waitFor,
} from '../test/e2e/server';
import type { CredentialExport, Workflow } from '../test/e2e/workflows';
import { importCredentials, importWorkflows } from '../test/e2e/workflows';

/** `ms`: stoppedAt − startedAt; `error`: the run's first; `withoutId`: items of the output node with none. */
export interface RunResult {
	status: string;
	ms: number;
	error?: string;
	/** `json.id` of every item of the output node (all its runs), in order. */
	ids: string[];
	withoutId: number;
	/** VmRSS of the n8n process just before the run, and its peak (VmHWM) during the run, in bytes. */
	rssBeforeBytes: number;
	peakRssBytes: number;
}

/** The node whose items are the records, and its output. */
export interface OutputOf {
	node: string;
	output?: number;
}

/** VmRSS and VmHWM of a process in bytes (NaN when it is gone). */
function memoryOf(pid: number): { rss: number; hwm: number } {
	let status = '';
	try {
		status = readFileSync(`/proc/${pid}/status`, 'utf8');
	} catch {
		// gone
	}
	const kb = (field: string) =>
		Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) * 1024;
	return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

export class BenchN8n {
	private constructor(
		private readonly home: N8nHome,
		private readonly server: N8nServer,
		private readonly session: RestSession,
		readonly version: string,
		private readonly inspector: Inspector,
	) {}

	/** Installs (once, cached) and starts n8n 2.8.4 with the credentials and workflows given. */
	static async start(credentials: CredentialExport[], workflows: Workflow[]): Promise<BenchN8n> {
		const runtime = await ensureN8n('node20');
		const home = await createHome(runtime);
		const inspectorPort = await freePort();
		let server: N8nServer | undefined;
		try {
			await importCredentials(home, credentials);
			await importWorkflows(home, workflows);
			server = await startN8n(home, {
				env: { NODE_OPTIONS: `--inspect=127.0.0.1:${inspectorPort}` },
			});
			const session = await setupOwner(server.baseUrl);
			const inspector = await Inspector.connect(inspectorPort, n8nRequire(home));
			return new BenchN8n(home, server, session, installedVersion(runtime), inspector);
		} catch (error) {
			await server?.stop();
			rmSync(home.dir, { recursive: true, force: true });
			throw error;
		}
	}

	/** Starts a saved workflow (as the editor's "Execute workflow"); resolves once it has ended. */
	private async execute(workflowId: string): Promise<ExecutionSummary> {
		const saved = await this.session.get<Record<string, unknown>>(`/workflows/${workflowId}`);
		const { executionId } = await this.session.post<{ executionId: string }>(
			`/workflows/${workflowId}/run`,
			{ workflowData: saved, triggerToStartFrom: { name: 'Start' } },
		);
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		return await waitFor(
			async () => {
				const page = await this.session.get<{ results: ExecutionSummary[] }>(
					`/executions?filter=${filter}&limit=20`,
				);
				const found = page.results.find((e) => e.id === executionId);
				return found?.stoppedAt && !['new', 'running', 'waiting'].includes(found.status)
					? found
					: undefined;
			},
			{ timeoutMs: 600_000, intervalMs: 300, what: `execution ${executionId} of ${workflowId}` },
		);
	}

	/** Runs workflows at the same time (one execution each); the memory peak is that of all of them. */
	async runTogether(runs: Array<{ workflowId: string; output: OutputOf }>): Promise<RunResult[]> {
		// Twice: objects freed by the first collection can hold others.
		await this.inspector.send('HeapProfiler.collectGarbage');
		await this.inspector.send('HeapProfiler.collectGarbage');
		const pid = this.server.process.pid!;
		writeFileSync(`/proc/${pid}/clear_refs`, '5');
		const before = memoryOf(pid).rss;
		const summaries = await Promise.all(runs.map(async (r) => await this.execute(r.workflowId)));
		const peak = memoryOf(pid).hwm;
		return await Promise.all(
			summaries.map(async (summary, i) => {
				const execution = await getExecution(this.session, this.home, summary.id);
				const runData = execution.data.resultData.runData;
				const ids: string[] = [];
				let withoutId = 0;
				for (const task of runData[runs[i].output.node] ?? [])
					for (const item of task.data?.main[runs[i].output.output ?? 0] ?? []) {
						if (typeof item.json.id === 'string') ids.push(item.json.id);
						else withoutId++;
					}
				const error = execution.data.resultData.error;
				return {
					status: summary.status,
					ms: Date.parse(summary.stoppedAt!) - Date.parse(summary.startedAt),
					error:
						error &&
						`${error.message ?? 'error'}${error.description ? ` — ${error.description}` : ''}`,
					ids,
					withoutId,
					rssBeforeBytes: before,
					peakRssBytes: peak,
				};
			}),
		);
	}

	async run(workflowId: string, output: OutputOf): Promise<RunResult> {
		return (await this.runTogether([{ workflowId, output }]))[0];
	}

	/** Stops n8n and removes its home (its database holds every execution: hundreds of MB). */
	async stop(): Promise<void> {
		this.inspector.close();
		await this.server.stop();
		rmSync(this.home.dir, { recursive: true, force: true });
	}
}

interface Socket {
	send(data: string): void;
	close(): void;
	on(event: string, listener: (data: Buffer) => void): void;
	once(event: string, listener: (error?: Error) => void): void;
}

/** A minimal client of the V8 inspector protocol over n8n's own `ws` package. */
class Inspector {
	private nextId = 1;
	private readonly pending = new Map<number, () => void>();

	private constructor(private readonly socket: Socket) {
		socket.on('message', (data) => {
			const { id } = JSON.parse(data.toString()) as { id?: number };
			if (id !== undefined) this.pending.get(id)?.();
			this.pending.delete(id!);
		});
	}

	static async connect(port: number, load: NodeRequire): Promise<Inspector> {
		const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
			webSocketDebuggerUrl: string;
		}>;
		const WebSocket = load('ws') as new (url: string) => Socket;
		const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
		await new Promise<void>((resolve, reject) => {
			socket.once('open', () => resolve());
			socket.once('error', (error) => reject(error ?? new Error('inspector connection failed')));
		});
		return new Inspector(socket);
	}

	async send(method: string): Promise<void> {
		const id = this.nextId++;
		await new Promise<void>((resolve) => {
			this.pending.set(id, resolve);
			this.socket.send(JSON.stringify({ id, method, params: {} }));
		});
	}

	close(): void {
		this.socket.close();
	}
}
