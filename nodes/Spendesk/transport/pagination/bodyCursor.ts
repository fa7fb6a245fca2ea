/**
 * Body-cursor lists (docs/api.md#body-cursor-lists): a page shorter than asked ends the list
 * whatever its cursor says; a full page without a cursor ends it too, with a hint that more may
 * match.
 */
import type { IDataObject } from 'n8n-workflow';
import { callName } from '../callName';
import { warnOnce } from '../deprecation';
import { callSpendesk } from '../request';
import { unreadablePaging } from './errors';
import { readBodyCursorPage } from './response';
import { readCursorPages } from './strategy';
import type { CursorPage, PageStrategy } from './strategy';

type Asked = { body: IDataObject | undefined; asked: number };
type Read = CursorPage & { cursor?: string | number };

export const bodyCursorStrategy: PageStrategy = async function* (ctx, endpoint, request, limit) {
	const { itemIndex } = request;
	const size = endpoint.pageSize!;
	const unreadable = unreadablePaging(ctx, endpoint, itemIndex);
	let cursor: string | number | undefined;
	yield* readCursorPages<Asked, Read>(ctx, endpoint, request, limit, {
		async ask(pageSize) {
			const body: IDataObject = { ...request.body, [size.param]: pageSize };
			if (cursor !== undefined) body.cursor = cursor;
			const response = await callSpendesk<IDataObject>(ctx, endpoint, { ...request, body });
			return { body: response.body, asked: pageSize };
		},
		read({ body, asked }, left) {
			const { items, nextCursor } = readBodyCursorPage(body, unreadable);
			const full = items.length >= asked;
			if (nextCursor === undefined && full && items.length < left)
				warnOnce(
					ctx,
					`full page ${endpoint.path}`,
					() =>
						`Spendesk answered a full page of ${asked} to ${callName(ctx, { itemIndex })} without a cursor to the next page, so the node stopped there and more may match. Narrow the filters so that fewer match; for payables, Payable → Get Many as Snapshot reads every page.`,
				);
			// A short page is the last one, whatever its cursor says.
			const more = nextCursor !== undefined && full;
			return { items, more, next: more ? String(nextCursor) : undefined, cursor: nextCursor };
		},
		follow(page) {
			cursor = page.cursor;
			return page.next!;
		},
	});
};
