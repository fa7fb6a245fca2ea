/** The Accounting Export resource: its Operation list, written out for the editor and n8n's checks, and its operations. */
import type { SpendeskResource } from '../types';
import { createAndWaitExport } from './createAndWait.operation';
import { getJournal } from './getJournal.operation';

export const accountingExportResource: SpendeskResource = {
	value: 'accountingExport',
	name: 'Accounting Export',
	description: 'Accounting exports of a period and their journal',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['accountingExport'] } },
		options: [
			{
				name: 'Create and Wait',
				value: 'createAndWait',
				action: 'Create accounting export and wait until ready',
				description:
					'Start an accounting export of a period, wait until Spendesk has built it, and return the export (its ID and status); needs From and Before',
			},
			{
				name: 'Get Journal',
				value: 'getJournal',
				action: 'Get accounting export journal',
				description:
					'Get the journal of a complete accounting export as a CSV file in binary data; needs the export ID',
			},
		],
		default: 'createAndWait',
	},
	operations: [createAndWaitExport, getJournal],
};
