import { listOperation } from '../list';

export const getAllIntakes = listOperation({
	option: { name: 'Get Many', action: 'Get many intakes', description: 'List the intakes of a company (GET /v2/companies/{companyId}/intakes)' },
	endpoint: 'listIntakes',
});
