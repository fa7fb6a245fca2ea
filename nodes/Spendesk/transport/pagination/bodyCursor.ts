/**
 * Body-cursor lists (`cursor` and a page size in the request body). The end of the list does
 * not rest on `nextCursor` alone (docs/api.md#body-cursor-lists): no production client has
 * seen one, so a page shorter than the size asked ends the list whatever its cursor says, and
 * a full page without a cursor ends it too, with a hint in the output that more payables may
 * match. A cursor that comes back once is asked once more (CursorsAsked); one that comes back
 * again, or pages that bring nothing new, are an error. For a reader that takes every page, the
 * next page is asked while the current one is handed out (NextPageAhead). The list is
 * `payables`, as the payables search answers it, or `data` (older answers).
 */
import type { IDataObject, NodeExecutionHint } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { nextPageSize } from './limit';
import type { ItemLimit } from './limit';
import { NextPageAhead } from './ahead';
import { callName } from '../callName';
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
	const cursors = new CursorsAsked(ctx, endpoint, request.itemIndex);
	const progress = progressGuard(ctx, endpoint, request.itemIndex);
	let cursor: string | number | undefined;
	const pages = new NextPageAhead(async (pageSize) => {
		const body: IDataObject = { ...request.body, [size.param]: pageSize };
		if (cursor !== undefined) body.cursor = cursor;
		return {
			...(await callSpendesk<IDataObject>(ctx, endpoint, { ...request, body })),
			asked: pageSize,
		};
	}, request.readsToEnd === true);
	try {
		while (limit.left() > 0) {
			const response = await pages.take(nextPageSize(size, request, limit.left()));
			const items = asItems(listOf(response.body));
			const nextCursor = readCursor(ctx, endpoint, response.body?.nextCursor, request.itemIndex);
			// A short page is the last one, whatever its cursor says.
			const more = nextCursor !== undefined && items.length >= response.asked;
			if (nextCursor === undefined && items.length >= response.asked && items.length < limit.left())
				mayHaveMore(ctx, endpoint, response.asked, request.itemIndex);
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

const hinted = new WeakMap<object, Set<string>>();

/**
 * A full page came without a next-page cursor: the list ends there, as the node cannot ask for
 * more, but more items may match. Said once per execution in the output pane (or the log).
 */
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
	const hint: NodeExecutionHint = {
		message: `Spendesk answered a full page of ${pageSize} to ${callName(ctx, { itemIndex })} without a cursor to the next page, so the node stopped there and more may match. Narrow the filters so that fewer match; for payables, Payable → Get Many as Snapshot reads every page.`,
		type: 'warning',
		location: 'outputPane',
	};
	const add = (ctx as { addExecutionHints?: (...hints: NodeExecutionHint[]) => void })
		.addExecutionHints;
	if (typeof add === 'function') add.call(ctx, hint);
	else ctx.logger?.warn(hint.message, { node: ctx.getNode().name });
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
