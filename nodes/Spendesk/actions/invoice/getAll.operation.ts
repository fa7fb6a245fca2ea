/** Invoice → Get Many: every cursor page read (docs/api.md#cursor-lists); Sort sent as `sortBy` and `sort`. */
import { sortCollection, sortDirection } from '../listFilters';
import { readJsonFilters } from '../sharedParams';
import { listOperation } from '../list';
import { readSortRule } from '../readers';

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
		sortCollection('The order of the invoices; without a rule, the most recently updated first', [
			{
				displayName: 'Field',
				name: 'field',
				type: 'options',
				options: [
					{ name: 'Creation Date', value: 'createdAt' },
					{ name: 'Update Date', value: 'updatedAt' },
				],
				default: 'updatedAt',
				description: 'The date the invoices are listed by',
			},
			{ ...sortDirection('invoices'), default: 'desc' },
		]),
	],
	request: (ctx, itemIndex) => {
		const filters = readJsonFilters(ctx, 'filters', itemIndex);
		const { field, direction } = readSortRule(ctx, itemIndex, ['createdAt', 'updatedAt']);
		return { qs: { ...filters, sortBy: field ?? 'updatedAt', sort: direction ?? 'desc' } };
	},
});
