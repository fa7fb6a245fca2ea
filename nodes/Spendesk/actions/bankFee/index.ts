import type { SpendeskResource } from '../types';
import { getAllBankFees } from './getAll.operation';

export const bankFeeResource: SpendeskResource = {
	value: 'bankFee',
	name: 'Bank Fee',
	description: "Bank fees charged to a company's wallet",
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bankFee'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many bank fees',
				description:
					'List the bank fees of a company (amounts in cents), optionally between two dates',
			},
		],
		default: 'getAll',
	},
	operations: [getAllBankFees],
};
