/**
 * One poll at a time per trigger (docs/triggers.md#one-poll-at-a-time): n8n does not wait for the
 * previous poll. The guard lives in this n8n process, not in the static data: n8n saves that only
 * after a poll returned, so a marker there would reach no other process and could outlive a crash.
 */
import type { IPollFunctions } from 'n8n-workflow';

/** A poll without an answer from the API this long is stuck: the next one takes over. */
export const STALE_POLL_MS = 30 * 60_000;

export interface PollLease {
	/** Last sign of progress (start, or an answer of the API), ms. */
	alive: number;
	/** The workflow and node, or the static data object when the workflow has no id. */
	key: string | object;
}

const leases = new Map<string | object, PollLease>();

/** Starts a poll, or returns undefined when the trigger's previous poll is still running. */
export function beginPoll(ctx: IPollFunctions, data: object): PollLease | undefined {
	const workflowId = ctx.getWorkflow().id;
	const key =
		workflowId === undefined || workflowId === ''
			? data
			: JSON.stringify([String(workflowId), ctx.getNode().id]);
	const running = leases.get(key);
	if (running && Date.now() - running.alive < STALE_POLL_MS) return undefined;
	const lease = { alive: Date.now(), key };
	leases.set(key, lease);
	return lease;
}

/** Whether the poll still holds its trigger (it was not taken over as stuck). */
export const holds = (lease: PollLease): boolean => leases.get(lease.key) === lease;

export function endPoll(lease: PollLease): void {
	if (holds(lease)) leases.delete(lease.key);
}
