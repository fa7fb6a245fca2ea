import { listOperation } from '../list';

export const getAllUsers = listOperation({
	endpoint: 'listUsers',
});
