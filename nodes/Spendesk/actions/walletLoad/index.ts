import type { SpendeskResource } from '../types';
import { getAllWalletLoads } from './getAll.operation';

export const walletLoadResource: SpendeskResource = {
	value: 'walletLoad',
	name: 'Wallet Load',
	description: "Loads (top-ups) of a company's wallet",
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['walletLoad'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many wallet loads',
				description:
					'List the wallet loads of a company (amounts in cents), optionally between two dates',
			},
		],
		default: 'getAll',
	},
	operations: [getAllWalletLoads],
};
