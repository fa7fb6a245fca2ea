/**
 * Cursor lists (`cursor` and `limit` in the query): stop on `hasNextPage: false`. The next
 * page is asked with `nextCursor`; only without one is the API's `nextUrl` followed, when it
 * is on the credential's origin (docs/api.md#cursor-lists); with neither, a list saying more
 * pages follow is an error. A numeric cursor is sent back as its digits.
 * A cursor that comes back once is asked once more (CursorsAsked); one that comes back again,
 * or pages that bring nothing new, are an error, so the list can never loop forever. For a
 * reader that takes every page, the next page is asked while the current one is handed out
 * (NextPageAhead).
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import { resolveCredential } from '../credential';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { nextPageSize } from './limit';
import type { ItemLimit } from './limit';
import { NextPageAhead } from './ahead';
import { callName } from '../callName';
import { asItems, CursorsAsked, naming, progressGuard, unreadablePaging } from './strategy';
import type { ListRequest, Page } from './strategy';

export async function* cursorStrategy(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	limit: ItemLimit,
): AsyncGenerator<Page> {
	const size = endpoint.pageSize!;
	const { origin } = await resolveCredential(ctx);
	const trail = new CursorTrail(ctx, endpoint, origin, request.itemIndex);
	const progress = progressGuard(ctx, endpoint, request.itemIndex);
	const pages = new NextPageAhead(
		(pageSize) =>
			callSpendesk<IDataObject>(
				ctx,
				endpoint,
				// Without a cursor, the API's link (same origin only), with the page size we need.
				trail.nextUrl
					? { ...request, url: withParam(trail.nextUrl, size.param, pageSize).href }
					: { ...request, qs: cursorQuery(request.qs, size.param, pageSize, trail.cursor) },
			),
		request.readsToEnd === true,
	);
	try {
		while (limit.left() > 0) {
			const { body } = await pages.take(nextPageSize(size, request, limit.left()));
			const items = asItems(body?.data);
			const pagination = ((body?.meta as IDataObject | undefined)?.pagination ?? {}) as IDataObject;
			const nextCursor = cursorText(pagination.nextCursor);
			const more = morePages(ctx, endpoint, pagination.hasNextPage, nextCursor, request.itemIndex);
			const fresh = items.length > 0 || more ? progress(items, { reasked: trail.reasked }) : items;
			// The next page is asked now, so that it comes while the reader takes this one.
			const left = limit.left() - fresh.length;
			if (more && pages.mayAsk(left) && trail.takeNew(nextCursor))
				pages.askNow(nextPageSize(size, request, left));
			yield limit.take(fresh);
			if (!more) return;
			if (!pages.pending) trail.follow(nextCursor, pagination.nextUrl);
		}
	} finally {
		// A list that ends early leaves no request of its own running.
		await pages.stop();
	}
	// The loop ended on the Limit while the API still had pages.
	limit.truncated();
}

/**
 * Where a cursor list has got to: the cursor (or, without one, the API's link) of the next
 * page, and the cursors asked so far.
 */
class CursorTrail {
	cursor: string | undefined;
	nextUrl: URL | undefined;
	private readonly cursors: CursorsAsked;

	constructor(
		private readonly ctx: SpendeskContext,
		private readonly endpoint: Endpoint,
		private readonly origin: string,
		private readonly itemIndex: number | undefined,
	) {
		this.cursors = new CursorsAsked(ctx, endpoint, itemIndex);
	}

	/** The request being sent asks a repeated cursor once more. */
	get reasked(): boolean {
		return this.cursors.reasked;
	}

	/** Moves on to `nextCursor` when it is a cursor never asked before; false otherwise. */
	takeNew(nextCursor: string | undefined): boolean {
		if (nextCursor === undefined || !this.cursors.takeNew(nextCursor)) return false;
		this.cursor = nextCursor;
		this.nextUrl = undefined;
		return true;
	}

	/**
	 * Moves on to what names the next page: its cursor, else (only a link) the link's cursor or
	 * the link itself. The link is read only then: parsing it for every page costs more than the
	 * rest of the page's work.
	 */
	follow(nextCursor: string | undefined, nextUrl: unknown): void {
		let next = nextCursor;
		this.nextUrl = undefined;
		if (next === undefined) {
			const link = parseUrl(nextUrl);
			if (link === undefined || link.origin !== this.origin)
				throw noCursor(this.ctx, this.endpoint, link, this.itemIndex);
			next = link.searchParams.get('cursor') ?? link.href;
			this.nextUrl = link;
		}
		this.cursors.take(next);
		this.cursor = nextCursor;
	}
}

/** The query of a cursor page: the list's own, the page size, and the cursor once there is one. */
function cursorQuery(
	qs: IDataObject | undefined,
	sizeParam: string,
	pageSize: number,
	cursor: string | undefined,
): IDataObject {
	return cursor === undefined
		? { ...qs, [sizeParam]: pageSize }
		: { ...qs, [sizeParam]: pageSize, cursor };
}

/** The link with `name` set to `value` (left as it is when it already says exactly that). */
function withParam(link: URL, name: string, value: number): URL {
	const text = String(value);
	const given = link.searchParams.getAll(name);
	if (given.length !== 1 || given[0] !== text) link.searchParams.set(name, text);
	return link;
}

/** A cursor as text: a non-empty string as it is, a number as its digits; anything else is no cursor. */
function cursorText(value: unknown): string | undefined {
	if (typeof value === 'string' && value) return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/**
 * Whether more pages follow (docs/api.md#cursor-lists): `hasNextPage` as a boolean or as the
 * text "true" or "false"; without it, a `nextCursor` says so. Anything else would end the list
 * silently short, so it is an error.
 */
function morePages(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	hasNextPage: unknown,
	nextCursor: string | undefined,
	itemIndex: number | undefined,
): boolean {
	if (typeof hasNextPage === 'boolean') return hasNextPage;
	const text = typeof hasNextPage === 'string' ? hasNextPage.trim().toLowerCase() : undefined;
	if (text === 'true' || text === 'false') return text === 'true';
	if (hasNextPage === undefined || hasNextPage === null) return nextCursor !== undefined;
	throw unreadablePaging(
		ctx,
		endpoint,
		'a hasNextPage the node cannot read',
		JSON.stringify(hasNextPage).slice(0, 40),
		itemIndex,
	);
}

/** Spendesk said more pages follow but gave no way to read them the node may follow. */
function noCursor(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	link: URL | undefined,
	itemIndex: number | undefined,
): NodeOperationError {
	const where = link
		? `only a link to another host (${link.host}), which the node never follows`
		: 'no next page link either';
	return new NodeOperationError(
		ctx.getNode(),
		`Spendesk said more pages follow for ${callName(ctx, { itemIndex })} but gave no cursor to read them`,
		{
			description: `The answer had hasNextPage true, no nextCursor and ${where}. The node stopped rather than return part of the list. Run it again; if it happens every time, report it to Spendesk support ${naming(endpoint)}.`,
			itemIndex,
		},
	);
}

/** The URL a link names, or undefined when it is missing or malformed. */
function parseUrl(link: unknown): URL | undefined {
	if (typeof link !== 'string') return undefined;
	try {
		return new URL(link);
	} catch {
		return undefined;
	}
}
