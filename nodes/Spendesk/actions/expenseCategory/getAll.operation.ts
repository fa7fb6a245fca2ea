import { listOperation } from '../list';

export const getAllExpenseCategories = listOperation({
	option: {
		name: 'Get Many',
		action: 'Get many expense categories',
		description: 'List the expense categories of a company (GET /v2/expense-categories)',
	},
	endpoint: 'listExpenseCategories',
});
