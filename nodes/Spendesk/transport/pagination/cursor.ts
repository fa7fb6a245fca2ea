/**
 * Cursor lists (`cursor` and `limit` in the query): stop on `hasNextPage: false`. The API's
 * `nextUrl` is followed when it is on the credential's origin and carries the same cursor.
 * A cursor that comes back twice, or pages that bring nothing new, are an error, so the list
 * can never loop forever.
 */
import type { IDataObject } from 'n8n-workflow';
import { resolveCredential } from '../credential';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { nextPageSize } from './limit';
import type { ItemLimit } from './limit';
import { asItems, progressGuard, repeatedCursor } from './strategy';
import type { ListRequest, Page } from './strategy';

export async function* cursorStrategy(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	limit: ItemLimit,
): AsyncGenerator<Page> {
	const size = endpoint.pageSize!;
	const { origin } = await resolveCredential(ctx);
	const seen = new Set<string>();
	const progress = progressGuard(ctx, endpoint, request.itemIndex);
	let cursor: string | undefined;
	let nextUrl: URL | undefined;
	while (limit.left() > 0) {
		const qs = { ...request.qs, [size.param]: nextPageSize(size, request, limit.left()) };
		let url: string | undefined;
		if (nextUrl) {
			// Follow the API's ready-made link (same origin only), with the page size we need.
			nextUrl.searchParams.set(size.param, String(qs[size.param]));
			url = nextUrl.toString();
		} else if (cursor !== undefined) {
			qs.cursor = cursor;
		}
		const { body } = await callSpendesk<IDataObject>(ctx, endpoint, {
			...request,
			qs: url ? undefined : qs,
			url,
		});
		const items = asItems(body?.data);
		const pagination = ((body?.meta as IDataObject | undefined)?.pagination ?? {}) as IDataObject;
		const nextCursor =
			typeof pagination.nextCursor === 'string' && pagination.nextCursor
				? pagination.nextCursor
				: undefined;
		const more = pagination.hasNextPage === true && nextCursor !== undefined;
		yield limit.take(items.length > 0 || more ? progress(items) : items);
		if (!more) return;
		if (seen.has(nextCursor)) throw repeatedCursor(ctx, endpoint, request.itemIndex);
		seen.add(nextCursor);
		cursor = nextCursor;
		const link = parseUrl(pagination.nextUrl);
		nextUrl =
			link && link.origin === origin && link.searchParams.get('cursor') === nextCursor
				? link
				: undefined;
	}
	// The loop ended on the Limit while the API still had pages.
	limit.truncated();
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
