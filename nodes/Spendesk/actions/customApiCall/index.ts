import type { SpendeskResource } from '../types';
import { customApiCall } from './request.operation';

export const customApiCallResource: SpendeskResource = {
	value: 'customApiCall',
	name: 'Custom API Call',
	description: 'Any other part of the Spendesk API',
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
				action: 'Make custom API call',
				description:
					'Call any part of the Spendesk API the other operations do not cover, with the company and the paging handled',
			},
		],
		default: 'request',
	},
	operations: [customApiCall],
};
