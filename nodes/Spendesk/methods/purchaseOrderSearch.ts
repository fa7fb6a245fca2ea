/**
 * From List of the Purchase Order operations (Get, Cancel, Close): the purchase orders of the
 * company chosen in the node (or of a company-level credential's own company), in Spendesk's
 * order, filtered by the text typed (supplier, amount, status or ID). The list pages on to its
 * end as the user scrolls (docs/api.md#purchase-orders, docs/api.md#page-lists).
 */
import type { IDataObject } from 'n8n-workflow';
import { recordSearch } from './recordSearch';

const text = (value: unknown): string =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** "Supplier, amount currency, status" of a purchase order. */
export function purchaseOrderLabel(order: IDataObject): string {
	const supplier = (order.supplier ?? {}) as IDataObject;
	const amount =
		order.amount !== undefined && order.amount !== null
			? `${text(order.amount)} ${text(order.currency)}`.trim()
			: '';
	return [text(supplier.name), amount, text(order.status)].filter(Boolean).join(', ');
}

export const searchPurchaseOrders = recordSearch({
	endpoint: 'listPurchaseOrders',
	what: 'Purchase orders',
	label: purchaseOrderLabel,
});
