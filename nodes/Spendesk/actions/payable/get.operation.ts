import { getByIdOperation } from '../getById';
import { withOutput } from '../output';
import type { SingleOperation } from '../types';

export const getPayable = withOutput(
	getByIdOperation({
		endpoint: 'getPayable',
		param: 'payableId',
		label: 'Payable',
		searchListMethod: 'searchPayables',
		placeholder: 'e.g. pay_001_000042',
		source: 'usually from an expression: the ID a Payable → Get Many or a webhook gave',
	}) as SingleOperation,
	'payable',
);
