import { listOperation } from '../list';

export const getAllSettlements = listOperation({
	option: { name: 'Get Many', action: 'Get many settlements', description: 'List the settlements of a company (GET /v1/settlements)' },
	endpoint: 'listSettlements',
});
