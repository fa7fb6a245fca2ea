/**
 * Page-based lists (`page` and a page size; also the `result` pages of a snapshot): stop
 * once `total` items have arrived (unless the pages proved it wrong: then on a short page),
 * never on page arithmetic, as a server may serve fewer items a page than asked; an empty
 * page or a 404 on a later page also ends the list, a 404 on page 1 is an error, and a page
 * that brings nothing new (a page number the server ignores) is an error.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { pagePlan } from './limit';
import type { ItemLimit } from './limit';
import { asItems, progressGuard } from './strategy';
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
 * Reads the pages of a page-based list. `envelope` finds the list (`data`, `meta`) in a
 * response body; `firstBody` is page 1 when it has been read already.
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
	let received = 0;
	for (let page = 1; limit.left() > 0; page++) {
		let body: IDataObject | undefined;
		if (page === 1 && firstBody) {
			body = firstBody;
		} else {
			const qs = { ...request.qs, page, [size.param]: pageSize };
			const response = await callSpendesk<IDataObject>(ctx, endpoint, {
				...request,
				qs,
				allowNotFound: page > 1,
			});
			if (response.status === 404) return;
			body = response.body;
		}
		const content = envelope(body ?? {});
		const items = asItems(content.data);
		const pagination = ((content.meta as IDataObject | undefined)?.pagination ?? {}) as IDataObject;
		received += items.length;
		const served = Number(pagination.pageSize) || pageSize;
		const end =
			items.length === 0 || lastPage(Number(pagination.total), received, items.length < served);
		// Every page is checked, the last one too: a last page repeating the one before is an error.
		yield limit.take(items.length > 0 || !end ? progress(items) : items);
		if (end) return;
	}
	limit.truncated();
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
