/**
 * The end-to-end harness's `runN8n` (test/e2e/workflows.ts) must return all of what n8n printed,
 * even when n8n calls process.exit right after a large write and this process is busy. A CI run
 * once got a 3.4 MB run cut at the end (exit code 0) while its output went through a pipe.
 * Here a stand-in for n8n's entry script writes 4 MB and exits at once, while this process's
 * event loop is blocked; the whole output must arrive.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { N8nHome } from '../e2e/runtime';
import { runN8n } from '../e2e/workflows';

const SIZE = 4 * 1024 * 1024;

describe('runN8n (end-to-end harness)', () => {
	let dir: string;
	beforeAll(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'fake-n8n-'));
		writeFileSync(
			path.join(dir, 'n8n.js'),
			`process.stdout.write('o'.repeat(${SIZE}) + '\\n');\n` +
				`process.stderr.write('e'.repeat(${SIZE}) + '\\n');\n` +
				`process.exit(Number(process.argv[2] ?? 0));\n`,
		);
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	function fakeHome(): N8nHome {
		return {
			dir,
			env: { PATH: process.env.PATH },
			runtime: {
				target: 'node20',
				version: 'fake',
				nodeBin: process.execPath,
				n8nBin: path.join(dir, 'n8n.js'),
				dir,
			},
		};
	}

	function block(ms: number): void {
		const until = Date.now() + ms;
		while (Date.now() < until) {
			// keep this process busy: nothing reads the child's output meanwhile
		}
	}

	it('returns every byte n8n wrote before it exited, with its exit code', async () => {
		const pending = runN8n(fakeHome(), ['3']);
		block(1_500);
		const result = await pending;
		expect(result.code).toBe(3);
		expect(result.stdout.length).toBe(SIZE + 1);
		expect(result.stderr.length).toBe(SIZE + 1);
	});
});
