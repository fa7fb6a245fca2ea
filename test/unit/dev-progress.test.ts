/**
 * The progress lines of `npm run dev` and of the n8n install (test/e2e/progress.ts), without
 * installing n8n: a heartbeat around a real child process that stays silent until the test
 * lets it end, with a short interval injected; the readers of an npm install's progress on a
 * real folder.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
	formatDuration,
	lockedTarballs,
	nativeBuildDetail,
	npmInstallDetail,
	PROGRESS_INTERVAL_MS,
	withHeartbeat,
} from '../e2e/progress';
import { eventually, sleep } from '../support/time';

/** A child that prints nothing and exits (with `code`) only once a line arrives on its stdin. */
function silentChild(code = 0) {
	const child = spawn(
		process.execPath,
		['-e', `process.stdin.once('data', () => process.exit(${code}))`],
		{ stdio: ['pipe', 'pipe', 'pipe'] },
	);
	const done = new Promise<number>((resolve, reject) => {
		child.on('error', reject);
		child.on('close', (status) =>
			status === 0 ? resolve(status) : reject(new Error(`exit ${status}`)),
		);
	});
	return { release: () => child.stdin.write('go\n'), done };
}

describe('heartbeat around a slow command', () => {
	test('a silent child gets a line every interval, saying what it does and for how long; none after it ends', async () => {
		const lines: string[] = [];
		const child = silentChild();
		let phase = 'npm is downloading packages';
		const result = withHeartbeat('installing n8n 2.8.4', async () => await child.done, {
			intervalMs: 20,
			write: (line) => lines.push(line),
			detail: () => phase,
		});
		expect(await eventually(() => lines.length >= 3)).toBe(true);
		phase = 'compiling sqlite3';
		const seen = lines.length;
		expect(await eventually(() => lines.length > seen)).toBe(true);
		child.release();
		await expect(result).resolves.toBe(0);

		for (const line of lines)
			expect(line).toMatch(
				/^installing n8n 2\.8\.4: \d+ s so far, (npm is downloading packages|compiling sqlite3)$/,
			);
		expect(lines.at(-1)).toMatch(/compiling sqlite3$/);
		const after = lines.length;
		await sleep(100); // five intervals: a timer left running would have written by now
		expect(lines).toHaveLength(after);
	});

	test('a failing command rejects as it would without the heartbeat, and its lines stop', async () => {
		const lines: string[] = [];
		const child = silentChild(3);
		const result = withHeartbeat('rebuilding sqlite3', async () => await child.done, {
			intervalMs: 20,
			write: (line) => lines.push(line),
		});
		expect(await eventually(() => lines.length >= 1)).toBe(true);
		child.release();
		await expect(result).rejects.toThrow('exit 3');
		expect(lines[0]).toMatch(/^rebuilding sqlite3: \d+ s so far$/);
		const after = lines.length;
		await sleep(100);
		expect(lines).toHaveLength(after);
	});

	test('a detail that cannot be read this time: the line still goes out, without it', async () => {
		const lines: string[] = [];
		const child = silentChild();
		const result = withHeartbeat('starting n8n', async () => await child.done, {
			intervalMs: 20,
			write: (line) => lines.push(line),
			detail: () => {
				throw new Error('folder being replaced');
			},
		});
		expect(await eventually(() => lines.length >= 2)).toBe(true);
		child.release();
		await result;
		expect(lines[0]).toMatch(/^starting n8n: \d+ s so far$/);
	});

	test('the default interval keeps within the 15 s the sandbox promises', () => {
		expect(PROGRESS_INTERVAL_MS).toBeLessThanOrEqual(15_000);
		expect(PROGRESS_INTERVAL_MS).toBeGreaterThanOrEqual(1_000);
	});

	test('durations read as seconds, then minutes and seconds', () => {
		expect(formatDuration(400)).toBe('0 s');
		expect(formatDuration(44_600)).toBe('45 s');
		expect(formatDuration(105_000)).toBe('1 min 45 s');
		expect(formatDuration(561_000)).toBe('9 min 21 s');
	});
});

describe('what an npm install is doing', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'spendesk-progress-'));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	test('the packages a lockfile has npm fetch here: not the root, links, bundled ones or those of other platforms; dev ones left out on request', () => {
		const lockfile = path.join(dir, 'package-lock.json');
		expect(lockedTarballs(lockfile)).toBeUndefined();
		writeFileSync(
			lockfile,
			JSON.stringify({
				packages: {
					'': { name: 'n8n-runtime', version: '0.0.0' },
					'node_modules/n8n': { version: '2.8.4' },
					'node_modules/@n8n/config': { version: '2.8.0' },
					'node_modules/n8n/node_modules/semver': { version: '7.7.2' },
					'node_modules/typescript': { version: '5.9.3', dev: true },
					'node_modules/local': { resolved: 'packages/local', link: true },
					'node_modules/n8n/node_modules/bundled': { version: '1.0.0', inBundle: true },
					'node_modules/@esbuild/other-os': {
						version: '0.25.0',
						optional: true,
						os: [process.platform === 'win32' ? 'linux' : 'win32'],
					},
					'node_modules/@esbuild/other-cpu': {
						version: '0.25.0',
						optional: true,
						cpu: [process.arch === 'arm64' ? 'x64' : 'arm64'],
					},
					'node_modules/@esbuild/not-other-os': {
						version: '0.25.0',
						optional: true,
						os: [`!${process.platform === 'win32' ? 'linux' : 'win32'}`],
					},
				},
			}),
		);
		expect(lockedTarballs(lockfile)).toBe(5);
		expect(lockedTarballs(lockfile, true)).toBe(4);
	});

	test('from npm --loglevel=http: reading, then tarballs fetched (downloaded or from the cache), then writing', () => {
		// Lines as npm 11 prints them with --loglevel=http.
		expect(npmInstallDetail('', 3)).toBe('npm is starting');
		let output = 'npm http fetch GET 200 https://registry.npmjs.org/chalk 357ms (cache miss)\n';
		expect(npmInstallDetail(output, 3)).toBe('npm is reading the package lists (1 read)');
		output +=
			'npm http cache has-flag@https://registry.npmjs.org/has-flag/-/has-flag-4.0.0.tgz 0ms (cache hit)\n' +
			'npm http fetch GET 200 https://registry.npmjs.org/n8n/-/n8n-2.8.4.tgz 5ms (cache hit)\n' +
			'npm http fetch GET 200 https://registry.npmjs.org/chalk/-/chalk-4.1.2.tgz 8352ms (cache updated)\n';
		expect(npmInstallDetail(output, 1650)).toBe(
			'npm has read 1 package lists and fetched 3 of about 1,650 packages (1 downloaded, 2 from its cache)',
		);
		expect(npmInstallDetail(output, undefined)).toBe(
			'npm has read 1 package lists and fetched 3 packages (1 downloaded, 2 from its cache)',
		);
		expect(npmInstallDetail(output, 3)).toBe('npm is writing the packages into node_modules');
	});

	test('a native build: prebuilt binary looked for, then node-gyp, then the file being compiled', () => {
		let output = '> sqlite3@5.1.7 install\n> prebuild-install -r napi || node-gyp rebuild\n';
		expect(nativeBuildDetail(output)).toBe('looking for a prebuilt binary');
		output +=
			'prebuild-install warn install No prebuilt binaries found\ngyp info it worked if it ends with ok\n';
		expect(nativeBuildDetail(output)).toMatch(/^building from source: node-gyp/);
		output +=
			'  ACTION deps_sqlite3_gyp_action_before_build_target_unpack_sqlite_dep Release/obj/gen/sqlite-autoconf-3440200/sqlite3.c\n' +
			'  CC(target) Release/obj.target/sqlite3/gen/sqlite-autoconf-3440200/sqlite3.o\n';
		expect(nativeBuildDetail(output)).toBe('compiling sqlite3 with the C toolchain (make, g++)');
		output += '  CXX(target) Release/obj.target/node_sqlite3/src/statement.o\n';
		expect(nativeBuildDetail(output)).toBe('compiling statement with the C toolchain (make, g++)');
	});
});
