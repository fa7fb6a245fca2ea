/**
 * One company's share of a poll: read its invoices by `updatedAt`, newest first, down to the
 * horizon of its saved state, and tell what to emit and the state after a success.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import type { CompanyTarget } from '../companies/select';
import { paginate } from '../transport/paginate';
import { advance, emptyState, handled, horizon, time } from './state';
import type { CompanyState, TriggerEvent } from './state';

export interface PollSettings {
	event: TriggerEvent;
	overlapMs: number;
	/** First poll of the company from this date (ms); undefined: from its saved state, or from now. */
	since?: number;
}

export interface CompanyPoll {
	/** Invoices to emit, oldest first. */
	emit: IDataObject[];
	state: CompanyState;
}

/** Newest first, as the trigger reads them. */
export const INVOICE_QUERY = { sortBy: 'updatedAt', sort: 'desc' };
const MAX_REREADS = 5;

type Past = (updated: number) => boolean;

const updatedAt = (invoice: IDataObject): number => time(invoice.updatedAt) ?? -Infinity;
const version = (invoice: IDataObject): string => `${String(invoice.id)}@${String(invoice.updatedAt)}`;

/** Reads newest first until `past(updatedAt)` says the rest is older than needed. */
async function scan(ctx: IPollFunctions, target: CompanyTarget, past: Past): Promise<{ read: IDataObject[]; pages: number }> {
	const read: IDataObject[] = [];
	let pages = 0;
	for await (const page of paginate(ctx, 'listInvoices', { company: target.id, qs: INVOICE_QUERY })) {
		pages++;
		for (const invoice of page) {
			if (past(updatedAt(invoice))) return { read, pages };
			read.push(invoice);
		}
	}
	return { read, pages };
}

/** Where the first read stops: at the saved horizon, below the Start From date, or one overlap below the newest. */
function stopAt(previous: CompanyState | undefined, { overlapMs, since }: PollSettings): Past {
	if (previous) {
		const limit = horizon(previous, overlapMs);
		return (updated) => updated <= limit;
	}
	// First poll from a date: emit what changed since it; read the overlap below it too, to remember it.
	if (since !== undefined) return (updated) => updated < since - overlapMs;
	// First poll from now: remember the newest invoices (one overlap window), emit nothing.
	let limit: number | undefined;
	return (updated) => {
		limit ??= updated - overlapMs;
		return updated < limit;
	};
}

/**
 * Reads one company down to its horizon. A read that took several pages is followed by a
 * read of what changed meanwhile (down to the newest invoice read, minus the overlap): an
 * invoice updated while the pages were read moves above them and would otherwise be
 * skipped by this poll and taken for handled by the next. A one-page read is one answer,
 * so nothing can move during it; an idle poll stays one request.
 */
async function readCompany(ctx: IPollFunctions, target: CompanyTarget, past: Past, overlapMs: number): Promise<IDataObject[]> {
	let { read, pages } = await scan(ctx, target, past);
	const known = new Set(read.map(version));
	// Bounded: a company changing faster than it can be read is caught up by the next polls.
	for (let round = 0; pages > 1 && round < MAX_REREADS; round++) {
		// Down to the overlap below the newest read: changes may carry a slightly older timestamp.
		const floor = read.reduce((max, invoice) => Math.max(max, updatedAt(invoice)), -Infinity) - overlapMs;
		const again = await scan(ctx, target, (updated) => updated < floor);
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

export async function pollCompany(ctx: IPollFunctions, target: CompanyTarget, previous: CompanyState | undefined, settings: PollSettings): Promise<CompanyPoll> {
	const { event, overlapMs, since } = settings;
	const invoices = latestVersions(await readCompany(ctx, target, stopAt(previous, settings), overlapMs));

	let emit: IDataObject[] = [];
	if (previous) emit = invoices.filter((invoice) => !handled(previous, invoice, event, overlapMs));
	else if (since !== undefined) emit = invoices.filter((invoice) => updatedAt(invoice) >= since);

	let state = advance(previous ?? emptyState(), invoices, event, overlapMs);
	if (!previous && since !== undefined && (time(state.cursor) ?? -Infinity) < since) {
		// Nothing changed since the date: start the cursor there, not at the beginning of time.
		state = advance(emptyState(new Date(since).toISOString()), invoices, event, overlapMs);
	}
	// Oldest first, as they happened.
	return { emit: emit.reverse(), state };
}
