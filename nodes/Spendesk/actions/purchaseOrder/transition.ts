/**
 * Purchase Order → Cancel and Close (docs/api.md#purchase-orders): one not open is a 409; never
 * repeated after a 5xx (a replay of an applied one answers that 409).
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
