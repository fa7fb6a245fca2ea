/** Accounting Export → Create: starts an export of a period, then polls it until COMPLETE or ERROR, bounded by Max Wait. */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { singleObject } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import { restated } from '../../transport/restate';
import { untilComplete } from '../../transport/statusPoll';
import { maxWaitOption, optionsCollection, readMaxWaitMs } from '../sharedParams';
import { recordLocator } from '../recordId';
import { fail, readId, readPeriod } from '../readers';
import type { SpendeskOperation } from '../types';
import { itemError } from '../errorItem';

/** Polls the export until COMPLETE (its record) or ERROR or Max Wait (errors naming the export). */
async function whenComplete(
	ctx: IExecuteFunctions,
	exportId: string,
	{ company, maxWaitMs, itemIndex }: { company?: string; maxWaitMs: number; itemIndex: number },
): Promise<IDataObject> {
	return await untilComplete({
		ask: async () => {
			const { body } = await callSpendesk<IDataObject>(ctx, 'getAccountingExport', {
				company,
				pathParams: { exportId },
				itemIndex,
			});
			const data = singleObject(body) ?? {};
			return { status: String(data.status ?? ''), value: data };
		},
		started: Date.now(),
		maxWaitMs,
		failed: () =>
			itemError(
				ctx,
				itemIndex,
				`Spendesk could not build the accounting export ${exportId}`,
				'The export ended with the status "ERROR". Check the period and the template, then run the node again; if it happens again, contact Spendesk support.',
			),
		timedOut: (waited) =>
			itemError(
				ctx,
				itemIndex,
				`The accounting export ${exportId} was not ready after ${Math.round(waited / 1000)} s`,
				`Spendesk is still building it. Get its journal later with Accounting Export → Get Journal and the export ID ${exportId}, rather than creating another export.`,
			),
	});
}

/** A template the company does not have (a 400 on `templateId`, docs/api.md#journal-templates), named with the company. */
function unknownTemplate(
	ctx: IExecuteFunctions,
	error: unknown,
	body: IDataObject,
	itemIndex: number,
): Error | undefined {
	if (!(error instanceof NodeApiError) || body.templateId === undefined) return undefined;
	const response = (error.errorResponse ?? {}) as IDataObject;
	if (String(error.httpCode) !== '400' || !/templateId$/.test(String(response.source ?? '')))
		return undefined;
	const company = typeof response.companyId === 'string' ? response.companyId : undefined;
	return restated(ctx.getNode(), error, {
		message: `${company ? `Company "${company}"` : 'The company'} has no journal template "${String(body.templateId).slice(0, 60)}", so no export was started`,
		description:
			"Pick the template from the list in 'Template' (it shows the company's journal templates), or leave it empty for the company's default template. With several companies, each needs a template of its own.",
		itemIndex,
	});
}

export const createExport: SpendeskOperation = {
	value: 'create',
	perCompany: true,
	// It creates an export: one company at a time, never once per company by mistake.
	write: true,
	properties: [
		{
			displayName: 'From',
			name: 'from',
			type: 'dateTime',
			required: true,
			default: '',
			description: 'Start of the period to export (included)',
		},
		{
			// "Before", not "To": the end of the period is excluded (date filters say "Until").
			displayName: 'Before',
			name: 'to',
			type: 'dateTime',
			required: true,
			default: '',
			description:
				'End of the period to export: the export holds what happened before it (excluded)',
		},
		optionsCollection([
			maxWaitOption(300, 'How long to wait for Spendesk to build the export before giving up'),
			// Optional (docs/api.md#accounting-exports): empty is the company's default template.
			{
				...recordLocator({
					name: 'templateId',
					label: 'Template',
					description:
						"The company's journal template to export with: pick it from the list, or enter its ID. Without it, Spendesk uses the company's default template.",
					placeholder: 'e.g. tpl_default',
					searchListMethod: 'searchJournalTemplates',
				})[0],
				required: false,
			},
		]),
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const { start: from, end: to } = readPeriod(
			this,
			itemIndex,
			['from', 'From'],
			['to', 'Before'],
			{
				wording: 'dateTime',
				advice: 'Enter a period whose start comes before its end.',
			},
		);
		const templateId = readId(
			this,
			itemIndex,
			this.getNodeParameter('options.templateId', itemIndex, ''),
			"'Template'",
			"Pick the template from the list, or leave 'Template' empty for the company's default template.",
		);
		const body: IDataObject = { from, to, ...(templateId ? { templateId } : {}) };
		const maxWaitMs = readMaxWaitMs(this, itemIndex, 'export', 300);
		return async (company) => {
			const { body: created } = await callSpendesk<IDataObject>(this, 'createAccountingExport', {
				company,
				body,
				itemIndex,
			}).catch((error: unknown) => {
				throw unknownTemplate(this, error, body, itemIndex) ?? error;
			});
			const exportId = String(singleObject(created)?.id ?? '');
			if (!exportId)
				fail(
					this,
					itemIndex,
					'Spendesk did not return the ID of the accounting export',
					'Run the node again later.',
				);
			return {
				items: [await whenComplete(this, exportId, { company, maxWaitMs, itemIndex })],
			};
		};
	},
};
