/** The Supplier resource: its Operation list, written out for the editor and n8n's checks, and its operations. */
import type { SpendeskResource } from '../types';
import { getSupplier } from './get.operation';
import { getAllSuppliers } from './getAll.operation';

export const supplierResource: SpendeskResource = {
	value: 'supplier',
	name: 'Supplier',
	description: 'Suppliers of a company',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['supplier'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a supplier',
				description: 'Get one supplier of a company by its ID: name, bank details, VAT number, archived or not (GET /v1/suppliers/{supplierId})',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many suppliers',
				description: 'List the suppliers of a company, optionally only those updated after a date or archived or not (GET /v1/suppliers)',
			},
		],
		default: 'getAll',
	},
	operations: [getSupplier, getAllSuppliers],
};
