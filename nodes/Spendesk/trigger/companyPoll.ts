/** One company's share of a poll: read its invoices down to its horizon, tell what to emit and the next state. */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { companyLabel } from '../companies/label';
import type { CompanyTarget } from '../companies/select';
import { paginate } from '../transport/paginate';
import {
	advance,
	clockTolerance,
	floorWithinCursor,
	handled,
	readPlan,
	time,
	withinClock,
} from './cursorState';
import type { CompanyState, ReadPlan } from './cursorState';
import type { TriggerParameters } from './parameters';
import { isoTime } from '../transport/timeText';

export interface PollParameters extends TriggerParameters {
	/** First poll of the company from this date (ms); undefined: from its saved state, or from now. */
	since?: number;
	/** Called at every answer of the API, with the server's time when it says it (its Date header). */
	onAnswer?: (serverTime?: number) => void;
}

/** Newest first, as the trigger reads them. */
export const INVOICE_QUERY = { sortBy: 'updatedAt', sort: 'desc' };
const MAX_REREADS = 5;
/** Invoices named in a warning about unreadable timestamps. */
const NAMED_IN_WARNING = 5;

type Past = (updated: number) => boolean;

const updatedAt = (invoice: IDataObject): number => time(invoice.updatedAt) ?? -Infinity;
const version = (invoice: IDataObject): string =>
	`${String(invoice.id)}@${String(invoice.updatedAt)}`;

/** What one company's poll reads with: `now` is the server's clock (its latest Date header), else the local one. */
function reader(ctx: IPollFunctions, target: CompanyTarget, params: PollParameters) {
	let answered: number | undefined;
	const observe = (headers: Record<string, unknown>) => {
		const date = typeof headers.date === 'string' ? Date.parse(headers.date) : NaN;
		params.onAnswer?.(Number.isFinite(date) ? date : undefined);
		if (Number.isFinite(date)) answered = Math.max(answered ?? -Infinity, date);
	};
	const { name } = ctx.getNode();
	// The header names a whole second: the server's time lies before its end, and after its start.
	const now = () => (answered === undefined ? Date.now() : answered + 1_000);
	return {
		ctx,
		target,
		/** Logs a warning that starts with the trigger's name. */
		warn: (text: string) => ctx.logger.warn(`${name}${text}`, { node: name }),
		observe,
		now,
		/** The latest `updatedAt` the cursor may take. */
		latest: () => now() + clockTolerance(params.overlapMs),
		skipped: new Set<string>(),
		answeredAt: () => answered,
	};
}

type Reader = ReturnType<typeof reader>;

/** Reads newest first until `past(updatedAt)` says the rest is older than needed; skips invoices without a readable `updatedAt`. */
async function scan(from: Reader, past: Past): Promise<{ read: IDataObject[]; pages: number }> {
	const read: IDataObject[] = [];
	let pages = 0;
	const request = { company: from.target.id, qs: INVOICE_QUERY, onHeaders: from.observe };
	for await (const page of paginate(from.ctx, 'listInvoices', request)) {
		pages++;
		for (const invoice of page) {
			const updated = time(invoice.updatedAt);
			if (updated === undefined) {
				from.skipped.add(String(invoice.id));
				continue;
			}
			if (past(updated)) return { read, pages };
			read.push(invoice);
		}
	}
	return { read, pages };
}

/** Where the first read stops (plan, Start From, or an overlap below the newest), decided at the first invoice. */
function stopAt(from: Reader, plan: () => ReadPlan | undefined, params: PollParameters): Past {
	const { overlapMs, since } = params;
	let past: Past | undefined;
	const decide = (newest: number): Past => {
		const planned = plan()?.limit;
		if (planned !== undefined) return (updated) => updated <= planned;
		// First poll from a date: emit what changed since it; read the overlap below it too, to remember it.
		if (since !== undefined) return (updated) => updated < since - overlapMs;
		// First poll from now: remember the newest invoices (one overlap window), emit nothing.
		const limit = Math.min(newest, from.latest()) - overlapMs;
		return (updated) => updated < limit;
	};
	return (updated) => (past ??= decide(updated))(updated);
}

/**
 * Reads one company down to its horizon. A read of several pages is followed by a read of what
 * changed meanwhile: an invoice updated while the pages were read moves above them, and would
 * be skipped by this poll and taken for handled by the next. A one-page read is one answer.
 */
async function readCompany(
	from: Reader,
	past: Past,
	{ overlapMs }: PollParameters,
	plan: () => ReadPlan | undefined,
): Promise<IDataObject[]> {
	let { read, pages } = await scan(from, past);
	const known = new Set(read.map(version));
	// Bounded: a company changing faster than it can be read is caught up by the next polls.
	for (let round = 0; pages > 1 && round < MAX_REREADS; round++) {
		// An overlap below the newest read (a change may carry an older timestamp); not below what
		// the plan leaves to a recheck, or what changed before this poll started.
		const newest = read.reduce((max, invoice) => Math.max(max, updatedAt(invoice)), -Infinity);
		const reach = Math.min(newest, from.latest()) - overlapMs;
		const planned = plan();
		const after = Math.max(
			planned?.deferred ? planned.limit : -Infinity,
			planned?.changedAfter ?? -Infinity,
		);
		const again = await scan(from, (updated) => updated < reach || updated <= after);
		const changed = again.read.filter((invoice) => !known.has(version(invoice)));
		if (changed.length === 0) break;
		for (const invoice of changed) known.add(version(invoice));
		read = [...changed, ...read];
		pages = again.pages;
	}
	return read;
}

/** The latest version of each invoice, newest first. */
function latestVersions(read: IDataObject[]): IDataObject[] {
	const latest = new Map<string, IDataObject>();
	for (const invoice of read) {
		const kept = latest.get(String(invoice.id));
		if (!kept || updatedAt(invoice) > updatedAt(kept)) latest.set(String(invoice.id), invoice);
	}
	return [...latest.values()].sort((a, b) => updatedAt(b) - updatedAt(a));
}

/** The saved state, brought back within the clock once the server's time is known, and its read plan. */
function savedState(
	from: Reader,
	saved: CompanyState | undefined,
	{ overlapMs, event }: PollParameters,
): () => { state: CompanyState; plan: ReadPlan } | undefined {
	let checked: { state: CompanyState; plan: ReadPlan } | undefined;
	return () => {
		if (!saved || checked) return checked;
		const clocked = withinClock(saved, Math.max(from.now(), Date.now()), overlapMs);
		if (clocked !== saved) warnClocked(from, saved, clocked);
		const state = floorWithinCursor(clocked, event);
		if (state !== clocked) {
			const floor = clocked.floor ? dateText(clocked.floor[0]) : '';
			const now = state.floor ? dateText(state.floor[0]) : undefined;
			from.warn(
				`: the saved state of ${companyLabel(from.target)} took every invoice up to ${floor} as handled, which lies ahead of its position (${String(clocked.cursor)}); ${now ? `it is brought back to ${now}` : 'it is dropped'}, so that new invoices are not taken as handled.`,
			);
		}
		checked = { state, plan: readPlan(state, overlapMs) };
		return checked;
	};
}

/** A time of a saved state as a warning shows it: a date, else the number (a hand edit). */
const dateText = (ms: number): string => isoTime(ms) ?? String(ms);

/** Says why `withinClock` changed the saved state. */
function warnClocked(from: Reader, saved: CompanyState, clocked: CompanyState): void {
	const company = companyLabel(from.target);
	if (clocked.cursor !== saved.cursor || clocked.checked !== saved.checked) {
		from.warn(
			`: the saved position of ${company} (${String(saved.cursor)}) lay ahead of the clock; it reads again from ${String(clocked.cursor)}, so that new invoices are not hidden behind it.`,
		);
		return;
	}
	const end = saved.recheck ? dateText(saved.recheck[1]) : '';
	from.warn(
		`: the saved state of ${company} left invoices up to ${end} to be read again later, past its position (${String(saved.cursor)}); ${clocked.recheck ? 'that re-read now ends at the position' : 'that re-read is dropped'}, so that new invoices are not held back.`,
	);
}

function warnSkipped(from: Reader): void {
	if (from.skipped.size === 0) return;
	const named = [...from.skipped].slice(0, NAMED_IN_WARNING).map((id) => `"${id.slice(0, 64)}"`);
	const more =
		from.skipped.size > named.length ? ` and ${from.skipped.size - named.length} more` : '';
	from.warn(
		` skipped ${from.skipped.size} invoice(s) of ${companyLabel(from.target)} whose updatedAt is not a date: ${named.join(', ')}${more}. They are not emitted; the other invoices are.`,
	);
}

export async function pollCompany(
	ctx: IPollFunctions,
	target: CompanyTarget,
	saved: CompanyState | undefined,
	params: PollParameters,
): Promise<{ emit: IDataObject[]; state: CompanyState }> {
	const { event, overlapMs, since } = params;
	const from = reader(ctx, target, params);
	const prior = savedState(from, saved, params);
	const plan = () => prior()?.plan;
	const invoices = latestVersions(
		await readCompany(from, stopAt(from, plan, params), params, plan),
	);
	const previous = prior()?.state;
	warnSkipped(from);

	let emit: IDataObject[] = [];
	if (previous) emit = invoices.filter((invoice) => !handled(previous, invoice, event, overlapMs));
	else if (since !== undefined) emit = invoices.filter((invoice) => updatedAt(invoice) >= since);

	const after = (before: CompanyState, withPlan?: ReadPlan) =>
		advance(before, invoices, event, overlapMs, from.latest(), from.answeredAt(), withPlan);
	let state = after(previous ?? { cursor: null, seen: {} }, plan());
	if (!previous && since !== undefined && (time(state.cursor) ?? -Infinity) < since) {
		// Nothing changed since the date: start the cursor there, not at the beginning of time.
		state = after({ cursor: new Date(since).toISOString(), seen: {} });
	}
	// Oldest first, as they happened.
	return { emit: emit.reverse(), state };
}
