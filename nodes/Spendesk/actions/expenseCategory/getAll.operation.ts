import { listOperation } from '../list';

export const getAllExpenseCategories = listOperation({
	endpoint: 'listExpenseCategories',
});
