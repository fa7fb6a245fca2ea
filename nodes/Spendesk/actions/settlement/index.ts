import type { SpendeskResource } from '../types';
import { getAllSettlements } from './getAll.operation';
import { updateSettlementBookkeepingStatus } from './updateBookkeepingStatus.operation';

export const settlementResource: SpendeskResource = {
	value: 'settlement',
	name: 'Settlement',
	description: 'Settlements of payables',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['settlement'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many settlements',
				description: 'List the settlements of a company (amounts in cents)',
			},
			{
				name: 'Update Bookkeeping Status',
				value: 'updateBookkeepingStatus',
				action: 'Update settlement bookkeeping status',
				description:
					'Mark one settlement, given by its ID, as exported to the accounting system or not. Returns the updated settlement.',
			},
		],
		default: 'getAll',
	},
	operations: [getAllSettlements, updateSettlementBookkeepingStatus],
};
