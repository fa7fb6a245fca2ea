/**
 * From List of the operations on one record (payable, supplier, user, intake): the records of the company
 * chosen in the node (or of a company-level credential's own company), filtered by the text
 * typed, by name or ID. Records belong to one company, so with Several or All Companies there
 * is no list: enter the ID.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { restated } from '../transport/restate';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import type { EndpointName } from '../transport/endpoints';
import { collect } from '../transport/paginate';
import { callSpendesk } from '../transport/request';

interface RecordList {
	endpoint: EndpointName;
	/** Plural, for messages (e.g. Suppliers). */
	what: string;
	/** Most records read for the list (the newest payables are many); undefined: all. */
	limit?: number;
	label: (record: IDataObject) => string;
	body?: IDataObject;
}

const text = (value: unknown): string =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** The company the node is set to, for a list of its records; refused unless One Company is chosen. */
function chosenCompany(ctx: ILoadOptionsFunctions, what: string): string | undefined {
	const mode = ctx.getCurrentNodeParameter('companyScope');
	if (mode !== 'one' && mode !== undefined) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${what} belong to one company: choose One Company to pick from the list`,
			{
				description:
					'With Several or All Companies, enter the ID instead (By ID), e.g. from an expression.',
			},
		);
	}
	const company = ctx.getCurrentNodeParameter('company', { extractValue: true });
	return typeof company === 'string' && company.trim() ? company.trim() : undefined;
}

/** The records whose ID or label holds the text typed, as "label (id)". */
function matching(
	records: IDataObject[],
	filter: string | undefined,
	label: (r: IDataObject) => string,
): INodeListSearchResult['results'] {
	const needle = filter?.trim().toLowerCase() ?? '';
	return records
		.map((record) => ({ id: text(record.id), name: label(record) }))
		.filter(
			(r) =>
				r.id &&
				(!needle || r.id.toLowerCase().includes(needle) || r.name.toLowerCase().includes(needle)),
		)
		.map((r) => ({ name: r.name ? `${r.name} (${r.id})` : r.id, value: r.id }));
}

/** The records of the chosen company (up to `limit`), filtered by the text typed. */
export async function searchRecords(
	ctx: ILoadOptionsFunctions,
	list: RecordList,
	filter?: string,
): Promise<INodeListSearchResult> {
	const company = chosenCompany(ctx, list.what);
	const records = await collect(ctx, list.endpoint, {
		company,
		limit: list.limit,
		...(list.body ? { body: list.body } : {}),
	});
	return { results: matching(records, filter, list.label) };
}

/** A record's amount and currency, for its label. */
const amountOf = (r: IDataObject) =>
	r.amount !== undefined
		? `${String(r.amount)} ${typeof r.currency === 'string' ? r.currency : ''}`.trim()
		: '';

/** A payable's amount: the search gives minor units (1234), shown in major units (12.34). */
const payableAmountOf = (p: IDataObject) =>
	typeof p.amount === 'number'
		? `${(p.amount / 100).toFixed(2)} ${typeof p.currency === 'string' ? p.currency : ''}`.trim()
		: amountOf(p);

/**
 * The first 200 payables of the company (search order). The payables search is part of
 * Spendesk's experimental API (docs/api.md#scopes): without it, the list says how to pick a
 * payable anyway.
 */
export async function searchPayables(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	try {
		return await searchRecords(
			this,
			{
				endpoint: 'searchPayables',
				what: 'Payables',
				limit: 200,
				body: {},
				label: (p) => [text(p.description), payableAmountOf(p)].filter(Boolean).join(', '),
			},
			filter,
		);
	} catch (error) {
		const cause = error as Error & { description?: string | null; httpCode?: string | null };
		const refused = error instanceof NodeApiError && String(cause.httpCode) === '403';
		throw restated(this.getNode(), error, {
			message: refused ? `${cause.message}, so the payables cannot be listed here` : cause.message,
			description: refused
				? `Enter the payable ID instead (By ID), e.g. from a Payable → Get Many (Snapshot) node. ${cause.description ?? ''}`.trim()
				: (cause.description ?? undefined),
		});
	}
}

export async function searchSuppliers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await searchRecords(
		this,
		{ endpoint: 'listSuppliers', what: 'Suppliers', limit: 1000, label: (s) => text(s.name) },
		filter,
	);
}

export async function searchUsers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await searchRecords(
		this,
		{
			endpoint: 'listUsers',
			what: 'Users',
			limit: 1000,
			label: (u) =>
				[
					[text(u.firstName), text(u.lastName)].filter(Boolean).join(' ') || text(u.name),
					text(u.email),
				]
					.filter(Boolean)
					.join(', '),
		},
		filter,
	);
}

/** Intakes of the chosen company, 100 a page (GET /v2/companies/{companyId}/intakes), filtered by supplier or ID. */
export async function searchIntakeRecords(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const company = chosenCompany(this, 'Intakes');
	const { body } = await callSpendesk<IDataObject>(this, 'listIntakes', {
		company,
		qs: { limit: 100, cursor: paginationToken },
	});
	const list = (Array.isArray(body?.data) ? body.data : []) as IDataObject[];
	const label = (r: IDataObject) => [text(r.supplierName), amountOf(r)].filter(Boolean).join(', ');
	const pagination = ((body?.meta as IDataObject | undefined)?.pagination ?? {}) as IDataObject;
	const next =
		pagination.hasNextPage && typeof pagination.nextCursor === 'string'
			? pagination.nextCursor
			: undefined;
	return { results: matching(list, filter, label), paginationToken: next };
}
