import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { reachableCompanies } from '../companies/select';
import { collect } from '../transport/paginate';

/** Company selector: every company of every page of Get Companies, filtered by name or ID. */
export async function searchCompanies(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const companies = await reachableCompanies(this);
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = companies
		.filter((c) => c.id !== undefined)
		.filter((c) => !needle || c.id!.toLowerCase().includes(needle) || (c.name ?? '').toLowerCase().includes(needle))
		.map((c) => ({ name: c.name ? `${c.name} (${c.id})` : `Own company (${c.id})`, value: c.id! }));
	return { results };
}

/** A record's label: its `name`, or (as some answers carry it) its `value` or `label`. */
export function labelOf(record: IDataObject): string {
	for (const key of ['name', 'value', 'label']) {
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
export async function searchAnalyticalFields(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	if (this.getCurrentNodeParameter('companyScope') === 'all') {
		throw new NodeOperationError(this.getNode(), 'Analytical fields belong to one company: choose One Company to pick from the list', {
			description: 'With All Companies, enter the analytical field ID instead (By ID).',
		});
	}
	const company = this.getCurrentNodeParameter('company', { extractValue: true });
	const companyId = typeof company === 'string' && company.trim() ? company.trim() : undefined;
	const fields = await collect(this, 'listAnalyticalFields', { company: companyId });
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = fields
		.map((f) => ({ id: String(f.id ?? ''), name: labelOf(f) }))
		.filter((f) => f.id && (!needle || f.id.toLowerCase().includes(needle) || f.name.toLowerCase().includes(needle)))
		.map((f) => ({ name: f.name ? `${f.name} (${f.id})` : f.id, value: f.id }));
	return { results };
}
