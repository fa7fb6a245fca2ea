import type { SpendeskResource } from '../types';
import { getAllInvoices } from './getAll.operation';

export const invoiceResource: SpendeskResource = {
	value: 'invoice',
	name: 'Invoice',
	description: 'Supplier invoices',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many invoices',
				description: 'List the invoices of a company, sorted by update or creation date',
			},
		],
		default: 'getAll',
	},
	operations: [getAllInvoices],
};
