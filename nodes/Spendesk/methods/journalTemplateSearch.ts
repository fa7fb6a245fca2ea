/**
 * From List of Accounting Export → Create and Wait's Template: the journal templates of the
 * company chosen in the node (or of a company-level credential's own company), filtered by name
 * or ID (docs/api.md#journal-templates). Templates belong to one company, so with Several or All
 * Companies there is no list: enter the ID.
 */
import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { labelOf } from './listSearch';
import { searchRecords } from './recordSearch';

export async function searchJournalTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchRecords(
		this,
		{ endpoint: 'listJournalTemplates', what: 'Journal templates', label: labelOf },
		filter,
		paginationToken,
	);
}
