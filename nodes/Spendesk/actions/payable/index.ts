import type { SpendeskResource } from '../types';
import { getAllPayablesSnapshot } from './getAllSnapshot.operation';
import { getPayable } from './get.operation';
import { getPayableAttachments } from './getAttachments.operation';
import { getAllPayables } from './getAll.operation';
import { updatePayable } from './update.operation';
import { updateBookkeepingStatus } from './updateBookkeepingStatus.operation';
import { uploadPayableReceipt } from './uploadReceipt.operation';

export const payableResource: SpendeskResource = {
	value: 'payable',
	name: 'Payable',
	description: 'Payables (invoices, credit notes, expense claims, allowances, card purchases)',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payable'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get payable',
				description:
					'Retrieve one payable in full: type, amount, currency, counterparty, lines with their accounts, bookkeeping status and the version that updates need; needs the payable ID',
			},
			{
				name: 'Get Attachments',
				value: 'getAttachments',
				action: 'Get payable attachments',
				description:
					'Retrieve the receipts and invoices attached to one payable, one item each with its file, or their details only; needs the payable ID',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many payables',
				description:
					'Retrieve many payables, filtered by bookkeeping stage, type, requester, card payment or ID',
			},
			{
				name: 'Get Many as Snapshot',
				value: 'getAllSnapshot',
				action: 'Get many payables as snapshot',
				description:
					'Retrieve a complete, consistent copy of all matching payables, for exports; slower, as Spendesk builds the copy first',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update payable accounting',
				description:
					"Set the accounting of one payable before it is exported: the cost center, expense and tax accounts and analytical values of its lines, or all its lines with their amounts. Needs the payable ID and version; returns the payable's ID, new version and lines.",
			},
			{
				name: 'Update Bookkeeping Status',
				value: 'updateBookkeepingStatus',
				action: 'Update payable bookkeeping status',
				description:
					'Mark payables as exported to the accounting system, or as not exported with a reason; each input item is one payable. Returns each payable with its ID, new version and status.',
			},
			{
				name: 'Upload Receipt',
				value: 'uploadReceipt',
				action: 'Upload payable receipt',
				description:
					"Attach the input item's file (PDF, JPEG or PNG) to one payable as a receipt; needs the payable ID. Returns the payable ID and the file's name, type and size.",
			},
		],
		default: 'getAll',
	},
	operations: [
		getAllPayables,
		getAllPayablesSnapshot,
		getPayable,
		getPayableAttachments,
		updateBookkeepingStatus,
		updatePayable,
		uploadPayableReceipt,
	],
};
