/**
 * Workflows saved with 1.0.0 keep doing what they did. Every workflow of
 * test/fixtures/workflows/1.0/ runs in a real n8n with the package installed, against a freshly
 * seeded simulator, and its outcome (node by node: items of every output with json, pairedItem,
 * binary and item errors; node errors; the execution's status) must equal
 * `<name>.expected.json` beside it, after the normalisation written out in
 * test/e2e/pinned-outcome.ts (normaliseExecution): free ports, instants read from the clock
 * during the run, pre-signed link signatures, random webhook event ids, n8n's binary storage
 * ids, and error stacks. Nothing else.
 *
 * This file never writes an expected file: `npx tsx test/fixtures/workflows/record.ts` does,
 * and a change of an expected output is acceptable only with a new node version
 * (test/README.md, "Pinned workflows").
 *
 * One n8n for all workflows. Runs on n8n target node20 (FIXTURES_E2E_TARGETS overrides), the
 * target the expected outputs are recorded on.
 */
import { SPENDESK_NODE } from './workflows';
import { RESOURCES } from '../../nodes/Spendesk/actions/resources';
import {
	fixtureTargets,
	FixtureRunner,
	listExpectedFiles,
	listFixtures,
	MANUAL_TRIGGER,
	readExpected,
	SPENDESK_TRIGGER,
	SPENDESK_WEBHOOK_TRIGGER,
	spendeskNodes,
} from './pinned-workflows';
import { differences, outcomeJson } from './pinned-outcome';

const VERSION = '1.0';
const fixtures = listFixtures(VERSION);

jest.setTimeout(10 * 60_000);

describe(`the workflows saved with ${VERSION} (test/fixtures/workflows/${VERSION}/)`, () => {
	it('each workflow has its expected output beside it, and each expected output its workflow', () => {
		expect(listExpectedFiles(VERSION)).toEqual(fixtures.map((f) => `${f.name}.expected.json`));
	});

	it('together they use every resource of the node, both triggers, both Continue modes of On Error and a company from an expression', () => {
		const nodes = fixtures.flatMap((f) => f.workflow.nodes);
		const actions = fixtures.flatMap((f) => spendeskNodes(f.workflow));
		const used = new Set(actions.map((n) => n.parameters.resource));
		expect(RESOURCES.map((r) => r.value).filter((r) => !used.has(r))).toEqual([]);
		const types = new Set(nodes.map((n) => n.type));
		expect(
			[SPENDESK_TRIGGER, SPENDESK_WEBHOOK_TRIGGER, MANUAL_TRIGGER].filter((t) => !types.has(t)),
		).toEqual([]);
		const onError = new Set(actions.map((n) => n.onError));
		expect(onError).toContain('continueRegularOutput');
		expect(onError).toContain('continueErrorOutput');
		expect(
			actions.some(
				(n) =>
					(n.parameters.company as { value?: unknown } | undefined)?.value ===
					'={{ $json.companyId }}',
			),
		).toBe(true);
		expect(nodes.every((n) => n.type !== SPENDESK_NODE || n.typeVersion === 1)).toBe(true);
	});
});

describe.each(fixtureTargets())(
	`the workflows saved with ${VERSION}, run in n8n (%s)`,
	(target) => {
		let runner: FixtureRunner | undefined;

		beforeAll(async () => {
			const started = Date.now();
			runner = await FixtureRunner.start(target, fixtures, (line) =>
				process.stderr.write(`[fixtures ${VERSION} ${target}] ${line}\n`),
			);
			process.stderr.write(
				`[fixtures ${VERSION} ${target}] n8n ready after ${Math.round((Date.now() - started) / 1000)} s\n`,
			);
		});

		afterAll(async () => {
			await runner?.stop();
		});

		it.each(fixtures.map((f) => [f.name, f] as const))('%s', async (_name, fixture) => {
			const expected = readExpected(fixture);
			if (!expected)
				throw new Error(
					`${fixture.expectedFile} is missing: record it with npx tsx test/fixtures/workflows/record.ts ${fixture.name}`,
				);
			// Compared as the recorder writes it: the outcome's JSON.
			const actual = JSON.parse(outcomeJson(await runner!.run(fixture))) as unknown;
			// Each difference on a line of its own, with its path (node, run, output, item, field).
			expect(differences(expected, actual)).toEqual([]);
			expect(actual).toStrictEqual(expected);
		});
	},
);
