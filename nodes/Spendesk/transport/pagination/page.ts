/**
 * Page-based lists (`page` and a page size; also the `result` pages of a snapshot): stop
 * when `total` says the last page was read; a 404 on a later page also ends the list, a 404
 * on page 1 is an error.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { pagePlan } from './limit';
import type { ItemLimit } from './limit';
import { asItems } from './strategy';
import type { ListRequest, Page } from './strategy';

export async function* pageStrategy(ctx: SpendeskContext, endpoint: Endpoint, request: ListRequest, limit: ItemLimit): AsyncGenerator<Page> {
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
	for (let page = 1; limit.left() > 0; page++) {
		let body: IDataObject | undefined;
		if (page === 1 && firstBody) {
			body = firstBody;
		} else {
			const qs = { ...request.qs, page, [size.param]: pageSize };
			const response = await callSpendesk<IDataObject>(ctx, endpoint, { ...request, qs, allowNotFound: page > 1 });
			if (response.status === 404) return;
			body = response.body;
		}
		const content = envelope(body ?? {});
		yield limit.take(asItems(content.data));
		const pagination = ((content.meta as IDataObject | undefined)?.pagination ?? {}) as IDataObject;
		const total = Number(pagination.total);
		const served = Number(pagination.pageSize) || pageSize;
		if (asItems(content.data).length === 0) return;
		if (Number.isFinite(total) && page * served >= total) return;
	}
	limit.truncated();
}
