/**
 * One poll at a time per trigger. n8n runs a polling trigger on its schedule without waiting
 * for the previous poll, and both polls share the workflow's static data: a poll slower than
 * the interval would otherwise emit what the next one emits too. A poll that starts while the
 * trigger's previous poll still runs is skipped: it emits nothing and changes nothing.
 *
 * The guard lives in this n8n process, keyed by workflow and node (by the static data object
 * when the workflow has no id). Not in the static data: n8n saves it only after a poll has
 * returned, so a marker there would reach no other process and could outlive a crash. A poll
 * that has had no answer from the API for STALE_POLL_MS is taken as stuck: the next poll takes
 * over, and the stuck poll, should it ever end, emits nothing and saves nothing.
 */
import type { IPollFunctions } from 'n8n-workflow';

export const STALE_POLL_MS = 30 * 60_000;

export interface PollLease {
	/** Last sign of progress (start, or an answer of the API), ms. */
	alive: number;
}

const byTrigger = new Map<string, PollLease>();
const byStaticData = new WeakMap<object, PollLease>();

interface Slot {
	get: () => PollLease | undefined;
	set: (lease: PollLease) => void;
	clear: () => void;
}

function slotOf(ctx: IPollFunctions, data: object): Slot {
	const workflowId = ctx.getWorkflow().id;
	if (workflowId === undefined || workflowId === '') {
		return {
			get: () => byStaticData.get(data),
			set: (lease) => byStaticData.set(data, lease),
			clear: () => byStaticData.delete(data),
		};
	}
	const key = JSON.stringify([String(workflowId), ctx.getNode().id]);
	return {
		get: () => byTrigger.get(key),
		set: (lease) => byTrigger.set(key, lease),
		clear: () => byTrigger.delete(key),
	};
}

/** Starts a poll, or returns undefined when the trigger's previous poll is still running. */
export function beginPoll(ctx: IPollFunctions, data: object): PollLease | undefined {
	const slot = slotOf(ctx, data);
	const running = slot.get();
	if (running && Date.now() - running.alive < STALE_POLL_MS) return undefined;
	const lease = { alive: Date.now() };
	slot.set(lease);
	return lease;
}

/** The poll made progress. */
export function touch(lease: PollLease): void {
	lease.alive = Date.now();
}

/** Whether the poll still holds its trigger (it was not taken over as stuck). */
export function holds(ctx: IPollFunctions, data: object, lease: PollLease): boolean {
	return slotOf(ctx, data).get() === lease;
}

export function endPoll(ctx: IPollFunctions, data: object, lease: PollLease): void {
	const slot = slotOf(ctx, data);
	if (slot.get() === lease) slot.clear();
}
