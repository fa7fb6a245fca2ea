import { fromToFilters, readFromTo } from '../dates';
import { listOperation } from '../list';

export const getAllBankFees = listOperation({
	endpoint: 'listBankFees',
	properties: [fromToFilters('bank fees')],
	request: (ctx, itemIndex) => ({ qs: readFromTo(ctx, itemIndex) }),
});
