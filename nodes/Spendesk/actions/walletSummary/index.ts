import type { SpendeskResource } from '../types';
import { getWalletSummary } from './get.operation';

export const walletSummaryResource: SpendeskResource = {
	value: 'walletSummary',
	name: 'Wallet Summary',
	description: 'Wallet balance of a company',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['walletSummary'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get wallet summary',
				description: 'Get the wallet summary of a company (amounts in cents)',
			},
		],
		default: 'get',
	},
	operations: [getWalletSummary],
};
