import type { SpendeskResource } from '../types';
import { archiveSuppliers, unarchiveSuppliers } from './archive.operation';
import { createSupplier } from './create.operation';
import { getSupplier } from './get.operation';
import { getAllSuppliers } from './getAll.operation';
import { updateSupplier } from './update.operation';

export const supplierResource: SpendeskResource = {
	value: 'supplier',
	name: 'Supplier',
	description: 'Suppliers (vendors) of a company',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['supplier'] } },
		options: [
			{
				name: 'Archive',
				value: 'archive',
				action: 'Archive supplier',
				description:
					'Archive one supplier per input item, given by its ID, so that it can no longer be used. Returns the supplier as it now is.',
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create supplier',
				description:
					'Create one supplier per input item from its name and optional bank details, VAT number and address. Returns the created supplier with its ID.',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get supplier',
				description:
					'Get one supplier of a company by its ID: name, bank details, VAT number, archived or not',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many suppliers',
				description:
					'List the suppliers of a company, optionally only those updated after a date or archived or not',
			},
			{
				name: 'Unarchive',
				value: 'unarchive',
				action: 'Unarchive supplier',
				description:
					'Make one archived supplier per input item, given by its ID, active again. Returns the supplier as it now is.',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update supplier',
				description:
					'Change the fields given of one supplier per input item, given by its ID. Returns the updated supplier.',
			},
		],
		default: 'getAll',
	},
	operations: [
		getSupplier,
		getAllSuppliers,
		createSupplier,
		updateSupplier,
		archiveSuppliers,
		unarchiveSuppliers,
	],
};
