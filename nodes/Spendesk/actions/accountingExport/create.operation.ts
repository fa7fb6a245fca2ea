/**
 * Accounting Export → Create: starts an export of a period (POST /v1/accounting/exports), then
 * waits for Spendesk to build it: polls it (GET /v1/accounting/exports/{exportId}) until COMPLETE or ERROR, spaced like the
 * payables snapshot wait (pauses doubling from 0.5 s to 5 s) and bounded by Max Wait.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { singleObject } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import { restated } from '../../transport/restate';
import { untilComplete } from '../../transport/statusPoll';
import {
	checkMaxWaitSeconds,
	MAX_WAIT_SECONDS,
	optionsCollection,
	readCollection,
} from '../sharedParams';
import { toEpoch } from '../dates';
import { readOptionalRecordId, recordLocator } from '../recordId';
import type { SpendeskOperation } from '../types';

/**
 * A dateTime parameter as an ISO 8601 instant (n8n gives text, or a date object from an
 * expression); a value without a time zone, as the date picker gives it, is read in the
 * workflow's time zone like the date filters of the lists.
 */
function readInstant(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const ms = toEpoch(raw, ctx.getTimezone());
	if (!Number.isFinite(ms)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`'${label}' must be a date and time; got ${typeof raw === 'string' && raw.trim() ? `"${raw.trim()}"` : 'nothing'}`,
			{
				description:
					'Pick a date in the field, or give an ISO 8601 date-time from an expression, e.g. {{ $now.startOf("month").toISO() }}.',
				itemIndex,
			},
		);
	}
	return new Date(ms).toISOString();
}

interface ExportRequest {
	company: string | undefined;
	body: IDataObject;
	maxWaitMs: number;
	itemIndex: number;
}

/** Polls the export until COMPLETE (its record) or ERROR or Max Wait (errors naming the export). */
async function whenComplete(
	ctx: IExecuteFunctions,
	exportId: string,
	request: ExportRequest,
): Promise<IDataObject> {
	const { company, maxWaitMs, itemIndex } = request;
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
			new NodeOperationError(
				ctx.getNode(),
				`Spendesk could not build the accounting export ${exportId}`,
				{
					description:
						'The export ended with the status "ERROR". Check the period and the template, then run the node again; if it happens again, contact Spendesk support.',
					itemIndex,
				},
			),
		timedOut: (waited) =>
			new NodeOperationError(
				ctx.getNode(),
				`The accounting export ${exportId} was not ready after ${Math.round(waited / 1000)} s`,
				{
					description: `Spendesk is still building it. Get its journal later with Accounting Export → Get Journal and the export ID ${exportId}, rather than creating another export.`,
					itemIndex,
				},
			),
	});
}

/** Max Wait (Seconds) of Options; 300 when it is not set. */
function readExportMaxWait(ctx: IExecuteFunctions, itemIndex: number): number {
	const { maxWait } = readCollection(ctx, 'options', itemIndex);
	return checkMaxWaitSeconds(ctx, itemIndex, maxWait ?? 300, { what: 'export', example: 300 });
}

/** The template chosen; undefined for the company's default one (the field left empty). */
function readTemplateId(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	return readOptionalRecordId(
		ctx,
		'options.templateId',
		"'Template'",
		itemIndex,
		"Pick the template from the list, or leave 'Template' empty for the company's default template.",
	);
}

/**
 * A template the company does not have is refused (a 400 on `templateId`,
 * docs/api.md#journal-templates): the error names the template and the company.
 */
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
			{
				displayName: 'Max Wait (Seconds)',
				name: 'maxWait',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_WAIT_SECONDS },
				default: 300,
				description: 'How long to wait for Spendesk to build the export before giving up',
			},
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
		const from = readInstant(this, 'from', 'From', itemIndex);
		const to = readInstant(this, 'to', 'Before', itemIndex);
		if (from > to) {
			throw new NodeOperationError(this.getNode(), `'From' (${from}) is after 'Before' (${to})`, {
				description: 'Enter a period whose start comes before its end.',
				itemIndex,
			});
		}
		const templateId = readTemplateId(this, itemIndex);
		const body: IDataObject = { from, to, ...(templateId ? { templateId } : {}) };
		const maxWaitMs = readExportMaxWait(this, itemIndex) * 1000;
		return async (company) => {
			const { body: created } = await callSpendesk<IDataObject>(this, 'createAccountingExport', {
				company,
				body,
				itemIndex,
			}).catch((error: unknown) => {
				throw unknownTemplate(this, error, body, itemIndex) ?? error;
			});
			const exportId = String(singleObject(created)?.id ?? '');
			if (!exportId) {
				throw new NodeOperationError(
					this.getNode(),
					'Spendesk did not return the ID of the accounting export',
					{ description: 'Run the node again later.', itemIndex },
				);
			}
			return {
				items: [await whenComplete(this, exportId, { company, body, maxWaitMs, itemIndex })],
			};
		};
	},
};
