/**
 * One poll at a time per trigger. n8n runs a polling trigger on its schedule without waiting
 * for the previous poll, and both share the workflow's static data: a poll that starts while
 * the previous one still runs is skipped (it emits nothing and changes nothing).
 *
 * The guard lives in this n8n process, not in the static data: n8n saves it only after a poll
 * returned, so a marker there would reach no other process and could outlive a crash. A poll
 * with no answer from the API for STALE_POLL_MS is taken as stuck: the next poll takes over,
 * and the stuck one, should it ever end, emits and saves nothing.
 */
import type { IPollFunctions } from 'n8n-workflow';

export const STALE_POLL_MS = 30 * 60_000;

export interface PollLease {
	/** Last sign of progress (start, or an answer of the API), ms. */
	alive: number;
}

/** Leases by workflow and node, or by the static data object when the workflow has no id. */
const leases = new Map<string | object, PollLease>();

function keyOf(ctx: IPollFunctions, data: object): string | object {
	const workflowId = ctx.getWorkflow().id;
	if (workflowId === undefined || workflowId === '') return data;
	return JSON.stringify([String(workflowId), ctx.getNode().id]);
}

/** Starts a poll, or returns undefined when the trigger's previous poll is still running. */
export function beginPoll(ctx: IPollFunctions, data: object): PollLease | undefined {
	const key = keyOf(ctx, data);
	const running = leases.get(key);
	if (running && Date.now() - running.alive < STALE_POLL_MS) return undefined;
	const lease = { alive: Date.now() };
	leases.set(key, lease);
	return lease;
}

/** Whether the poll still holds its trigger (it was not taken over as stuck). */
export function holds(ctx: IPollFunctions, data: object, lease: PollLease): boolean {
	return leases.get(keyOf(ctx, data)) === lease;
}

export function endPoll(ctx: IPollFunctions, data: object, lease: PollLease): void {
	if (holds(ctx, data, lease)) leases.delete(keyOf(ctx, data));
}
