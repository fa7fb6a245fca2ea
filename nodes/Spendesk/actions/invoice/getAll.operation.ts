/**
 * Invoice → Get Many: the invoices of a company, newest change first by default; every cursor
 * page read (docs/api.md#cursor-lists), so any Limit works. Sort By and Sort Order are in
 * Options, sent as the list's `sortBy` and `sort`.
 */
import { readChoice } from '../listFilters';
import {
	optionsCollection,
	readCollection,
	readJsonObject,
	rejectPagingKeys,
} from '../sharedParams';
import { listOperation } from '../list';

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
		optionsCollection([
			{
				displayName: 'Sort By',
				name: 'sortBy',
				type: 'options',
				options: [
					{ name: 'Creation Date', value: 'createdAt' },
					{ name: 'Update Date', value: 'updatedAt' },
				],
				default: 'updatedAt',
				description: 'The date the invoices are listed by',
			},
			{
				displayName: 'Sort Order',
				name: 'sortOrder',
				type: 'options',
				options: [
					{ name: 'Ascending', value: 'asc', description: 'Oldest first' },
					{ name: 'Descending', value: 'desc', description: 'Newest first' },
				],
				default: 'desc',
				description: 'Whether the oldest or the newest invoices come first',
			},
		]),
	],
	request: (ctx, itemIndex) => {
		const filters = rejectPagingKeys(
			ctx,
			readJsonObject(ctx, 'filters', 'Filters (JSON)', itemIndex),
			'Filters (JSON)',
			itemIndex,
		);
		const options = readCollection(ctx, 'options', itemIndex);
		return {
			qs: {
				...filters,
				sortBy:
					readChoice(ctx, itemIndex, options.sortBy, 'Sort By', ['createdAt', 'updatedAt']) ??
					'updatedAt',
				sort:
					readChoice(ctx, itemIndex, options.sortOrder, 'Sort Order', ['asc', 'desc']) ?? 'desc',
			},
		};
	},
});
