/** What list styles share: the list request, a strategy's signature, the guards against endless loops. */
import type { IDataObject } from 'n8n-workflow';
import { callName } from '../callName';
import type { CallOptions } from '../call';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { transportSettings } from '../settings';
import { endlessList, listError } from './errors';
import { nextPageSize } from './limit';
import type { ItemLimit } from './limit';
import type { Page } from './response';

export interface ListRequest extends Omit<CallOptions, 'url' | 'allowNotFound' | 'body'> {
	/** The JSON body of list calls that take one (body cursor, snapshot create). */
	body?: IDataObject;
	/** Stop after this many items; undefined = Return All. */
	limit?: number;
	/** Page size to use instead of the endpoint's maximum (never above it). */
	pageSize?: number;
	/** Payables snapshot: how long to wait for the snapshot to be built. */
	snapshotMaxWaitMs?: number;
	/** Payables snapshot: first pause between two creates answered 409 (doubles up to 5 s). */
	snapshotPollMs?: number;
}

/** One list style: the pages of `endpoint` for `request`, read until the list or the Limit ends. */
export type PageStrategy = (
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	limit: ItemLimit,
) => AsyncGenerator<Page>;

/** What tells an item apart: its `id`, else its content (never equal to a text id). */
function identity(item: IDataObject): string | number {
	const id = item.id;
	return typeof id === 'string' || typeof id === 'number' ? id : `\u0000${JSON.stringify(item)}`;
}

/**
 * Watches a list for progress: gives back the items of a page not received on the previous two;
 * a page of only items already received is an error (unless `reasked`), and so are
 * `maxEmptyPages` empty pages in a row. A list can never loop forever nor repeat an item.
 */
export function progressGuard(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	itemIndex?: number,
): (items: Page, check?: { reasked?: boolean }) => Page {
	let older = new Set<string | number>();
	let newer = new Set<string | number>();
	let empty = 0;
	return (items, check = {}) => {
		if (items.length === 0) {
			if (++empty >= transportSettings.maxEmptyPages)
				throw endlessList(
					ctx,
					endpoint,
					itemIndex,
					`sent ${empty} empty pages in a row for ${callName(ctx, { itemIndex })} while saying more would follow`,
				);
			return items;
		}
		empty = 0;
		const page = new Set<string | number>();
		// The items not received before; a copy is made only when the page repeats some.
		let fresh: Page | undefined;
		for (let i = 0; i < items.length; i++) {
			const key = identity(items[i]);
			page.add(key);
			if (newer.has(key) || older.has(key)) fresh ??= items.slice(0, i);
			else fresh?.push(items[i]);
		}
		if (fresh?.length === 0 && !check.reasked)
			throw endlessList(
				ctx,
				endpoint,
				itemIndex,
				`sent the same items again for ${callName(ctx, { itemIndex })}: the list is not moving forward`,
			);
		older = newer;
		newer = page;
		return fresh ?? items;
	};
}

/** A page of a cursor list as its style reads it: its items, whether more follow, the next cursor. */
export interface CursorPage {
	items: Page;
	more: boolean;
	next?: string;
}

/** How a cursor style asks a page and reads it, and how it moves on to the next page. */
export interface CursorStyle<A, P extends CursorPage> {
	ask(pageSize: number): Promise<A>;
	/** `left`: the items the Limit still wants. */
	read(answer: A, left: number): P;
	/** Moves on to the page after `page`; gives the cursor (or link) that names it. */
	follow(page: P): string;
}

/**
 * Reads a cursor list one page after the other: each page names the next, which is asked only
 * when the reader wants it (docs/performance.md#cursor-lists-page-by-page).
 */
export async function* readCursorPages<A, P extends CursorPage>(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	limit: ItemLimit,
	style: CursorStyle<A, P>,
): AsyncGenerator<Page> {
	const { itemIndex } = request;
	const size = endpoint.pageSize!;
	const progress = progressGuard(ctx, endpoint, itemIndex);
	// The cursors asked: one that comes back is asked once more (`reasked`); back again, an error.
	const cursors = new Set<string>();
	let reasked = false;
	while (limit.left() > 0) {
		const page = style.read(
			await style.ask(nextPageSize(size, request, limit.left())),
			limit.left(),
		);
		const { items, more } = page;
		yield limit.take(items.length > 0 || more ? progress(items, { reasked }) : items);
		if (!more) return;
		const cursor = style.follow(page);
		if (!cursors.has(cursor)) {
			cursors.add(cursor);
			reasked = false;
			continue;
		}
		if (reasked)
			throw listError(
				ctx,
				endpoint,
				itemIndex,
				`Spendesk sent the same page cursor twice for ${callName(ctx, { itemIndex })}`,
				'The list would never end, so the node stopped.',
			);
		reasked = true;
	}
	limit.truncated = true;
}
