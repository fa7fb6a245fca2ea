import { listOperation } from '../list';
import { payableFilterProperties, readPayableFilters } from './filters';

export const searchPayables = listOperation({
	value: 'search',
	endpoint: 'searchPayables',
	properties: payableFilterProperties,
	request: (ctx, itemIndex) => ({ body: readPayableFilters(ctx, itemIndex) }),
});
