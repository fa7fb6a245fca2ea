import type { SpendeskResource } from '../types';
import { getAllAnalyticalFields } from './getAll.operation';
import { getAnalyticalFieldValues } from './getValues.operation';

export const analyticalFieldResource: SpendeskResource = {
	value: 'analyticalField',
	name: 'Analytical Field',
	description: 'Analytical fields and their values',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['analyticalField'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many analytical fields',
				description: 'List the analytical fields of a company',
			},
			{
				name: 'Get Many Values',
				value: 'getValues',
				action: 'Get many analytical field values',
				description: 'List the values of one analytical field',
			},
		],
		default: 'getAll',
	},
	operations: [getAllAnalyticalFields, getAnalyticalFieldValues],
};
