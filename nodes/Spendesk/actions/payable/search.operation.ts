import { listOperation } from '../list';
import { payableFilterProperties, readPayableFilters } from './filters';

export const searchPayables = listOperation({
	value: 'search',
	option: {
		name: 'Search',
		action: 'Search payables',
		description: 'Search the payables of a company with filters (POST /v1/payables/search)',
	},
	endpoint: 'searchPayables',
	properties: payableFilterProperties,
	request: (ctx, itemIndex) => ({ body: readPayableFilters(ctx, itemIndex) }),
});
