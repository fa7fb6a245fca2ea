import { listOperation } from '../list';
import type { SpendeskResource } from '../types';

export const companyResource: SpendeskResource = {
	value: 'company',
	name: 'Company',
	description: 'Companies of the organisation',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['company'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many companies',
				description: 'List the active companies an organisation-level credential reaches',
			},
		],
		default: 'getAll',
	},
	operations: [listOperation({ endpoint: 'getCompanies', perCompany: false })],
};
