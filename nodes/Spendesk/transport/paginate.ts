/** The pages of every list style (a strategy each, in ./pagination), within the Limit. */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from './credential';
import type { EndpointRef, PaginationStyle } from './endpoints';
import { bodyCursorStrategy } from './pagination/bodyCursor';
import { cursorStrategy } from './pagination/cursor';
import { ItemLimit } from './pagination/limit';
import { offsetStrategy } from './pagination/offset';
import { pageStrategy } from './pagination/page';
import { snapshotStrategy } from './pagination/snapshot';
import { bodyItems } from './pagination/response';
import type { Page } from './pagination/response';
import type { ListRequest, PageStrategy } from './pagination/strategy';
import { callSpendesk, resolveEndpoint } from './request';

export type { ListRequest } from './pagination/strategy';

/** Single-object endpoints: one call; its `data` list, or its one object (else the body), is the page. */
const singleStrategy: PageStrategy = async function* (ctx, endpoint, request, limit) {
	const { body } = await callSpendesk<IDataObject>(ctx, endpoint, request);
	yield limit.take(bodyItems(body));
};

const STRATEGIES: Record<PaginationStyle, PageStrategy> = {
	none: singleStrategy,
	page: pageStrategy,
	cursor: cursorStrategy,
	offset: offsetStrategy,
	bodyCursor: bodyCursorStrategy,
	snapshot: snapshotStrategy,
};

export async function* paginate(
	ctx: SpendeskContext,
	name: EndpointRef,
	request: ListRequest = {},
): AsyncGenerator<Page> {
	const list = await open(ctx, name, request);
	if (list) yield* list.pages;
}

/** The pages of the list's style and its Limit (nothing when the Limit wants no item). */
async function open(ctx: SpendeskContext, name: EndpointRef, request: ListRequest) {
	const limit = new ItemLimit(request.limit ?? Infinity);
	if (limit.max <= 0) return undefined;
	const { endpoint } = await resolveEndpoint(ctx, name);
	return { pages: STRATEGIES[endpoint.pagination](ctx, endpoint, request, limit), limit };
}

/** Drains a list into one array (respecting the Limit). */
export async function collect(
	ctx: SpendeskContext,
	name: EndpointRef,
	request: ListRequest = {},
): Promise<IDataObject[]> {
	const items: IDataObject[] = [];
	await eachPage(ctx, name, request, (page) => {
		for (const item of page) items.push(item);
	});
	return items;
}

/** Hands each page of a list to `onPage` as it comes; tells whether the Limit left results unread. */
export async function eachPage(
	ctx: SpendeskContext,
	name: EndpointRef,
	request: ListRequest,
	onPage: (page: IDataObject[]) => void,
): Promise<{ truncated: boolean }> {
	const list = await open(ctx, name, request);
	if (!list) return { truncated: false };
	for await (const page of list.pages) onPage(page);
	return { truncated: list.limit.truncated };
}
