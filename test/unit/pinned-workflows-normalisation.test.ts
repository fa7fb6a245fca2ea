/**
 * The normalisation of the pinned workflows' outcomes (test/e2e/pinned-workflows.ts): it
 * replaces what varies between two runs on the same seed and keeps everything else, so that
 * test/e2e/fixtures-1.0.e2e.ts stays strict. Run data shaped as n8n stores it.
 */
import { differences, normaliseExecution, RUN_DATE, RUN_TIME } from '../e2e/pinned-outcome';
import type { RunContext } from '../e2e/pinned-outcome';
import type { RunJson } from '../e2e/workflows';

const STARTED = Date.parse('2026-11-28T12:00:00.000Z');
const ctx: RunContext = {
	startedAt: STARTED,
	endedAt: STARTED + 3_000,
	origins: [
		['http://127.0.0.1:40001', 'http://files.spendesk.simulator'],
		['http://127.0.0.1:40000', 'http://spendesk.simulator'],
	],
};

function runOf(
	items: Array<Record<string, unknown>>,
	extra: Record<string, unknown> = {},
): RunJson {
	return {
		status: 'success',
		data: {
			resultData: {
				runData: {
					Node: [
						{
							executionStatus: 'success',
							data: { main: [items as never] },
							...extra,
						},
					],
				},
			},
		},
	} as RunJson;
}

const outcomeJson = (items: Array<Record<string, unknown>>) =>
	normaliseExecution(runOf(items), ctx).nodes.Node[0].outputs[0]!;

describe('pinned workflows: what the comparison normalises', () => {
	it('instants and dates read from the clock during the run (up to an hour after it) become placeholders', () => {
		const [item] = outcomeJson([
			{
				json: {
					createdAt: '2026-11-28T12:00:01.500Z',
					expiresAt: '2026-11-28T12:15:02.000Z',
					payableDate: '2026-11-28',
				},
			},
		]);
		expect(item.json).toEqual({ createdAt: RUN_TIME, expiresAt: RUN_TIME, payableDate: RUN_DATE });
	});

	it('seeded dates, instants outside the window and timestamps inside longer text are kept', () => {
		const json = {
			createdAt: '2026-01-01T00:07:00.000Z',
			before: '2026-11-28T11:59:55.000Z',
			later: '2026-11-28T13:05:00.000Z',
			startDate: '2026-02-01',
			yesterday: '2026-11-27',
			text: 'exported on 2026-11-28T12:00:01.500Z',
			amount: 111.05,
			flag: false,
			none: null,
		};
		expect(outcomeJson([{ json }])[0].json).toEqual(json);
	});

	it('free ports, pre-signed link signatures and random webhook event ids are replaced; the rest of each string stays', () => {
		const [item] = outcomeJson([
			{
				json: {
					downloadUrl: `http://127.0.0.1:40001/files/att_002_000005_1?expires=1795867200&signature=${'ab'.repeat(32)}`,
					link: 'http://127.0.0.1:40000/v1/payables/pay_1',
					webhookEvent: { id: `evt_${'0f'.repeat(12)}` },
					otherHost: 'http://127.0.0.1:40002/x',
					shortEvent: 'evt_0f0f',
				},
			},
		]);
		expect(item.json).toEqual({
			downloadUrl: `http://files.spendesk.simulator/files/att_002_000005_1?expires=${RUN_TIME}&signature=<signature>`,
			link: 'http://spendesk.simulator/v1/payables/pay_1',
			webhookEvent: { id: 'evt_<random>' },
			otherHost: 'http://127.0.0.1:40002/x',
			shortEvent: 'evt_0f0f',
		});
	});

	it('an origin is replaced only where its port ends', () => {
		const short: RunContext = {
			...ctx,
			origins: [['http://127.0.0.1:4000', 'http://spendesk.simulator']],
		};
		const outcome = normaliseExecution(
			runOf([{ json: { a: 'http://127.0.0.1:4000/v1', b: 'http://127.0.0.1:40001/v1' } }]),
			short,
		);
		expect(outcome.nodes.Node[0].outputs[0]![0].json).toEqual({
			a: 'http://spendesk.simulator/v1',
			b: 'http://127.0.0.1:40001/v1',
		});
	});

	it("n8n's binary storage id is left out; name, type, size and bytes stay", () => {
		const [item] = outcomeJson([
			{
				json: {},
				binary: {
					data: {
						id: 'filesystem-v2:workflows/x/executions/7/binary_data/1234',
						data: 'JVBERi0=',
						mimeType: 'application/pdf',
						fileName: 'scan.pdf',
						fileSize: '33 B',
					},
				},
				pairedItem: { item: 2 },
			},
		]);
		expect(item).toEqual({
			json: {},
			binary: {
				data: {
					data: 'JVBERi0=',
					mimeType: 'application/pdf',
					fileName: 'scan.pdf',
					fileSize: '33 B',
				},
			},
			pairedItem: { item: 2 },
		});
	});

	it('errors keep their message and description; stack, timestamp and the node copy are left out', () => {
		const error = {
			message: 'Company "cmp_999" does not belong to your organisation',
			description: 'Check the company ID',
			stack: 'NodeOperationError: …\n    at /tmp/n8n-spendesk-abc/.n8n/nodes/…',
			timestamp: 1795867200000,
			node: { name: 'Node', parameters: {} },
		};
		const run = runOf([{ json: { error: error.message }, error, pairedItem: { item: 1 } }], {
			error,
		});
		run.data.resultData.error = { ...error, node: { name: 'Node' } };
		const outcome = normaliseExecution(run, ctx);
		const expected = { message: error.message, description: error.description };
		expect(outcome.error).toEqual({ ...expected, node: 'Node' });
		expect(outcome.nodes.Node[0].error).toEqual(expected);
		expect(outcome.nodes.Node[0].outputs[0]![0].error).toEqual(expected);
	});

	it('an item field the comparison does not know fails the run instead of being ignored', () => {
		expect(() => outcomeJson([{ json: {}, index: 3 }])).toThrow(/index/);
	});

	it('differences name the path of each change', () => {
		expect(
			differences(
				{ nodes: { 'Mark Exported': [{ json: { amount: 111.05, ids: [1, 2] } }] } },
				{ nodes: { 'Mark Exported': [{ json: { amount: 111.5, ids: [1], extra: null } }] } },
			),
		).toEqual([
			'nodes["Mark Exported"][0].json.amount: expected 111.05, got 111.5',
			'nodes["Mark Exported"][0].json.ids: expected 2 entries, got 1',
			'nodes["Mark Exported"][0].json.ids[1]: expected 2, got nothing',
			'nodes["Mark Exported"][0].json.extra: expected nothing, got null',
		]);
		expect(differences({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toEqual([]);
	});
});
