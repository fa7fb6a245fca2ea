/**
 * Body-cursor lists (`cursor` and a page size in the request body): stop on a null
 * `nextCursor`. A cursor that comes back once is asked once more (CursorsAsked); one that
 * comes back again, or pages that bring nothing new, are an error. For a reader that takes
 * every page, the next page is asked while the current one is handed out (NextPageAhead).
 * The list is `payables`, as the payables search answers it, or `data` (older answers).
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { prepareCall, sendCall } from '../request';
import { nextPageSize } from './limit';
import type { ItemLimit } from './limit';
import { NextPageAhead } from './ahead';
import { asItems, CursorsAsked, progressGuard, unreadablePaging } from './strategy';
import type { ListRequest, Page } from './strategy';

/** The list of a body-cursor page: `payables` (the payables search), else `data` (older answers, other endpoints). */
function listOf(body: IDataObject | undefined): unknown {
	if (Array.isArray(body?.payables)) return body.payables;
	return body?.data;
}

export async function* bodyCursorStrategy(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	limit: ItemLimit,
): AsyncGenerator<Page> {
	const size = endpoint.pageSize!;
	// Credential, placement and options once for every page of the list.
	const call = await prepareCall(ctx, endpoint, request);
	const cursors = new CursorsAsked(ctx, endpoint, request.itemIndex);
	const progress = progressGuard(ctx, endpoint, request.itemIndex);
	let cursor: string | number | undefined;
	const pages = new NextPageAhead((pageSize) => {
		const body: IDataObject = { ...request.body, [size.param]: pageSize };
		if (cursor !== undefined) body.cursor = cursor;
		return sendCall<IDataObject>(call, { body });
	}, request.readsToEnd === true);
	try {
		while (limit.left() > 0) {
			const response = await pages.take(nextPageSize(size, request, limit.left()));
			const items = asItems(listOf(response.body));
			const nextCursor = readCursor(ctx, endpoint, response.body?.nextCursor, request.itemIndex);
			const more = nextCursor !== undefined;
			const fresh =
				items.length > 0 || more ? progress(items, { reasked: cursors.reasked }) : items;
			const left = limit.left() - fresh.length;
			if (more && pages.mayAsk(left) && cursors.takeNew(String(nextCursor))) {
				cursor = nextCursor;
				pages.askNow(nextPageSize(size, request, left));
			}
			yield limit.take(fresh);
			if (!more) return;
			if (pages.pending) continue;
			cursors.take(String(nextCursor));
			cursor = nextCursor;
		}
	} finally {
		await pages.stop();
	}
	limit.truncated();
}

/**
 * The next page's cursor: a text, or a number (sent back as the same number,
 * docs/api.md#body-cursor-lists); null, absent or empty ends the list. Anything else would
 * end it silently short, so it is an error.
 */
function readCursor(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	value: unknown,
	itemIndex?: number,
): string | number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))
		return value;
	const kind = Array.isArray(value)
		? 'a list'
		: typeof value === 'object'
			? 'an object'
			: typeof value;
	throw unreadablePaging(
		ctx,
		endpoint,
		'a next-page cursor the node cannot send back',
		kind,
		itemIndex,
	);
}
