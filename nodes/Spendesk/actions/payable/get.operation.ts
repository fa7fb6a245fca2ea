import { getByIdOperation } from '../getById';

export const getPayable = getByIdOperation({
	endpoint: 'getPayable',
	param: 'payableId',
	label: 'Payable',
	searchListMethod: 'searchPayables',
	placeholder: 'e.g. pay_001_000042',
	source: 'usually from an expression: the ID a Payable → Get Many or a webhook gave',
	output: 'payable',
});
