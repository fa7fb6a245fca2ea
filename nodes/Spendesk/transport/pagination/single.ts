/** Single-object endpoints (pagination `none`): one call; its `data` list, or its one object (else the body), is the page. */
import type { IDataObject } from 'n8n-workflow';
import { callSpendesk } from '../request';
import { bodyItems } from './response';
import type { PageStrategy } from './strategy';

export const singleStrategy: PageStrategy = async function* (ctx, endpoint, request, limit) {
	const { body } = await callSpendesk<IDataObject>(ctx, endpoint, request);
	yield limit.take(bodyItems(body));
};
