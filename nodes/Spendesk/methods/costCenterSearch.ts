/**
 * Cost center selector (Payable → Update): the cost centers of the company chosen in the node
 * (or of a company-level credential's own company), filtered by name or ID.
 */
import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { labelOf } from './listSearch';
import { searchRecords } from './recordSearch';

export async function searchCostCenters(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchRecords(
		this,
		{ endpoint: 'listCostCenters', what: 'Cost centers', label: labelOf },
		filter,
		paginationToken,
	);
}
