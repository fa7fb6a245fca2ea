/**
 * Reading a list's answer (docs/api.md#page-lists): its items, single objects, page totals and
 * cursors. An answer the node cannot read is an error (errors.ts), never an empty list.
 */
import type { IDataObject } from 'n8n-workflow';

export type Page = IDataObject[];

export type Unreadable = (what: string, detail: string) => Error;

export const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/** An API value as an item: an object as it is, anything else under `value` (never spread into characters). */
export function asItem(value: unknown): IDataObject {
	return isObject(value) ? value : { value: value as IDataObject[string] };
}

/** The items of a `data` field (none when it is not a list). */
export function asItems(value: unknown): Page {
	if (!Array.isArray(value)) return [];
	return value.every(isObject) ? (value as Page) : value.map(asItem);
}

/** The object of `{ data: object }`, or any other object body itself (docs/api.md#variations). */
export function singleObject(body: unknown): IDataObject | undefined {
	if (!isObject(body)) return undefined;
	return isObject(body.data) ? body.data : body;
}

/** The items of a single-object answer: its `data` list, else its one object, else the whole body. */
export function bodyItems(body: unknown): Page {
	const data = isObject(body) ? body.data : undefined;
	if (Array.isArray(data)) return asItems(data);
	const one = singleObject(body);
	if (one) return [one];
	return Array.isArray(body) ? asItems(body) : [asItem(body)];
}

export interface PageListBody {
	items: Page;
	/** `meta.pagination` (`page`, `pageSize`, `total`); empty for a bare array. */
	pagination: IDataObject;
	/** A bare array: no total, so a page shorter than asked ends the list. */
	bare: boolean;
}

/** A page list's answer, `{data, meta: {pagination}}` or a bare array; undefined when it is neither. */
export function readPageList(body: unknown): PageListBody | undefined {
	if (Array.isArray(body)) return { items: asItems(body), pagination: {}, bare: true };
	if (!isObject(body) || !Array.isArray(body.data)) return undefined;
	const meta = isObject(body.meta) ? body.meta : {};
	return {
		items: asItems(body.data),
		pagination: isObject(meta.pagination) ? meta.pagination : {},
		bare: false,
	};
}

/** An offset list's page: its items and `totalResults` (NaN when absent). */
export function readOffsetPage(body: IDataObject | undefined): { items: Page; total: number } {
	return { items: asItems(body?.data), total: Number(body?.totalResults) };
}

/**
 * A cursor page (docs/api.md#cursor-lists): items, whether more follow (`hasNextPage`, a boolean
 * or "true"/"false"; without it, a `nextCursor`), the next cursor as text and the `nextUrl`.
 */
export function readCursorPage(body: IDataObject | undefined, unreadable: Unreadable) {
	const meta = isObject(body?.meta) ? body.meta : {};
	const pagination = isObject(meta.pagination) ? meta.pagination : {};
	const { hasNextPage, nextUrl } = pagination;
	const nextCursor = cursorText(pagination.nextCursor);
	const text = typeof hasNextPage === 'string' ? hasNextPage.trim().toLowerCase() : undefined;
	let more: boolean;
	if (typeof hasNextPage === 'boolean') more = hasNextPage;
	else if (text === 'true' || text === 'false') more = text === 'true';
	else if (hasNextPage === undefined || hasNextPage === null) more = nextCursor !== undefined;
	else
		throw unreadable(
			'a hasNextPage the node cannot read',
			JSON.stringify(hasNextPage).slice(0, 40),
		);
	return { items: asItems(body?.data), more, nextCursor, nextUrl };
}

function cursorText(value: unknown): string | undefined {
	if (typeof value === 'string' && value) return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/** A body-cursor page (docs/api.md#body-cursor-lists): `payables` (else `data`) and the next cursor. */
export function readBodyCursorPage(body: IDataObject | undefined, unreadable: Unreadable) {
	const items = asItems(Array.isArray(body?.payables) ? body.payables : body?.data);
	const value = body?.nextCursor;
	if (value === undefined || value === null || value === '') return { items };
	if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))
		return { items, nextCursor: value };
	const kind = Array.isArray(value) ? 'a list' : isObject(value) ? 'an object' : typeof value;
	throw unreadable('a next-page cursor the node cannot send back', kind);
}
