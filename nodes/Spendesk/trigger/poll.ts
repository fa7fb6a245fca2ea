/**
 * One poll of the invoice trigger: select the companies, poll each (companyPoll.ts), emit
 * what was not handled before, and advance a company's state only when its poll succeeded.
 * "Fetch test event" (manual mode) shows the newest invoice of each company and leaves the
 * saved state alone.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { forEachCompany } from '../companies/fanOut';
import { companyError, tagItem } from '../companies/naming';
import { readCompanyChoice, selectCompanies } from '../companies/select';
import type { CompanyChoice, CompanySelection } from '../companies/select';
import { collect } from '../transport/paginate';
import { resolveCredential } from '../transport/credential';
import { INVOICE_QUERY, pollCompany } from './companyPoll';
import type { PollSettings } from './companyPoll';
import { time } from './state';
import type { TriggerEvent } from './state';
import { forgetAbsent } from './staticData';
import type { TriggerStaticData } from './staticData';

export { FORGET_AFTER_MS } from './staticData';

/** The companies watched: a company-level credential watches its own company, whatever the selector says. */
async function watchedCompanies(ctx: IPollFunctions, data: TriggerStaticData, manual: boolean): Promise<CompanySelection> {
	const credential = await resolveCredential(ctx);
	const choice: CompanyChoice = credential.level === 'company' ? { mode: 'one', company: credential.ownCompanyId } : readCompanyChoice(ctx);
	return await selectCompanies(ctx, choice, { kept: manual ? undefined : data });
}

/** "Fetch test event": the newest invoice of each company. */
async function newestInvoices(ctx: IPollFunctions, { listed, targets }: CompanySelection): Promise<IDataObject[]> {
	const newest = await Promise.all(
		targets.map(async (target) => {
			const items = await collect(ctx, 'listInvoices', { company: target.id, qs: INVOICE_QUERY, limit: 1 });
			return listed ? items.map((invoice) => tagItem(invoice, target)) : items;
		}),
	);
	return newest.flat();
}

/** Where each company's first poll starts (see TriggerStaticData.pending). */
function firstPollStart(ctx: IPollFunctions, data: TriggerStaticData): { start: number; fromDate: boolean } {
	const fromDate = !data.initialized && ctx.getNodeParameter('startFrom', 'now') === 'date';
	const start = fromDate ? time(ctx.getNodeParameter('since', '') as string) : Date.now();
	if (start === undefined) {
		throw new NodeOperationError(ctx.getNode(), 'Since is not a valid date', { description: 'Enter the date from which invoices are emitted.' });
	}
	return { start, fromDate };
}

/** Polls every selected company; saves the state of those that succeeded and returns what to emit. */
async function pollCompanies(ctx: IPollFunctions, data: TriggerStaticData, selection: CompanySelection): Promise<IDataObject[]> {
	const event = ctx.getNodeParameter('event', 'newInvoice') as TriggerEvent;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const overlapMs = Math.max(0, Number(options.overlapMinutes ?? 5)) * 60_000;
	const { start, fromDate } = firstPollStart(ctx, data);
	const companies = (data.companies ??= {});
	const pending = (data.pending ??= {});
	// Activation: remember where each company starts, in case its first poll fails.
	if (!data.initialized) for (const target of selection.targets) pending[target.id ?? ''] = start;

	const outcomes = await forEachCompany(selection.targets, async (target) => {
		const key = target.id ?? '';
		// First poll of a company: at activation from the date (or from the data, for "now");
		// later, from its pending start if its activation poll failed, else from the data (new company).
		const since = companies[key] || (!data.initialized && !fromDate) ? undefined : pending[key];
		const settings: PollSettings = { event, overlapMs, since };
		return await pollCompany(ctx, target, companies[key], settings);
	});
	const emitted: IDataObject[] = [];
	const failures: string[] = [];
	for (const outcome of outcomes) {
		const key = outcome.target.id ?? '';
		if (!outcome.ok) {
			failures.push(companyError(ctx.getNode(), outcome.error, outcome.target).message);
			continue;
		}
		companies[key] = outcome.value.state;
		delete pending[key];
		for (const invoice of outcome.value.emit) emitted.push(selection.listed ? tagItem(invoice, outcome.target) : invoice);
	}
	reportFailures(ctx, data, failures, selection.targets.length);
	if (failures.length < selection.targets.length) data.initialized = true;
	forgetAbsent(data, new Set(selection.targets.map((target) => target.id ?? '')));
	return emitted;
}

/**
 * Failed companies are retried from their saved position next poll, so a failure is logged;
 * only a first poll where every company failed stops the activation.
 */
function reportFailures(ctx: IPollFunctions, data: TriggerStaticData, failures: string[], total: number): void {
	if (!failures.length) return;
	const message = `Spendesk Trigger could not poll ${failures.length} of ${total} companies; they are retried from their saved position next time. ${failures.join(' | ')}`;
	if (failures.length === total && !data.initialized) {
		throw new NodeOperationError(ctx.getNode(), message, { description: 'Check the credential and the selected companies.' });
	}
	ctx.logger.error(message, { node: ctx.getNode().name });
}

export async function pollInvoices(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const manual = this.getMode() === 'manual';
	const data = this.getWorkflowStaticData('node') as TriggerStaticData;
	const selection = await watchedCompanies(this, data, manual);
	const items = manual ? await newestInvoices(this, selection) : await pollCompanies(this, data, selection);
	return items.length ? [this.helpers.returnJsonArray(items)] : null;
}
