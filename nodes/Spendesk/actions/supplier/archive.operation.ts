/**
 * Supplier → Archive and Unarchive (docs/api.md#supplier-management): one item through the
 * supplier's own status route, several in bulk calls of up to 100 IDs.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { singleObject } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import type { BatchEntry, BatchedOperation, EntryResult, SingleOperation } from '../types';
import { acceptedNote, hintUnlisted, supplierResults } from './bulk';
import { ID_HINT, supplierLocator } from './fields';
import { readRecordId } from '../readers';

function oneSupplier(archived: boolean, operation: string): SingleOperation['prepare'] {
	return function (this: IExecuteFunctions, itemIndex: number) {
		const supplierId = readRecordId(this, itemIndex, 'supplierId', "'Supplier'", ID_HINT);
		return async (company) => {
			const response = await callSpendesk<IDataObject>(this, 'updateOneSupplierStatus', {
				company,
				itemIndex,
				pathParams: { supplierId },
				body: { isArchived: archived },
				allowNotFound: true,
			});
			if (response.status === 404)
				throw new NodeApiError(this.getNode(), { supplierId, status: 404 } as JsonObject, {
					message: `Spendesk has no supplier "${supplierId}"${company ? ` in company "${company}"` : ''}, so it was not changed`,
					description:
						'Check the supplier ID of this item (Supplier → Get Many lists them), or pick the supplier from the list.',
					httpCode: '404',
					itemIndex,
				});
			const supplier = singleObject(response.body);
			if (supplier?.id !== undefined) return { items: [supplier] };
			// Accepted, but the answer does not show the supplier: what was set, with a note.
			hintUnlisted(this, operation, response.status, 1, 1);
			return {
				items: [{ id: supplierId, isArchived: archived, note: acceptedNote(response.status) }],
			};
		};
	};
}

function archiving(archived: boolean): BatchedOperation {
	const verb = archived ? 'archive' : 'unarchive';
	const operation = `Supplier → ${archived ? 'Archive' : 'Unarchive'}`;
	function prepareEntry(this: IExecuteFunctions, itemIndex: number): BatchEntry {
		const id = readRecordId(this, itemIndex, 'supplierId', "'Supplier'", ID_HINT);
		return { itemIndex, body: { id }, label: `supplier "${id}"` };
	}
	async function send(
		this: IExecuteFunctions,
		company: string | undefined,
		entries: BatchEntry[],
	): Promise<EntryResult[]> {
		const answer = await callSpendesk<IDataObject>(this, 'updateSupplierStatus', {
			company,
			body: { supplierIds: entries.map((entry) => entry.body.id), isArchived: archived },
			itemIndex: entries[0].itemIndex,
		});
		return supplierResults(
			this,
			{ endpoint: 'updateSupplierStatus', operation, verb, company },
			answer,
			entries,
			(entry) => ({ id: entry.body.id, isArchived: archived }),
		);
	}
	return {
		value: verb,
		perCompany: true,
		write: true,
		properties: supplierLocator(
			`The supplier to ${verb}: pick it from the list, or enter its ID (usually from an expression). Each input item is one supplier.`,
		),
		batch: {
			size: 100,
			prepareEntry,
			send,
			replayAdvice: (items) =>
				`Running ${items} again is harmless: it sets the same archived state again.`,
		},
		single: oneSupplier(archived, operation),
	};
}

export const archiveSuppliers = archiving(true);
export const unarchiveSuppliers = archiving(false);
