import { listOperation } from '../list';

export const getAllAccounts = listOperation({
	option: { name: 'Get Many', action: 'Get many accounts', description: 'List the accounts of a company (GET /v1/accounts, offset-based)' },
	endpoint: 'getAccounts',
});
