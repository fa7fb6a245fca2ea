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

/**
 * A purchase order's amount in its currency: `{amount, currency, precision}` in minor units as
 * Spendesk gives it (1200.50 EUR from 120050 and precision 2), or a plain number beside a
 * `currency` as it is.
 */
function amountText(order: IDataObject): string {
	const money = order.amount as IDataObject | number | string | undefined | null;
	if (money && typeof money === 'object') {
		const precision = Number(money.precision);
		const minor = Number(money.amount);
		if (!Number.isFinite(minor)) return '';
		const digits = Number.isInteger(precision) && precision >= 0 && precision <= 10 ? precision : 0;
		return `${(minor / 10 ** digits).toFixed(digits)} ${text(money.currency)}`.trim();
	}
	return money !== undefined && money !== null
		? `${text(money)} ${text(order.currency)}`.trim()
		: '';
}

/** "Supplier, amount currency, status" of a purchase order. */
export function purchaseOrderLabel(order: IDataObject): string {
	const supplier = (order.supplier ?? {}) as IDataObject;
	return [text(supplier.name), amountText(order), text(order.status)].filter(Boolean).join(', ');
}

export const searchPurchaseOrders = recordSearch({
	endpoint: 'listPurchaseOrders',
	what: 'Purchase orders',
	label: purchaseOrderLabel,
});
