import { listOperation } from '../list';

export const getAllIntakes = listOperation({
	endpoint: 'listIntakes',
});
