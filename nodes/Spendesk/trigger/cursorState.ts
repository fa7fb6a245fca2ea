/**
 * Exactly-once bookkeeping of the invoice trigger, per company. Pure functions over a
 * small JSON state that n8n persists in the workflow's static data.
 *
 * Each poll reads invoices by `updatedAt`, newest first, down to a horizon: the cursor
 * (largest `updatedAt` seen, never ahead of the server's clock) minus an overlap window. The
 * overlap covers invoices that become visible late or share a timestamp; `seen` remembers what
 * was handled inside the window, so re-reading it never emits twice. Everything older than the
 * horizon was handled by an earlier poll (each poll reads past the previous horizon, and a poll
 * of several pages re-reads what moved while it paged — see companyPoll.ts), so `seen` only ever
 * holds the invoices of one overlap window: the state does not grow with history.
 *
 * The overlap is also a bound on how late an invoice becomes visible: one updated at time t is
 * listed by t + overlap (server clock). So once a poll has started after the server answered
 * the poll before it (`answeredAt`), every invoice updated up to `answeredAt` − overlap was
 * there to be read and is handled (`checked`): later polls read down to that time at most, not
 * down to cursor − overlap, and a long-idle company costs one request a poll however many
 * invoices share its newest timestamp.
 *
 * When more than MAX_SEEN invoices share the window (a bulk update), the lowest of them by
 * position — (time, id), time being `updatedAt` for New or Updated Invoice and `createdAt` for
 * New Invoice — are summed up by `floor`, the highest position let go: every invoice at or
 * below it counts as handled. The state stays bounded and exact whatever the number of ties.
 */
import type { IDataObject } from 'n8n-workflow';

export type TriggerEvent = 'newInvoice' | 'newOrUpdatedInvoice';

/** Where an invoice stands in the order the trigger handles it: [time in ms, id]. */
export type Position = [number, string];

export interface CompanyState {
	/** Largest `updatedAt` seen (ISO string), or null before the first invoice. */
	cursor: string | null;
	/** Invoices handled inside the overlap window: id → [createdAt ms or null, updatedAt ms]. */
	seen: Record<string, [number | null, number]>;
	/** Set when more invoices than MAX_SEEN shared the window: every invoice at or below it was handled. */
	floor?: Position;
	/** Every invoice updated at or before this time (ms, server clock) was handled. */
	checked?: number;
	/** Server time (ms, its Date header) of the last answer of the last successful poll. */
	answeredAt?: number;
}

const finite = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Upper bound on remembered ids per company, whatever the window holds. */
export const MAX_SEEN = 10_000;

/** How far ahead of the server's clock the cursor may go (at most half the overlap window). */
export const CLOCK_TOLERANCE_MS = 60_000;

export function time(value: unknown): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const ms = typeof value === 'number' ? value : Date.parse(value);
	return Number.isFinite(ms) ? ms : undefined;
}

/** Tolerance of the cursor over the server's clock, for an overlap window. */
export function clockTolerance(overlapMs: number): number {
	return Math.min(CLOCK_TOLERANCE_MS, overlapMs / 2);
}

function compare(a: Position, b: Position): number {
	if (a[0] !== b[0]) return a[0] - b[0];
	return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/** New Invoice orders by creation (by update when the API gives no createdAt), New or Updated Invoice by update. */
function positionOf(
	event: TriggerEvent,
	id: string,
	created: number | null | undefined,
	updated: number,
): Position {
	return event === 'newOrUpdatedInvoice' ? [updated, id] : [created ?? updated, id];
}

const atOrBelow = (floor: Position | undefined, position: Position): boolean =>
	floor !== undefined && compare(position, floor) <= 0;

/** The oldest `updatedAt` a poll must still read (exclusive horizon), or -Infinity to read everything. */
export function horizon(state: CompanyState, overlapMs: number): number {
	const cursor = time(state.cursor);
	return Math.max(
		cursor === undefined ? -Infinity : cursor - overlapMs,
		finite(state.checked) ?? -Infinity,
	);
}

/** Whether an invoice read by this poll has been handled before. */
export function handled(
	state: CompanyState,
	invoice: IDataObject,
	event: TriggerEvent,
	overlapMs: number,
): boolean {
	const id = String(invoice.id);
	const updated = time(invoice.updatedAt) ?? -Infinity;
	const created = time(invoice.createdAt);
	const previous = state.seen[id];
	const limit = horizon(state, overlapMs);
	if (atOrBelow(state.floor, positionOf(event, id, created, updated))) return true;
	if (event === 'newOrUpdatedInvoice') {
		// A version is (id, updatedAt): handled if older than the horizon or already seen.
		return updated <= limit || (previous !== undefined && previous[1] === updated);
	}
	// New invoice: an id is emitted once. Without createdAt, only `seen` (and the floor) can tell.
	if (previous !== undefined) return true;
	return created !== undefined && created <= limit;
}

/**
 * A saved cursor further ahead of the clock than a poll could have set it (a clock stepped
 * back, or a state saved by a version that let an invoice dated in the future move it) would
 * hide every invoice until the clock catches up: it is brought back to the present. `now` is
 * the later of the server's and the local clock. Returns the same state when it is fine.
 */
export function withinClock(state: CompanyState, now: number, overlapMs: number): CompanyState {
	const cursor = time(state.cursor);
	const tolerance = clockTolerance(overlapMs);
	let fixed = state;
	// A time proven handled lies an overlap behind a server answer: never ahead of the clock.
	const checked = finite(state.checked);
	if (state.checked !== undefined && (checked === undefined || checked > now)) {
		fixed = {
			cursor: state.cursor,
			seen: state.seen,
			...(state.floor ? { floor: state.floor } : {}),
		};
	}
	if (cursor === undefined || cursor <= now + tolerance + CLOCK_TOLERANCE_MS) return fixed;
	return { ...fixed, cursor: new Date(now + tolerance).toISOString() };
}

/**
 * A floor lies below every invoice the state remembers and never above its cursor (it sums up
 * the lowest of a tie). A saved floor above the cursor (a hand edit, a clock stepped back)
 * would take every invoice up to it as handled and silence the company: it is brought down to
 * the lowest remembered invoice, or dropped when there is none. Returns the same state when it
 * is fine.
 */
export function floorWithinCursor(state: CompanyState, event: TriggerEvent): CompanyState {
	const { floor } = state;
	const cursor = time(state.cursor);
	if (floor === undefined || (cursor !== undefined && floor[0] <= cursor)) return state;
	let lowest: Position | undefined;
	for (const [id, [created, updated]] of Object.entries(state.seen)) {
		const position = positionOf(event, id, created, updated);
		if (lowest === undefined || compare(position, lowest) < 0) lowest = position;
	}
	const fixed: CompanyState = { cursor: state.cursor, seen: state.seen };
	if (lowest !== undefined && cursor !== undefined && lowest[0] <= cursor) fixed.floor = lowest;
	return fixed;
}

/**
 * State after a successful poll that read `invoices` (newest first or in any order). The
 * cursor follows the data but never goes past `latest` (the server's clock plus the tolerance):
 * an invoice dated in the future is emitted, without hiding the invoices that follow it.
 */
export function advance(
	state: CompanyState,
	invoices: IDataObject[],
	event: TriggerEvent,
	overlapMs: number,
	latest = Infinity,
	answeredAt?: number,
): CompanyState {
	const next = advanceCursor(state, invoices, event, overlapMs, latest);
	// This poll started after the server's last answer to the one before: what was updated an
	// overlap before that answer was visible to it.
	const before = finite(state.answeredAt);
	const checked = Math.max(
		finite(state.checked) ?? -Infinity,
		before === undefined ? -Infinity : before - overlapMs,
	);
	if (Number.isFinite(checked)) next.checked = checked;
	const answered = finite(answeredAt);
	if (answered !== undefined) next.answeredAt = answered;
	return next;
}

function advanceCursor(
	state: CompanyState,
	invoices: IDataObject[],
	event: TriggerEvent,
	overlapMs: number,
	latest: number,
): CompanyState {
	let cursor = time(state.cursor) ?? -Infinity;
	let cursorText = state.cursor;
	const seen: CompanyState['seen'] = { ...state.seen };
	for (const invoice of invoices) {
		const updated = time(invoice.updatedAt);
		if (updated === undefined) continue;
		seen[String(invoice.id)] = [time(invoice.createdAt) ?? null, updated];
		const position = Math.min(updated, latest);
		if (position > cursor) {
			cursor = position;
			cursorText =
				position === updated ? String(invoice.updatedAt) : new Date(position).toISOString();
		}
	}
	return bounded(cursorText, seen, state.floor, cursor - overlapMs, event);
}

/** Forgets what lies below the horizon `limit` (later polls take it as handled) and keeps at most MAX_SEEN ids. */
function bounded(
	cursor: string | null,
	all: CompanyState['seen'],
	previousFloor: Position | undefined,
	limit: number,
	event: TriggerEvent,
): CompanyState {
	// A floor below the horizon says nothing the horizon does not say already.
	let floor = previousFloor !== undefined && previousFloor[0] > limit ? previousFloor : undefined;
	const position = ([id, [created, updated]]: [string, [number | null, number]]) =>
		positionOf(event, id, created, updated);
	let entries = Object.entries(all).filter((entry) => {
		const [created, updated] = entry[1];
		const inside =
			event === 'newOrUpdatedInvoice' ? updated > limit : created === null || created > limit;
		return inside && !atOrBelow(floor, position(entry));
	});
	if (entries.length > MAX_SEEN) {
		// Keep the highest positions; the floor moves up to the highest one let go.
		entries = entries.sort((a, b) => compare(position(b), position(a)));
		const highestDropped = position(entries[MAX_SEEN]);
		if (floor === undefined || compare(highestDropped, floor) > 0) floor = highestDropped;
		entries = entries.slice(0, MAX_SEEN);
	}
	return { cursor, seen: Object.fromEntries(entries), ...(floor ? { floor } : {}) };
}

export function emptyState(cursor: string | null = null): CompanyState {
	return { cursor, seen: {} };
}
