import { listOperation } from '../list';

export const getAllCompanies = listOperation({
	option: {
		name: 'Get Many',
		action: 'Get many companies',
		description: 'List the active companies an organisation-level credential reaches (GET /v2/companies)',
	},
	endpoint: 'getCompanies',
	companyScoped: false,
});
