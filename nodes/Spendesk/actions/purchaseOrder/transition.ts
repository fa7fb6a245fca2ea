/**
 * Purchase Order → Cancel and Close (docs/api.md#purchase-orders): one not open is a 409; never
 * repeated after a 5xx (a replay of an applied one answers that 409).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import { companyLabel } from '../../companies/label';
import { readErrorBody } from '../../transport/errors';
import { apiError } from '../errorItem';
import type { SingleOperation } from '../types';
import { purchaseOrderLocator, purchaseOrderNotFound, readPurchaseOrderId } from './fields';

export function transitionOperation(action: 'cancel' | 'close'): SingleOperation {
	const endpoint = action === 'cancel' ? 'cancelPurchaseOrder' : 'closePurchaseOrder';
	const done = action === 'cancel' ? 'cancelled' : 'closed';
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
				if (response.status === 409) {
					const detail = readErrorBody(response.body)?.detail;
					throw apiError(
						this,
						endpoint,
						409,
						company,
						itemIndex,
						`Purchase order "${id}" in ${companyLabel(company)} could not be ${done}: it is not open`,
						`Only an open purchase order can be ${done}; nothing was changed.${detail ? ` Spendesk said: ${detail.slice(0, 300)}.` : ''} Check its status with Purchase Order → Get, or leave this item out.`,
					);
				}
				return { items: bodyItems(response.body) };
			};
		},
	};
}
