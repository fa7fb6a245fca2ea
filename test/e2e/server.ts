/**
 * A running n8n (`n8n start`) for server-based end-to-end tests and the `npm run dev`
 * sandbox, on top of the homes and runtimes of `runtime.ts`:
 * - `startN8n(home)`: starts n8n on a free port (or the given one), waits until it is ready,
 *   and `stop()`s it again (the whole process group it started, SIGTERM then SIGKILL);
 * - `setupOwner()` / `login()`: the owner account and a logged-in REST session
 *   (`n8n-auth` cookie) for n8n's internal `/rest/...` API;
 * - REST helpers for credentials, workflows and executions.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { sleep } from '../support/time';
import type { N8nHome } from './runtime';
import type { RunJson } from './workflows';

export interface N8nServer {
	home: N8nHome;
	port: number;
	/** Editor and REST base URL, e.g. http://127.0.0.1:5690 (no trailing slash). */
	baseUrl: string;
	process: ChildProcess;
	/** Everything n8n printed so far (stdout and stderr). */
	logs(): string;
	/** Stops n8n (SIGTERM, SIGKILL after `graceMs`) and resolves once it has exited. */
	stop(graceMs?: number): Promise<void>;
}

export interface StartOptions {
	/** Port to listen on; default: a free one. */
	port?: number;
	/** How long to wait for readiness. Default 180 s. */
	timeoutMs?: number;
	/** Extra environment for n8n. */
	env?: NodeJS.ProcessEnv;
	/** Called with every chunk n8n prints (e.g. to forward the log). */
	onOutput?: (chunk: string) => void;
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
	return await new Promise<number>((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export async function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
	return await new Promise<boolean>((resolve) => {
		const socket = net.connect({ port, host });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/** Thrown from a `waitFor` check to stop waiting at once. */
export class FatalWaitError extends Error {}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
	check: () => Promise<T | undefined | false> | T | undefined | false,
	{
		timeoutMs = 30_000,
		intervalMs = 250,
		what = 'condition',
	}: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let lastError: unknown;
	for (;;) {
		try {
			const value = await check();
			if (value !== undefined && value !== false) return value;
		} catch (error) {
			if (error instanceof FatalWaitError) throw error;
			lastError = error;
		}
		if (Date.now() > deadline) {
			const suffix = lastError
				? ` (last error: ${(lastError as Error).message ?? String(lastError)})`
				: '';
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${suffix}`);
		}
		await sleep(intervalMs);
	}
}

/** An n8n process (`n8n start`, `n8n worker`, `n8n webhook`, …) started by `spawnN8n`. */
export interface N8nProcess {
	process: ChildProcess;
	/** Everything n8n printed so far (stdout and stderr). */
	logs(): string;
	/** Resolves when the process has exited. */
	exited: Promise<void>;
	/** `code N` or `signal S` once it has exited, else undefined. */
	exitStatus(): string | undefined;
	/** Stops n8n (SIGTERM, SIGKILL after `graceMs`) and resolves once it has exited. */
	stop(graceMs?: number): Promise<void>;
}

/**
 * Runs an n8n command (`start`, `worker`, `webhook`, …) for a home in its own process group,
 * so that stop() ends n8n together with any task runner it forks.
 */
export function spawnN8n(
	home: N8nHome,
	args: string[],
	env: NodeJS.ProcessEnv,
	onOutput?: (chunk: string) => void,
): N8nProcess {
	let output = '';
	const child = spawn(home.runtime.nodeBin, [home.runtime.n8nBin, ...args], {
		cwd: home.dir,
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const onData = (d: Buffer) => {
		const text = d.toString();
		output = (output + text).slice(-2_000_000);
		onOutput?.(text);
	};
	child.stdout!.on('data', onData);
	child.stderr!.on('data', onData);
	let exitStatus: string | undefined;
	const exited = new Promise<void>((resolve) =>
		child.once('exit', (code, signal) => {
			exitStatus = signal ? `signal ${signal}` : `code ${code}`;
			resolve();
		}),
	);
	child.once('error', (error) => {
		output += `\n[spawn error] ${error.message}`;
	});

	const stop = async (graceMs = 20_000): Promise<void> => {
		if (exitStatus !== undefined || child.pid === undefined) return;
		const signalGroup = (signal: NodeJS.Signals) => {
			try {
				process.kill(-child.pid!, signal);
			} catch {
				// already gone
			}
		};
		signalGroup('SIGTERM');
		const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
		await exited;
		clearTimeout(timer);
		// Whatever n8n left in its group (a task runner that ignored SIGTERM).
		signalGroup('SIGKILL');
	};
	return { process: child, logs: () => output, exited, exitStatus: () => exitStatus, stop };
}

/**
 * Waits until `ready()` holds for a process started by spawnN8n; fails at once if it exits
 * first, and stops it when it does not become ready in time.
 */
export async function waitUntilReady(
	n8n: N8nProcess,
	ready: () => Promise<boolean> | boolean,
	what: string,
	timeoutMs = 180_000,
): Promise<void> {
	try {
		await waitFor(
			async () => {
				const status = n8n.exitStatus();
				if (status !== undefined)
					throw new FatalWaitError(
						`${what} exited (${status}) before it was ready:\n${n8n.logs().slice(-4000)}`,
					);
				return await ready();
			},
			{ timeoutMs, intervalMs: 300, what },
		).catch((error: unknown) => {
			if (error instanceof FatalWaitError) throw error;
			throw new Error(
				`${(error as Error).message}\n--- n8n output ---\n${n8n.logs().slice(-4000)}`,
			);
		});
	} catch (error) {
		await n8n.stop(2_000);
		throw error;
	}
}

/** Whether an n8n HTTP server on the port answers its readiness check. */
export async function readinessOk(port: number): Promise<boolean> {
	const response = await fetch(`http://127.0.0.1:${port}/healthz/readiness`);
	return response.ok;
}

/** Starts `n8n start` for a home and resolves once its REST API answers and the editor is up. */
export async function startN8n(home: N8nHome, options: StartOptions = {}): Promise<N8nServer> {
	const port = options.port ?? (await freePort());
	const baseUrl = `http://127.0.0.1:${port}`;
	const env: NodeJS.ProcessEnv = {
		...home.env,
		N8N_PORT: String(port),
		N8N_EDITOR_BASE_URL: baseUrl,
		WEBHOOK_URL: `${baseUrl}/`,
		// n8n's task broker listens on 5679 by default: a free port lets several n8n run side by side.
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		...options.env,
	};
	const n8n = spawnN8n(home, ['start'], env, options.onOutput);
	await waitUntilReady(
		n8n,
		async () => /Editor is now accessible via/.test(n8n.logs()) && (await readinessOk(port)),
		`n8n on ${baseUrl}`,
		options.timeoutMs,
	);
	return { home, port, baseUrl, process: n8n.process, logs: n8n.logs, stop: n8n.stop };
}

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

/** The owner account the tests and the sandbox create (n8n wants 8+ chars, a digit and an uppercase letter). */
export const DEFAULT_OWNER: Owner = {
	email: 'owner@example.com',
	password: 'Spendesk-Dev-1',
	firstName: 'Sandbox',
	lastName: 'Owner',
};

/** A fixed browser id: n8n binds its auth cookie to the `browser-id` header sent at login. */
const BROWSER_ID = 'spendesk-e2e-browser';

export class RestError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly body: unknown,
	) {
		super(message);
	}
}

/** A logged-in session against n8n's internal REST API (`/rest/...`). */
export class RestSession {
	constructor(
		readonly baseUrl: string,
		/** `n8n-auth=<jwt>` */
		readonly cookie: string,
	) {}

	async request<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}/rest${route}`, {
			method,
			headers: {
				cookie: this.cookie,
				'browser-id': BROWSER_ID,
				accept: 'application/json',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			// not JSON
		}
		if (!response.ok) {
			throw new RestError(
				`${method} /rest${route} answered ${response.status}: ${text.slice(0, 1000)}`,
				response.status,
				parsed,
			);
		}
		return (
			parsed && typeof parsed === 'object' && 'data' in parsed
				? (parsed as { data: T }).data
				: parsed
		) as T;
	}

	get<T = unknown>(route: string) {
		return this.request<T>('GET', route);
	}
	post<T = unknown>(route: string, body?: unknown) {
		return this.request<T>('POST', route, body ?? {});
	}
	patch<T = unknown>(route: string, body?: unknown) {
		return this.request<T>('PATCH', route, body ?? {});
	}
}

async function authRequest(baseUrl: string, route: string, body: unknown): Promise<RestSession> {
	const response = await fetch(`${baseUrl}/rest${route}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
		body: JSON.stringify(body),
	});
	if (!response.ok)
		throw new RestError(
			`POST /rest${route} answered ${response.status}: ${await response.text()}`,
			response.status,
			undefined,
		);
	const cookie = response.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error(`POST /rest${route} set no n8n-auth cookie`);
	return new RestSession(baseUrl, cookie);
}

/** Creates the owner account of a fresh n8n; resolves with a logged-in session. */
export async function setupOwner(
	baseUrl: string,
	owner: Owner = DEFAULT_OWNER,
): Promise<RestSession> {
	return await authRequest(baseUrl, '/owner/setup', owner);
}

export async function login(
	baseUrl: string,
	owner: Pick<Owner, 'email' | 'password'> = DEFAULT_OWNER,
): Promise<RestSession> {
	return await authRequest(baseUrl, '/login', {
		emailOrLdapLoginId: owner.email,
		password: owner.password,
	});
}

/** Logs in, setting the owner up first if n8n has none yet. */
export async function ensureOwner(
	baseUrl: string,
	owner: Owner = DEFAULT_OWNER,
): Promise<RestSession> {
	const settings = (await (await fetch(`${baseUrl}/rest/settings`)).json()) as {
		data?: { userManagement?: { showSetupOnFirstLoad?: boolean } };
	};
	if (settings.data?.userManagement?.showSetupOnFirstLoad) return await setupOwner(baseUrl, owner);
	return await login(baseUrl, owner);
}

// ---- credentials and workflows ----

export interface CredentialSummary {
	id: string;
	name: string;
	type: string;
}

/** A credential with its decrypted data (`oauthTokenData` is reported as `true` when a token is held). */
export async function getCredential(session: RestSession, id: string) {
	return await session.get<CredentialSummary & { data?: Record<string, unknown> }>(
		`/credentials/${id}?includeData=true`,
	);
}

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	finished?: boolean;
	startedAt: string;
	stoppedAt?: string;
}

/** Executions of a workflow, newest first. */
export async function listExecutions(
	session: RestSession,
	workflowId: string,
): Promise<ExecutionSummary[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const page = await session.get<{ results: ExecutionSummary[]; count: number }>(
		`/executions?filter=${filter}&limit=100`,
	);
	return page.results;
}

/**
 * One execution with its run data (n8n stores it `flatted`-encoded; parsed here with n8n's own
 * `flatted`), shaped like a CLI run so that `items()` of workflows.ts reads it.
 */
export async function getExecution(
	session: RestSession,
	home: N8nHome,
	id: string,
): Promise<ExecutionSummary & RunJson> {
	const execution = await session.get<ExecutionSummary & { data: string | RunJson['data'] }>(
		`/executions/${id}`,
	);
	const parse = (n8nRequire(home)('flatted') as { parse: (s: string) => RunJson['data'] }).parse;
	return {
		...execution,
		data: typeof execution.data === 'string' ? parse(execution.data) : execution.data,
	};
}

/** `require` resolving from the n8n installation of a home (for its `flatted`). */
export function n8nRequire(home: N8nHome): NodeRequire {
	return createRequire(path.join(home.runtime.dir, 'node_modules', 'n8n', 'package.json'));
}
