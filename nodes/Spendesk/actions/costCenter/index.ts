import { listOperation } from '../list';
import type { SpendeskResource } from '../types';

export const costCenterResource: SpendeskResource = {
	value: 'costCenter',
	name: 'Cost Center',
	description: 'Cost centers of a company',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['costCenter'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many cost centers',
				description: 'List the cost centers of a company with their name and owner',
			},
		],
		default: 'getAll',
	},
	operations: [listOperation({ endpoint: 'listCostCenters' })],
};
