/**
 * Progress lines for the slow steps of installing n8n (runtime.ts) and of `npm run dev`
 * (scripts/dev.ts): while a step runs, a line every PROGRESS_INTERVAL_MS says what it is doing
 * and for how long, so that a first start (minutes of npm and of a C compiler) never looks hung.
 * A timer only: the step itself runs exactly as it would without it.
 */
import { readFileSync } from 'node:fs';

/** At most this long between two lines of a step (the sandbox promises a line every 15 s). */
export const PROGRESS_INTERVAL_MS = 10_000;

/** `42 s`, `1 min 5 s`. */
export function formatDuration(ms: number): string {
	const seconds = Math.max(0, Math.round(ms / 1000));
	if (seconds < 60) return `${seconds} s`;
	return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

export interface HeartbeatOptions {
	/** What the step is doing right now, asked before every line (e.g. "npm is downloading packages"). */
	detail?: () => string | undefined;
	/** Between two lines; default PROGRESS_INTERVAL_MS. */
	intervalMs?: number;
	/** Where the lines go; default stderr. */
	write?: (line: string) => void;
}

/**
 * Runs `task`; until it settles, writes `<label>: <time> so far[, <detail>]` every interval.
 * Resolves or rejects as the task does.
 */
export async function withHeartbeat<T>(
	label: string,
	task: () => Promise<T>,
	options: HeartbeatOptions = {},
): Promise<T> {
	const started = Date.now();
	const write = options.write ?? ((line: string) => void process.stderr.write(`${line}\n`));
	const timer = setInterval(() => {
		let detail: string | undefined;
		try {
			detail = options.detail?.();
		} catch {
			detail = undefined; // a detail that cannot be read this time: the line still goes out
		}
		write(`${label}: ${formatDuration(Date.now() - started)} so far${detail ? `, ${detail}` : ''}`);
	}, options.intervalMs ?? PROGRESS_INTERVAL_MS);
	timer.unref();
	try {
		return await task();
	} finally {
		clearInterval(timer);
	}
}

/** Whether an npm `os` or `cpu` list admits `value` (no list, the value listed, or only others negated). */
function admits(list: unknown, value: string): boolean {
	if (!Array.isArray(list) || list.length === 0) return true;
	const names = list.map(String);
	if (names.includes(value)) return true;
	return names.every((name) => name.startsWith('!')) && !names.includes(`!${value}`);
}

/**
 * The packages a lockfile has npm fetch here: every entry with a version, not the root, not a
 * link, not bundled inside another package, not for another OS or CPU, and not a dev dependency
 * when `omitDev` (as `npm install --omit=dev`). Undefined without a readable lockfile.
 */
export function lockedTarballs(lockfile: string, omitDev = false): number | undefined {
	type Entry = {
		version?: unknown;
		link?: unknown;
		dev?: unknown;
		inBundle?: unknown;
		os?: unknown;
		cpu?: unknown;
	};
	try {
		const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as {
			packages?: Record<string, Entry>;
		};
		return Object.entries(lock.packages ?? {}).filter(
			([key, entry]) =>
				key !== '' &&
				typeof entry.version === 'string' &&
				!entry.link &&
				!entry.inBundle &&
				!(omitDev && entry.dev) &&
				admits(entry.os, process.platform) &&
				admits(entry.cpu, process.arch),
		).length;
	} catch {
		return undefined;
	}
}

/** npm's switch that makes it log every package tarball it fetches (npmInstallDetail counts them). */
export const NPM_HTTP_LOG = '--loglevel=http';

/**
 * What an npm install run with NPM_HTTP_LOG is doing, from its output so far: reading package
 * lists from the registry (a lockfile without tarball addresses needs one per package), fetching
 * package tarballs (downloaded, or from npm's cache), then writing them into place.
 */
export function npmInstallDetail(output: string, total: number | undefined): string {
	const requests = output.match(/^npm http (?:fetch GET \d+|cache) \S+.*$/gm) ?? [];
	const tarballs = requests.filter((line) =>
		/^npm http (?:fetch GET \d+|cache) \S+\.tgz\b/.test(line),
	);
	const lists = requests.length - tarballs.length;
	const cached = tarballs.filter((line) => /\(cache hit\)\s*$/.test(line)).length;
	const fetched = tarballs.length;
	const n = (count: number) => count.toLocaleString('en-US');
	if (requests.length === 0) return 'npm is starting';
	if (fetched === 0) return `npm is reading the package lists (${n(lists)} read)`;
	if (total && fetched >= total) return 'npm is writing the packages into node_modules';
	const of = total ? ` of about ${n(total)}` : '';
	return `npm has read ${n(lists)} package lists and fetched ${n(fetched)}${of} packages (${n(fetched - cached)} downloaded, ${n(cached)} from its cache)`;
}

/**
 * What a native module's install script is doing, from its output so far (`npm rebuild
 * --foreground-scripts`): looking for a prebuilt binary, or building from source.
 */
export function nativeBuildDetail(output: string): string {
	const compiled = [...output.matchAll(/\b(?:CC|CXX)\(target\) \S*?([^/\s]+)\.o\b/g)];
	if (compiled.length)
		return `compiling ${compiled[compiled.length - 1][1]} with the C toolchain (make, g++)`;
	if (/gyp info/.test(output))
		return 'building from source: node-gyp is preparing the build (python3, make, g++)';
	if (/prebuild-install/.test(output)) return 'looking for a prebuilt binary';
	return 'running its install script';
}

/** Whether a native module's install output shows a build from source (no prebuilt binary). */
export function buildsFromSource(output: string): boolean {
	return /gyp info|\b(?:CC|CXX)\(target\)/.test(output);
}
