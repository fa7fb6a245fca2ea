/**
 * The layers of CONTRIBUTING.md ("Architecture"), kept by dependency-cruiser with the rules of
 * .dependency-cruiser.cjs: no import upwards or across a layer, no operation file importing
 * another, no circle, no product file reaching the tests.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ROOT, tsSources } from '../support/sources';

const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const CLI = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const { LAYERS } = createRequire(__filename)(CONFIG) as { LAYERS: Array<Record<string, string>> };

interface Violation {
	from: string;
	to: string;
	rule: { name: string };
}

/** The violations dependency-cruiser finds under `cwd` for `paths`. */
function cruise(cwd: string, paths: string[]): Violation[] {
	let out: string;
	try {
		out = execFileSync(
			process.execPath,
			[CLI, ...paths, '--config', CONFIG, '--output-type', 'json', '--no-cache'],
			{ cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
		);
	} catch (error) {
		// The CLI exits non-zero when it finds violations; its JSON is still on stdout.
		out = (error as { stdout?: string }).stdout ?? '';
		if (out === '') throw error;
	}
	return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('layers', () => {
	it('nodes/ and credentials/ break no layer rule', () => {
		const violations = cruise(ROOT, ['nodes', 'credentials']);
		expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
	});

	it('every product file belongs to exactly one layer group', () => {
		const groups = LAYERS.flatMap((layer) => Object.entries(layer));
		const files = [...tsSources(join(ROOT, 'nodes')), ...tsSources(join(ROOT, 'credentials'))].map(
			(file) => relative(ROOT, file).split('\\').join('/'),
		);
		expect(files.length).toBeGreaterThan(100);
		const misplaced = files
			.map((file) => ({
				file,
				groups: groups.filter(([, path]) => new RegExp(path).test(file)).map(([g]) => g),
			}))
			.filter(({ groups: found }) => found.length !== 1);
		expect(misplaced).toEqual([]);
	});

	describe('each rule fails on a deliberate violation', () => {
		let dir: string;
		beforeAll(() => {
			dir = mkdtempSync(join(tmpdir(), 'spendesk-layers-'));
			const files: Record<string, string> = {
				'tsconfig.json': '{"compilerOptions":{"module":"commonjs","target":"es2020"}}',
				// upwards: the transport reaches an action
				'nodes/Spendesk/transport/call.ts':
					"import { run } from '../actions/run';\nexport const call = run;\n",
				'nodes/Spendesk/actions/run.ts': 'export const run = 1;\n',
				// across: the trigger reaches an action (a sibling layer)
				'nodes/Spendesk/trigger/poll.ts':
					"import { run } from '../actions/run';\nexport const poll = run;\n",
				// one operation file importing another
				'nodes/Spendesk/actions/a/one.operation.ts':
					"import { two } from '../b/two.operation';\nexport const one = two;\n",
				'nodes/Spendesk/actions/b/two.operation.ts': 'export const two = 2;\n',
				// a circle inside one group
				'nodes/Spendesk/companies/x.ts': "import { y } from './y';\nexport const x = () => y;\n",
				'nodes/Spendesk/companies/y.ts': "import { x } from './x';\nexport const y = () => x;\n",
				// product code reaching the tests
				'credentials/Key.credentials.ts':
					"import { seed } from '../test/seed';\nexport const key = seed;\n",
				'test/seed.ts': 'export const seed = 0;\n',
			};
			for (const [path, text] of Object.entries(files)) {
				mkdirSync(dirname(join(dir, path)), { recursive: true });
				writeFileSync(join(dir, path), text);
			}
		});
		afterAll(() => rmSync(dir, { recursive: true, force: true }));

		it('reports each violation by its rule', () => {
			const found = cruise(dir, ['nodes', 'credentials'])
				.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)
				.sort();
			expect(found).toEqual(
				[
					'transport-imports-only-below: nodes/Spendesk/transport/call.ts → nodes/Spendesk/actions/run.ts',
					'trigger-imports-only-below: nodes/Spendesk/trigger/poll.ts → nodes/Spendesk/actions/run.ts',
					'operation-imports-no-operation: nodes/Spendesk/actions/a/one.operation.ts → nodes/Spendesk/actions/b/two.operation.ts',
					'no-circular: nodes/Spendesk/companies/x.ts → nodes/Spendesk/companies/y.ts',
					'product-imports-no-test: credentials/Key.credentials.ts → test/seed.ts',
				].sort(),
			);
		});
	});
});
