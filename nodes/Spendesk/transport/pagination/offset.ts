/**
 * Offset lists (`offset` and a page size in the query): advance by the items that arrived
 * (those of a page overlapping the previous ones are dropped, not counted); stop at
 * `totalResults` or on an empty page. A page that brings nothing new (an offset the server
 * ignores) is an error.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { nextPageSize } from './limit';
import type { ItemLimit } from './limit';
import { asItems, progressGuard } from './strategy';
import type { ListRequest, Page } from './strategy';

export async function* offsetStrategy(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	limit: ItemLimit,
): AsyncGenerator<Page> {
	const size = endpoint.pageSize!;
	const progress = progressGuard(ctx, endpoint, request.itemIndex);
	let offset = Number(request.qs?.offset ?? 0);
	while (limit.left() > 0) {
		const qs = { ...request.qs, offset, [size.param]: nextPageSize(size, request, limit.left()) };
		const { body } = await callSpendesk<IDataObject>(ctx, endpoint, { ...request, qs });
		const items = asItems(body?.data);
		const total = Number(body?.totalResults);
		// Items of the previous pages again (pages that overlap) are dropped, and the offset
		// advances by the new ones only, so nothing is skipped either.
		const fresh = items.length > 0 ? progress(items) : items;
		offset += fresh.length;
		const end = items.length === 0 || (Number.isFinite(total) && offset >= total);
		yield limit.take(fresh);
		if (end) return;
	}
	limit.truncated();
}
