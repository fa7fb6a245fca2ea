/**
 * Page-based lists (`page` and a page size; also the `result` pages of a snapshot): stop
 * once `total` items have arrived (unless the pages proved it wrong: then on a short page),
 * never on page arithmetic, as a server may serve fewer items a page than asked; an empty
 * page or a 404 on a later page also ends the list, a 404 on page 1 is an error, and a page
 * that brings nothing new (a page number the server ignores) is an error. A page answered as a
 * bare array (no total) ends the list when it is shorter than asked; an answer that is neither
 * `{data, meta}` nor an array is an error (pageList.ts), never an empty list.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { transportSettings } from '../settings';
import { PagesAhead } from './ahead';
import { pagePlan } from './limit';
import type { ItemLimit } from './limit';
import { readPageList, unreadableList } from './pageList';
import type { PageListBody } from './pageList';
import { progressGuard } from './strategy';
import type { ListRequest, Page } from './strategy';

export async function* pageStrategy(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	limit: ItemLimit,
): AsyncGenerator<Page> {
	yield* readPages(ctx, endpoint, request, limit, (body) => body);
}

/**
 * Reads the pages of a page-based list. `envelope` finds the list (`{data, meta}` or a bare
 * array) in a response body; `firstBody` is page 1 when it has been read already.
 *
 * Once page 1 has come with a `total` it does not contradict, the pages still needed (to the
 * total, or to the Limit) are read ahead concurrently (PagesAhead) and handed out in order,
 * each through the same checks as one read alone. A page past the end (404, empty, short)
 * ends the list as always; when the planned pages did not end it (a `total` the pages proved
 * wrong), the list goes on page by page.
 */
export async function* readPages(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	limit: ItemLimit,
	envelope: (body: IDataObject) => IDataObject,
	firstBody?: IDataObject,
): AsyncGenerator<Page> {
	const size = endpoint.pageSize!;
	const pageSize = pagePlan(size, request, limit.max);
	const progress = progressGuard(ctx, endpoint, request.itemIndex);
	/** A page's body, or undefined for a 404 past the end. */
	const ask = async (page: number): Promise<IDataObject | undefined> => {
		const qs = { ...request.qs, page, [size.param]: pageSize };
		const response = await callSpendesk<IDataObject>(ctx, endpoint, {
			...request,
			qs,
			allowNotFound: page > 1,
		});
		return response.status === 404 ? undefined : (response.body ?? {});
	};
	let ahead: PagesAhead<number, IDataObject | undefined> | undefined;
	let received = 0;
	try {
		for (let page = 1; limit.left() > 0; page++) {
			const body =
				page === 1 && firstBody ? firstBody : ahead?.left ? await ahead.take() : await ask(page);
			if (body === undefined) return;
			const content = envelope(body);
			const list = readPageList(content);
			if (!list)
				throw unreadableList(ctx, endpoint, request.company, page, content, request.itemIndex);
			const { items } = list;
			const total = Number(list.pagination.total);
			received += items.length;
			const end = items.length === 0 || isLast(list, total, received, pageSize);
			if (page === 1 && !end) ahead = readAhead(ask, total, items.length, limit.max);
			// Every page is checked, the last one too: a last page repeating the one before is an error.
			yield limit.take(items.length > 0 || !end ? progress(items) : items);
			if (end) return;
		}
		limit.truncated();
	} finally {
		await ahead?.stop();
	}
}

/**
 * The pages after page 1 that the `total` of page 1 (holding `perPage` items) says are
 * needed, no more than the Limit needs, read ahead; undefined without a `total` to go by.
 */
function readAhead(
	ask: (page: number) => Promise<IDataObject | undefined>,
	total: number,
	perPage: number,
	max: number,
): PagesAhead<number, IDataObject | undefined> | undefined {
	if (!Number.isFinite(total) || perPage <= 0 || total <= perPage) return undefined;
	const last = Math.ceil(Math.min(total, max) / perPage);
	// Pages 2 to `last`, named as they are asked: a total of 1e12 plans nothing in memory.
	return last >= 2
		? new PagesAhead(last - 1, (index) => index + 2, ask, transportSettings.maxInFlight)
		: undefined;
}

/**
 * Whether a non-empty page is the last: a bare array has no total, so a page shorter than the
 * size asked is the last (as public client code reads such lists); otherwise `lastPage`.
 */
function isLast(list: PageListBody, total: number, received: number, asked: number): boolean {
	if (list.bare) return list.items.length < asked;
	const served = Number(list.pagination.pageSize) || asked;
	return lastPage(total, received, list.items.length < served);
}

/**
 * Whether a page list ends with this page. `total` says so once that many items have arrived
 * (what arrived counts, not the pages times the size asked: a server may serve fewer than
 * asked); a `total` the pages proved wrong (more items received than it counts) is not
 * believed, and then a short page is the end. Without `total`, only an empty page (or a 404)
 * ends the list.
 */
function lastPage(total: number, received: number, short: boolean): boolean {
	if (!Number.isFinite(total)) return false;
	if (received <= total) return received >= total;
	return short;
}
