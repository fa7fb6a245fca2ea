/** Single-object endpoints (pagination `none`): one call; its `data` list, or its one object, is the page. */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import type { ItemLimit } from './limit';
import type { ListRequest, Page } from './strategy';

export async function* singleStrategy(ctx: SpendeskContext, endpoint: Endpoint, request: ListRequest, limit: ItemLimit): AsyncGenerator<Page> {
	const { body } = await callSpendesk<IDataObject>(ctx, endpoint, request);
	const data = body?.data;
	yield limit.take(Array.isArray(data) ? (data as Page) : [((data as IDataObject | undefined) ?? body) as IDataObject]);
}
