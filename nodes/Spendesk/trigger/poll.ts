/**
 * One poll of the invoice trigger: for every selected company, read invoices by
 * `updatedAt` (newest first) down to the horizon of its cursor, emit what was not handled
 * before, and advance that company's state only when its poll succeeded.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { collect, paginate } from '../transport/paginate';
import { getSession } from '../transport/request';
import { advance, emptyState, handled, horizon, time } from './state';
import type { CompanyState, TriggerEvent } from './state';

interface TriggerStaticData {
	/** Per-company cursor state, keyed by company id ('' = a company-level credential's own company). */
	companies?: Record<string, CompanyState>;
	/** Company list of "All Companies", refreshed every 20 minutes (the API caches it that long too). */
	companyList?: { at: number; companies: Array<[string, string | null]> };
	/** Set after the first successful poll: companies found later start from now. */
	initialized?: boolean;
}

interface Target {
	id?: string;
	name?: string;
}

const COMPANY_LIST_TTL_MS = 20 * 60_000;
const INVOICE_QUERY = { sortBy: 'updatedAt', sort: 'desc' };

async function selectedCompanies(ctx: IPollFunctions, data: TriggerStaticData, manual: boolean): Promise<{ all: boolean; targets: Target[] }> {
	const session = await getSession(ctx);
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

/** Reads one company down to its horizon. */
async function pollCompany(
	ctx: IPollFunctions,
	target: Target,
	previous: CompanyState | undefined,
	settings: { event: TriggerEvent; overlapMs: number; since?: number },
): Promise<CompanyPoll> {
	const { event, overlapMs, since } = settings;
	const first = previous === undefined;
	// First poll: from a date (inclusive), or from the newest invoice minus the overlap ("now").
	let stopAt: number | undefined = first ? since : horizon(previous, overlapMs);
	const read: IDataObject[] = [];
	let done = false;
	for await (const page of paginate(ctx, 'listInvoices', { company: target.id, qs: INVOICE_QUERY })) {
		for (const invoice of page) {
			const updated = time(invoice.updatedAt) ?? -Infinity;
			if (first && since === undefined && stopAt === undefined) stopAt = updated - overlapMs;
			const past = first && since !== undefined ? updated < stopAt! : updated <= stopAt!;
			if (stopAt !== undefined && past) {
				done = true;
				break;
			}
			read.push(invoice);
		}
		if (done) break;
	}
	let emit: IDataObject[];
	if (first) emit = since === undefined ? [] : read;
	else emit = read.filter((invoice) => !handled(previous, invoice, event, overlapMs));
	const unique = new Map(emit.map((invoice) => [String(invoice.id), invoice]));
	return {
		target,
		// Oldest first, as they happened.
		emit: [...unique.values()].reverse(),
		state: advance(previous ?? emptyState(), read, event, overlapMs),
	};
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

	let since: number | undefined;
	if (!data.initialized && this.getNodeParameter('startFrom', 'now') === 'date') {
		since = time(this.getNodeParameter('since', '') as string);
		if (since === undefined) {
			throw new NodeOperationError(this.getNode(), 'Since is not a valid date', { description: 'Enter the date from which invoices are emitted.' });
		}
	}

	const companies = (data.companies ??= {});
	const results = await Promise.allSettled(
		targets.map(async (target) => await pollCompany(this, target, companies[target.id ?? ''], { event, overlapMs, since })),
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
	return emitted.length ? [this.helpers.returnJsonArray(emitted)] : null;
}

function tag(invoice: IDataObject, target: Target, all: boolean): IDataObject {
	if (!all) return invoice;
	return { ...invoice, companyId: target.id ?? null, companyName: target.name ?? null };
}
