/**
 * The release workflow (.github/workflows/publish.yml) cannot run here; this checks what it
 * promises: it runs on version tags, may sign provenance (id-token: write), installs, builds,
 * lints, tests and scans before it publishes, and publishes with provenance.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

interface Step {
	name?: string;
	uses?: string;
	run?: string;
}

const file = path.join(__dirname, '..', '..', '.github', 'workflows', 'publish.yml');
const workflow = parse(readFileSync(file, 'utf8')) as {
	on: { push?: { tags?: string[] } };
	permissions: Record<string, string>;
	jobs: Record<string, { steps: Step[] }>;
};
const jobs = Object.values(workflow.jobs);
const steps = jobs.flatMap((job) => job.steps);
const indexOf = (pattern: RegExp) => steps.findIndex((step) => pattern.test(step.run ?? ''));

describe('release workflow', () => {
	test('runs on version tags only', () => {
		expect(workflow.on.push?.tags).toEqual(['v*.*.*']);
		expect(Object.keys(workflow.on)).toEqual(['push']);
	});

	test('may sign a provenance statement (id-token: write)', () => {
		expect(workflow.permissions['id-token']).toBe('write');
	});

	test('publishes once, with provenance and public access', () => {
		const publishes = steps.filter((step) => /\bnpm publish\b/.test(step.run ?? ''));
		expect(publishes).toHaveLength(1);
		expect(publishes[0].run).toMatch(/--provenance\b/);
		expect(publishes[0].run).toMatch(/--access public\b/);
	});

	test('installs, builds, lints, tests and runs the scanner before it publishes', () => {
		const publish = indexOf(/\bnpm publish\b/);
		const before = [
			/^npm ci$/,
			/^npm run build$/,
			/^npm run lint$/,
			/^npm test$/,
			/scripts\/scan\.ts|npm run scan/,
		];
		const positions = before.map((pattern) => indexOf(pattern));
		for (const position of positions) expect(position).toBeGreaterThanOrEqual(0);
		expect(positions).toEqual([...positions].sort((a, b) => a - b));
		expect(Math.max(...positions)).toBeLessThan(publish);
	});

	test('checks that the tag is the version in package.json', () => {
		expect(indexOf(/GITHUB_REF_NAME/)).toBeGreaterThanOrEqual(0);
		expect(indexOf(/GITHUB_REF_NAME/)).toBeLessThan(indexOf(/\bnpm publish\b/));
	});
});
