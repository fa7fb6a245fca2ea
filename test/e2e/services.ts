/**
 * Throwaway PostgreSQL and Redis servers for the queue-mode end-to-end tests, from Debian's
 * `postgresql` and `redis-server` packages (.ci/run installs them when they are missing):
 * each listens on 127.0.0.1 on a free port, keeps its data in a fresh temporary folder, and
 * `stop()` ends it and removes the folder. Nothing is installed, configured or started system-wide.
 *
 * PostgreSQL refuses to run as root: when the tests run as root, its programs run as the
 * `postgres` system user the Debian package creates (PG_USER to choose another one).
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import {
	chownSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, portOpen, waitFor } from './server';

const exec = promisify(execFile);

/** A server process started by these helpers. */
export interface ServiceProcess {
	port: number;
	/** Everything the server printed so far. */
	logs(): string;
	/** Stops the server (and removes its data folder); safe to call twice. */
	stop(): Promise<void>;
}

export interface Postgres extends ServiceProcess {
	database: string;
	user: string;
	/** n8n's environment for this database. */
	n8nEnv: NodeJS.ProcessEnv;
}

export interface Redis extends ServiceProcess {
	/** n8n's environment for its job queue on this Redis. */
	n8nEnv: NodeJS.ProcessEnv;
}

/** Folder of PostgreSQL's programs: PG_BIN, else the newest /usr/lib/postgresql/<major>/bin (Debian). */
export function postgresBinDir(): string {
	const fromEnv = process.env.PG_BIN;
	if (fromEnv) return fromEnv;
	const root = '/usr/lib/postgresql';
	const majors = existsSync(root)
		? readdirSync(root)
				.filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	if (majors.length === 0)
		throw new Error(
			`PostgreSQL is not installed (no ${root}/<version>/bin/initdb): apt-get install postgresql, or set PG_BIN`,
		);
	return path.join(root, majors[0], 'bin');
}

/** The redis-server program: REDIS_SERVER, else /usr/bin/redis-server. */
export function redisServerBin(): string {
	const bin = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
	if (!existsSync(bin))
		throw new Error(
			`Redis is not installed (no ${bin}): apt-get install redis-server, or set REDIS_SERVER`,
		);
	return bin;
}

/** uid and gid of a system user, from /etc/passwd. */
function systemUser(name: string): { uid: number; gid: number } {
	const line = readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((l) => l.split(':')[0] === name);
	if (!line)
		throw new Error(
			`PostgreSQL cannot run as root and there is no "${name}" user to run it (the postgresql package creates it; PG_USER names another)`,
		);
	const [, , uid, gid] = line.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}

/** Who PostgreSQL's programs run as: this process's user, or a system user when this is root. */
function postgresIdentity(): { uid: number; gid: number } | undefined {
	return process.getuid?.() === 0 ? systemUser(process.env.PG_USER ?? 'postgres') : undefined;
}

/** Processes still running when this process exits are killed (a crashed test run leaves none behind). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
	for (const child of running) {
		try {
			process.kill(-child.pid!, 'SIGKILL');
		} catch {
			// already gone
		}
	}
});

interface Daemon {
	child: ChildProcess;
	logs(): string;
	exited: Promise<void>;
	hasExited(): boolean;
	/** Signals the process group, then SIGKILL after graceMs; resolves once it has exited. */
	stop(signal: NodeJS.Signals, graceMs: number): Promise<void>;
}

/** Starts a server in its own process group, collecting what it prints. */
function startDaemon(command: string, args: string[], options: SpawnOptions): Daemon {
	let output = '';
	let exited = false;
	const child = spawn(command, args, {
		...options,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	running.add(child);
	const collect = (d: Buffer) => (output = (output + d.toString()).slice(-200_000));
	child.stdout!.on('data', collect);
	child.stderr!.on('data', collect);
	child.once('error', (error) => (output += `\n[spawn error] ${error.message}`));
	const done = new Promise<void>((resolve) => {
		child.once('close', (code, signal) => {
			exited = true;
			running.delete(child);
			output += `\n[exited: ${signal ?? `code ${code}`}]`;
			resolve();
		});
	});
	const signalGroup = (signal: NodeJS.Signals) => {
		try {
			process.kill(-child.pid!, signal);
		} catch {
			// already gone
		}
	};
	return {
		child,
		logs: () => output,
		exited: done,
		hasExited: () => exited,
		stop: async (signal, graceMs) => {
			if (exited || child.pid === undefined) return;
			signalGroup(signal);
			const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
			await done;
			clearTimeout(timer);
		},
	};
}

/** Runs a program to completion, failing with its output. */
async function runTool(
	command: string,
	args: string[],
	options: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
	try {
		await exec(command, args, { ...options, timeout: 120_000 });
	} catch (error) {
		const e = error as { stdout?: string; stderr?: string; message: string };
		throw new Error(
			`${path.basename(command)} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`,
		);
	}
}

/**
 * A fresh PostgreSQL cluster (initdb) in a temporary folder, listening on 127.0.0.1 only, with
 * trust authentication for the user `n8n` and a database `n8n`. Durability is switched off
 * (fsync, synchronous commit): the data is thrown away at the end anyway.
 */
export async function startPostgres(): Promise<Postgres> {
	const bin = postgresBinDir();
	const identity = postgresIdentity();
	const dir = mkdtempSync(path.join(tmpdir(), 'n8n-spendesk-pg-'));
	const data = path.join(dir, 'data');
	const sockets = path.join(dir, 'sockets');
	mkdirSync(sockets);
	if (identity) {
		chownSync(dir, identity.uid, identity.gid);
		chownSync(sockets, identity.uid, identity.gid);
	}
	const user = 'n8n';
	const database = 'n8n';
	// PostgreSQL's own environment: no PG* settings of this machine, a HOME it may read.
	const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, LANG: 'C', LC_ALL: 'C' };
	const as = identity ? { uid: identity.uid, gid: identity.gid } : {};
	try {
		await runTool(
			path.join(bin, 'initdb'),
			['-D', data, '-U', user, '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
			{ ...as, env },
		);
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
	const port = await freePort();
	const daemon = startDaemon(
		path.join(bin, 'postgres'),
		[
			'-D',
			data,
			'-p',
			String(port),
			'-c',
			'listen_addresses=127.0.0.1',
			'-k',
			sockets,
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=200',
		],
		{ ...as, env, cwd: dir },
	);
	const stop = async () => {
		// SIGINT: PostgreSQL's fast shutdown (clients are disconnected, nothing is waited for).
		await daemon.stop('SIGINT', 15_000);
		rmSync(dir, { recursive: true, force: true });
	};
	try {
		await waitFor(
			async () => {
				if (daemon.hasExited()) throw new Error(`postgres exited:\n${daemon.logs().slice(-3000)}`);
				return (await portOpen(port)) && /ready to accept connections/.test(daemon.logs());
			},
			{ timeoutMs: 60_000, intervalMs: 200, what: `PostgreSQL on port ${port}` },
		);
		await runTool(
			path.join(bin, 'createdb'),
			['-h', '127.0.0.1', '-p', String(port), '-U', user, database],
			{ env },
		);
	} catch (error) {
		await stop();
		throw new Error(
			`${(error as Error).message}\n--- postgres output ---\n${daemon.logs().slice(-3000)}`,
		);
	}
	return {
		port,
		user,
		database,
		logs: daemon.logs,
		stop,
		n8nEnv: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: database,
			DB_POSTGRESDB_USER: user,
			DB_POSTGRESDB_PASSWORD: '',
		},
	};
}

/** A Redis server on 127.0.0.1 that keeps nothing on disk (no snapshots, no append-only file). */
export async function startRedis(): Promise<Redis> {
	const bin = redisServerBin();
	const dir = mkdtempSync(path.join(tmpdir(), 'n8n-spendesk-redis-'));
	const port = await freePort();
	const daemon = startDaemon(
		bin,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--daemonize',
			'no',
			'--protected-mode',
			'yes',
		],
		{ cwd: dir, env: { PATH: process.env.PATH } },
	);
	const stop = async () => {
		await daemon.stop('SIGTERM', 10_000);
		rmSync(dir, { recursive: true, force: true });
	};
	try {
		await waitFor(
			async () => {
				if (daemon.hasExited())
					throw new Error(`redis-server exited:\n${daemon.logs().slice(-3000)}`);
				return (await portOpen(port)) && /Ready to accept connections/i.test(daemon.logs());
			},
			{ timeoutMs: 30_000, intervalMs: 200, what: `Redis on port ${port}` },
		);
	} catch (error) {
		await stop();
		throw error;
	}
	return {
		port,
		logs: daemon.logs,
		stop,
		n8nEnv: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) },
	};
}

/** Version line of the installed servers, for the test's report. */
export async function serviceVersions(): Promise<{ postgres: string; redis: string }> {
	const pg = await exec(path.join(postgresBinDir(), 'postgres'), ['--version']).then(
		(r) => r.stdout.trim(),
		() => 'unknown',
	);
	const redis = await exec(redisServerBin(), ['--version']).then(
		(r) => /v=(\S+)/.exec(r.stdout)?.[1] ?? r.stdout.trim(),
		() => 'unknown',
	);
	return { postgres: pg, redis };
}
