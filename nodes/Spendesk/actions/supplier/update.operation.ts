/**
 * Supplier → Update: one item one call; several in bulk calls of up to 100
 * (docs/api.md#supplier-management), paired by ID (bulk.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import type { BatchEntry, BatchedOperation, EntryResult } from '../types';
import { supplierResults } from './bulk';
import { ID_HINT, readSupplierFields, supplierFieldOptions, supplierLocator } from './fields';
import { collection, readCollection } from '../sharedParams';
import { fail, readRecordId, readText } from '../readers';

/** The Update Fields of an item as the PATCH body; nothing to change fails before any request. */
function changesOf(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = readCollection(ctx, 'updateFields', itemIndex);
	const changes = readSupplierFields(ctx, fields, itemIndex, true);
	if ('name' in fields) {
		const name = readText(ctx, itemIndex, fields.name, 'Name', 200);
		if (!name)
			fail(
				ctx,
				itemIndex,
				"'Name' is empty",
				"A supplier keeps a name: enter the new name, or remove 'Name' from 'Update Fields'.",
			);
		changes.name = name;
	}
	if (Object.keys(changes).length === 0)
		fail(
			ctx,
			itemIndex,
			"Nothing to update: add at least one field to 'Update Fields'",
			'Choose the fields of the supplier to change. To archive or unarchive a supplier, use Supplier → Archive or Unarchive.',
		);
	return changes;
}

function prepareEntry(this: IExecuteFunctions, itemIndex: number): BatchEntry {
	const id = readRecordId(this, itemIndex, 'supplierId', "'Supplier'", ID_HINT);
	return { itemIndex, body: { id, ...changesOf(this, itemIndex) }, label: `supplier "${id}"` };
}

async function send(
	this: IExecuteFunctions,
	company: string | undefined,
	entries: BatchEntry[],
): Promise<EntryResult[]> {
	// The body is a JSON array of suppliers, each its ID and changes (docs/api.md#supplier-management).
	const answer = await callSpendesk<IDataObject>(this, 'updateSuppliers', {
		company,
		body: entries.map((entry) => entry.body),
		itemIndex: entries[0].itemIndex,
	});
	return supplierResults(
		this,
		{ endpoint: 'updateSuppliers', operation: 'Supplier → Update', verb: 'update', company },
		answer,
		entries,
		// What was sent, in the written shape, when the answer does not show the supplier.
		({ body: { id, ...sent } }) => ({ id, sent }),
	);
}

export const updateSupplier: BatchedOperation = {
	value: 'update',
	perCompany: true,
	write: true,
	properties: [
		...supplierLocator(
			'The supplier to update: pick it from the list, or enter its ID (usually from an expression)',
		),
		collection(
			'updateFields',
			[
				...supplierFieldOptions,
				{
					displayName: 'Name',
					name: 'name',
					type: 'string' as const,
					default: '',
					description: 'New name of the supplier',
				},
			].sort((a, b) => a.displayName.localeCompare(b.displayName)),
			{
				description: 'The fields to change; a field added and left empty is cleared (except Name)',
			},
		),
	],
	batch: {
		size: 100,
		prepareEntry,
		send,
		replayAdvice: (items) =>
			`Running ${items} again is harmless: it sets the same field values again.`,
	},
	single(this: IExecuteFunctions, itemIndex: number) {
		const supplierId = readRecordId(this, itemIndex, 'supplierId', "'Supplier'", ID_HINT);
		const body = changesOf(this, itemIndex);
		return async (company) => {
			const { body: response } = await callSpendesk<IDataObject>(this, 'updateSupplier', {
				company,
				pathParams: { supplierId },
				body,
				itemIndex,
			});
			return { items: bodyItems(response) };
		};
	},
};
