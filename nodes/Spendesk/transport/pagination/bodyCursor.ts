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
import { asItems, CursorsAsked, progressGuard } from './strategy';
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
	let cursor: string | undefined;
	const pages = new NextPageAhead((pageSize) => {
		const body: IDataObject = { ...request.body, [size.param]: pageSize };
		if (cursor !== undefined) body.cursor = cursor;
		return sendCall<IDataObject>(call, { body });
	}, request.readsToEnd === true);
	try {
		while (limit.left() > 0) {
			const response = await pages.take(nextPageSize(size, request, limit.left()));
			const items = asItems(listOf(response.body));
			const nextCursor = response.body?.nextCursor;
			const more = typeof nextCursor === 'string' && nextCursor !== '';
			const fresh =
				items.length > 0 || more ? progress(items, { reasked: cursors.reasked }) : items;
			const left = limit.left() - fresh.length;
			if (more && pages.mayAsk(left) && cursors.takeNew(nextCursor)) {
				cursor = nextCursor;
				pages.askNow(nextPageSize(size, request, left));
			}
			yield limit.take(fresh);
			if (!more) return;
			if (pages.pending) continue;
			cursors.take(nextCursor);
			cursor = nextCursor;
		}
	} finally {
		await pages.stop();
	}
	limit.truncated();
}
