import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { readDateFilter, toEpoch } from '../dates';
import { dateFilter, textField } from '../listFilters';
import { filtersCollection, readCollection, readJsonFilters } from '../sharedParams';
import { fail, readChoices, readIdList } from '../readers';

/** How the filters of a payable list are given: as fields, or as JSON (snapshot and search). */
export const FILTER_MODE: INodeProperties = {
	displayName: 'Filter Using',
	name: 'filterMode',
	type: 'options',
	options: [
		{ name: 'Fields', value: 'fields' },
		{ name: 'JSON', value: 'json' },
	],
	default: 'fields',
};

/** The nine payable types Spendesk documents, sent as `type` (docs/api.md#filters). */
export const PAYABLE_TYPE_FILTER: INodeProperties = {
	displayName: 'Payable Type',
	name: 'type',
	type: 'multiOptions',
	options: [
		{ name: 'Credit Note', value: 'creditNote', description: 'A credit note from a supplier' },
		{
			name: 'Expense Claim',
			value: 'expenseClaim',
			description: 'An employee paid and claims it back',
		},
		{ name: 'Invoice', value: 'invoicePurchase', description: 'A supplier invoice to pay' },
		{ name: 'Mileage Allowance', value: 'mileageAllowance' },
		{ name: 'Per Diem Allowance', value: 'perDiemAllowance' },
		{
			name: 'Physical Card',
			value: 'physicalCard',
			description: 'A purchase with a physical card',
		},
		{
			name: 'Reverse Bill',
			value: 'reverseBill',
			description: 'Money coming back: a refund or a cash return',
		},
		{
			name: 'Single-Use Card',
			value: 'singlePurchaseCard',
			description: 'A purchase with a single-use virtual card',
		},
		{
			name: 'Subscription Card',
			value: 'subscriptionCard',
			description: 'A purchase with a subscription virtual card',
		},
	],
	default: [],
	description: 'Only payables of these types',
};

/** The most days a snapshot's payable-date range may span (docs/api.md#filters). */
const MAX_PAYABLE_DAYS = 31;
const DAY_MS = 24 * 3600 * 1000;
/** A payable's bookkeeping statuses (docs/api.md#filters), as Get a payable answers them. */
export const BOOKKEEPING_STATUS_FILTER: INodeProperties = {
	displayName: 'Bookkeeping Status',
	name: 'bookkeepingStatus',
	type: 'multiOptions',
	options: [
		{ name: 'Created', value: 'created' },
		{ name: 'Exported', value: 'exported' },
		{ name: 'Exported Manually', value: 'exportedManually' },
		{ name: 'Failed to Export', value: 'failedToExport' },
		{ name: 'Prepared', value: 'prepared' },
		{ name: 'Unprepared', value: 'unprepared' },
	],
	default: [],
	description: 'Only payables with these bookkeeping statuses',
};

/** The search's own bookkeeping filter (docs/api.md#body-cursor-lists): not the statuses of Get. */
export const SEARCH_BOOKKEEPING_FILTER: INodeProperties = {
	displayName: 'Bookkeeping Status',
	name: 'bookkeepingStatus',
	type: 'multiOptions',
	options: [
		{ name: 'Exported', value: 'exported', description: 'Exported to accounting' },
		{
			name: 'To Export',
			value: 'toExport',
			description: 'Prepared, waiting for the export to accounting',
		},
		{
			name: 'To Prepare',
			value: 'toPrepare',
			description: 'Still to be enriched with accounting information',
		},
	],
	default: [],
	description:
		"Only payables at these stages of bookkeeping, in the search's own words (Get a payable names the statuses differently)",
};

/** The values of a choice filter, each checked against its options (docs/api.md#filters). */
export function readChoiceFilter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
	value: unknown,
): string[] | undefined {
	const values = property.options!.map((o) => String((o as { value: string }).value));
	return readChoices(ctx, itemIndex, value, property.displayName, values);
}

/** The snapshot's filters, sent flat in the request body; dates read by their label (readDateFilter). */
const SNAPSHOT_FILTERS: INodeProperties[] = [
	BOOKKEEPING_STATUS_FILTER,
	dateFilter('Created From', 'createdFrom', 'Only payables created on or after this date'),
	dateFilter('Created To', 'createdTo', 'Only payables created on or before this date'),
	dateFilter('Exported After', 'exportedAfter', 'Only payables exported after this date'),
	dateFilter(
		'Payable Date From',
		'fromPayableDate',
		`Only payables dated on or after this date; with Payable Date To, at most ${MAX_PAYABLE_DAYS} days apart`,
	),
	dateFilter(
		'Payable Date To',
		'toPayableDate',
		`Only payables dated on or before this date; with Payable Date From, at most ${MAX_PAYABLE_DAYS} days apart`,
	),
	textField(
		'Payable IDs',
		'ids',
		'e.g. pay_001_000001, pay_001_000002',
		'Only these payables: their IDs, separated by commas',
	),
	PAYABLE_TYPE_FILTER,
	dateFilter('Updated From', 'updatedFrom', 'Only payables changed on or after this date'),
];

/** The filters of a payables snapshot (flat, in the request body), as fields or as a JSON body. Payable → Get Many has its own (getAll.operation.ts). */
export const payableFilterProperties: INodeProperties[] = [
	FILTER_MODE,
	filtersCollection(SNAPSHOT_FILTERS, { displayOptions: { show: { filterMode: ['fields'] } } }),
	{
		displayName: 'Filters (JSON)',
		name: 'filtersJson',
		type: 'json',
		default: '{}',
		description: 'Filters sent to Spendesk in the request body as they are',
		displayOptions: { show: { filterMode: ['json'] } },
	},
];

/**
 * Spendesk refuses payable dates more than 31 days apart (docs/api.md#filters), counted in
 * whole days as the simulator counts them: the node refuses a wider range before any request.
 */
function checkPayableDates(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
	from: string,
	to: string,
): void {
	const start = toEpoch(body.fromPayableDate, 'UTC');
	const end = toEpoch(body.toPayableDate, 'UTC');
	if (!Number.isFinite(start) || !Number.isFinite(end)) return;
	if (start > end)
		fail(ctx, itemIndex, `${from} is after ${to}`, `Set '${from}' to a date on or before '${to}'.`);
	const days = Math.floor((end - start) / DAY_MS);
	if (days > MAX_PAYABLE_DAYS)
		fail(
			ctx,
			itemIndex,
			`'${from}' and '${to}' are ${days} days apart: Spendesk allows at most ${MAX_PAYABLE_DAYS}`,
			`Nothing was sent. Narrow '${from}' and '${to}' to ${MAX_PAYABLE_DAYS} days apart or less, and run the node once per period for a longer one (e.g. one item per month), or leave one of them empty.`,
		);
}

/** The filters of the Fields mode as the snapshot's body: dates as ISO date-times, lists as lists. */
function fieldsBody(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = readCollection(ctx, 'filters', itemIndex);
	const body: IDataObject = {};
	for (const [key, value] of Object.entries(fields)) {
		const property = SNAPSHOT_FILTERS.find((filter) => filter.name === key);
		if (property?.type === 'dateTime')
			body[key] = readDateFilter(ctx, itemIndex, value, property.displayName);
		else if (key === 'ids') body.ids = readIdList(ctx, itemIndex, value, 'Payable IDs');
		else if (property?.type === 'multiOptions')
			body[key] = readChoiceFilter(ctx, itemIndex, property, value);
		else if (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== '')
			body[key] = value;
	}
	for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
	return body;
}

export function readPayableFilters(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	if (ctx.getNodeParameter('filterMode', itemIndex, 'fields') === 'json') {
		const body = readJsonFilters(ctx, 'filtersJson', itemIndex);
		checkPayableDates(ctx, body, itemIndex, 'fromPayableDate', 'toPayableDate');
		return body;
	}
	const body = fieldsBody(ctx, itemIndex);
	checkPayableDates(ctx, body, itemIndex, 'Payable Date From', 'Payable Date To');
	return body;
}
