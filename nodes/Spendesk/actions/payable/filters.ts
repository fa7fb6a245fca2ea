import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { readDateFilter, toEpoch } from '../dates';
import { dateFilter, readChoices, readIdList, textFilter } from '../listFilters';
import {
	filtersCollection,
	readCollection,
	readJsonObject,
	rejectPagingKeys,
} from '../sharedParams';

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

/** The payable-type filter of the payable lists (snapshot and search; values: docs/api.md#filters). */
export const PAYABLE_TYPE_FILTER: INodeProperties = {
	displayName: 'Payable Type',
	name: 'payableType',
	type: 'multiOptions',
	options: [
		{ name: 'Card Purchase', value: 'card_purchase' },
		{ name: 'Expense Claim', value: 'expense_claim' },
		{ name: 'Invoice', value: 'invoice' },
	],
	default: [],
};

/** The status filter of the payable lists (snapshot and search; values: docs/api.md#filters). */
export const PAYABLE_STATUS_FILTER: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'multiOptions',
	options: [
		{ name: 'In Review', value: 'in_review' },
		{ name: 'Prepared', value: 'prepared' },
		{ name: 'Settled', value: 'settled' },
	],
	default: [],
};

/** The most days a snapshot's payable-date range may span (docs/api.md#filters). */
const MAX_PAYABLE_DAYS = 31;
const DAY_MS = 24 * 3600 * 1000;
/**
 * A payable's bookkeeping statuses, as Spendesk documents them (docs/api.md#filters). The
 * snapshot and the search filter on the same values.
 */
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

/**
 * The filters of the payable lists that take values from a list (snapshot and search), by
 * name: in Fields mode, a value not in the list (from an expression) is refused before any
 * request, naming the values (docs/api.md#filters).
 */
const CHOICE_FILTERS = new Map(
	[BOOKKEEPING_STATUS_FILTER, PAYABLE_TYPE_FILTER, PAYABLE_STATUS_FILTER].map((property) => [
		property.name,
		{
			label: property.displayName,
			values: property.options!.map((o) => String((o as { value: string }).value)),
		},
	]),
);

/** Whether `name` is a payable filter that takes values from a list. */
export function isChoiceFilter(name: string): boolean {
	return CHOICE_FILTERS.has(name);
}

/** The values of the choice filter `name`, each checked against its list; undefined when none. */
export function readChoiceFilter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	value: unknown,
): string[] | undefined {
	const { label, values } = CHOICE_FILTERS.get(name)!;
	return readChoices(ctx, itemIndex, value, label, values);
}

/**
 * The date filters of a snapshot, as fields: their labels, by body property
 * (docs/api.md#filters).
 */
const SNAPSHOT_DATES: Record<string, string> = {
	createdFrom: 'Created From',
	createdTo: 'Created To',
	exportedAfter: 'Exported After',
	fromPayableDate: 'Payable Date From',
	toPayableDate: 'Payable Date To',
	updatedFrom: 'Updated From',
};

/** The filters of a payables snapshot (flat, in the request body), as fields or as a JSON body. Payable → Get Many has its own (getAll.operation.ts). */
export const payableFilterProperties: INodeProperties[] = [
	FILTER_MODE,
	filtersCollection(
		[
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
			textFilter(
				'Payable IDs',
				'ids',
				'e.g. pay_001_000001, pay_001_000002',
				'Only these payables: their IDs, separated by commas',
			),
			PAYABLE_TYPE_FILTER,
			PAYABLE_STATUS_FILTER,
			dateFilter('Updated From', 'updatedFrom', 'Only payables changed on or after this date'),
		],
		{ displayOptions: { show: { filterMode: ['fields'] } } },
	),
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
 * Spendesk refuses a payable-date range longer than 31 days (docs/api.md#filters): the node
 * refuses it first, before any request, saying which fields to change.
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
		throw new NodeOperationError(ctx.getNode(), `${from} is after ${to}`, {
			description: `Set '${from}' to a date on or before '${to}'.`,
			itemIndex,
		});
	if (end - start > MAX_PAYABLE_DAYS * DAY_MS) {
		const days = Math.ceil((end - start) / DAY_MS);
		throw new NodeOperationError(
			ctx.getNode(),
			`The payable dates span ${days} days: Spendesk allows at most ${MAX_PAYABLE_DAYS} between '${from}' and '${to}'`,
			{
				description: `Nothing was sent. Narrow '${from}' and '${to}' to ${MAX_PAYABLE_DAYS} days or less, and run the node once per period for a longer one (e.g. one item per month), or leave one of them empty.`,
				itemIndex,
			},
		);
	}
}

/** The filters of the Fields mode as the snapshot's body: dates as ISO date-times, lists as lists. */
function fieldsBody(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = readCollection(ctx, 'filters', itemIndex);
	const body: IDataObject = {};
	for (const [key, value] of Object.entries(fields)) {
		if (key in SNAPSHOT_DATES)
			body[key] = readDateFilter(ctx, itemIndex, value, SNAPSHOT_DATES[key]);
		else if (key === 'ids') body.ids = readIdList(ctx, itemIndex, value, 'Payable IDs');
		else if (isChoiceFilter(key)) body[key] = readChoiceFilter(ctx, itemIndex, key, value);
		else if (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== '')
			body[key] = value;
	}
	for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
	return body;
}

export function readPayableFilters(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	if (ctx.getNodeParameter('filterMode', itemIndex, 'fields') === 'json') {
		const body = rejectPagingKeys(
			ctx,
			readJsonObject(ctx, 'filtersJson', 'Filters (JSON)', itemIndex),
			'Filters (JSON)',
			itemIndex,
		);
		checkPayableDates(ctx, body, itemIndex, 'fromPayableDate', 'toPayableDate');
		return body;
	}
	const body = fieldsBody(ctx, itemIndex);
	checkPayableDates(ctx, body, itemIndex, 'Payable Date From', 'Payable Date To');
	return body;
}
