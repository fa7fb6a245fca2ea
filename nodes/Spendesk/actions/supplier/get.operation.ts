import { getByIdOperation } from '../getById';

export const getSupplier = getByIdOperation({
	endpoint: 'getSupplier',
	param: 'supplierId',
	label: 'Supplier',
	searchListMethod: 'searchSuppliers',
	placeholder: 'e.g. sup_001_00042',
	source: 'Supplier → Get Many lists them',
	output: 'supplier',
});
