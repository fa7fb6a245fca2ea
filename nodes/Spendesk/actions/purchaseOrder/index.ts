import type { SpendeskResource } from '../types';
import { cancelPurchaseOrder } from './cancel.operation';
import { closePurchaseOrder } from './close.operation';
import { createPurchaseOrder } from './create.operation';
import { getPurchaseOrder } from './get.operation';
import { getAllPurchaseOrders } from './getAll.operation';

export const purchaseOrderResource: SpendeskResource = {
	value: 'purchaseOrder',
	name: 'Purchase Order',
	description: 'Purchase orders of a company (experimental access)',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['purchaseOrder'] } },
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				action: 'Cancel purchase order',
				description:
					'Cancel one open purchase order, given by its ID, so that no spending goes against it. Returns the purchase order, now cancelled; one that is not open is refused and left as it is.',
			},
			{
				name: 'Close',
				value: 'close',
				action: 'Close purchase order',
				description:
					'Close one open purchase order, given by its ID, once its spending is done. Returns the purchase order, now closed; one that is not open is refused and left as it is.',
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create purchase order',
				description:
					'Create an open purchase order for a company member: amount, period, and an existing supplier (ID) or a new one (name); optionally net amount, cost center and custom fields. Returns the purchase order with its ID.',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get purchase order',
				description:
					'Retrieve one purchase order by its ID: status, supplier, amounts, period, cost center, custom fields and line items',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many purchase orders',
				description:
					'Retrieve many purchase orders of a company, optionally only some statuses (open, closed, cancelled) or those created in a date range, with their line items if asked',
			},
		],
		default: 'getAll',
	},
	operations: [
		getPurchaseOrder,
		getAllPurchaseOrders,
		createPurchaseOrder,
		cancelPurchaseOrder,
		closePurchaseOrder,
	],
};
