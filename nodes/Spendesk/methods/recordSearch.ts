/**
 * From List of the operations on one record (payable, supplier, user, settlement, intake): the records of the company
 * chosen in the node (or of a company-level credential's own company), filtered by the text
 * typed, by name or ID. Records belong to one company, so with Several or All Companies there
 * is no list: enter the ID.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { restated } from '../transport/restate';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import type { EndpointName } from '../transport/endpoints';
import { collect } from '../transport/paginate';
import { unreadableList } from '../transport/pagination/errors';
import { readPageList } from '../transport/pagination/response';
import { callSpendesk, resolveEndpoint } from '../transport/request';
import { nameCalls } from '../transport/callName';
import { minorAmountText } from './amounts';

export interface RecordList {
	endpoint: EndpointName;
	/** Plural, for messages (e.g. Suppliers). */
	what: string;
	label: (record: IDataObject) => string;
	body?: IDataObject;
	/** The path's parameters (e.g. the field whose values are listed). */
	pathParams?: Record<string, string>;
}

/** Matches wanted for one page of the editor's list; more pages come as the user scrolls. */
const MATCHES_PER_LIST_PAGE = 100;
/** API pages read for one page of the editor's list at most (a filter that matches little). */
const API_PAGES_PER_LIST_PAGE = 10;

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

/** One API page of a list: its records and what names the next page (undefined: the last). */
interface ApiPage {
	records: IDataObject[];
	next?: string;
}

const records = (value: unknown): IDataObject[] =>
	(Array.isArray(value) ? value : []).filter(
		(r): r is IDataObject => !!r && typeof r === 'object' && !Array.isArray(r),
	);

const paginationOf = (body: IDataObject | undefined): IDataObject =>
	((body?.meta as IDataObject | undefined)?.pagination ?? {}) as IDataObject;

/**
 * One page of a record list, in the list's own style (docs/api.md#pagination): page lists
 * (the token is the page number), cursor lists (the cursor) and body-cursor lists (the cursor
 * in the body). Another style is read whole, in one go.
 */
async function readApiPage(
	ctx: ILoadOptionsFunctions,
	list: RecordList,
	company: string | undefined,
	token: string | undefined,
): Promise<ApiPage> {
	const { endpoint } = await resolveEndpoint(ctx, list.endpoint);
	// The company, and the path's parameters (e.g. the field whose values are listed).
	const call = { company, pathParams: list.pathParams };
	const size = endpoint.pageSize;
	if (endpoint.pagination === 'page' && size) {
		const page = Math.max(1, Number.parseInt(token ?? '1', 10) || 1);
		const { body } = await callSpendesk<unknown>(ctx, endpoint, {
			...call,
			qs: { page, [size.param]: size.max },
		});
		// `{data, meta}` or a bare array; anything else is an error, never an empty list.
		const list = readPageList(body);
		if (!list) throw unreadableList(ctx, endpoint, company, page, body);
		const found = records(list.items);
		const served = Number(list.pagination.pageSize) || size.max;
		const total = Number(list.pagination.total);
		const more = Number.isFinite(total)
			? (page - 1) * served + found.length < total
			: found.length >= served;
		return { records: found, next: found.length && more ? String(page + 1) : undefined };
	}
	if (endpoint.pagination === 'cursor' && size) {
		const { body } = await callSpendesk<IDataObject>(ctx, endpoint, {
			...call,
			qs: { [size.param]: size.max, ...(token ? { cursor: token } : {}) },
		});
		const pagination = paginationOf(body);
		const cursor =
			typeof pagination.nextCursor === 'string' && pagination.nextCursor
				? pagination.nextCursor
				: undefined;
		return { records: records(body?.data), next: pagination.hasNextPage ? cursor : undefined };
	}
	if (endpoint.pagination === 'bodyCursor' && size) {
		const { body } = await callSpendesk<IDataObject>(ctx, endpoint, {
			...call,
			body: { ...list.body, [size.param]: size.max, ...(token ? { cursor: token } : {}) },
		});
		const found = records(Array.isArray(body?.payables) ? body.payables : body?.data);
		// A short page is the last one, whatever its cursor says (docs/api.md#body-cursor-lists).
		const next =
			typeof body?.nextCursor === 'string' && body.nextCursor && found.length >= size.max
				? body.nextCursor
				: undefined;
		return { records: found, next };
	}
	return {
		records: await collect(ctx, list.endpoint, {
			...call,
			...(list.body ? { body: list.body } : {}),
		}),
	};
}

/**
 * The records of the chosen company whose label or ID holds the text typed, a page of the
 * editor's list at a time: API pages are read until enough match (or a few pages were read),
 * and the token of the next API page lets the editor load more as the user scrolls, to the end
 * of the list.
 */
export async function searchRecords(
	ctx: ILoadOptionsFunctions,
	list: RecordList,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	nameCalls(ctx, `the list of ${list.what.toLowerCase()}`);
	const company = chosenCompany(ctx, list.what);
	const results: INodeListSearchResult['results'] = [];
	let token = paginationToken || undefined;
	for (let read = 0; read < API_PAGES_PER_LIST_PAGE; read++) {
		const page = await readApiPage(ctx, list, company, token);
		results.push(...matching(page.records, filter, list.label));
		// A token that comes back unchanged would show the same page forever: the list ends.
		token = page.next !== token ? page.next : undefined;
		if (!token || results.length >= MATCHES_PER_LIST_PAGE) break;
	}
	return { results, paginationToken: token };
}

/** A From List search method of the node: the records of one list, as searchRecords gives them. */
export type RecordSearchMethod = ((
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>) & {
	/** The list it searches (its label names the fields it reads: docs/api.md#response-shapes). */
	readonly list?: RecordList;
};

/** The From List search method for one record list. */
export function recordSearch(list: RecordList): RecordSearchMethod {
	const method = async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	) {
		return await searchRecords(this, list, filter, paginationToken);
	};
	return Object.assign(method, { list });
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
 * The payables of the company (search order). The payables search is part of Spendesk's
 * experimental API (docs/api.md#scopes): without it, the list says how to pick a payable anyway.
 */
export async function searchPayables(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	try {
		return await searchRecords(
			this,
			{
				endpoint: 'searchPayables',
				what: 'Payables',
				body: {},
				label: (p) => [text(p.description), payableAmountOf(p)].filter(Boolean).join(', '),
			},
			filter,
			paginationToken,
		);
	} catch (error) {
		const cause = error as Error & { description?: string | null; httpCode?: string | null };
		const refused = error instanceof NodeApiError && String(cause.httpCode) === '403';
		throw restated(this.getNode(), error, {
			message: refused ? `${cause.message}, so the payables cannot be listed here` : cause.message,
			description: refused
				? `Enter the payable ID instead (By ID), e.g. from a Payable → Get Many as Snapshot node. ${cause.description ?? ''}`.trim()
				: (cause.description ?? undefined),
		});
	}
}

/**
 * Suppliers as Spendesk reads them (docs/api.md#suppliers-as-read): "name, city, VAT number",
 * the city from `address` and the VAT number from `vatNo` (the writes' `supplierDetails` is not
 * in a read).
 */
export const searchSuppliers = recordSearch({
	endpoint: 'listSuppliers',
	what: 'Suppliers',
	label: (s) =>
		[text(s.name), text((s.address as IDataObject | null | undefined)?.city), text(s.vatNo)]
			.filter(Boolean)
			.join(', '),
});

/** Members of the chosen company, as "first last, email (id)" (docs/api.md#response-shapes). */
export const searchUsers = recordSearch({
	endpoint: 'listUsers',
	what: 'Users',
	label: (u) =>
		[[text(u.firstName), text(u.lastName)].filter(Boolean).join(' '), text(u.email)]
			.filter(Boolean)
			.join(', '),
});

/**
 * Settlements of the chosen company, as "EUR 1,326.40, 2026-01-05 (id)": the amount, sent in
 * minor units, with its currency, and the day it was created (else cleared).
 */
export const searchSettlements = recordSearch({
	endpoint: 'listSettlements',
	what: 'Settlements',
	label: (r) =>
		[minorAmountText(r.amount, r.currency), (text(r.createdAt) || text(r.clearedAt)).slice(0, 10)]
			.filter(Boolean)
			.join(', '),
});

/** Intakes of the chosen company, filtered by supplier or ID. */
export const searchIntakeRecords = recordSearch({
	endpoint: 'listIntakes',
	what: 'Intakes',
	label: (r) =>
		[text(r.supplierName), minorAmountText(r.amount, r.currency)].filter(Boolean).join(', '),
});
