/**
 * The trigger's recheck of a window that held more than a page (nodes/Spendesk/trigger/
 * cursorState.ts), on its pure state functions: when it is left, when it is deferred, when it
 * falls due. The behaviour over HTTP is in test/integration/trigger-*.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import {
	advance,
	horizon,
	readPlan,
	RECHECK_ABOVE,
	withinClock,
} from '../../nodes/Spendesk/trigger/cursorState';
import type { CompanyState } from '../../nodes/Spendesk/trigger/cursorState';

const OVERLAP = 60_000;
const T = Date.parse('2026-11-25T12:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const tie = (n: number, ms = T): IDataObject[] =>
	Array.from({ length: n }, (_, i) => ({
		id: `inv_${String(i).padStart(5, '0')}`,
		createdAt: at(ms),
		updatedAt: at(ms),
	}));
const before: CompanyState = { cursor: at(T - 30_000), seen: {}, answeredAt: T - 30_000 };

describe('the recheck of a window that held more than a page', () => {
	test('a poll that read more than a page above the next horizon leaves its range', () => {
		const state = advance(before, tie(RECHECK_ABOVE + 1), 'newInvoice', OVERLAP, Infinity, T);
		expect(state.recheck).toEqual([T - OVERLAP, T]);
		// What the recheck will read again stays remembered.
		expect(Object.keys(state.seen)).toHaveLength(RECHECK_ABOVE + 1);
	});

	test('a page or less leaves none', () => {
		const state = advance(before, tie(RECHECK_ABOVE), 'newInvoice', OVERLAP, Infinity, T);
		expect(state.recheck).toBeUndefined();
	});

	test('until an answer lies an overlap past its end, polls read only what is newer', () => {
		const state = advance(before, tie(500), 'newInvoice', OVERLAP, Infinity, T + 1_000);
		const plan = readPlan(state, OVERLAP);
		expect(plan).toMatchObject({ deferred: true, limit: T });
		// Handled-ness still counts from the start of the range: a late invoice in it is new.
		expect(horizon(state, OVERLAP)).toBe(T - OVERLAP);
		const kept = advance(state, [], 'newInvoice', OVERLAP, Infinity, T + 30_000, plan);
		expect(kept.recheck).toEqual(state.recheck);
	});

	test('then one poll reads the range again, and clears it', () => {
		const state = advance(before, tie(500), 'newInvoice', OVERLAP, Infinity, T + 1_000);
		const later = advance(
			state,
			[],
			'newInvoice',
			OVERLAP,
			Infinity,
			T + OVERLAP,
			readPlan(state, OVERLAP),
		);
		const plan = readPlan(later, OVERLAP);
		expect(plan).toMatchObject({ deferred: false, limit: T - OVERLAP });
		const after = advance(
			later,
			tie(500),
			'newInvoice',
			OVERLAP,
			Infinity,
			T + OVERLAP + 5_000,
			plan,
		);
		expect(after.recheck).toBeUndefined();
		expect(readPlan(after, OVERLAP)).toMatchObject({ deferred: false, limit: T });
	});

	test('without the server time of the last poll it is read at once', () => {
		const state = advance(before, tie(500), 'newInvoice', OVERLAP, Infinity, T + 1_000);
		const noDate = { ...state };
		delete noDate.answeredAt;
		expect(readPlan(noDate, OVERLAP)).toMatchObject({ deferred: false, limit: T - OVERLAP });
	});

	test('a recheck ending past the cursor ends at the cursor', () => {
		const state: CompanyState = { cursor: at(T), seen: {}, recheck: [T - OVERLAP, T + 86_400_000] };
		expect(withinClock(state, T + 1_000, OVERLAP).recheck).toEqual([T - OVERLAP, T]);
		const noCursor: CompanyState = { cursor: null, seen: {}, recheck: [T - OVERLAP, T] };
		expect(withinClock(noCursor, T, OVERLAP).recheck).toBeUndefined();
	});
});
