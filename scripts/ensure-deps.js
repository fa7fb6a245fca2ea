/**
 * Run first by `npm test` and `npm run dev` (inside their scripts: .npmrc's ignore-scripts also
 * turns off npm's pre-scripts): installs the dependencies when they are missing or differ from
 * package-lock.json, so that both work on a fresh clone without an `npm install` first. Plain
 * Node (it runs before anything is installed). Quick when nothing is missing: it reads one
 * package.json per direct dependency.
 *
 * While `npm ci` runs (about a minute on a fresh clone, silent until it ends), a line every
 * 10 s says how far it is. When it is done, the time it started is written to
 * node_modules/.cache/n8n-nodes-spendesk/ensure-deps.json, so that `npm run dev` can count it in
 * its "ready in …".
 */
'use strict';
const { spawn } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const readJson = (file) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
/** Between two progress lines (the sandbox promises one every 15 s at most). */
const INTERVAL_MS = 10_000;
/** Where the last run is recorded (read by scripts/dev.ts). */
const RECORD = path.join(root, 'node_modules', '.cache', 'n8n-nodes-spendesk', 'ensure-deps.json');

/** Direct dependencies whose installed version is not the locked one (or that are missing). */
function staleDependencies() {
	const pkg = readJson('package.json');
	const lock = readJson('package-lock.json');
	const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
	return names.filter((name) => {
		const locked = lock.packages?.[`node_modules/${name}`]?.version;
		const manifest = path.join(root, 'node_modules', name, 'package.json');
		if (!existsSync(manifest)) return true;
		return locked !== undefined && JSON.parse(readFileSync(manifest, 'utf8')).version !== locked;
	});
}

/**
 * Passes a child's output through line by line, except npm's http log lines (`--loglevel=http`),
 * which are counted instead: one per package tarball fetched, from the network or npm's cache.
 */
function countFetches(stream, out, counts) {
	let rest = '';
	stream.on('data', (chunk) => {
		const lines = (rest + chunk.toString()).split('\n');
		rest = lines.pop();
		for (const line of lines) {
			if (/^npm http (?:fetch GET \d+|cache) \S+\.tgz\b/.test(line)) {
				if (/\(cache hit\)\s*$/.test(line)) counts.cached += 1;
				else counts.downloaded += 1;
			} else if (!line.startsWith('npm http ')) out.write(`${line}\n`);
		}
	});
	stream.on('end', () => {
		if (rest && !rest.startsWith('npm http ')) out.write(rest);
	});
}

function seconds(ms) {
	const s = Math.round(ms / 1000);
	return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function record(startedAt, installed) {
	try {
		mkdirSync(path.dirname(RECORD), { recursive: true });
		writeFileSync(RECORD, JSON.stringify({ startedAt, endedAt: Date.now(), installed }));
	} catch {
		// only the "ready in" figure of npm run dev depends on it
	}
}

async function main() {
	const startedAt = Date.now();
	const stale = staleDependencies();
	if (stale.length === 0) {
		record(startedAt, false);
		return;
	}
	const shown = stale.slice(0, 5).join(', ') + (stale.length > 5 ? ', …' : '');
	console.log(`Installing dependencies (missing or not as locked: ${shown}): npm ci`);
	const lock = readJson('package-lock.json');
	// What npm fetches here: versioned entries, not links or bundled ones, not for another OS or CPU.
	const admits = (list, value) =>
		!Array.isArray(list) ||
		list.length === 0 ||
		list.includes(value) ||
		(list.every((name) => name.startsWith('!')) && !list.includes(`!${value}`));
	const total = Object.entries(lock.packages ?? {}).filter(
		([key, entry]) =>
			key !== '' &&
			typeof entry.version === 'string' &&
			!entry.link &&
			!entry.inBundle &&
			admits(entry.os, process.platform) &&
			admits(entry.cpu, process.arch),
	).length;
	// Inside `npm run`, npm_execpath is the npm that runs us; otherwise the npm on PATH.
	const npmCli = process.env.npm_execpath;
	const [command, args] =
		npmCli && npmCli.endsWith('.js')
			? [process.execPath, [npmCli, 'ci', '--loglevel=http']]
			: [process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci', '--loglevel=http']];
	const counts = { downloaded: 0, cached: 0 };
	const timer = setInterval(() => {
		const fetched = counts.downloaded + counts.cached;
		const doing =
			fetched === 0
				? 'npm is reading the package lists'
				: fetched >= total
					? 'npm is writing the packages into node_modules'
					: `npm has fetched ${fetched} of about ${total} packages (${counts.downloaded} downloaded, ${counts.cached} from its cache)`;
		console.log(
			`installing dependencies (npm ci): ${seconds(Date.now() - startedAt)} so far, ${doing}`,
		);
	}, INTERVAL_MS);
	const code = await new Promise((resolve) => {
		const child = spawn(command, args, { cwd: root, stdio: ['inherit', 'pipe', 'pipe'] });
		countFetches(child.stdout, process.stdout, counts);
		countFetches(child.stderr, process.stderr, counts);
		child.on('error', (error) => {
			console.error(`npm ci could not start: ${error.message}`);
			resolve(1);
		});
		child.on('close', (status) => resolve(status ?? 1));
	});
	clearInterval(timer);
	if (code !== 0) {
		console.error(`npm ci failed (exit ${code}): see its output above`);
		process.exit(code);
	}
	console.log(`Dependencies installed in ${seconds(Date.now() - startedAt)}`);
	record(startedAt, true);
}

void main();
