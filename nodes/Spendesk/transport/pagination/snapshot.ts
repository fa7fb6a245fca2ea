/**
 * Snapshot lists (payables): create the snapshot (`snapshotCreate`; same filters, same key), poll
 * until COMPLETE (the first poll at once, then at most one a minute), read its `result` pages.
 * Spendesk builds one snapshot per company at a time and answers 409 to another meanwhile: the
 * snapshots of one credential and company are built one after the other here, and a 409
 * (another client's) is waited out within the same Max Wait.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import { companyLabel } from '../companyLabel';
import { resolveCredential } from '../credential';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { flowControl, retryAfterMs } from '../limiter';
import { callSpendesk } from '../request';
import { transportSettings } from '../settings';
import { FIRST_PAUSE_MS, untilComplete } from '../statusPoll';
import { pagePlan } from './limit';
import { readPages } from './page';
import type { ListRequest, PageStrategy } from './strategy';

const DEFAULT_MAX_WAIT_MS = 10 * 60_000;
const LONGEST_MAX_WAIT_MS = 3600_000;

const msOr = (value: unknown, fallback: number): number =>
	typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** How long a snapshot may take (create, 409s and polls together), from when it started. */
type WaitBound = { started: number; maxWaitMs: number; firstPauseMs: number };

export const snapshotStrategy: PageStrategy = async function* (ctx, endpoint, request, limit) {
	const size = endpoint.pageSize!;
	const pageSize = pagePlan(size, request, limit.max);
	const credential = await resolveCredential(ctx);
	const company = request.company?.trim() || credential.ownCompanyId || '';
	const { call, first } = await flowControl.exclusive(
		`snapshot|${credential.key}|${company}`,
		async () => {
			// Max Wait (at most an hour) counts from when this snapshot's turn comes.
			const bound: WaitBound = {
				started: Date.now(),
				maxWaitMs: Math.min(
					Math.max(0, msOr(request.snapshotMaxWaitMs, DEFAULT_MAX_WAIT_MS)),
					LONGEST_MAX_WAIT_MS,
				),
				firstPauseMs: Math.max(
					transportSettings.statusPollMinMs,
					msOr(request.snapshotPollMs, FIRST_PAUSE_MS),
				),
			};
			const key = await snapshotKey(ctx, endpoint, request, company, bound);
			const call: ListRequest = {
				...request,
				body: undefined,
				pageSize,
				pathParams: { ...request.pathParams, ...(typeof key === 'string' ? { key } : {}) },
			};
			const qs = { ...request.qs, page: 1, [size.param]: pageSize };
			return { call, first: await whenComplete(ctx, endpoint, { ...call, qs }, key, bound) };
		},
	);
	yield* readPages(ctx, endpoint, call, limit, (b) => (b.result ?? {}) as IDataObject, first);
};

/** The snapshot's key: from the create step (a 409 waited out), or the one in the path parameters. */
async function snapshotKey(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	company: string,
	bound: WaitBound,
): Promise<string | undefined> {
	const create = endpoint.snapshotCreate;
	if (!create) return request.pathParams?.key;
	return await untilComplete({
		ask: async () => {
			const created = await callSpendesk<IDataObject>(ctx, create, {
				...request,
				qs: undefined,
				body: request.body ?? {},
				acceptStatus: [409],
			});
			// 409: another snapshot of the company is being built; ask again when it may be done.
			if (created.status === 409) return { status: 'BUSY', pauseMs: retryAfterMs(created.headers) };
			const key = created.body?.key;
			if (typeof key !== 'string' || !key)
				throw new NodeOperationError(ctx.getNode(), 'Spendesk did not return a snapshot key', {
					description: 'The snapshot could not be created. Try again later.',
					itemIndex: request.itemIndex,
				});
			return { status: 'COMPLETE', value: key };
		},
		...bound,
		timedOut: (waited) =>
			new NodeOperationError(
				ctx.getNode(),
				`Another payables snapshot of ${companyLabel(company)} was still being built after ${Math.round(waited / 1000)} s`,
				{
					description:
						"Spendesk builds one payables snapshot per company at a time and answered 409 until 'Max Wait (Seconds)' ran out. Run the node again later, or raise 'Max Wait (Seconds)'.",
					itemIndex: request.itemIndex,
				},
			),
	});
}

/** The snapshot's first page, once it is COMPLETE. */
async function whenComplete(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	call: ListRequest,
	key: string | undefined,
	bound: WaitBound,
): Promise<IDataObject> {
	return await untilComplete({
		ask: async () => {
			const { body } = await callSpendesk<IDataObject>(ctx, endpoint, call);
			return { status: String(body?.status ?? ''), value: body };
		},
		...bound,
		intervalMs: transportSettings.snapshotPollIntervalMs,
		failed: () =>
			new NodeOperationError(
				ctx.getNode(),
				`Spendesk could not build the payables snapshot (key ${String(key)})`,
				{
					description:
						'The snapshot ended with the status "ERROR". Run the node again; if it happens again, narrow the filters or contact Spendesk support.',
					itemIndex: call.itemIndex,
				},
			),
		timedOut: (waited) =>
			new NodeOperationError(
				ctx.getNode(),
				`The payables snapshot was not ready after ${Math.round(waited / 1000)} s`,
				{
					description:
						'Spendesk is still building it. Run the node again later: the same filters return the same snapshot for about 12 hours, so the wait is not lost.',
					itemIndex: call.itemIndex,
				},
			),
	});
}
