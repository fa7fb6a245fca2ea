/**
 * Body-cursor lists (docs/api.md#body-cursor-lists): a page shorter than asked ends the list
 * whatever its cursor says; a full page without a cursor ends it too, with a hint that more may
 * match.
 */
import type { IDataObject } from 'n8n-workflow';
import { callName } from '../callName';
import type { SpendeskContext } from '../credential';
import { addHint } from '../deprecation';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { NextPageAhead } from './ahead';
import { unreadablePaging } from './errors';
import { nextPageSize } from './limit';
import { readBodyCursorPage } from './response';
import { CursorsAsked, progressGuard } from './strategy';
import type { PageStrategy } from './strategy';

export const bodyCursorStrategy: PageStrategy = async function* (ctx, endpoint, request, limit) {
	const { itemIndex } = request;
	const size = endpoint.pageSize!;
	const cursors = new CursorsAsked(ctx, endpoint, itemIndex);
	const progress = progressGuard(ctx, endpoint, itemIndex);
	const unreadable = unreadablePaging(ctx, endpoint, itemIndex);
	let cursor: string | number | undefined;
	const pages = new NextPageAhead(async (pageSize) => {
		const body: IDataObject = { ...request.body, [size.param]: pageSize };
		if (cursor !== undefined) body.cursor = cursor;
		const response = await callSpendesk<IDataObject>(ctx, endpoint, { ...request, body });
		return { body: response.body, asked: pageSize };
	}, request.readsToEnd === true);
	try {
		while (limit.left() > 0) {
			const { body, asked } = await pages.take(nextPageSize(size, request, limit.left()));
			const { items, nextCursor } = readBodyCursorPage(body, unreadable);
			// A short page is the last one, whatever its cursor says.
			const more = nextCursor !== undefined && items.length >= asked;
			if (nextCursor === undefined && items.length >= asked && items.length < limit.left())
				mayHaveMore(ctx, endpoint, asked, itemIndex);
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
	limit.truncated = true;
};

const hinted = new WeakMap<object, Set<string>>();

/** A full page without a next-page cursor: more items may match. Said once per execution. */
function mayHaveMore(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	pageSize: number,
	itemIndex?: number,
): void {
	const seen = hinted.get(ctx) ?? new Set<string>();
	hinted.set(ctx, seen);
	if (seen.has(endpoint.path)) return;
	seen.add(endpoint.path);
	addHint(ctx, {
		message: `Spendesk answered a full page of ${pageSize} to ${callName(ctx, { itemIndex })} without a cursor to the next page, so the node stopped there and more may match. Narrow the filters so that fewer match; for payables, Payable → Get Many as Snapshot reads every page.`,
		type: 'warning',
		location: 'outputPane',
	});
}
