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
import { transportSettings } from '../settings';
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

const DEFAULT_MAX_WAIT_MS = 5 * 60_000;
const LONGEST_MAX_WAIT_MS = 3600_000;
const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 5000;

/** A number of milliseconds, or `fallback` when it is not a finite number. */
const msOr = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

/**
 * Polls the snapshot (its first page) until it is COMPLETE and returns that body. Pauses
 * double from `snapshotPollMs` up to 5 s, never shorter than `snapshotMinPollMs`; fails on
 * ERROR or once `snapshotMaxWaitMs` (at most an hour) has passed since the first poll. A wait
 * or pause that is not a number falls back to its default, so polling is always bounded and spaced.
 */
async function whenComplete(ctx: SpendeskContext, endpoint: Endpoint, call: ListRequest, qs: IDataObject, key: string | undefined): Promise<IDataObject> {
	const maxWait = Math.min(Math.max(0, msOr(call.snapshotMaxWaitMs, DEFAULT_MAX_WAIT_MS)), LONGEST_MAX_WAIT_MS);
	const minPause = transportSettings.snapshotMinPollMs;
	let pause = Math.max(minPause, msOr(call.snapshotPollMs, FIRST_PAUSE_MS));
	const started = Date.now();
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
		const waited = Date.now() - started;
		if (waited >= maxWait) {
			throw new NodeOperationError(ctx.getNode(), `The payables snapshot was not ready after ${Math.round(waited / 1000)} s`, {
				description: 'Spendesk is still building it. Run the node again later: the same filters return the same snapshot for about 12 hours, so the wait is not lost.',
				itemIndex: call.itemIndex,
			});
		}
		await sleep(Math.max(minPause, Math.min(pause, maxWait - waited)));
		pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
	}
}
