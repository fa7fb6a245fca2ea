import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { reachableCompanies } from '../companies/select';
import { nameCalls } from '../transport/callName';
import { COMPANY_LIST } from './listSearch';

/** Companies for multi-select fields: every page of Get Companies. */
export async function getCompanies(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	nameCalls(this, COMPANY_LIST);
	const companies = await reachableCompanies(this);
	return companies
		.filter((c) => c.id !== undefined)
		.map((c) => ({ name: c.name ? `${c.name} (${c.id})` : c.id!, value: c.id! }));
}
