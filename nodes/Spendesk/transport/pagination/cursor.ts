/**
 * Cursor lists: stop on `hasNextPage: false`; the next page is asked with `nextCursor`, else the
 * API's `nextUrl` on the credential's origin (docs/api.md#cursor-lists), else it is an error.
 */
import type { IDataObject } from 'n8n-workflow';
import type { CallResult } from '../call';
import { callName } from '../callName';
import { resolveCredential } from '../credential';
import { callSpendesk } from '../request';
import { listError, unreadablePaging } from './errors';
import { readCursorPage } from './response';
import { readCursorPages } from './strategy';
import type { CursorPage, PageStrategy } from './strategy';

type Read = CursorPage & { nextUrl: unknown };

export const cursorStrategy: PageStrategy = async function* (ctx, endpoint, request, limit) {
	const { itemIndex } = request;
	const size = endpoint.pageSize!;
	const { origin } = await resolveCredential(ctx);
	const unreadable = unreadablePaging(ctx, endpoint, itemIndex);
	// Where the list has got to: the cursor (or, without one, the API's link) of the next page.
	let cursor: string | undefined;
	let nextUrl: URL | undefined;
	yield* readCursorPages<CallResult<IDataObject>, Read>(ctx, endpoint, request, limit, {
		ask(pageSize) {
			// Without a cursor, the API's link (same origin only), with the page size we need.
			if (nextUrl) {
				const url = nextUrl;
				if (url.searchParams.getAll(size.param).join() !== String(pageSize))
					url.searchParams.set(size.param, String(pageSize));
				return callSpendesk<IDataObject>(ctx, endpoint, { ...request, url: url.href });
			}
			const qs = { ...request.qs, [size.param]: pageSize };
			if (cursor !== undefined) qs.cursor = cursor;
			return callSpendesk<IDataObject>(ctx, endpoint, { ...request, qs });
		},
		read({ body }) {
			const page = readCursorPage(body, unreadable);
			return { ...page, next: page.nextCursor };
		},
		// The link is parsed only here: for every page it would cost more than the rest.
		follow(page) {
			cursor = page.next;
			nextUrl = undefined;
			if (page.next !== undefined) return page.next;
			const link =
				typeof page.nextUrl === 'string' && URL.canParse(page.nextUrl)
					? new URL(page.nextUrl)
					: undefined;
			if (!link || link.origin !== origin) {
				const where = link
					? `only a link to another host (${link.host}), which the node never follows`
					: 'no next page link either';
				throw listError(
					ctx,
					endpoint,
					itemIndex,
					`Spendesk said more pages follow for ${callName(ctx, { itemIndex })} but gave no cursor to read them`,
					`The answer had hasNextPage true, no nextCursor and ${where}. The node stopped rather than return part of the list.`,
				);
			}
			nextUrl = link;
			return link.searchParams.get('cursor') ?? link.href;
		},
	});
};
