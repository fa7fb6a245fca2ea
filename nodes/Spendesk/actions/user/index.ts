import { listOperation } from '../list';
import type { SpendeskResource } from '../types';
import { getUser } from './get.operation';

export const userResource: SpendeskResource = {
	value: 'user',
	name: 'User',
	description: 'Members of a company',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get user',
				description: 'Get one member of a company by its ID: first and last name, email',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many users',
				description: 'List the members of a company with their first and last name and email',
			},
		],
		default: 'getAll',
	},
	operations: [getUser, listOperation({ endpoint: 'listUsers' })],
};
