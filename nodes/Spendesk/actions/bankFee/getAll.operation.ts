import { fromToFilters, readFromTo } from '../dates';
import { listOperation } from '../list';

export const getAllBankFees = listOperation({
	endpoint: 'listBankFees',
	after: [fromToFilters('bank fees')],
	request: (ctx, itemIndex) => ({ qs: readFromTo(ctx, itemIndex) }),
});
