/**
 * Cursor lists: stop on `hasNextPage: false`; the next page is asked with `nextCursor`, else the
 * API's `nextUrl` on the credential's origin (docs/api.md#cursor-lists), else it is an error.
 */
import type { IDataObject } from 'n8n-workflow';
import { resolveCredential } from '../credential';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { NextPageAhead } from './ahead';
import { listError, unreadablePaging } from './errors';
import { callName } from '../callName';
import { nextPageSize } from './limit';
import { readCursorPage } from './response';
import { CursorsAsked, progressGuard } from './strategy';
import type { PageStrategy } from './strategy';

export const cursorStrategy: PageStrategy = async function* (ctx, endpoint, request, limit) {
	const { itemIndex } = request;
	const size = endpoint.pageSize!;
	const { origin } = await resolveCredential(ctx);
	const trail = new CursorTrail(ctx, endpoint, origin, itemIndex);
	const progress = progressGuard(ctx, endpoint, itemIndex);
	const unreadable = unreadablePaging(ctx, endpoint, itemIndex);
	const pages = new NextPageAhead((pageSize) => {
		// Without a cursor, the API's link (same origin only), with the page size we need.
		if (trail.nextUrl) {
			const url = trail.nextUrl;
			if (url.searchParams.getAll(size.param).join() !== String(pageSize))
				url.searchParams.set(size.param, String(pageSize));
			return callSpendesk<IDataObject>(ctx, endpoint, { ...request, url: url.href });
		}
		const qs = { ...request.qs, [size.param]: pageSize };
		if (trail.cursor !== undefined) qs.cursor = trail.cursor;
		return callSpendesk<IDataObject>(ctx, endpoint, { ...request, qs });
	}, request.readsToEnd === true);
	try {
		while (limit.left() > 0) {
			const { body } = await pages.take(nextPageSize(size, request, limit.left()));
			const { items, more, nextCursor, nextUrl } = readCursorPage(body, unreadable);
			const fresh =
				items.length > 0 || more ? progress(items, { reasked: trail.cursors.reasked }) : items;
			// The next page is asked now, so that it comes while the reader takes this one.
			const left = limit.left() - fresh.length;
			if (more && pages.mayAsk(left) && trail.takeNew(nextCursor))
				pages.askNow(nextPageSize(size, request, left));
			yield limit.take(fresh);
			if (!more) return;
			if (!pages.pending) trail.follow(nextCursor, nextUrl);
		}
	} finally {
		// A list that ends early leaves no request of its own running.
		await pages.stop();
	}
	limit.truncated = true;
};

/** Where a cursor list has got to: the cursor (or, without one, the API's link) of the next page. */
class CursorTrail {
	cursor: string | undefined;
	nextUrl: URL | undefined;
	readonly cursors: CursorsAsked;

	constructor(
		private readonly ctx: SpendeskContext,
		private readonly endpoint: Endpoint,
		private readonly origin: string,
		private readonly itemIndex: number | undefined,
	) {
		this.cursors = new CursorsAsked(ctx, endpoint, itemIndex);
	}

	/** Moves on to `nextCursor` when it is a cursor never asked before; false otherwise. */
	takeNew(nextCursor: string | undefined): boolean {
		if (nextCursor === undefined || !this.cursors.takeNew(nextCursor)) return false;
		this.cursor = nextCursor;
		this.nextUrl = undefined;
		return true;
	}

	/**
	 * Moves on to what names the next page: its cursor, else the link's cursor or the link
	 * itself. The link is parsed only then: for every page it would cost more than the rest.
	 */
	follow(nextCursor: string | undefined, nextUrl: unknown): void {
		let next = nextCursor;
		this.nextUrl = undefined;
		if (next === undefined) {
			const link =
				typeof nextUrl === 'string' && URL.canParse(nextUrl) ? new URL(nextUrl) : undefined;
			if (!link || link.origin !== this.origin) {
				const { ctx, endpoint, itemIndex } = this;
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
			next = link.searchParams.get('cursor') ?? link.href;
			this.nextUrl = link;
		}
		this.cursors.take(next);
		this.cursor = nextCursor;
	}
}
