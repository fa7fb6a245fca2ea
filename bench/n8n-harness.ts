/**
 * A real n8n for the comparison of bench/figures/n8n.ts, on top of the end-to-end suite's
 * installs (test/e2e): n8n 2.8.4 with this package installed as a community package,
 * credentials and workflows imported, then `n8n start`. Workflows run through the REST API
 * (POST /rest/workflows/{id}/run, as the editor's "Execute workflow"), and for each run:
 *
 * - time: the execution's own `stoppedAt − startedAt` as n8n records it (executions list),
 *   so n8n's start-up and the REST round trips are not counted; each node's own
 *   `executionTime` is kept too;
 * - memory: the peak resident set of the n8n process during the run, from
 *   /proc/<pid>/status `VmHWM` after resetting it (`echo 5 > /proc/<pid>/clear_refs`) just
 *   before the run, which follows a full garbage collection (through the inspector) so that
 *   what earlier runs left behind weighs as little as it can; it includes n8n saving the
 *   execution. The processes n8n starts (its JavaScript task runner, which n8n 2.8.4 starts
 *   even with N8N_RUNNERS_ENABLED=false as in the end-to-end suite; idle here, as no workflow
 *   has a Code node) are measured apart (`childPeakBytes`);
 * - output: the records' ids, read back from the saved execution.
 *
 * n8n listens for the V8 inspector on a free loopback port (only this harness connects: it
 * asks for garbage collections between runs and, in `runProfiled`, records a CPU profile of
 * one run in Chrome DevTools format).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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
import type { CredentialExport, RunJson, Workflow } from '../test/e2e/workflows';
import { importCredentials, importWorkflows } from '../test/e2e/workflows';

export interface RunResult {
	workflowId: string;
	executionId: string;
	status: string;
	/** stoppedAt − startedAt of the execution (ms). */
	ms: number;
	/** Each node's own executionTime (ms), summed over its runs. */
	nodeMs: Record<string, number>;
	/** The first error of the run (the node's message), if it failed. */
	error?: string;
	/** `json.id` of every item of the output node (all its runs), in order. */
	ids: string[];
	/** Items of the output node that carry no id. */
	withoutId: number;
	/** VmRSS of the n8n process just before the run, and its peak (VmHWM) during the run, in bytes. */
	rssBeforeBytes: number;
	peakRssBytes: number;
	/** Peak resident sets of other processes under n8n during the run (none expected). */
	childPeakBytes: number;
	/**
	 * CPU time (user + system) of the n8n process between the execution's startedAt and
	 * stoppedAt, from /proc/<pid>/stat sampled every 20 ms (so ± 20 ms): unlike wall time, it
	 * hardly moves when other processes compete for the cores. With runs started together, it is
	 * their common CPU time.
	 */
	cpuMs: number;
}

export interface OutputOf {
	/** The node whose items are the records. */
	node: string;
	/** Its output index (default 0). */
	output?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Values of /proc/<pid>/status in bytes (VmRSS, VmHWM), or undefined when the process is gone. */
function memoryOf(pid: number): { rss: number; hwm: number } | undefined {
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const kb = (field: string) =>
			Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) * 1024;
		return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
	} catch {
		return undefined;
	}
}

/** CPU time (user + system, ms) of a process so far, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuTimeOf(pid: number): number {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// Fields after the command name (which is in brackets and may hold spaces): utime is the 14th field, stime the 15th.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return (Number(fields[11]) + Number(fields[12])) * 10;
	} catch {
		return NaN;
	}
}

/** Samples a process's CPU time every `everyMs` until stopped; `at(t)` is the CPU time at wall-clock time t (ms). */
function cpuSampler(pid: number, everyMs = 20) {
	const samples: Array<[number, number]> = [[Date.now(), cpuTimeOf(pid)]];
	const timer = setInterval(() => samples.push([Date.now(), cpuTimeOf(pid)]), everyMs);
	return {
		stop: () => {
			clearInterval(timer);
			samples.push([Date.now(), cpuTimeOf(pid)]);
		},
		at: (t: number) => {
			let best = samples[0];
			for (const sample of samples)
				if (Math.abs(sample[0] - t) < Math.abs(best[0] - t)) best = sample;
			return best[1];
		},
	};
}

/** Resets the peak resident set (VmHWM) of a process to its current size. */
function resetPeak(pid: number): void {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, '5');
	} catch {
		// gone, or not ours
	}
}

/** Every process below `pid`. */
function descendants(pid: number): number[] {
	const out: number[] = [];
	const queue = [pid];
	while (queue.length) {
		const p = queue.shift()!;
		let tasks: string[] = [];
		try {
			tasks = readdirSync(`/proc/${p}/task`);
		} catch {
			continue;
		}
		for (const task of tasks) {
			let children = '';
			try {
				children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8');
			} catch {
				continue;
			}
			for (const child of children.split(/\s+/).filter(Boolean).map(Number)) {
				out.push(child);
				queue.push(child);
			}
		}
	}
	return out;
}

export class BenchN8n {
	private constructor(
		readonly home: N8nHome,
		readonly server: N8nServer,
		readonly session: RestSession,
		readonly version: string,
		private readonly inspector: Inspector,
	) {}

	/** Installs (once, cached) and starts n8n 2.8.4 with the credentials and workflows given. */
	static async start(options: {
		credentials: CredentialExport[];
		workflows: Workflow[];
	}): Promise<BenchN8n> {
		const runtime = await ensureN8n('node20');
		const home = await createHome(runtime);
		const inspectorPort = await freePort();
		let server: N8nServer | undefined;
		try {
			await importCredentials(home, options.credentials);
			await importWorkflows(home, options.workflows);
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

	get pid(): number {
		return this.server.process.pid!;
	}

	/** The processes n8n started (n8n 2.8.4 starts its JavaScript task runner even with N8N_RUNNERS_ENABLED=false). */
	children(): Array<{ pid: number; command: string; rssBytes: number }> {
		return descendants(this.pid).map((pid) => {
			let command = '';
			try {
				command = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
					.split('\0')
					.filter(Boolean)
					.join(' ');
			} catch {
				// gone
			}
			return { pid, command, rssBytes: memoryOf(pid)?.rss ?? NaN };
		});
	}

	get nodeVersion(): string {
		return this.home.runtime.nodeBin === process.execPath
			? process.version
			: this.home.runtime.nodeBin;
	}

	/** Starts a saved workflow (as the editor's "Execute workflow"); resolves with the execution id. */
	async start(workflowId: string): Promise<string> {
		const saved = await this.session.get<Record<string, unknown>>(`/workflows/${workflowId}`);
		const { executionId } = await this.session.post<{ executionId: string }>(
			`/workflows/${workflowId}/run`,
			{ workflowData: saved, triggerToStartFrom: { name: 'Start' } },
		);
		return executionId;
	}

	/** Waits for an execution to end; returns its summary (startedAt, stoppedAt, status). */
	async finished(
		workflowId: string,
		executionId: string,
		timeoutMs = 600_000,
	): Promise<ExecutionSummary> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		return await waitFor(
			async () => {
				const page = await this.session.get<{ results: ExecutionSummary[] }>(
					`/executions?filter=${filter}&limit=20`,
				);
				const found = page.results.find((e) => e.id === executionId);
				return found && found.stoppedAt && !['new', 'running', 'waiting'].includes(found.status)
					? found
					: undefined;
			},
			{ timeoutMs, intervalMs: 300, what: `execution ${executionId} of ${workflowId}` },
		);
	}

	/**
	 * Runs workflows at the same time (one execution each) and measures each; the memory peak
	 * is then the peak of all of them together.
	 */
	async runTogether(runs: Array<{ workflowId: string; output: OutputOf }>): Promise<RunResult[]> {
		await this.collectGarbage();
		const children = descendants(this.pid);
		for (const pid of [this.pid, ...children]) resetPeak(pid);
		const before = memoryOf(this.pid)?.rss ?? NaN;
		const cpu = cpuSampler(this.pid);
		const started = await Promise.all(
			runs.map(async (r) => ({ ...r, executionId: await this.start(r.workflowId) })),
		);
		const summaries = await Promise.all(
			started.map(async (r) => await this.finished(r.workflowId, r.executionId)),
		);
		cpu.stop();
		const peak = memoryOf(this.pid)?.hwm ?? NaN;
		const childPeak = descendants(this.pid).reduce(
			(sum, pid) => sum + (memoryOf(pid)?.hwm ?? 0),
			0,
		);
		const results: RunResult[] = [];
		for (const [i, r] of started.entries()) {
			const summary = summaries[i];
			const execution = await getExecution(this.session, this.home, r.executionId);
			results.push({
				workflowId: r.workflowId,
				executionId: r.executionId,
				status: summary.status,
				ms: Date.parse(summary.stoppedAt!) - Date.parse(summary.startedAt),
				...readRun(execution, r.output),
				rssBeforeBytes: before,
				peakRssBytes: peak,
				childPeakBytes: childPeak,
				cpuMs: cpu.at(Date.parse(summary.stoppedAt!)) - cpu.at(Date.parse(summary.startedAt)),
			});
		}
		return results;
	}

	async run(workflowId: string, output: OutputOf): Promise<RunResult> {
		return (await this.runTogether([{ workflowId, output }]))[0];
	}

	/** Full garbage collections in n8n's process (twice: objects freed by the first can hold others). */
	async collectGarbage(): Promise<void> {
		await this.inspector.send('HeapProfiler.collectGarbage');
		await this.inspector.send('HeapProfiler.collectGarbage');
	}

	/**
	 * One run with the CPU profiler of n8n's process on (sampling every 200 µs) from just
	 * before the run is started until n8n has saved it. `execution` is the part of the
	 * profile between the execution's startedAt and stoppedAt (ms from the profile's start),
	 * the rest being the REST call that starts it and the saving of the execution.
	 */
	async runProfiled(
		workflowId: string,
		output: OutputOf,
		file: string,
	): Promise<{
		result: RunResult;
		profile: CpuProfile;
		execution: { fromMs: number; toMs: number };
	}> {
		await this.collectGarbage();
		await this.inspector.send('Profiler.enable');
		await this.inspector.send('Profiler.setSamplingInterval', { interval: 200 });
		await this.inspector.send('Profiler.start');
		const profileStarted = Date.now();
		const executionId = await this.start(workflowId);
		const summary = await this.finished(workflowId, executionId);
		const { profile } = (await this.inspector.send('Profiler.stop')) as { profile: CpuProfile };
		await this.inspector.send('Profiler.disable');
		writeFileSync(file, JSON.stringify(profile));
		const execution = await getExecution(this.session, this.home, executionId);
		const result: RunResult = {
			workflowId,
			executionId,
			status: summary.status,
			ms: Date.parse(summary.stoppedAt!) - Date.parse(summary.startedAt),
			...readRun(execution, output),
			rssBeforeBytes: NaN,
			peakRssBytes: NaN,
			childPeakBytes: NaN,
			cpuMs: NaN,
		};
		const window = {
			fromMs: Date.parse(summary.startedAt) - profileStarted,
			toMs: Date.parse(summary.stoppedAt!) - profileStarted,
		};
		return { result, profile, execution: window };
	}

	/** Stops n8n and removes its home (its database holds every execution: hundreds of MB). */
	async stop(): Promise<void> {
		this.inspector.close();
		await this.server.stop();
		rmSync(this.home.dir, { recursive: true, force: true });
	}

	/** Lets n8n settle between runs (its own timers, garbage collection). */
	async pause(ms = 500): Promise<void> {
		await sleep(ms);
	}

	/** The installed n8n folder (for the record). */
	get installDir(): string {
		return path.relative(process.cwd(), this.home.runtime.dir);
	}
}

/** Items, errors and per-node times of a saved execution. */
function readRun(
	execution: RunJson,
	output: OutputOf,
): Pick<RunResult, 'nodeMs' | 'error' | 'ids' | 'withoutId'> {
	const runData = execution.data.resultData.runData;
	const nodeMs: Record<string, number> = {};
	for (const [name, tasks] of Object.entries(runData)) {
		nodeMs[name] = tasks.reduce(
			(sum, task) => sum + Number((task as { executionTime?: number }).executionTime ?? 0),
			0,
		);
	}
	const ids: string[] = [];
	let withoutId = 0;
	for (const task of runData[output.node] ?? []) {
		for (const item of task.data?.main[output.output ?? 0] ?? []) {
			const id = item.json.id;
			if (typeof id === 'string') ids.push(id);
			else withoutId++;
		}
	}
	const error = execution.data.resultData.error;
	const message = error
		? `${error.message ?? 'error'}${error.description ? ` — ${error.description}` : ''}`
		: undefined;
	return { nodeMs, error: message, ids, withoutId };
}

// ---------------------------------------------------------------- CPU profiles

/** A CPU profile as the inspector's Profiler.stop returns it. */
export interface CpuProfile {
	nodes: Array<{
		id: number;
		callFrame: { functionName: string; url: string; lineNumber: number };
		children?: number[];
	}>;
	samples: number[];
	timeDeltas: number[];
	startTime: number;
	endTime: number;
}

/** A minimal client of the V8 inspector protocol over n8n's own `ws` package. */
class Inspector {
	private nextId = 1;
	private readonly pending = new Map<number, (result: unknown) => void>();

	private constructor(
		private readonly socket: {
			send(data: string): void;
			close(): void;
			on(event: string, listener: (data: Buffer) => void): void;
		},
	) {
		socket.on('message', (data) => {
			const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
			if (message.id !== undefined) {
				this.pending.get(message.id)?.(message.result);
				this.pending.delete(message.id);
			}
		});
	}

	static async connect(port: number, load: NodeRequire): Promise<Inspector> {
		const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
			webSocketDebuggerUrl: string;
		}>;
		const WebSocket = load('ws') as new (url: string) => {
			send(data: string): void;
			close(): void;
			on(event: string, listener: (data: Buffer) => void): void;
			once(event: string, listener: (error?: Error) => void): void;
		};
		const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
		await new Promise<void>((resolve, reject) => {
			socket.once('open', () => resolve());
			socket.once('error', (error) => reject(error ?? new Error('inspector connection failed')));
		});
		return new Inspector(socket);
	}

	async send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
		const id = this.nextId++;
		return await new Promise((resolve) => {
			this.pending.set(id, resolve);
			this.socket.send(JSON.stringify({ id, method, params }));
		});
	}

	close(): void {
		this.socket.close();
	}
}
