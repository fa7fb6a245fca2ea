/**
 * Purchase Order → Cancel and Close: one open purchase order, by its ID, moved to `cancelled`
 * or `closed` (docs/api.md#purchase-orders). A purchase order that is not open is refused by
 * Spendesk with a 409: the item's error says so and that nothing changed. Neither call is
 * repeated after a 5xx or a dropped connection (a replay of an applied one answers that 409).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import type { SingleOperation } from '../types';
import {
	purchaseOrderLocator,
	purchaseOrderNotFound,
	purchaseOrderNotOpen,
	readPurchaseOrderId,
} from './fields';

export function transitionOperation(action: 'cancel' | 'close'): SingleOperation {
	const endpoint = action === 'cancel' ? 'cancelPurchaseOrder' : 'closePurchaseOrder';
	return {
		value: action,
		perCompany: true,
		write: true,
		properties: purchaseOrderLocator(action),
		prepare(this: IExecuteFunctions, itemIndex: number) {
			const id = readPurchaseOrderId(this, itemIndex);
			return async (company) => {
				const response = await callSpendesk<IDataObject>(this, endpoint, {
					company,
					itemIndex,
					pathParams: { purchaseOrderId: id },
					allowNotFound: true,
					acceptStatus: [409],
				});
				if (response.status === 404)
					throw purchaseOrderNotFound(this, endpoint, id, company, itemIndex);
				if (response.status === 409)
					throw purchaseOrderNotOpen(this, endpoint, id, action, company, response.body, itemIndex);
				return { items: bodyItems(response.body) };
			};
		},
	};
}
