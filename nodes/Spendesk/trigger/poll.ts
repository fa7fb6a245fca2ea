/** One poll of the invoice trigger: a company's state advances only when its poll succeeded. */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { forEachCompany } from '../companies/fanOut';
import { companyError, tagItem } from '../companies/label';
import { readCompanyChoice, selectCompanies } from '../companies/select';
import type { CompanyChoice, CompanySelection, KeptCompanyList } from '../companies/select';
import { collect } from '../transport/paginate';
import { forgetCredential, resolveCredential } from '../transport/credential';
import { INVOICE_QUERY, pollCompany } from './companyPoll';
import { beginPoll, endPoll, holds } from './pollLease';
import type { PollLease } from './pollLease';
import { firstPollStart, readTriggerParameters } from './parameters';
import type { TriggerParameters } from './parameters';
import { checkStaticData, forgetAbsent } from './staticData';
import type { TriggerStaticData } from './staticData';

/** The companies watched: a company-level credential watches its own company, whatever the selector says. */
async function watchedCompanies(
	ctx: IPollFunctions,
	kept?: KeptCompanyList,
): Promise<CompanySelection> {
	const credential = await resolveCredential(ctx);
	const choice: CompanyChoice =
		credential.level === 'company'
			? { mode: 'one', company: credential.ownCompanyId }
			: readCompanyChoice(ctx);
	return await selectCompanies(ctx, choice, { kept });
}

/** "Fetch test event": the newest invoice of each company. */
async function newestInvoices(
	ctx: IPollFunctions,
	{ multiCompany, targets }: CompanySelection,
): Promise<IDataObject[]> {
	const newest = await Promise.all(
		targets.map(async (target) => {
			const items = await collect(ctx, 'listInvoices', {
				company: target.id,
				qs: INVOICE_QUERY,
				limit: 1,
			});
			return multiCompany ? items.map((invoice) => tagItem(invoice, target)) : items;
		}),
	);
	return newest.flat();
}

/** Polls every selected company; changes nothing in the static data. */
async function pollCompanies(
	ctx: IPollFunctions,
	data: TriggerStaticData,
	params: TriggerParameters,
	lease: PollLease,
) {
	const { start, fromDate } = firstPollStart(ctx, data.initialized === true);
	const kept: KeptCompanyList = { companyList: data.companyList };
	const selection = await watchedCompanies(ctx, kept);
	const companies = data.companies ?? {};
	const pending = { ...data.pending };
	// Activation: remember where each company starts, in case its first poll fails.
	if (!data.initialized) for (const target of selection.targets) pending[target.id ?? ''] = start;

	// Spendesk's clock minus n8n's, as the answers of this poll tell it (the lowest seen).
	let skew: number | undefined;
	const onAnswer = (serverTime?: number) => {
		lease.alive = Date.now();
		if (serverTime === undefined) return;
		const seen = serverTime - Date.now();
		skew = skew === undefined ? seen : Math.min(skew, seen);
	};
	const outcomes = await forEachCompany(selection.targets, async (target) => {
		const key = target.id ?? '';
		// First poll of a company: at activation from the date (or from the data, for "now");
		// later, from its pending start if its activation poll failed, else from the data (new company).
		const since = companies[key] || (!data.initialized && !fromDate) ? undefined : pending[key];
		return await pollCompany(ctx, target, companies[key], { ...params, since, onAnswer });
	});
	// "Now" is Spendesk's time of the activation, which invoices are dated by: a company whose
	// first poll failed catches up from there, whichever way n8n's clock is off.
	if (!data.initialized && !fromDate && skew !== undefined) {
		for (const target of selection.targets) pending[target.id ?? ''] = start + skew;
	}
	return { selection, outcomes, pending, kept };
}

/** Saves the state of the companies that succeeded and returns what to emit (only if the poll still holds its trigger). */
function applyPoll(
	ctx: IPollFunctions,
	data: TriggerStaticData,
	{ selection, outcomes, pending, kept }: Awaited<ReturnType<typeof pollCompanies>>,
): IDataObject[] {
	if (kept.companyList !== data.companyList) data.companyList = kept.companyList;
	const companies = (data.companies ??= {});
	data.pending = pending;
	const emitted: IDataObject[] = [];
	const failures: Error[] = [];
	for (const outcome of outcomes) {
		const key = outcome.target.id ?? '';
		if (!outcome.ok) {
			failures.push(companyError(ctx.getNode(), outcome.error, outcome.target));
			continue;
		}
		companies[key] = outcome.value.state;
		delete pending[key];
		for (const invoice of outcome.value.emit)
			emitted.push(selection.multiCompany ? tagItem(invoice, outcome.target) : invoice);
	}
	const total = selection.targets.length;
	if (failures.length) {
		// Failed companies are retried next poll; only a first poll where all failed throws.
		const details = `${failures.map((e) => e.message).join(' | ')}. They are retried from their saved position at the next poll.`;
		if (failures.length === total && !data.initialized) {
			// One company: its own error, which names it and says what to do.
			if (total === 1) throw failures[0];
			throw new NodeOperationError(ctx.getNode(), `Could not poll any of the ${total} companies`, {
				description: `${details} Check the credential and the selected companies.`,
			});
		}
		const { name } = ctx.getNode();
		ctx.logger.error(
			`${name} could not poll ${failures.length} of ${total} companies: ${details}`,
			{ node: name },
		);
	}
	if (failures.length < total) data.initialized = true;
	forgetAbsent(data, new Set(selection.targets.map((target) => target.id ?? '')));
	return emitted;
}

/** One poll of an active trigger: nothing when the previous poll still runs, or when this one was taken over as stuck. */
async function pollActive(ctx: IPollFunctions, params: TriggerParameters): Promise<IDataObject[]> {
	const data = ctx.getWorkflowStaticData('node') as TriggerStaticData;
	const node = { node: ctx.getNode().name };
	const lease = beginPoll(ctx, data);
	if (!lease) {
		ctx.logger.warn(
			`${node.node} skipped a poll: the previous poll of this trigger is still running. Nothing is lost, the next poll goes on from the saved position; if this happens often, poll less often.`,
			node,
		);
		return [];
	}
	try {
		checkStaticData(data, (message) => ctx.logger.warn(`${node.node} ${message}`, node));
		const run = await pollCompanies(ctx, data, params, lease);
		return holds(lease) ? applyPoll(ctx, data, run) : [];
	} finally {
		endPoll(lease);
	}
}

export async function pollInvoices(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	// Each poll reads the credential as it is now (its environment may have been switched).
	forgetCredential(this);
	const params = readTriggerParameters(this);
	const items =
		this.getMode() === 'manual'
			? await newestInvoices(this, await watchedCompanies(this))
			: await pollActive(this, params);
	return items.length ? [this.helpers.returnJsonArray(items)] : null;
}
