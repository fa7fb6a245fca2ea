/**
 * The rate budget (nodes/Spendesk/transport/limiter.ts, docs/api.md#rate-limits) on its own,
 * with the clock given: requests go at once while the window has some left, then wait for the
 * reset; requests in flight when an answer tells the budget count as spent. Over HTTP:
 * test/integration/pagination-concurrent.test.ts.
 */
import { FlowControl } from '../../nodes/Spendesk/transport/limiter';

const KEY = 'cred:cmp_001';
const LONGEST = 60_000;

/** A budget learned from an answer at `now`: `remaining` left, reset in `resetSeconds`. */
function budget(remaining: number, resetSeconds: number, now = 0): FlowControl {
	const flow = new FlowControl();
	flow.observe(
		KEY,
		{ 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(resetSeconds) },
		LONGEST,
		now,
	);
	return flow;
}

describe('rate budget', () => {
	test('what the window has left goes at once; the next request waits for the reset', () => {
		const flow = budget(10, 10);
		for (let i = 0; i < 10; i++) expect(flow.reserve(KEY, 0)).toBe(0);
		expect(flow.reserve(KEY, 0)).toBe(10_000);
		expect(flow.reserve(KEY, 8100)).toBe(10_000 - 8100);
	});

	test('a new window starts unknown until its first answer tells its budget', () => {
		const flow = budget(2, 10);
		expect(flow.reserve(KEY, 0)).toBe(0);
		expect(flow.reserve(KEY, 0)).toBe(0);
		expect(flow.reserve(KEY, 4500)).toBe(10_000 - 4500);
		flow.answered(KEY);
		flow.answered(KEY);
		// After the reset nothing is known: requests go until an answer tells the new budget.
		expect(flow.reserve(KEY, 10_000)).toBe(0);
		expect(flow.reserve(KEY, 10_000)).toBe(0);
		// The first of them is answered (the answer is read before the request is counted as answered).
		flow.observe(KEY, { 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': '10' }, LONGEST, 10_050);
		flow.answered(KEY);
		// 2 left by that answer, one request still in flight and counted as spent: 1.
		expect(flow.reserve(KEY, 10_050)).toBe(0);
		expect(flow.reserve(KEY, 10_050)).toBe(10_000);
	});
});
