import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { readDateFilter } from '../dates';
import { listOperation } from '../list';

/** Updated After as an ISO date-time, Archived as isArchived true/false (both optional). */
function readSupplierFilters(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const archived = filters.archived;
	return {
		updatedAfter: readDateFilter(ctx, itemIndex, filters.updatedAfter, 'Updated After'),
		isArchived: archived === 'archived' ? 'true' : archived === 'active' ? 'false' : undefined,
	};
}

export const getAllSuppliers = listOperation({
	endpoint: 'listSuppliers',
	properties: [
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				{
					displayName: 'Archived',
					name: 'archived',
					type: 'options',
					options: [
						{
							name: 'Active Only',
							value: 'active',
							description: 'Suppliers that are not archived',
						},
						{ name: 'Archived Only', value: 'archived', description: 'Archived suppliers' },
					],
					default: 'active',
					description:
						'Whether to list archived or active suppliers (both when this filter is not added)',
				},
				{
					displayName: 'Updated After',
					name: 'updatedAfter',
					type: 'dateTime',
					default: '',
					description: 'Only suppliers changed after this date',
				},
			],
		},
	],
	request: (ctx, itemIndex) => ({ qs: readSupplierFilters(ctx, itemIndex) }),
});
