/**
 * From List of Accounting Export → Create's Template: the journal templates of the
 * company chosen in the node (or of a company-level credential's own company), filtered by name
 * or ID (docs/api.md#journal-templates). Templates belong to one company, so with Several or All
 * Companies there is no list: enter the ID.
 */
import { recordSearch } from './recordSearch';

/** A template's label: its name (docs/api.md#journal-templates). */
export const searchJournalTemplates = recordSearch({
	endpoint: 'listJournalTemplates',
	what: 'Journal templates',
	label: (t) => (typeof t.name === 'string' ? t.name : ''),
});
