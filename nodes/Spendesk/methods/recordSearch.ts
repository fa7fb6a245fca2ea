/** From List of one record: the records of the chosen company, filtered by the text typed (name or ID). */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { restated } from '../transport/restate';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import type { EndpointName } from '../transport/endpoints';
import { collect } from '../transport/paginate';
import { unreadableList } from '../transport/pagination/errors';
import { asItems, readPageList } from '../transport/pagination/response';
import { callSpendesk, resolveEndpoint } from '../transport/request';
import { nameCalls } from '../transport/callName';
import { minorAmountText } from './amounts';

export interface RecordList {
	endpoint: EndpointName;
	/** Plural, for messages (e.g. Suppliers). */
	what: string;
	label: (record: IDataObject) => string;
	body?: IDataObject;
	/** Read from the node as the list opens, before anything else. */
	pathParams?: (ctx: ILoadOptionsFunctions) => Record<string, string>;
}

/** Matches wanted for one page of the editor's list; more pages come as the user scrolls. */
const MATCHES_PER_LIST_PAGE = 100;
/** API pages read for one page of the editor's list at most (a filter that matches little). */
const API_PAGES_PER_LIST_PAGE = 10;

const text = (value: unknown): string =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** The company the node is set to, for a list of its records; refused unless One Company is chosen. */
function chosenCompany(ctx: ILoadOptionsFunctions, what: string): string | undefined {
	const mode = ctx.getCurrentNodeParameter('companies');
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

/** One page of a record list in its own style (docs/api.md#pagination); another style is read whole. */
async function readApiPage(
	ctx: ILoadOptionsFunctions,
	list: RecordList,
	call: { company?: string; pathParams?: Record<string, string> },
	token: string | undefined,
): Promise<{ records: IDataObject[]; next?: string }> {
	const { endpoint } = await resolveEndpoint(ctx, list.endpoint);
	const size = endpoint.pageSize;
	if (endpoint.pagination === 'page' && size) {
		const page = Math.max(1, Number.parseInt(token ?? '1', 10) || 1);
		const { body } = await callSpendesk<unknown>(ctx, endpoint, {
			...call,
			qs: { page, [size.param]: size.max },
		});
		// `{data, meta}` or a bare array; anything else is an error, never an empty list.
		const list = readPageList(body);
		if (!list) throw unreadableList(ctx, endpoint, call.company, page, body);
		const found = list.items;
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
		const pagination = ((body?.meta as IDataObject | undefined)?.pagination ?? {}) as IDataObject;
		const { hasNextPage, nextCursor } = pagination;
		const more = hasNextPage && typeof nextCursor === 'string' && nextCursor;
		return { records: asItems(body?.data), next: more ? nextCursor : undefined };
	}
	if (endpoint.pagination === 'bodyCursor' && size) {
		const { body } = await callSpendesk<IDataObject>(ctx, endpoint, {
			...call,
			body: { ...list.body, [size.param]: size.max, ...(token ? { cursor: token } : {}) },
		});
		const found = asItems(Array.isArray(body?.payables) ? body.payables : body?.data);
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

/** A page of the editor's list; the token of the next API page lets it load more. */
export async function searchRecords(
	ctx: ILoadOptionsFunctions,
	list: RecordList,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const pathParams = list.pathParams?.(ctx);
	nameCalls(ctx, `the list of ${list.what.toLowerCase()}`);
	const call = { company: chosenCompany(ctx, list.what), pathParams };
	const results: INodeListSearchResult['results'] = [];
	let token = paginationToken || undefined;
	for (let read = 0; read < API_PAGES_PER_LIST_PAGE; read++) {
		const page = await readApiPage(ctx, list, call, token);
		results.push(...matching(page.records, filter, list.label));
		// A token that comes back unchanged would show the same page forever: the list ends.
		token = page.next !== token ? page.next : undefined;
		if (!token || results.length >= MATCHES_PER_LIST_PAGE) break;
	}
	return { results, paginationToken: token };
}

/** A From List search method of the node, with the list it searches (docs/api.md#response-shapes). */
export function recordSearch(list: RecordList) {
	const method = async function (this: ILoadOptionsFunctions, filter?: string, token?: string) {
		return await searchRecords(this, list, filter, token);
	};
	return Object.assign(method, { list });
}

export type RecordSearchMethod = ReturnType<typeof recordSearch>;

const PAYABLES: RecordList = {
	endpoint: 'searchPayables',
	what: 'Payables',
	body: {},
	label: (p) =>
		[text(p.description), minorAmountText(p.amount, p.currency)].filter(Boolean).join(', '),
};

/** The payables (search order); the search is experimental (docs/api.md#scopes): without it, the error says how to pick one anyway. */
export async function searchPayables(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	try {
		return await searchRecords(this, PAYABLES, filter, paginationToken);
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

/** "name, city, VAT number" from `name`, `address.city`, `vatNo` (docs/api.md#suppliers-as-read). */
export const searchSuppliers = recordSearch({
	endpoint: 'listSuppliers',
	what: 'Suppliers',
	label: (s) =>
		[text(s.name), text((s.address as IDataObject | null | undefined)?.city), text(s.vatNo)]
			.filter(Boolean)
			.join(', '),
});

/** "first last, email" (docs/api.md#response-shapes). */
export const searchUsers = recordSearch({
	endpoint: 'listUsers',
	what: 'Users',
	label: (u) =>
		[[text(u.firstName), text(u.lastName)].filter(Boolean).join(' '), text(u.email)]
			.filter(Boolean)
			.join(', '),
});

/** "EUR 1,326.40, 2026-01-05": the amount (minor units) and the day created, else cleared. */
export const searchSettlements = recordSearch({
	endpoint: 'listSettlements',
	what: 'Settlements',
	label: (r) =>
		[minorAmountText(r.amount, r.currency), (text(r.createdAt) || text(r.clearedAt)).slice(0, 10)]
			.filter(Boolean)
			.join(', '),
});

/** "supplier, amount". */
export const searchIntakeRecords = recordSearch({
	endpoint: 'listIntakes',
	what: 'Intakes',
	label: (r) =>
		[text(r.supplierName), minorAmountText(r.amount, r.currency)].filter(Boolean).join(', '),
});

/** A cost center's label: its name (docs/api.md#response-shapes). */
export const searchCostCenters = recordSearch({
	endpoint: 'listCostCenters',
	what: 'Cost centers',
	label: (c) => (typeof c.name === 'string' ? c.name : ''),
});

/** Accounting Export → Create's Template: "name" (docs/api.md#journal-templates). */
export const searchJournalTemplates = recordSearch({
	endpoint: 'listJournalTemplates',
	what: 'Journal templates',
	label: (t) => (typeof t.name === 'string' ? t.name : ''),
});

/** "Supplier, EUR 100.50, status" of a purchase order (docs/api.md#purchase-orders). */
export function purchaseOrderLabel(order: IDataObject): string {
	const supplier = (order.supplier ?? {}) as IDataObject;
	// `{amount, currency, precision}` in minor units (docs/api.md#purchase-orders).
	const money = (order.amount ?? {}) as IDataObject;
	return [
		text(supplier.name),
		minorAmountText(money.amount, money.currency, money.precision),
		text(order.status),
	]
		.filter(Boolean)
		.join(', ');
}

export const searchPurchaseOrders = recordSearch({
	endpoint: 'listPurchaseOrders',
	what: 'Purchase orders',
	label: purchaseOrderLabel,
});
