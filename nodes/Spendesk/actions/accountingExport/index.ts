import type { SpendeskResource } from '../types';
import { createExport } from './create.operation';
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
				name: 'Create',
				value: 'create',
				action: 'Create accounting export',
				description:
					'Create an accounting export of a period and wait until Spendesk has built it (up to Max Wait); returns the export with its ID and status. Needs From and Before.',
			},
			{
				name: 'Get Journal',
				value: 'getJournal',
				action: 'Get accounting export journal',
				description:
					'Get the journal of a complete accounting export as a CSV file in binary data; needs the export ID',
			},
		],
		default: 'create',
	},
	operations: [createExport, getJournal],
};
