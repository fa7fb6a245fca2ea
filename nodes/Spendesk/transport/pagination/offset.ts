/** Offset lists (`offset` and a page size in the query): stop at `totalResults` or on an empty page. */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { nextPageSize } from './limit';
import type { ItemLimit } from './limit';
import { asItems } from './strategy';
import type { ListRequest, Page } from './strategy';

export async function* offsetStrategy(ctx: SpendeskContext, endpoint: Endpoint, request: ListRequest, limit: ItemLimit): AsyncGenerator<Page> {
	const size = endpoint.pageSize!;
	let offset = Number(request.qs?.offset ?? 0);
	while (limit.left() > 0) {
		const qs = { ...request.qs, offset, [size.param]: nextPageSize(size, request, limit.left()) };
		const { body } = await callSpendesk<IDataObject>(ctx, endpoint, { ...request, qs });
		const items = asItems(body?.data);
		yield limit.take(items);
		offset += items.length;
		const total = Number(body?.totalResults);
		if (items.length === 0 || (Number.isFinite(total) && offset >= total)) return;
	}
	limit.truncated();
}
