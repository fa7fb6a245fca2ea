/** The Journal Template resource: its Operation list, written out for the editor and n8n's checks, and its operations. */
import { listOperation } from '../list';
import type { SpendeskResource } from '../types';

export const journalTemplateResource: SpendeskResource = {
	value: 'journalTemplate',
	name: 'Journal Template',
	description: 'Journal templates of a company, for accounting exports',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['journalTemplate'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many journal templates',
				description:
					'List the journal templates of a company with their ID and name, to choose the template of an accounting export',
			},
		],
		default: 'getAll',
	},
	operations: [listOperation({ endpoint: 'listJournalTemplates' })],
};
