/**
 * Exactly-once bookkeeping of the invoice trigger, per company. Pure functions over a
 * small JSON state that n8n persists in the workflow's static data.
 *
 * Each poll reads invoices by `updatedAt`, newest first, down to a horizon: the cursor
 * (largest `updatedAt` seen) minus an overlap window. The overlap covers invoices that
 * become visible late or share a timestamp; `seen` remembers what was handled inside the
 * window, so re-reading it never emits twice. Everything older than the horizon was
 * handled by an earlier poll (each poll reads past the previous horizon, and a poll of several
 * pages re-reads what moved while it paged — see poll.ts), so `seen` only ever holds the
 * invoices of one overlap window: the state does not grow with history.
 */
import type { IDataObject } from 'n8n-workflow';

export type TriggerEvent = 'newInvoice' | 'newOrUpdatedInvoice';

export interface CompanyState {
	/** Largest `updatedAt` seen (ISO string), or null before the first invoice. */
	cursor: string | null;
	/** Invoices handled inside the overlap window: id → [createdAt ms or null, updatedAt ms]. */
	seen: Record<string, [number | null, number]>;
}

/** Upper bound on remembered ids per company, whatever the window holds. */
export const MAX_SEEN = 10_000;

export function time(value: unknown): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const ms = typeof value === 'number' ? value : Date.parse(value);
	return Number.isFinite(ms) ? ms : undefined;
}

/** The oldest `updatedAt` a poll must still read (exclusive horizon), or -Infinity to read everything. */
export function horizon(state: CompanyState, overlapMs: number): number {
	const cursor = time(state.cursor);
	return cursor === undefined ? -Infinity : cursor - overlapMs;
}

/** Whether an invoice read by this poll has been handled before. */
export function handled(state: CompanyState, invoice: IDataObject, event: TriggerEvent, overlapMs: number): boolean {
	const id = String(invoice.id);
	const updated = time(invoice.updatedAt) ?? -Infinity;
	const created = time(invoice.createdAt);
	const previous = state.seen[id];
	const limit = horizon(state, overlapMs);
	if (event === 'newOrUpdatedInvoice') {
		// A version is (id, updatedAt): handled if older than the horizon or already seen.
		return updated <= limit || (previous !== undefined && previous[1] === updated);
	}
	// New invoice: an id is emitted once. Without createdAt, only `seen` can tell.
	if (previous !== undefined) return true;
	return created !== undefined && created <= limit;
}

/** State after a successful poll that read `invoices` (newest first or in any order). */
export function advance(state: CompanyState, invoices: IDataObject[], event: TriggerEvent, overlapMs: number): CompanyState {
	let cursor = time(state.cursor) ?? -Infinity;
	let cursorText = state.cursor;
	const seen: CompanyState['seen'] = { ...state.seen };
	for (const invoice of invoices) {
		const updated = time(invoice.updatedAt);
		if (updated === undefined) continue;
		seen[String(invoice.id)] = [time(invoice.createdAt) ?? null, updated];
		if (updated > cursor) {
			cursor = updated;
			cursorText = String(invoice.updatedAt);
		}
	}
	// Forget what lies below the new horizon: later polls treat it as handled.
	const limit = cursor - overlapMs;
	let entries = Object.entries(seen).filter(([, [created, updated]]) => {
		if (event === 'newOrUpdatedInvoice') return updated > limit;
		return created === null || created > limit;
	});
	if (entries.length > MAX_SEEN) {
		entries = entries.sort((a, b) => b[1][1] - a[1][1]).slice(0, MAX_SEEN);
	}
	return { cursor: cursorText, seen: Object.fromEntries(entries) };
}

export function emptyState(cursor: string | null = null): CompanyState {
	return { cursor, seen: {} };
}
