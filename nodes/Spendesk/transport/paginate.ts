/**
 * The pagination engine: one async iterator over pages of items for every list style of
 * the API (page, cursor, offset, body cursor, snapshot `result` pages). Each style is a
 * strategy in ./pagination; this file picks the endpoint's and drains lists into arrays.
 *
 * Fewest requests: with Return All the page size is the endpoint's maximum; with a Limit
 * it asks for no more than is still needed and stops as soon as the Limit is reached.
 * Page lists stop when `total` says the last page was read; cursor lists on
 * `hasNextPage: false`; offset lists at `totalResults`; body cursors on a null `nextCursor`.
 * A cursor that comes back twice is an error, so a list can never loop forever.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from './credential';
import type { EndpointRef, PaginationStyle } from './endpoints';
import { bodyCursorStrategy } from './pagination/bodyCursor';
import { cursorStrategy } from './pagination/cursor';
import { itemLimit } from './pagination/limit';
import { offsetStrategy } from './pagination/offset';
import { pageStrategy } from './pagination/page';
import { singleStrategy } from './pagination/single';
import { resolveEndpoint } from './request';
import { snapshotStrategy } from './pagination/snapshot';
import type { ListRequest, Page, PageStrategy } from './pagination/strategy';

export type { ListRequest } from './pagination/strategy';

const STRATEGIES: Record<PaginationStyle, PageStrategy> = {
	none: singleStrategy,
	page: pageStrategy,
	cursor: cursorStrategy,
	offset: offsetStrategy,
	bodyCursor: bodyCursorStrategy,
	snapshot: snapshotStrategy,
};

/** Async iterator over pages of items of a list endpoint. */
export async function* paginate(
	ctx: SpendeskContext,
	name: EndpointRef,
	request: ListRequest = {},
): AsyncGenerator<Page> {
	const pages = await strategyPages(ctx, name, request);
	if (pages) yield* pages;
}

/** The iterator of the list's style over its pages (none when the Limit wants no item). */
async function strategyPages(
	ctx: SpendeskContext,
	name: EndpointRef,
	request: ListRequest,
): Promise<AsyncGenerator<Page> | undefined> {
	const limit = itemLimit(request.limit, request.progress);
	if (limit.max <= 0) return undefined;
	// The entry the credential's level calls (a company-level credential: the documented v1 one).
	const { endpoint } = await resolveEndpoint(ctx, name);
	return STRATEGIES[endpoint.pagination](ctx, endpoint, request, limit);
}

/** Drains a list into one array (respecting the Limit). */
export async function collect(
	ctx: SpendeskContext,
	name: EndpointRef,
	request: ListRequest = {},
): Promise<IDataObject[]> {
	return (await collectList(ctx, name, request)).items;
}

/** Drains a list and tells whether the Limit left results unread. */
export async function collectList(
	ctx: SpendeskContext,
	name: EndpointRef,
	request: ListRequest = {},
): Promise<{ items: IDataObject[]; truncated: boolean }> {
	const items: IDataObject[] = [];
	const { truncated } = await eachPage(ctx, name, request, (page) => {
		for (const item of page) items.push(item);
	});
	return { items, truncated };
}

/**
 * Hands each page of a list to `onPage` as it comes (respecting the Limit), so that the caller
 * need not hold the list twice; tells whether the Limit left results unread.
 */
export async function eachPage(
	ctx: SpendeskContext,
	name: EndpointRef,
	request: ListRequest,
	onPage: (page: IDataObject[]) => void,
): Promise<{ truncated: boolean }> {
	const progress = { truncated: false };
	// The style's own iterator, without a generator around it: this runs for every page.
	const pages = await strategyPages(ctx, name, { ...request, progress, readsToEnd: true });
	if (pages) for await (const page of pages) onPage(page);
	return { truncated: progress.truncated };
}
