/**
 * The rate budget's pacing (nodes/Spendesk/transport/limiter.ts, docs/api.md#rate-limits) on
 * its own, with the clock given: a caller that needs more requests than the window has left
 * gets what is left spread evenly up to a second before the reset; a caller that fits, or
 * says nothing of what it needs, goes at once as before. Over HTTP:
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

describe('rate budget pacing', () => {
	test('more needed than the window has left: what is left goes evenly, ending a second before the reset', () => {
		// 10 left, reset in 10 s: 9 s to spread them over, one every 900 ms.
		const flow = budget(10, 10);
		const sent: number[] = [];
		for (let now = 0, demand = 25; sent.length < 10; ) {
			const wait = flow.reserve(KEY, now, demand);
			if (wait === 0) {
				sent.push(now);
				demand--;
			} else now += wait;
		}
		expect(sent).toEqual([0, 900, 1800, 2700, 3600, 4500, 5400, 6300, 7200, 8100]);
		// The window is spent: the next request waits for the reset.
		expect(flow.reserve(KEY, 8100, 15)).toBe(10_000 - 8100);
	});

	test('the spacing follows what is left: a caller that comes late in the window spreads the rest over less time', () => {
		const flow = budget(5, 10);
		expect(flow.reserve(KEY, 6000, 20)).toBe(0);
		// 5 left at 6 s: 3 s to the last moment, so 600 ms apart.
		expect(flow.reserve(KEY, 6000, 19)).toBe(600);
		expect(flow.reserve(KEY, 6600, 19)).toBe(0);
		// 4 were left at 6.6 s: (9 s − 6.6 s) ÷ 4 = 600 ms again.
		expect(flow.reserve(KEY, 7000, 18)).toBe(200);
	});

	test('a caller that fits in the window, or says nothing of what it needs, is not slowed down', () => {
		const flow = budget(10, 10);
		for (let i = 0; i < 5; i++) expect(flow.reserve(KEY, 0, 10 - i * 2)).toBe(0);
		const other = budget(10, 10);
		for (let i = 0; i < 10; i++) expect(other.reserve(KEY, 0)).toBe(0);
		expect(other.reserve(KEY, 0)).toBe(10_000);
	});

	test('a window of a second or less is not paced: its reset is announced in whole seconds', () => {
		const flow = budget(6, 1);
		for (let i = 0; i < 6; i++) expect(flow.reserve(KEY, 0, 50)).toBe(0);
		expect(flow.reserve(KEY, 0, 44)).toBe(1000);
	});

	test('a new window starts unpaced until its first answer tells its budget', () => {
		const flow = budget(2, 10);
		expect(flow.reserve(KEY, 0, 30)).toBe(0);
		expect(flow.reserve(KEY, 0, 29)).toBe(4500);
		expect(flow.reserve(KEY, 4500, 29)).toBe(0);
		expect(flow.reserve(KEY, 4500, 28)).toBe(10_000 - 4500);
		for (let i = 0; i < 3; i++) flow.answered(KEY);
		// After the reset nothing is known: requests go until an answer tells the new budget.
		expect(flow.reserve(KEY, 10_000, 28)).toBe(0);
		expect(flow.reserve(KEY, 10_000, 27)).toBe(0);
		// The first of them is answered (the answer is read before the request is counted as answered).
		flow.observe(KEY, { 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': '10' }, LONGEST, 10_050);
		flow.answered(KEY);
		// 7 left by that answer, one request still in flight and counted as spent: 6, spread
		// over the 9 s before the new reset.
		expect(flow.reserve(KEY, 10_050, 26)).toBe(0);
		expect(flow.reserve(KEY, 10_050, 25)).toBe(1500);
	});
});
