import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { reachableCompanies } from '../companies/select';
import { nameCalls } from '../transport/callName';
import { recordSearch } from './recordSearch';

/** How messages name the company list of the editor (transport/callName.ts). */
export const COMPANY_LIST = 'the list of companies';

/** Company selector: every company of every page of Get Companies, filtered by name or ID. */
export async function searchCompanies(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	nameCalls(this, COMPANY_LIST);
	const companies = await reachableCompanies(this);
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = companies
		.filter((c) => c.id !== undefined)
		.filter(
			(c) =>
				!needle ||
				c.id!.toLowerCase().includes(needle) ||
				(c.name ?? '').toLowerCase().includes(needle),
		)
		.map((c) => ({ name: c.name ? `${c.name} (${c.id})` : `Own company (${c.id})`, value: c.id! }));
	return { results };
}

/** A record's label: its `name`, or (as some answers carry it) its `value` (docs/api.md#response-shapes). */
export function labelOf(record: IDataObject): string {
	for (const key of ['name', 'value']) {
		const value = record[key];
		if (typeof value === 'string' && value) return value;
	}
	return '';
}

/**
 * Analytical field selector: the fields of the company chosen in the node (or of a
 * company-level credential's own company), filtered by name or ID. Fields belong to one
 * company, so with All Companies there is no list: enter the ID.
 */
export const searchAnalyticalFields = recordSearch({
	endpoint: 'listAnalyticalFields',
	what: 'Analytical fields',
	label: labelOf,
});
