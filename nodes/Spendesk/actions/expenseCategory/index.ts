import { listOperation } from '../list';
import type { SpendeskResource } from '../types';

export const expenseCategoryResource: SpendeskResource = {
	value: 'expenseCategory',
	name: 'Expense Category',
	description: 'Expense categories',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['expenseCategory'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many expense categories',
				description: 'List the expense categories of a company',
			},
		],
		default: 'getAll',
	},
	operations: [listOperation({ endpoint: 'listExpenseCategories' })],
};
