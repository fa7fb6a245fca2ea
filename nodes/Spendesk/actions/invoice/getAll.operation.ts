/**
 * Invoice → Get Many: the invoices of a company, newest change first by default; every cursor
 * page read (docs/api.md#cursor-lists), so any Limit works.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { optionsCollection, readJsonObject, rejectPagingKeys } from '../sharedParams';
import { listOperation } from '../list';

const SORT_BY: INodeProperties = {
	displayName: 'Sort By',
	name: 'sortBy',
	type: 'options',
	options: [
		{ name: 'Creation Date', value: 'createdAt' },
		{ name: 'Update Date', value: 'updatedAt' },
	],
	default: 'updatedAt',
};

const SORT_ORDER: INodeProperties = {
	displayName: 'Sort Order',
	name: 'sort',
	type: 'options',
	options: [
		{ name: 'Ascending', value: 'asc' },
		{ name: 'Descending', value: 'desc' },
	],
	default: 'desc',
};

/**
 * Sort By and Sort Order are in Options. Earlier versions had them as top-level parameters
 * (`sortBy`, `sort`): n8n drops saved values of parameters the node no longer describes, so
 * both stay, hidden, under their names, and are read when Options does not set the sort: a
 * saved workflow keeps its order.
 */
function sortOf(ctx: IExecuteFunctions, itemIndex: number, name: string, fallback: string) {
	const chosen = ctx.getNodeParameter(`options.${name}`, itemIndex, '') as string;
	return chosen || (ctx.getNodeParameter(name, itemIndex, fallback) as string) || fallback;
}

export const getAllInvoices = listOperation({
	endpoint: 'listInvoices',
	after: [
		{
			displayName: 'Filters (JSON)',
			name: 'filters',
			type: 'json',
			default: '{}',
			description:
				'Further query filters passed to Spendesk as they are, e.g. {"status": "to_pay"}',
		},
		optionsCollection([SORT_BY, SORT_ORDER]),
		{ ...SORT_BY, type: 'hidden', options: undefined },
		{ ...SORT_ORDER, type: 'hidden', options: undefined },
	],
	request: (ctx, itemIndex) => {
		const filters = rejectPagingKeys(
			ctx,
			readJsonObject(ctx, 'filters', 'Filters (JSON)', itemIndex),
			'Filters (JSON)',
			itemIndex,
		);
		return {
			qs: {
				...filters,
				sortBy: sortOf(ctx, itemIndex, 'sortBy', 'updatedAt'),
				sort: sortOf(ctx, itemIndex, 'sort', 'desc'),
			},
		};
	},
});
