/**
 * The pagination engine: one async iterator over pages of items for every list style of
 * the API (page, cursor, offset, body cursor, snapshot `result` pages).
 *
 * Fewest requests: with Return All the page size is the endpoint's maximum; with a Limit
 * it asks for no more than is still needed and stops as soon as the Limit is reached.
 * Page lists stop when `total` says the last page was read; cursor lists on
 * `hasNextPage: false`; offset lists at `totalResults`; body cursors on a null `nextCursor`.
 * A cursor that comes back twice is an error, so a list can never loop forever.
 */
import { NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import { endpointOf } from './endpoints';
import type { Endpoint, EndpointRef, PageSize } from './endpoints';
import { resolveCredential } from './credential';
import type { SpendeskContext } from './credential';
import { callSpendesk } from './request';
import type { CallOptions } from './request';

export interface ListRequest extends Omit<CallOptions, 'url' | 'allowNotFound'> {
	/** Stop after this many items; undefined = Return All. */
	limit?: number;
	/** Page size to use instead of the endpoint's maximum (never above it). */
	pageSize?: number;
	/** Payables snapshot: how long to wait for the snapshot to be built. */
	snapshotMaxWaitMs?: number;
	/** Payables snapshot: first pause between status polls (doubles up to 5 s). */
	snapshotPollMs?: number;
	/** Set to true when the Limit left results unread. */
	progress?: { truncated: boolean };
}

type Page = IDataObject[];

/** The Limit of one list, shared by the strategies: what is left, and the cut. */
interface Budget {
	/** Keeps what still fits under the Limit (and notes a cut). */
	take: (items: Page) => Page;
	left: () => number;
	/** Notes that the Limit stopped the list while the API had more. */
	truncated: () => void;
}

/** Size of the next page: the endpoint maximum, or just what the Limit still needs. */
function nextPageSize(size: PageSize, request: ListRequest, remaining: number): number {
	const cap = Math.min(size.max, request.pageSize ?? size.max);
	return Math.max(1, Math.min(cap, remaining));
}

/**
 * Page size of a page-based list: as few pages as the maximum page size allows, but no
 * more items than the Limit needs (45 items → 2 pages of 23, not 30 + 30).
 */
function pagePlan(size: PageSize, request: ListRequest, limit: number): number {
	const cap = Math.min(size.max, request.pageSize ?? size.max);
	if (!Number.isFinite(limit)) return cap;
	return Math.max(1, Math.ceil(limit / Math.ceil(limit / cap)));
}

function asItems(value: unknown): Page {
	return Array.isArray(value) ? (value as Page) : [];
}

function repeatedCursor(ctx: SpendeskContext, endpoint: Endpoint, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Spendesk sent the same page cursor twice for "${endpoint.label}"`, {
		description: 'The list would never end, so the node stopped. Run it again; if it happens every time, report it to Spendesk support with the endpoint name.',
		itemIndex,
	});
}

/** Async iterator over pages of items of a list endpoint. */
export async function* paginate(ctx: SpendeskContext, name: EndpointRef, request: ListRequest = {}): AsyncGenerator<Page> {
	const endpoint = endpointOf(name);
	const limit = request.limit ?? Infinity;
	if (limit <= 0) return;
	let delivered = 0;
	const truncated = () => {
		if (request.progress) request.progress.truncated = true;
	};
	const take = (items: Page): Page => {
		if (items.length <= limit - delivered) {
			delivered += items.length;
			return items;
		}
		truncated();
		const slice = items.slice(0, limit - delivered);
		delivered += slice.length;
		return slice;
	};
	const budget: Budget = { take, left: () => limit - delivered, truncated };

	switch (endpoint.pagination) {
		case 'none': {
			const { body } = await callSpendesk<IDataObject>(ctx, name, request);
			const data = body?.data;
			yield take(Array.isArray(data) ? (data as Page) : [((data as IDataObject | undefined) ?? body) as IDataObject]);
			return;
		}

		case 'page': {
			yield* pageStyle(ctx, name, request, limit, budget, (body) => body);
			return;
		}

		case 'snapshot': {
			yield* snapshotStyle(ctx, name, request, limit, budget);
			return;
		}

		case 'cursor': {
			const size = endpoint.pageSize!;
			const { origin } = await resolveCredential(ctx);
			const seen = new Set<string>();
			let cursor: string | undefined;
			let nextUrl: URL | undefined;
			while (delivered < limit) {
				const qs = { ...request.qs, [size.param]: nextPageSize(size, request, limit - delivered) };
				let url: string | undefined;
				if (nextUrl) {
					// Follow the API's ready-made link (same origin only), with the page size we need.
					nextUrl.searchParams.set(size.param, String(qs[size.param]));
					url = nextUrl.toString();
				} else if (cursor !== undefined) {
					qs.cursor = cursor;
				}
				const { body } = await callSpendesk<IDataObject>(ctx, name, { ...request, qs: url ? undefined : qs, url });
				yield take(asItems(body?.data));
				const pagination = ((body?.meta as IDataObject | undefined)?.pagination ?? {}) as IDataObject;
				const nextCursor = typeof pagination.nextCursor === 'string' && pagination.nextCursor ? pagination.nextCursor : undefined;
				if (pagination.hasNextPage !== true || !nextCursor) return;
				if (seen.has(nextCursor)) throw repeatedCursor(ctx, endpoint, request.itemIndex);
				seen.add(nextCursor);
				cursor = nextCursor;
				const link = parseUrl(pagination.nextUrl);
				nextUrl = link && link.origin === origin && link.searchParams.get('cursor') === nextCursor ? link : undefined;
			}
			// The loop ended on the Limit while the API still had pages.
			truncated();
			return;
		}

		case 'offset': {
			const size = endpoint.pageSize!;
			let offset = Number(request.qs?.offset ?? 0);
			while (delivered < limit) {
				const qs = { ...request.qs, offset, [size.param]: nextPageSize(size, request, limit - delivered) };
				const { body } = await callSpendesk<IDataObject>(ctx, name, { ...request, qs });
				const items = asItems(body?.data);
				yield take(items);
				offset += items.length;
				const total = Number(body?.totalResults);
				if (items.length === 0 || (Number.isFinite(total) && offset >= total)) return;
			}
			truncated();
			return;
		}

		case 'bodyCursor': {
			const size = endpoint.pageSize!;
			const seen = new Set<string>();
			let cursor: string | undefined;
			while (delivered < limit) {
				const body: IDataObject = { ...request.body, [size.param]: nextPageSize(size, request, limit - delivered) };
				if (cursor !== undefined) body.cursor = cursor;
				const response = await callSpendesk<IDataObject>(ctx, name, { ...request, body });
				yield take(asItems(response.body?.data));
				const nextCursor = response.body?.nextCursor;
				if (typeof nextCursor !== 'string' || !nextCursor) return;
				if (seen.has(nextCursor)) throw repeatedCursor(ctx, endpoint, request.itemIndex);
				seen.add(nextCursor);
				cursor = nextCursor;
			}
			truncated();
			return;
		}
	}
}

/**
 * Page-based lists (also inside a snapshot's `result`): stop when `total` says the last page
 * was read; a 404 on a later page also ends the list, a 404 on page 1 is an error.
 */
async function* pageStyle(
	ctx: SpendeskContext,
	name: EndpointRef,
	request: ListRequest,
	limit: number,
	budget: Budget,
	envelope: (body: IDataObject) => IDataObject,
	firstBody?: IDataObject,
): AsyncGenerator<Page> {
	const size = endpointOf(name).pageSize!;
	const pageSize = pagePlan(size, request, limit);
	for (let page = 1; budget.left() > 0; page++) {
		let body: IDataObject | undefined;
		if (page === 1 && firstBody) {
			body = firstBody;
		} else {
			const qs = { ...request.qs, page, [size.param]: pageSize };
			const response = await callSpendesk<IDataObject>(ctx, name, { ...request, qs, allowNotFound: page > 1 });
			if (response.status === 404) return;
			body = response.body;
		}
		const content = envelope(body ?? {});
		yield budget.take(asItems(content.data));
		const pagination = ((content.meta as IDataObject | undefined)?.pagination ?? {}) as IDataObject;
		const total = Number(pagination.total);
		const served = Number(pagination.pageSize) || pageSize;
		if (asItems(content.data).length === 0) return;
		if (Number.isFinite(total) && page * served >= total) return;
	}
	budget.truncated();
}

/**
 * Payables snapshot: create it with the endpoint's `snapshotCreate` entry (same filters give
 * the same key), poll until COMPLETE (or ERROR, or the wait bound), then read the `result`
 * pages. An endpoint without `snapshotCreate` has the key in its path and creates nothing.
 */
async function* snapshotStyle(
	ctx: SpendeskContext,
	name: EndpointRef,
	request: ListRequest,
	limit: number,
	budget: Budget,
): AsyncGenerator<Page> {
	const endpoint = endpointOf(name);
	let key: unknown = request.pathParams?.key;
	if (endpoint.snapshotCreate) {
		const created = await callSpendesk<IDataObject>(ctx, endpoint.snapshotCreate, {
			...request,
			qs: undefined,
			body: request.body ?? {},
		});
		key = created.body?.key;
	}
	if (endpoint.snapshotCreate && (typeof key !== 'string' || !key)) {
		throw new NodeOperationError(ctx.getNode(), 'Spendesk did not return a snapshot key', {
			description: 'The snapshot could not be created. Try again later.',
			itemIndex: request.itemIndex,
		});
	}
	const size = endpoint.pageSize!;
	const pageSize = pagePlan(size, request, limit);
	const maxWait = request.snapshotMaxWaitMs ?? 5 * 60_000;
	let pause = request.snapshotPollMs ?? 500;
	let waited = 0;
	const call = { ...request, body: undefined, pathParams: { ...request.pathParams, ...(typeof key === 'string' ? { key } : {}) } };
	for (;;) {
		const { body } = await callSpendesk<IDataObject>(ctx, name, { ...call, qs: { ...request.qs, page: 1, [size.param]: pageSize } });
		const status = String(body?.status ?? '');
		if (status === 'COMPLETE') {
			yield* pageStyle(ctx, name, { ...call, pageSize }, limit, budget, (b) => (b.result ?? {}) as IDataObject, body);
			return;
		}
		if (status === 'ERROR') {
			throw new NodeOperationError(ctx.getNode(), `Spendesk could not build the payables snapshot (key ${String(key)})`, {
				description: 'The snapshot ended with status ERROR. Run the node again; if it fails again, narrow the filters or contact Spendesk support.',
				itemIndex: request.itemIndex,
			});
		}
		if (waited >= maxWait) {
			throw new NodeOperationError(ctx.getNode(), `The payables snapshot was not ready after ${Math.round(waited / 1000)} s`, {
				description: 'Spendesk is still building it. Run the node again later: the same filters return the same snapshot for about 12 hours, so the wait is not lost.',
				itemIndex: request.itemIndex,
			});
		}
		const wait = Math.min(pause, maxWait - waited);
		await sleep(wait);
		waited += wait;
		pause = Math.min(pause * 2, 5000);
	}
}

/** Drains a list into one array (respecting the Limit). */
export async function collect(ctx: SpendeskContext, name: EndpointRef, request: ListRequest = {}): Promise<IDataObject[]> {
	return (await collectList(ctx, name, request)).items;
}

/** Drains a list and tells whether the Limit left results unread. */
export async function collectList(
	ctx: SpendeskContext,
	name: EndpointRef,
	request: ListRequest = {},
): Promise<{ items: IDataObject[]; truncated: boolean }> {
	const progress = { truncated: false };
	const items: IDataObject[] = [];
	for await (const page of paginate(ctx, name, { ...request, progress })) items.push(...page);
	return { items, truncated: progress.truncated };
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
