/**
 * One poll of the invoice trigger: for every selected company, read invoices by
 * `updatedAt` (newest first) down to the horizon of its cursor, emit what was not handled
 * before, and advance that company's state only when its poll succeeded.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { collect, paginate } from '../transport/paginate';
import { resolveCredential } from '../transport/credential';
import { advance, emptyState, handled, horizon, time } from './state';
import type { CompanyState, TriggerEvent } from './state';

interface TriggerStaticData {
	/** Per-company cursor state, keyed by company id ('' = a company-level credential's own company). */
	companies?: Record<string, CompanyState>;
	/** Company list of "All Companies", refreshed every 20 minutes (the API caches it that long too). */
	companyList?: { at: number; companies: Array<[string, string | null]> };
	/** Set after the first successful poll: companies found later start from now. */
	initialized?: boolean;
	/**
	 * Start (ms) of companies whose first poll has not succeeded yet although they were
	 * selected at activation: the date of Start From, or the activation time. They catch
	 * up from there once they answer, instead of starting from now.
	 */
	pending?: Record<string, number>;
	/**
	 * Since when (ms) a company with saved state has no longer been selected (it left the
	 * organisation, was deactivated, or was taken out of the selection). After FORGET_AFTER_MS
	 * away its state is dropped, so the state does not keep every company ever watched.
	 */
	absent?: Record<string, number>;
}

interface Target {
	id?: string;
	name?: string;
}

const COMPANY_LIST_TTL_MS = 20 * 60_000;
const MAX_REREADS = 5;
/** A company away this long starts afresh (as a new company) if it comes back. */
export const FORGET_AFTER_MS = 7 * 24 * 3_600_000;
const INVOICE_QUERY = { sortBy: 'updatedAt', sort: 'desc' };

async function selectedCompanies(ctx: IPollFunctions, data: TriggerStaticData, manual: boolean): Promise<{ all: boolean; targets: Target[] }> {
	const session = await resolveCredential(ctx);
	const scope = ctx.getNodeParameter('companyScope', 'one') as string;
	if (session.level === 'company') return { all: false, targets: [{ id: session.ownCompanyId }] };
	if (scope === 'one') {
		const value = ctx.getNodeParameter('company', '', { extractValue: true }) as unknown;
		return { all: false, targets: [{ id: typeof value === 'string' && value.trim() ? value.trim() : undefined }] };
	}
	if (scope === 'several') {
		const ids = ctx.getNodeParameter('companyIds', []) as string[];
		if (!Array.isArray(ids) || ids.length === 0) {
			throw new NodeOperationError(ctx.getNode(), 'Choose at least one company', {
				description: 'Select the companies to watch, or choose All Companies.',
			});
		}
		return { all: true, targets: ids.map((id) => ({ id })) };
	}
	const cached = data.companyList;
	if (!manual && cached && Date.now() - cached.at < COMPANY_LIST_TTL_MS) {
		return { all: true, targets: cached.companies.map(([id, name]) => ({ id, name: name ?? undefined })) };
	}
	const companies = (await collect(ctx, 'getCompanies')).map((c: IDataObject) => ({
		id: String(c.id),
		name: typeof c.name === 'string' ? c.name : undefined,
	}));
	if (!manual) data.companyList = { at: Date.now(), companies: companies.map((c) => [c.id, c.name ?? null]) };
	return { all: true, targets: companies };
}

interface CompanyPoll {
	target: Target;
	emit: IDataObject[];
	state: CompanyState;
}

/**
 * Reads invoices newest first until `past(updatedAt)` says the rest is older than needed.
 * Returns what was read and how many pages it took.
 */
async function scan(ctx: IPollFunctions, target: Target, past: (updated: number) => boolean): Promise<{ read: IDataObject[]; pages: number }> {
	const read: IDataObject[] = [];
	let pages = 0;
	for await (const page of paginate(ctx, 'listInvoices', { company: target.id, qs: INVOICE_QUERY })) {
		pages++;
		for (const invoice of page) {
			if (past(time(invoice.updatedAt) ?? -Infinity)) return { read, pages };
			read.push(invoice);
		}
	}
	return { read, pages };
}

function newest(invoices: IDataObject[]): number {
	return invoices.reduce((max, invoice) => Math.max(max, time(invoice.updatedAt) ?? -Infinity), -Infinity);
}

/**
 * Reads one company down to its horizon. A read that took several pages is followed by a
 * read of what changed meanwhile (down to the newest invoice read, minus the overlap): an
 * invoice updated while the pages were read moves above them and would otherwise be
 * skipped by this poll and taken for handled by the next. A one-page read is one answer,
 * so nothing can move during it; an idle poll stays one request.
 */
async function pollCompany(
	ctx: IPollFunctions,
	target: Target,
	previous: CompanyState | undefined,
	settings: { event: TriggerEvent; overlapMs: number; since?: number },
): Promise<CompanyPoll> {
	const { event, overlapMs, since } = settings;
	let past: (updated: number) => boolean;
	if (previous) {
		const limit = horizon(previous, overlapMs);
		past = (updated) => updated <= limit;
	} else if (since !== undefined) {
		// First poll from a date: emit what changed since it; read the overlap below it too, to remember it.
		past = (updated) => updated < since - overlapMs;
	} else {
		// First poll from now: remember the newest invoices (one overlap window), emit nothing.
		let limit: number | undefined;
		past = (updated) => {
			limit ??= updated - overlapMs;
			return updated < limit;
		};
	}
	let { read, pages } = await scan(ctx, target, past);
	const version = (invoice: IDataObject) => `${String(invoice.id)}@${String(invoice.updatedAt)}`;
	const known = new Set(read.map(version));
	// Re-read while the last read took several pages and found changes (bounded: a company
	// changing faster than it can be read is caught up by the next polls).
	for (let round = 0; pages > 1 && round < MAX_REREADS; round++) {
		// Down to the overlap below the newest read: changes may carry a slightly older timestamp.
		const floor = newest(read) - overlapMs;
		const again = await scan(ctx, target, (updated) => updated < floor);
		const changed = again.read.filter((invoice) => !known.has(version(invoice)));
		if (changed.length === 0) break;
		for (const invoice of changed) known.add(version(invoice));
		read = [...changed, ...read];
		pages = again.pages;
	}
	// Latest version of each invoice, newest first.
	const latest = new Map<string, IDataObject>();
	for (const invoice of read) {
		const kept = latest.get(String(invoice.id));
		if (!kept || (time(invoice.updatedAt) ?? -Infinity) > (time(kept.updatedAt) ?? -Infinity)) latest.set(String(invoice.id), invoice);
	}
	const invoices = [...latest.values()].sort((a, b) => (time(b.updatedAt) ?? -Infinity) - (time(a.updatedAt) ?? -Infinity));

	let emit: IDataObject[];
	if (previous) emit = invoices.filter((invoice) => !handled(previous, invoice, event, overlapMs));
	else if (since !== undefined) emit = invoices.filter((invoice) => (time(invoice.updatedAt) ?? -Infinity) >= since);
	else emit = [];

	let state = advance(previous ?? emptyState(), invoices, event, overlapMs);
	if (!previous && since !== undefined && (time(state.cursor) ?? -Infinity) < since) {
		// Nothing changed since the date: start the cursor there, not at the beginning of time.
		state = advance(emptyState(new Date(since).toISOString()), invoices, event, overlapMs);
	}
	// Oldest first, as they happened.
	return { target, emit: emit.reverse(), state };
}

export async function pollInvoices(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const manual = this.getMode() === 'manual';
	const data = this.getWorkflowStaticData('node') as TriggerStaticData;
	const event = this.getNodeParameter('event', 'newInvoice') as TriggerEvent;
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const overlapMs = Math.max(0, Number(options.overlapMinutes ?? 5)) * 60_000;
	const { all, targets } = await selectedCompanies(this, data, manual);

	if (manual) {
		// "Fetch test event": the newest invoice of each company; the saved state is left alone.
		const latest = await Promise.all(
			targets.map(async (target) => {
				const items = await collect(this, 'listInvoices', { company: target.id, qs: INVOICE_QUERY, limit: 1 });
				return items.map((invoice) => tag(invoice, target, all));
			}),
		);
		const items = latest.flat();
		return items.length ? [this.helpers.returnJsonArray(items)] : null;
	}

	const startFromDate = !data.initialized && this.getNodeParameter('startFrom', 'now') === 'date';
	const start = startFromDate ? time(this.getNodeParameter('since', '') as string) : Date.now();
	if (start === undefined) {
		throw new NodeOperationError(this.getNode(), 'Since is not a valid date', { description: 'Enter the date from which invoices are emitted.' });
	}
	const companies = (data.companies ??= {});
	const pending = (data.pending ??= {});
	// Activation: remember where each company starts, in case its first poll fails.
	if (!data.initialized) for (const target of targets) pending[target.id ?? ''] = start;
	const results = await Promise.allSettled(
		targets.map(async (target) => {
			const key = target.id ?? '';
			// First poll of a company: at activation from the date (or from the data, for "now");
			// later, from its pending start if its activation poll failed, else from the data (new company).
			const since = companies[key] || (!data.initialized && !startFromDate) ? undefined : pending[key];
			return await pollCompany(this, target, companies[key], { event, overlapMs, since });
		}),
	);
	const emitted: IDataObject[] = [];
	const failures: string[] = [];
	results.forEach((result, index) => {
		const target = targets[index];
		if (result.status === 'rejected') {
			const error = result.reason as { message?: string; description?: string };
			const name = target.id ? `company ${target.name ? `"${target.name}" ` : ''}(${target.id})` : 'the credential\'s company';
			failures.push(`${name}: ${error.message ?? String(result.reason)}`);
			return;
		}
		companies[target.id ?? ''] = result.value.state;
		delete pending[target.id ?? ''];
		for (const invoice of result.value.emit) emitted.push(tag(invoice, target, all));
	});
	if (failures.length) {
		const message = `Spendesk Trigger could not poll ${failures.length} of ${targets.length} companies; they are retried from their saved position next time. ${failures.join(' | ')}`;
		if (failures.length === targets.length && !data.initialized) {
			throw new NodeOperationError(this.getNode(), message, { description: 'Check the credential and the selected companies.' });
		}
		this.logger.error(message, { node: this.getNode().name });
	}
	if (failures.length < targets.length) data.initialized = true;
	forgetAbsent(data, targets);
	return emitted.length ? [this.helpers.returnJsonArray(emitted)] : null;
}

/** Marks saved companies that are no longer selected; drops those away for FORGET_AFTER_MS. */
function forgetAbsent(data: TriggerStaticData, targets: Target[]): void {
	const selected = new Set(targets.map((target) => target.id ?? ''));
	const companies = data.companies ?? {};
	const absent = (data.absent ??= {});
	const now = Date.now();
	for (const key of Object.keys(companies)) {
		if (selected.has(key)) {
			delete absent[key];
			continue;
		}
		absent[key] ??= now;
		if (now - absent[key] >= FORGET_AFTER_MS) {
			delete companies[key];
			delete absent[key];
		}
	}
	for (const key of Object.keys(data.pending ?? {})) if (!selected.has(key)) delete data.pending![key];
}

function tag(invoice: IDataObject, target: Target, all: boolean): IDataObject {
	if (!all) return invoice;
	return { ...invoice, companyId: target.id ?? null, companyName: target.name ?? null };
}
