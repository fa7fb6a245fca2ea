import { listOperation } from '../list';

export const getAllCompanies = listOperation({
	endpoint: 'getCompanies',
	perCompany: false,
});
