import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { reachableCompanies } from '../companies/select';

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
