/**
 * What every list style has in common: the list request, the page, the signature of a
 * style's strategy, and the reads and errors the styles share.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import { callName } from '../callName';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import type { CallOptions } from '../call';
import { transportSettings } from '../settings';
import type { ItemLimit } from './limit';

export interface ListRequest extends Omit<CallOptions, 'url' | 'allowNotFound' | 'body'> {
	/** The JSON body of list calls that take one (body cursor, snapshot create). */
	body?: IDataObject;
	/** Stop after this many items; undefined = Return All. */
	limit?: number;
	/** Page size to use instead of the endpoint's maximum (never above it). */
	pageSize?: number;
	/** Payables snapshot: how long to wait for the snapshot to be built. */
	snapshotMaxWaitMs?: number;
	/**
	 * Payables snapshot: first pause between two creates answered 409 (doubles up to 5 s; never
	 * under transportSettings.statusPollMinMs). Status polls keep transportSettings.snapshotPollIntervalMs.
	 */
	snapshotPollMs?: number;
	/** Set to true when the Limit left results unread. */
	progress?: { truncated: boolean };
	/**
	 * The reader takes every page until the list or the Limit ends (eachPage): a cursor list may
	 * then ask its next page while it hands out the one it has. Without it, nothing is asked
	 * before the reader wants the next page (a reader may stop early, as the trigger does).
	 */
	readsToEnd?: boolean;
}

export type Page = IDataObject[];

/** One list style: the pages of `endpoint` for `request`, read until the list or the Limit ends. */
export type PageStrategy = (
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	limit: ItemLimit,
) => AsyncGenerator<Page>;

const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/** An API value as an item: an object as it is, anything else under `value` (never spread into characters). */
export function asItem(value: unknown): IDataObject {
	return isObject(value) ? value : { value: value as IDataObject[string] };
}

/** The items of a `data` field (none when it is not a list); entries that are not objects come under `value`. */
export function asItems(value: unknown): Page {
	if (!Array.isArray(value)) return [];
	return value.every(isObject) ? (value as Page) : value.map(asItem);
}

/**
 * The object of a single-object answer, wrapped or bare: `{ data: object }` gives the object,
 * any other object body is the object itself (the vendor answers a payable at the top level;
 * docs/api.md#variations). Undefined when the body is not an object.
 */
export function singleObject(body: unknown): IDataObject | undefined {
	if (!isObject(body)) return undefined;
	return isObject(body.data) ? body.data : body;
}

/** The items of a single-object answer: its `data` list, else its one object (singleObject), else the whole body. */
export function bodyItems(body: unknown): Page {
	const data = isObject(body) ? body.data : undefined;
	if (Array.isArray(data)) return asItems(data);
	const one = singleObject(body);
	if (one) return [one];
	return Array.isArray(body) ? asItems(body) : [asItem(body)];
}

/** What tells an item apart: its `id`, else its content (never equal to a text id). */
function identity(item: IDataObject): string | number {
	const id = item.id;
	return typeof id === 'string' || typeof id === 'number' ? id : `\u0000${JSON.stringify(item)}`;
}

/** Options of one call of a progress guard. */
export interface PageCheck {
	/** The page answers a cursor asked again on purpose: items already received are expected. */
	reasked?: boolean;
}

/**
 * Watches a list for progress, so that it can never loop forever nor hand out an item twice
 * (a server handing out ever-new cursors over the same items, an offset or page it ignores, a
 * last page repeating the one before, empty pages without end, or a Custom API Call paging an
 * endpoint the wrong way). Call it with each page's items before yielding them, the last page
 * included: it gives back the items not already received on the previous two pages (pages that
 * overlap give no duplicates); a page holding only items already received is an error at once
 * (unless it answers a cursor asked again on purpose), and so are `maxEmptyPages` empty pages
 * in a row. Memory stays bounded: only the identities of the last two pages are kept.
 */
export function progressGuard(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	itemIndex?: number,
): (items: Page, check?: PageCheck) => Page {
	/** Identities of the page before the last one, and of the last one. */
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

/**
 * Spendesk answered a page whose way on the node cannot read (`what`, e.g. a next-page cursor it
 * cannot send back; `detail`, what came): an error, never a list cut short without telling.
 */
export function unreadablePaging(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	what: string,
	detail: string,
	itemIndex?: number,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`Spendesk answered ${what} for ${callName(ctx, { itemIndex })} (${detail})`,
		{
			description: `The node cannot tell how the list goes on, and returns none of the items read so far rather than a list cut short without telling. Run it again; if it happens every time, report it to Spendesk support ${naming(endpoint)}.`,
			itemIndex,
		},
	);
}

/** How a report to Spendesk support names the call: its method and path, as the API knows it. */
export function naming(endpoint: Endpoint): string {
	return `naming the call ${endpoint.method} ${endpoint.path}`;
}

function endlessList(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	itemIndex: number | undefined,
	what: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Spendesk ${what}`, {
		description: `Reading on would never end, so the node stopped. With a Custom API Call, check that 'Pagination' matches how the endpoint pages (page, cursor, offset or body cursor, or None). Otherwise run the node again; if it happens every time, report it to Spendesk support ${naming(endpoint)}.`,
		itemIndex,
	});
}

/**
 * The cursors a cursor or body-cursor list has asked. A cursor that comes back once is a
 * hiccup: it is asked once more (the items already received come again and are dropped);
 * repeated again, the list would never end, and it is an error.
 */
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
		if (this.reasked) throw repeatedCursor(this.ctx, this.endpoint, this.itemIndex);
		this.reasked = true;
	}
}

function repeatedCursor(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	itemIndex?: number,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`Spendesk sent the same page cursor twice for ${callName(ctx, { itemIndex })}`,
		{
			description: `The list would never end, so the node stopped. Run it again; if it happens every time, report it to Spendesk support ${naming(endpoint)}.`,
			itemIndex,
		},
	);
}
