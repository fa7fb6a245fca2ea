/** The Custom API Call resource: its Operation list, written out for the editor and n8n's checks, and its operations. */
import type { SpendeskResource } from '../types';
import { customApiCall } from './request.operation';

export const customApiCallResource: SpendeskResource = {
	value: 'customApiCall',
	name: 'Custom API Call',
	description: 'Any other Spendesk endpoint',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['customApiCall'] } },
		options: [
			{
				name: 'Make an API Call',
				value: 'request',
				action: 'Make a custom API call',
				description:
					'Call any Spendesk endpoint under the credential base URL, with company scoping and pagination handled',
			},
		],
		default: 'request',
	},
	operations: [customApiCall],
};
