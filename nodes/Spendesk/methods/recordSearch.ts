/**
 * From List of the operations on one record (payable, supplier, user, intake): the records of the company
 * chosen in the node (or of a company-level credential's own company), filtered by the text
 * typed, by name or ID. Records belong to one company, so with Several or All Companies there
 * is no list: enter the ID.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import type { EndpointName } from '../transport/endpoints';
import { collect } from '../transport/paginate';
import { callSpendesk } from '../transport/request';

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

function chosenCompany(ctx: ILoadOptionsFunctions, records: string): string | undefined {
	if (ctx.getCurrentNodeParameter('companyScope') === 'all') {
		throw new NodeOperationError(ctx.getNode(), `${records} belong to one company: choose One Company to pick from the list`, {
			description: 'With All Companies, enter the ID instead (By ID).',
		});
	}
	const company = ctx.getCurrentNodeParameter('company', { extractValue: true });
	return typeof company === 'string' && company.trim() ? company.trim() : undefined;
}

function matching(records: IDataObject[], filter: string | undefined, label: (r: IDataObject) => string): INodeListSearchResult['results'] {
	const needle = filter?.trim().toLowerCase() ?? '';
	return records
		.map((r) => ({ id: String(r.id ?? ''), text: label(r) }))
		.filter((r) => r.id && (!needle || r.id.toLowerCase().includes(needle) || r.text.toLowerCase().includes(needle)))
		.map((r) => ({ name: r.text ? `${r.text} (${r.id})` : r.id, value: r.id }));
}

const amountOf = (r: IDataObject) => (r.amount !== undefined ? `${String(r.amount)} ${typeof r.currency === 'string' ? r.currency : ''}`.trim() : '');

/** Intakes of the chosen company, 100 a page (GET /v2/companies/{companyId}/intakes), filtered by supplier or ID. */
export async function searchIntakeRecords(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const company = chosenCompany(this, 'Intakes');
	const { body } = await callSpendesk<IDataObject>(this, 'listIntakes', { company, qs: { limit: 100, cursor: paginationToken } });
	const list = (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
	const label = (r: IDataObject) => [typeof r.supplierName === 'string' ? r.supplierName : '', amountOf(r)].filter(Boolean).join(', ');
	const pagination = ((body?.meta as IDataObject | undefined)?.pagination ?? {}) as IDataObject;
	const next = pagination.hasNextPage && typeof pagination.nextCursor === 'string' ? pagination.nextCursor : undefined;
	return { results: matching(list, filter, label), paginationToken: next };
}
