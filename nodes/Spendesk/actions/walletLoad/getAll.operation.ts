import { fromToFilters, readFromTo } from '../dates';
import { listOperation } from '../list';

export const getAllWalletLoads = listOperation({
	endpoint: 'listWalletLoads',
	after: [fromToFilters('wallet loads')],
	request: (ctx, itemIndex) => ({ qs: readFromTo(ctx, itemIndex) }),
});
