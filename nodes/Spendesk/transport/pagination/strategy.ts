/**
 * What every list style has in common: the list request, the signature of a style's strategy,
 * and the guards that keep its loop from running forever.
 */
import type { IDataObject } from 'n8n-workflow';
import { callName } from '../callName';
import type { CallOptions } from '../call';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { transportSettings } from '../settings';
import { endlessList, listError } from './errors';
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
	/** The reader takes every page (not the trigger): a cursor list may ask its next page ahead. */
	readsToEnd?: boolean;
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
		const fresh = items.filter((item) => {
			const key = identity(item);
			page.add(key);
			return !newer.has(key) && !older.has(key);
		});
		if (fresh.length === 0 && !check.reasked)
			throw endlessList(
				ctx,
				endpoint,
				itemIndex,
				`sent the same items again for ${callName(ctx, { itemIndex })}: the list is not moving forward`,
			);
		older = newer;
		newer = page;
		return fresh.length === items.length ? items : fresh;
	};
}

/** The cursors a list has asked: one that comes back is asked once more; back again, an error. */
export class CursorsAsked {
	/** The request being sent asks a repeated cursor once more. */
	reasked = false;
	private readonly seen = new Set<string>();

	constructor(
		private readonly ctx: SpendeskContext,
		private readonly endpoint: Endpoint,
		private readonly itemIndex: number | undefined,
	) {}

	/** Takes `cursor` when it was never asked; false, and nothing taken, otherwise. */
	takeNew(cursor: string): boolean {
		if (this.seen.has(cursor)) return false;
		this.seen.add(cursor);
		this.reasked = false;
		return true;
	}

	/** Takes `cursor`, new or repeated once; a cursor repeated again is the error. */
	take(cursor: string): void {
		if (this.takeNew(cursor)) return;
		const { ctx, endpoint, itemIndex } = this;
		if (this.reasked)
			throw listError(
				ctx,
				endpoint,
				itemIndex,
				`Spendesk sent the same page cursor twice for ${callName(ctx, { itemIndex })}`,
				'The list would never end, so the node stopped.',
			);
		this.reasked = true;
	}
}
