/**
 * Cost center selector (Payable → Update): the cost centers of the company chosen in the node
 * (or of a company-level credential's own company), filtered by name or ID.
 */
import { recordSearch } from './recordSearch';

/** A cost center's label: its name (docs/api.md#response-shapes). */
export const searchCostCenters = recordSearch({
	endpoint: 'listCostCenters',
	what: 'Cost centers',
	label: (c) => (typeof c.name === 'string' ? c.name : ''),
});
