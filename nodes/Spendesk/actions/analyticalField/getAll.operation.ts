import { listOperation } from '../list';

export const getAllAnalyticalFields = listOperation({
	endpoint: 'listAnalyticalFields',
});
