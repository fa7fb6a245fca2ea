import { listOperation } from '../list';

export const getAllAnalyticalFields = listOperation({
	option: {
		name: 'Get Many',
		action: 'Get many analytical fields',
		description: 'List the analytical fields of a company (GET /v2/analytical-fields)',
	},
	endpoint: 'listAnalyticalFields',
});
