/**
 * From List of Accounting Export → Create and Wait's Template: the journal templates of the
 * company chosen in the node (or of a company-level credential's own company), filtered by name
 * or ID (docs/api.md#journal-templates). Templates belong to one company, so with Several or All
 * Companies there is no list: enter the ID.
 */
import { labelOf } from './listSearch';
import { recordSearch } from './recordSearch';

export const searchJournalTemplates = recordSearch({
	endpoint: 'listJournalTemplates',
	what: 'Journal templates',
	label: labelOf,
});
