/**
 * Supplier → Create: each input item one supplier, sent in bulk calls of up to 100
 * (POST /v1/suppliers). Each item gets the supplier created for it.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { ENDPOINTS } from '../../transport/endpoints';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { callSpendesk } from '../../transport/request';
import type { BatchEntry, BatchedOperation, EntryResult } from '../types';
import { readText } from '../writeFields';
import { readSupplierFields, supplierFieldOptions } from './fields';

function prepareEntry(this: IExecuteFunctions, itemIndex: number): BatchEntry {
	const name = readText(this, this.getNodeParameter('name', itemIndex, ''), 'Name', 200, itemIndex);
	if (!name) {
		throw new NodeOperationError(this.getNode(), 'Name is empty', {
			description: "Give the supplier's name, e.g. {{ $json.supplierName }}.",
			itemIndex,
		});
	}
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return {
		itemIndex,
		body: { name, ...readSupplierFields(this, fields, itemIndex, false) },
		label: `supplier "${name}"`,
	};
}

/** The suppliers Spendesk created, one per entry in the order sent; another count is an error of the call. */
function createdOf(
	ctx: IExecuteFunctions,
	body: IDataObject,
	entries: BatchEntry[],
): IDataObject[] {
	const created = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
	if (created.length === entries.length) return created;
	throw new NodeApiError(
		ctx.getNode(),
		{
			endpoint: `${ENDPOINTS.createSuppliers.method} ${ENDPOINTS.createSuppliers.path}`,
			sent: entries.length,
			answered: created.length,
		},
		{
			message: `Spendesk answered ${created.length} suppliers for the ${entries.length} sent, so the node cannot tell which item each belongs to`,
			description:
				'Some or all suppliers may have been created: check the suppliers in Spendesk before running again.',
			httpCode: '500',
			itemIndex: entries[0].itemIndex,
		},
	);
}

async function send(
	this: IExecuteFunctions,
	company: string | undefined,
	entries: BatchEntry[],
): Promise<EntryResult[]> {
	const suppliers = entries.map((entry) => entry.body);
	const { body } = await callSpendesk<IDataObject>(this, 'createSuppliers', {
		company,
		body: { suppliers },
		itemIndex: entries[0].itemIndex,
	});
	return createdOf(this, body, entries).map((json) => ({ ok: true, json }));
}

export const createSupplier: BatchedOperation = {
	value: 'create',
	perCompany: true,
	write: true,
	properties: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. {{ $json.supplierName }}',
			description: 'Name of the supplier to create. Each input item creates one supplier.',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: supplierFieldOptions,
		},
	],
	batch: {
		size: 100,
		prepareEntry,
		send,
		replayNote:
			'Running the items again may create the same suppliers twice: check the suppliers in Spendesk first (an External ID makes them easy to find).',
	},
};
