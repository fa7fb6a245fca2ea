/**
 * Resource locators of one company's records: payables (Payable → Get Attachments) and intakes
 * (Intake → Upload File). Records belong to one company, so with All Companies there is no
 * list: enter the ID. Each page of the list is one page of the API (its cursor is the list's
 * pagination token).
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { callSpendesk } from '../transport/request';

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

/** Payables of the chosen company, 100 a page (POST /v1/payables/search), filtered by description or ID. */
export async function searchPayableRecords(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const company = chosenCompany(this, 'Payables');
	const { body } = await callSpendesk<IDataObject>(this, 'searchPayables', { company, body: { limit: 100, ...(paginationToken ? { cursor: paginationToken } : {}) } });
	const list = (Array.isArray(body?.data) ? body.data : Array.isArray(body?.payables) ? body.payables : []) as IDataObject[];
	const label = (r: IDataObject) => [typeof r.description === 'string' ? r.description : '', amountOf(r)].filter(Boolean).join(', ');
	const next = typeof body?.nextCursor === 'string' && body.nextCursor ? body.nextCursor : undefined;
	return { results: matching(list, filter, label), paginationToken: next };
}

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
