/**
 * Page lists (`page` and a page size; a snapshot's `result` pages): the end comes from the
 * items received against `total`, never page arithmetic; an empty page or a 404 past page 1 ends
 * the list too. A bare array (no total) ends on a page shorter than asked.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { PagesAhead } from './ahead';
import { unreadableList } from './errors';
import { pagePlan } from './limit';
import type { ItemLimit } from './limit';
import { readPageList } from './response';
import type { Page, PageListBody } from './response';
import { progressGuard } from './strategy';
import type { ListRequest, PageStrategy } from './strategy';

export const pageStrategy: PageStrategy = (ctx, endpoint, request, limit) =>
	readPages(ctx, endpoint, request, limit, (body) => body);

/**
 * Reads a page list; `envelope` finds the list in a body, `firstBody` is page 1 when read
 * already. Once page 1 gives a `total`, the pages still needed are read ahead and handed out in
 * order through the same checks; if they did not end the list, it goes on page by page.
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
			if (page === 1 && !end && Number.isFinite(total) && items.length > 0) {
				// Pages 2 to `last`, named as they are asked: a total of 1e12 plans nothing in memory.
				const last = Math.ceil(Math.min(total, limit.max) / items.length);
				if (total > items.length && last >= 2) ahead = new PagesAhead(last - 1, (i) => i + 2, ask);
			}
			// Every page is checked, the last one too: a last page repeating the one before is an error.
			yield limit.take(items.length > 0 || !end ? progress(items) : items);
			if (end) return;
		}
		limit.truncated = true;
	} finally {
		await ahead?.stop();
	}
}

/**
 * Whether a non-empty page is the last: a bare array's page shorter than asked; else once
 * `total` items arrived, or, with a `total` the pages proved wrong, a short page.
 */
function isLast(list: PageListBody, total: number, received: number, asked: number): boolean {
	if (list.bare) return list.items.length < asked;
	if (!Number.isFinite(total)) return false;
	if (received <= total) return received >= total;
	const served = Number(list.pagination.pageSize) || asked;
	return list.items.length < served;
}
