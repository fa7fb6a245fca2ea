import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { readJsonObject, rejectPagingKeys } from '../sharedParams';

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

/** The payable-type filter of the payable lists (snapshot and search). */
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

/** The status filter of the payable lists (snapshot and search). */
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

/** The filters of a payables snapshot (flat, in the request body), as fields or as a JSON body. Payable → Get Many has its own (search.operation.ts). */
export const payableFilterProperties: INodeProperties[] = [
	FILTER_MODE,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { filterMode: ['fields'] } },
		options: [PAYABLE_TYPE_FILTER, PAYABLE_STATUS_FILTER],
	},
	{
		displayName: 'Filters (JSON)',
		name: 'filtersJson',
		type: 'json',
		default: '{}',
		description: 'Filters sent to Spendesk in the request body as they are',
		displayOptions: { show: { filterMode: ['json'] } },
	},
];

export function readPayableFilters(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	if (ctx.getNodeParameter('filterMode', itemIndex, 'fields') === 'json') {
		return rejectPagingKeys(
			ctx,
			readJsonObject(ctx, 'filtersJson', 'Filters (JSON)', itemIndex),
			'Filters (JSON)',
			itemIndex,
		);
	}
	const fields = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	for (const [key, value] of Object.entries(fields)) {
		if (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== '')
			body[key] = value;
	}
	return body;
}
