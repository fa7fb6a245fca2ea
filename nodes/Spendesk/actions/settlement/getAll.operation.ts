import { listOperation } from '../list';

export const getAllSettlements = listOperation({
	endpoint: 'listSettlements',
});
