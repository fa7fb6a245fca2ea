/** What the Purchase Order operations share (docs/api.md#purchase-orders). */
import type { NodeApiError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { companyLabel } from '../../companies/label';
import type { EndpointName } from '../../transport/endpoints';
import { apiError } from '../errorItem';
import { recordLocator } from '../recordId';
import { readRecordId } from '../readers';

export const ID_HINT =
	'Pick the purchase order from the list, or enter its ID, usually from an expression such as {{ $json.id }} (Purchase Order → Get Many lists them).';

/** The Purchase Order field; on Get, with All Companies, By ID only. */
export function purchaseOrderLocator(what: string, allCompanies = false): INodeProperties[] {
	return recordLocator({
		name: 'purchaseOrderId',
		label: 'Purchase Order',
		description: `The purchase order to ${what}: pick it from the list, or enter its ID (usually from an expression: the ID a Purchase Order → Create or Get Many gave)`,
		...(allCompanies
			? {
					allCompaniesDescription: `The ID of the purchase order to ${what} (usually from an expression: the ID a Purchase Order → Get Many gave); the node looks for it in every company`,
				}
			: {}),
		placeholder: 'e.g. po_001_00042',
		searchListMethod: 'searchPurchaseOrders',
	});
}

export function readPurchaseOrderId(ctx: IExecuteFunctions, itemIndex: number): string {
	return readRecordId(ctx, itemIndex, 'purchaseOrderId', "'Purchase Order'", ID_HINT);
}

export function purchaseOrderNotFound(
	ctx: IExecuteFunctions,
	endpoint: EndpointName,
	id: string,
	company: string | undefined,
	itemIndex: number,
): NodeApiError {
	return apiError(
		ctx,
		endpoint,
		404,
		company,
		itemIndex,
		`Purchase order "${id}" was not found in ${companyLabel(company)}`,
		'Check the purchase order ID and the company: IDs belong to one company. Purchase Order → Get Many lists the purchase orders of a company.',
	);
}
