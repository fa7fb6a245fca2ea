import { getByIdOperation } from '../getById';

export const getUser = getByIdOperation({
	endpoint: 'getUser',
	param: 'userId',
	label: 'User',
	searchListMethod: 'searchUsers',
	placeholder: 'e.g. usr_001_00007',
	source: 'User → Get Many lists them',
});
