/**
 * Snapshot lists (payables): create the snapshot with the endpoint's `snapshotCreate` entry
 * (same filters give the same key), poll until COMPLETE (or ERROR, or the wait bound), then
 * read its `result` pages. An endpoint without `snapshotCreate` has the key in its path and
 * creates nothing.
 */
import { NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { pagePlan } from './limit';
import type { ItemLimit } from './limit';
import { readPages } from './page';
import type { ListRequest, Page } from './strategy';

export async function* snapshotStrategy(ctx: SpendeskContext, endpoint: Endpoint, request: ListRequest, limit: ItemLimit): AsyncGenerator<Page> {
	const key = await snapshotKey(ctx, endpoint, request);
	const size = endpoint.pageSize!;
	const pageSize = pagePlan(size, request, limit.max);
	const call = { ...request, body: undefined, pathParams: { ...request.pathParams, ...(typeof key === 'string' ? { key } : {}) } };
	const first = await whenComplete(ctx, endpoint, call, { ...request.qs, page: 1, [size.param]: pageSize }, key);
	yield* readPages(ctx, endpoint, { ...call, pageSize }, limit, (b) => (b.result ?? {}) as IDataObject, first);
}

/** The snapshot's key: from the create step, or (no create step) the one in the path parameters. */
async function snapshotKey(ctx: SpendeskContext, endpoint: Endpoint, request: ListRequest): Promise<string | undefined> {
	if (!endpoint.snapshotCreate) return request.pathParams?.key;
	const created = await callSpendesk<IDataObject>(ctx, endpoint.snapshotCreate, {
		...request,
		qs: undefined,
		body: request.body ?? {},
	});
	const key = created.body?.key;
	if (typeof key !== 'string' || !key) {
		throw new NodeOperationError(ctx.getNode(), 'Spendesk did not return a snapshot key', {
			description: 'The snapshot could not be created. Try again later.',
			itemIndex: request.itemIndex,
		});
	}
	return key;
}

/**
 * Polls the snapshot (its first page) until it is COMPLETE and returns that body. Pauses
 * double from `snapshotPollMs` up to 5 s; fails on ERROR or after `snapshotMaxWaitMs`.
 */
async function whenComplete(ctx: SpendeskContext, endpoint: Endpoint, call: ListRequest, qs: IDataObject, key: string | undefined): Promise<IDataObject> {
	const maxWait = call.snapshotMaxWaitMs ?? 5 * 60_000;
	let pause = call.snapshotPollMs ?? 500;
	let waited = 0;
	for (;;) {
		const { body } = await callSpendesk<IDataObject>(ctx, endpoint, { ...call, qs });
		const status = String(body?.status ?? '');
		if (status === 'COMPLETE') return body;
		if (status === 'ERROR') {
			throw new NodeOperationError(ctx.getNode(), `Spendesk could not build the payables snapshot (key ${String(key)})`, {
				description: 'The snapshot ended with status ERROR. Run the node again; if it fails again, narrow the filters or contact Spendesk support.',
				itemIndex: call.itemIndex,
			});
		}
		if (waited >= maxWait) {
			throw new NodeOperationError(ctx.getNode(), `The payables snapshot was not ready after ${Math.round(waited / 1000)} s`, {
				description: 'Spendesk is still building it. Run the node again later: the same filters return the same snapshot for about 12 hours, so the wait is not lost.',
				itemIndex: call.itemIndex,
			});
		}
		const wait = Math.min(pause, maxWait - waited);
		await sleep(wait);
		waited += wait;
		pause = Math.min(pause * 2, 5000);
	}
}
