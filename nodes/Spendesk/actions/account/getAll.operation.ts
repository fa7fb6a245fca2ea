import { listOperation } from '../list';

export const getAllAccounts = listOperation({
	endpoint: 'getAccounts',
});
