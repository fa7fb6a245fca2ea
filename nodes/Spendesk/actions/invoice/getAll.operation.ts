import { readJsonObject, rejectPagingKeys } from '../sharedParams';
import { listOperation } from '../list';

export const getAllInvoices = listOperation({
	endpoint: 'listInvoices',
	maxLimit: 100,
	properties: [
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: [
				{ name: 'Creation Date', value: 'createdAt' },
				{ name: 'Update Date', value: 'updatedAt' },
			],
			default: 'updatedAt',
		},
		{
			displayName: 'Sort Order',
			name: 'sort',
			type: 'options',
			options: [
				{ name: 'Ascending', value: 'asc' },
				{ name: 'Descending', value: 'desc' },
			],
			default: 'desc',
		},
		{
			displayName: 'Filters (JSON)',
			name: 'filters',
			type: 'json',
			default: '{}',
			description:
				'Further query filters passed to Spendesk as they are, e.g. {"status": "to_pay"}',
		},
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
				sortBy: ctx.getNodeParameter('sortBy', itemIndex, 'updatedAt') as string,
				sort: ctx.getNodeParameter('sort', itemIndex, 'desc') as string,
			},
		};
	},
});
