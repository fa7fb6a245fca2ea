/** Single-object endpoints (pagination `none`): one call; its `data` list, or its one object (else the body), is the page. */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import type { ItemLimit } from './limit';
import { bodyItems } from './strategy';
import type { ListRequest, Page } from './strategy';

export async function* singleStrategy(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	limit: ItemLimit,
): AsyncGenerator<Page> {
	const { body } = await callSpendesk<IDataObject>(ctx, endpoint, request);
	yield limit.take(bodyItems(body));
}
