/**
 * What the Purchase Order operations share (docs/api.md#purchase-orders): the purchase order
 * field (a resource locator, By ID), reading its ID, and the errors of a purchase order that is
 * not found or not open.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { companyLabel } from '../../companies/naming';
import type { EndpointName } from '../../transport/endpoints';
import { ENDPOINTS } from '../../transport/endpoints';
import { readErrorBody } from '../../transport/errors';
import { ID_PATTERN, readRecordId } from '../recordId';

export const ID_HINT =
	'Enter the ID of the purchase order, usually from an expression such as {{ $json.id }} (Purchase Order → Get Many lists them).';

/** The Purchase Order field: its ID, typed or from an expression. */
export function purchaseOrderLocator(what: string): INodeProperties {
	return {
		displayName: 'Purchase Order',
		name: 'purchaseOrderId',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'id', value: '' },
		description: `The purchase order to ${what}, by its ID (Purchase Order → Get Many lists them)`,
		modes: [
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. po_001_00042',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: ID_PATTERN,
							errorMessage:
								'Enter one purchase order ID (no spaces, slashes, "?" or "#", not "." or "..")',
						},
					},
				],
			},
		],
	};
}

/** The purchase order ID of an item, checked before any request. */
export function readPurchaseOrderId(ctx: IExecuteFunctions, itemIndex: number): string {
	return readRecordId(ctx, 'purchaseOrderId', 'Purchase Order ID', itemIndex, ID_HINT);
}

function apiError(
	ctx: IExecuteFunctions,
	endpoint: EndpointName,
	status: number,
	company: string | undefined,
	itemIndex: number,
	message: string,
	description: string,
): NodeApiError {
	const { method, path } = ENDPOINTS[endpoint];
	return new NodeApiError(
		ctx.getNode(),
		{
			status,
			endpoint: `${method} ${path}`,
			...(company ? { companyId: company } : {}),
		} as JsonObject,
		{ message, description, httpCode: String(status), itemIndex },
	);
}

/** Spendesk knows no purchase order of that ID in the company. */
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

/** A cancel or close refused because the purchase order is no longer open (409). */
export function purchaseOrderNotOpen(
	ctx: IExecuteFunctions,
	endpoint: EndpointName,
	id: string,
	action: 'cancel' | 'close',
	company: string | undefined,
	body: unknown,
	itemIndex: number,
): NodeApiError {
	const detail = readErrorBody(body)?.detail;
	const done = action === 'cancel' ? 'cancelled' : 'closed';
	return apiError(
		ctx,
		endpoint,
		409,
		company,
		itemIndex,
		`Purchase order "${id}" in ${companyLabel(company)} could not be ${done}: it is not open`,
		`Only an open purchase order can be ${done}; nothing was changed.${detail ? ` Spendesk said: ${detail.slice(0, 300)}.` : ''} Check its status with Purchase Order → Get, or leave this item out.`,
	);
}
