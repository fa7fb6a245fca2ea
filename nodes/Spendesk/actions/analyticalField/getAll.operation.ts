import { listOperation } from '../list';
import { archivedFilter, readArchivedFilter } from './filters';

export const getAllAnalyticalFields = listOperation({
	endpoint: 'listAnalyticalFields',
	after: [archivedFilter('fields')],
	request: (ctx, itemIndex) => ({ qs: readArchivedFilter(ctx, itemIndex) }),
});
