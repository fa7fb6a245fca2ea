/**
 * Cost center selector (Payable → Update): the cost centers of the company chosen in the node
 * (or of a company-level credential's own company), filtered by name or ID.
 */
import { labelOf } from './listSearch';
import { recordSearch } from './recordSearch';

export const searchCostCenters = recordSearch({
	endpoint: 'listCostCenters',
	what: 'Cost centers',
	label: labelOf,
});
