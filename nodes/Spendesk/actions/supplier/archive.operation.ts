/**
 * Supplier → Archive and Supplier → Unarchive: each input item one supplier, sent in bulk
 * calls of up to 100 IDs (docs/api.md#supplier-management). Each item gets its supplier as it
 * now is; an unknown supplier is the error of its own item.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { callSpendesk } from '../../transport/request';
import { readRecordId, recordLocator } from '../recordId';
import type { BatchEntry, BatchedOperation, EntryResult } from '../types';
import { supplierResults } from './bulk';

const ID_HINT =
	'Pick the supplier from the list, or give its ID, usually from an expression such as {{ $json.id }}.';

function archiving(archived: boolean): BatchedOperation {
	const verb = archived ? 'archive' : 'unarchive';
	function prepareEntry(this: IExecuteFunctions, itemIndex: number): BatchEntry {
		const id = readRecordId(this, 'supplierId', 'Supplier ID', itemIndex, ID_HINT);
		return { itemIndex, body: { id }, label: `supplier "${id}"` };
	}
	async function send(
		this: IExecuteFunctions,
		company: string | undefined,
		entries: BatchEntry[],
	): Promise<EntryResult[]> {
		const { body } = await callSpendesk<IDataObject>(this, 'updateSupplierStatus', {
			company,
			body: { supplierIds: entries.map((entry) => entry.body.id), isArchived: archived },
			itemIndex: entries[0].itemIndex,
		});
		return supplierResults(
			this,
			{ endpoint: 'updateSupplierStatus', verb, company },
			body,
			entries,
			(entry) => String(entry.body.id),
		);
	}
	return {
		value: verb,
		perCompany: true,
		write: true,
		properties: recordLocator({
			name: 'supplierId',
			label: 'Supplier',
			description: `The supplier to ${verb}: pick it from the list, or enter its ID (usually from an expression). Each input item is one supplier.`,
			placeholder: 'e.g. sup_001_00042',
			searchListMethod: 'searchSuppliers',
		}),
		batch: {
			size: 100,
			prepareEntry,
			send,
			replayAdvice: (items) =>
				`Running ${items} again is harmless: it sets the same archived state again.`,
		},
	};
}

export const archiveSuppliers = archiving(true);
export const unarchiveSuppliers = archiving(false);
