/** The Payable resource: its Operation list, written out for the editor and n8n's checks, and its operations. */
import type { SpendeskResource } from '../types';
import { getAllPayablesSnapshot } from './getAllSnapshot.operation';
import { getPayable } from './get.operation';
import { searchPayables } from './search.operation';

export const payableResource: SpendeskResource = {
	value: 'payable',
	name: 'Payable',
	description: 'Payables (invoices, expense claims, card purchases)',
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
				action: 'Get a payable',
				description:
					'Get one payable in full by its ID: amount, currency, supplier, bookkeeping status and the version that updates need (GET /v1/payables/{payableId})',
			},
			{
				name: 'Get Many (Snapshot)',
				value: 'getAllSnapshot',
				action: 'Get many payables via a snapshot',
				description: 'Build a payables snapshot, wait until it is complete, and return its pages (POST then GET /v1/snapshots/payables)',
			},
			{
				name: 'Search',
				value: 'search',
				action: 'Search payables',
				description: 'Search the payables of a company with filters (POST /v1/payables/search)',
			},
		],
		default: 'search',
	},
	operations: [searchPayables, getAllPayablesSnapshot, getPayable],
};
