/**
 * Exactly-once bookkeeping of the invoice trigger, per company: pure functions over the small
 * JSON state kept in static data (docs/triggers.md#the-position-comes-from-the-data). A poll reads
 * newest first down to a horizon: the cursor minus the overlap window, or what an earlier answer
 * proves handled (`checked`: an invoice updated at t is listed by t + overlap, server clock), so
 * an idle company costs one request. `seen` holds what was handled inside the window; beyond
 * MAX_SEEN ties, `floor` sums up the lowest positions: at or below it counts as handled.
 */
import type { IDataObject } from 'n8n-workflow';
import { isDateMs } from '../transport/timeText';

export type TriggerEvent = 'newInvoice' | 'newOrUpdatedInvoice';

/** Where an invoice stands in the order the trigger handles it: [time in ms, id]. */
export type Position = [number, string];

export interface CompanyState {
	/** Largest `updatedAt` seen (ISO string), or null before the first invoice. */
	cursor: string | null;
	/** Invoices handled inside the overlap window: id → [createdAt ms or null, updatedAt ms]. */
	seen: Record<string, [number | null, number]>;
	floor?: Position;
	/** Every invoice updated at or before this time (ms, server clock) was handled. */
	checked?: number;
	/** Server time (ms, its Date header) of the last answer of the last successful poll. */
	answeredAt?: number;
	/**
	 * A range of `updatedAt` (ms, after the first, up to the second) read, but read again once its
	 * end is an overlap behind a server answer; until then later polls read only what is newer.
	 */
	recheck?: [number, number];
}

const finite = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Upper bound on remembered ids per company, whatever the window holds. */
export const MAX_SEEN = 10_000;

/** Invoices above the next poll's horizon (one page) beyond which their range is left to one re-read. */
export const RECHECK_ABOVE = 100;

/** How far ahead of the server's clock the cursor may go (at most half the overlap window). */
export const CLOCK_TOLERANCE_MS = 60_000;

export function time(value: unknown): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const ms = typeof value === 'number' ? value : Date.parse(value);
	return isDateMs(ms) ? ms : undefined;
}

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

/** Cursor − overlap or what was proven handled, whichever is later. */
function baseHorizon(state: CompanyState, overlapMs: number): number {
	return Math.max(
		(time(state.cursor) ?? -Infinity) - overlapMs,
		finite(state.checked) ?? -Infinity,
	);
}

/** The `updatedAt` at or below which every invoice was handled (exclusive horizon), or -Infinity. */
export function horizon(state: CompanyState, overlapMs: number): number {
	const base = baseHorizon(state, overlapMs);
	return state.recheck ? Math.min(base, state.recheck[0]) : base;
}

/** What the next poll proves handled once it succeeds: up to an overlap before the last answer to the poll before it. */
function proven(state: CompanyState, overlapMs: number): number {
	return Math.max(
		finite(state.checked) ?? -Infinity,
		(finite(state.answeredAt) ?? -Infinity) - overlapMs,
	);
}

export interface ReadPlan {
	/** Read newest first down to this `updatedAt` (exclusive). */
	limit: number;
	/** The pending recheck is left to a later poll: only what is newer than its range is read. */
	deferred: boolean;
	/** An invoice that changes while this poll pages gets a later `updatedAt`. */
	changedAfter: number;
}

export function readPlan(state: CompanyState, overlapMs: number): ReadPlan {
	const base = baseHorizon(state, overlapMs);
	const changedAfter = proven(state, overlapMs);
	const { recheck } = state;
	// Without the server's time of the last poll nothing tells when the recheck falls due: now.
	if (recheck && finite(state.answeredAt) !== undefined && changedAfter < recheck[1])
		return { limit: Math.max(base, recheck[1]), deferred: true, changedAfter };
	return { limit: horizon(state, overlapMs), deferred: false, changedAfter };
}

/** The range left to one later re-read: next horizon to cursor, when it held more than RECHECK_ABOVE invoices. */
function nextRecheck(
	state: CompanyState,
	plan: ReadPlan | undefined,
	invoices: IDataObject[],
	cursor: number,
	overlapMs: number,
): [number, number] | undefined {
	if (plan?.deferred) return state.recheck;
	const from = Math.max(cursor - overlapMs, proven(state, overlapMs));
	if (!Number.isFinite(from) || !(cursor > from)) return undefined;
	let above = 0;
	for (const invoice of invoices) {
		if ((time(invoice.updatedAt) ?? -Infinity) > from && ++above > RECHECK_ABOVE)
			return [from, cursor];
	}
	return undefined;
}

/** The cursor after a poll that read `invoices`: the newest `updatedAt`, never past `latest`. */
function nextCursor(
	state: CompanyState,
	invoices: IDataObject[],
	latest = Infinity,
): { cursor: number; text: string | null } {
	let cursor = time(state.cursor) ?? -Infinity;
	let text = state.cursor;
	for (const invoice of invoices) {
		const updated = time(invoice.updatedAt);
		if (updated === undefined) continue;
		const position = Math.min(updated, latest);
		if (position > cursor) {
			cursor = position;
			text = position === updated ? String(invoice.updatedAt) : new Date(position).toISOString();
		}
	}
	return { cursor, text };
}

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

/** A saved cursor ahead of the clock (a clock stepped back) would hide every invoice: it is brought back to `now`. */
export function withinClock(state: CompanyState, now: number, overlapMs: number): CompanyState {
	const cursor = time(state.cursor);
	const tolerance = clockTolerance(overlapMs);
	let fixed = state;
	// A time proven handled lies an overlap behind a server answer: never ahead of the clock.
	const checked = finite(state.checked);
	if (state.checked !== undefined && (checked === undefined || checked > now)) {
		fixed = { ...state };
		delete fixed.checked;
		delete fixed.answeredAt;
	}
	if (cursor !== undefined && cursor > now + tolerance + CLOCK_TOLERANCE_MS)
		fixed = { ...fixed, cursor: new Date(now + tolerance).toISOString() };
	return recheckWithinCursor(fixed);
}

/** A recheck ending past the cursor (a cursor brought back, a hand edit) would hold invoices back: it ends at the cursor. */
function recheckWithinCursor(state: CompanyState): CompanyState {
	const { recheck } = state;
	const cursor = time(state.cursor);
	if (!recheck || (cursor !== undefined && recheck[1] <= cursor)) return state;
	const fixed = { ...state };
	delete fixed.recheck;
	if (cursor !== undefined) fixed.recheck = [Math.min(recheck[0], cursor), cursor];
	return fixed;
}

/** A saved floor above the cursor would silence the company: it comes down to the lowest remembered invoice. */
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
	if (state.recheck) fixed.recheck = state.recheck;
	if (lowest !== undefined && cursor !== undefined && lowest[0] <= cursor) fixed.floor = lowest;
	return fixed;
}

/**
 * State after a successful poll. The cursor never goes past `latest` (server clock + tolerance):
 * an invoice dated in the future is emitted without hiding the ones that follow.
 */
export function advance(
	state: CompanyState,
	invoices: IDataObject[],
	event: TriggerEvent,
	overlapMs: number,
	latest = Infinity,
	answeredAt?: number,
	plan?: ReadPlan,
): CompanyState {
	const { cursor, text } = nextCursor(state, invoices, latest);
	const seen: CompanyState['seen'] = { ...state.seen };
	for (const invoice of invoices) {
		const updated = time(invoice.updatedAt);
		if (updated !== undefined)
			seen[String(invoice.id)] = [time(invoice.createdAt) ?? null, updated];
	}
	const recheck = nextRecheck(state, plan, invoices, cursor, overlapMs);
	// What a recheck will read again stays remembered until then.
	const limit = Math.min(cursor - overlapMs, recheck ? recheck[0] : Infinity);
	const next = bounded(text, seen, state.floor, limit, event);
	const checked = proven(state, overlapMs);
	if (Number.isFinite(checked)) next.checked = checked;
	if (answeredAt !== undefined) next.answeredAt = answeredAt;
	if (recheck) next.recheck = recheck;
	return next;
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
