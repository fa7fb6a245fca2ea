/**
 * From List of the Get operations (payable, supplier, user): the records of the company
 * chosen in the node (or of a company-level credential's own company), filtered by the text
 * typed, by name or ID. Records belong to one company, so with Several or All Companies there
 * is no list: enter the ID.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import type { EndpointName } from '../transport/endpoints';
import { collect } from '../transport/paginate';

interface RecordList {
	endpoint: EndpointName;
	/** Plural, for messages (e.g. Suppliers). */
	what: string;
	/** Most records read for the list (the newest payables are many). */
	limit: number;
	label: (record: IDataObject) => string;
	body?: IDataObject;
}

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

async function searchRecords(ctx: ILoadOptionsFunctions, list: RecordList, filter?: string): Promise<INodeListSearchResult> {
	if (ctx.getCurrentNodeParameter('companyScope') !== 'one' && ctx.getCurrentNodeParameter('companyScope') !== undefined) {
		throw new NodeOperationError(ctx.getNode(), `${list.what} belong to one company: choose One Company to pick from the list`, {
			description: 'With Several or All Companies, enter the ID instead (By ID), e.g. from an expression.',
		});
	}
	const company = ctx.getCurrentNodeParameter('company', { extractValue: true });
	const companyId = typeof company === 'string' && company.trim() ? company.trim() : undefined;
	const records = await collect(ctx, list.endpoint, { company: companyId, limit: list.limit, ...(list.body ? { body: list.body } : {}) });
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = records
		.map((record) => ({ id: text(record.id), name: list.label(record) }))
		.filter((r) => r.id && (!needle || r.id.toLowerCase().includes(needle) || r.name.toLowerCase().includes(needle)))
		.map((r) => ({ name: r.name ? `${r.name} (${r.id})` : r.id, value: r.id }));
	return { results };
}

/** The first 200 payables of the company (search order). */
export async function searchPayables(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await searchRecords(
		this,
		{
			endpoint: 'searchPayables',
			what: 'Payables',
			limit: 200,
			body: {},
			label: (p) => [text(p.description), p.amount !== undefined ? `${text(p.amount)} ${text(p.currency)}`.trim() : ''].filter(Boolean).join(', '),
		},
		filter,
	);
}

export async function searchSuppliers(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await searchRecords(this, { endpoint: 'listSuppliers', what: 'Suppliers', limit: 1000, label: (s) => text(s.name) }, filter);
}

export async function searchUsers(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await searchRecords(
		this,
		{
			endpoint: 'listUsers',
			what: 'Users',
			limit: 1000,
			label: (u) => [[text(u.firstName), text(u.lastName)].filter(Boolean).join(' ') || text(u.name), text(u.email)].filter(Boolean).join(', '),
		},
		filter,
	);
}
