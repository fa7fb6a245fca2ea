/**
 * Body-cursor lists (`cursor` and a page size in the request body): stop on a null
 * `nextCursor`. A cursor that comes back once is asked once more (records already received are dropped);
 * one that comes back again, or pages that bring nothing new, are an error. For a reader
 * that takes every page, the next page is asked while the current one is handed out
 * (docs/performance.md#cursor-lists-one-page-ahead).
 * The list is `payables`, as the payables search answers it, or `data` (older answers).
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { prepareCall, sendCall } from '../request';
import { nextPageSize } from './limit';
import type { ItemLimit } from './limit';
import { askedAhead, asItems, progressGuard, repeatedCursor, settled } from './strategy';
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
	const seen = new Set<string>();
	const progress = progressGuard(ctx, endpoint, request.itemIndex);
	let cursor: string | undefined;
	/** The request being sent asks a repeated cursor once more. */
	let reasked = false;
	const ask = (pageSize: number) => {
		const body: IDataObject = { ...request.body, [size.param]: pageSize };
		if (cursor !== undefined) body.cursor = cursor;
		return sendCall<IDataObject>(call, { body });
	};
	/** The next page, asked while this one is handed out (docs/performance.md#cursor-lists-one-page-ahead). */
	let asked: ReturnType<typeof ask> | undefined;
	try {
		while (limit.left() > 0) {
			const answer = asked ?? ask(nextPageSize(size, request, limit.left()));
			asked = undefined;
			const response = await answer;
			const items = asItems(listOf(response.body));
			const nextCursor = response.body?.nextCursor;
			const more = typeof nextCursor === 'string' && nextCursor !== '';
			const fresh = items.length > 0 || more ? progress(items, { reasked }) : items;
			const left = limit.left() - fresh.length;
			if (more && left > 0 && request.readsToEnd && !seen.has(nextCursor)) {
				seen.add(nextCursor);
				reasked = false;
				cursor = nextCursor;
				asked = askedAhead(ask(nextPageSize(size, request, left)));
			}
			yield limit.take(fresh);
			if (!more) return;
			if (asked) continue;
			if (seen.has(nextCursor)) {
				// A cursor repeated once is a hiccup: ask it once more (the items already received
				// come again and are dropped); repeated again, the list would never end.
				if (reasked) throw repeatedCursor(ctx, endpoint, request.itemIndex);
				reasked = true;
			} else {
				seen.add(nextCursor);
				reasked = false;
			}
			cursor = nextCursor;
		}
	} finally {
		await settled(asked);
	}
	limit.truncated();
}
