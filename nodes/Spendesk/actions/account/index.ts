import { listOperation } from '../list';
import type { SpendeskResource } from '../types';

export const accountResource: SpendeskResource = {
	value: 'account',
	name: 'Account',
	description: 'Bank, wallet and card accounts',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many accounts',
				description: 'List the accounts of a company',
			},
		],
		default: 'getAll',
	},
	operations: [listOperation({ endpoint: 'getAccounts' })],
};
