/** Purchase Order → Get, with its line items (docs/api.md#purchase-orders). */
import type { IExecuteFunctions } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import { withOutput } from '../output';
import type { SingleOperation } from '../types';
import { purchaseOrderLocator, purchaseOrderNotFound, readPurchaseOrderId } from './fields';

export const getPurchaseOrder: SingleOperation = withOutput(
	{
		value: 'get',
		perCompany: true,
		properties: purchaseOrderLocator('get', true),
		prepare(this: IExecuteFunctions, itemIndex: number) {
			const id = readPurchaseOrderId(this, itemIndex);
			const oneCompany = this.getNodeParameter('companies', itemIndex, 'one') === 'one';
			return async (company) => {
				const response = await callSpendesk(this, 'getPurchaseOrder', {
					company,
					itemIndex,
					pathParams: { purchaseOrderId: id },
					allowNotFound: true,
				});
				if (response.status === 404) {
					if (oneCompany)
						throw purchaseOrderNotFound(this, 'getPurchaseOrder', id, company, itemIndex);
					return { items: [] };
				}
				return { items: bodyItems(response.body) };
			};
		},
	},
	'purchaseOrder',
);
