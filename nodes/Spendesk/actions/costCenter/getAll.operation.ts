import { listOperation } from '../list';

export const getAllCostCenters = listOperation({
	endpoint: 'listCostCenters',
});
