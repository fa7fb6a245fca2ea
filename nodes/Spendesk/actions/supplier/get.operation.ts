import { getByIdOperation } from '../getById';
import { withOutput } from '../output';
import type { SingleOperation } from '../types';

export const getSupplier = withOutput(
	getByIdOperation({
		endpoint: 'getSupplier',
		param: 'supplierId',
		label: 'Supplier',
		searchListMethod: 'searchSuppliers',
		placeholder: 'e.g. sup_001_00042',
		source: 'Supplier → Get Many lists them',
	}) as SingleOperation,
	'supplier',
);
