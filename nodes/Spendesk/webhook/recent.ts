/**
 * Deliveries can repeat (Spendesk retries, and may deliver twice): one execution per event
 * id. Two memories, each bounded to the last MAX_RECENT_EVENTS ids of a trigger:
 * - in this n8n process, keyed by workflow and node: catches a repeat that arrives while the
 *   first delivery is still being handled (n8n saves static data only after a delivery);
 * - in the workflow's static data: survives a restart, and reaches the other n8n processes
 *   that load the workflow after the save.
 * An event is noted before its execution starts and forgotten again when the delivery fails
 * (so Spendesk's retry can start it).
 */
import type { IWebhookFunctions } from 'n8n-workflow';
import type { WebhookState } from './state';

export const MAX_RECENT_EVENTS = 1000;

const inProcess = new Map<string, string[]>();

function memoryOf(ctx: IWebhookFunctions): string[] {
	const key = JSON.stringify([String(ctx.getWorkflow().id ?? ''), ctx.getNode().id]);
	let ids = inProcess.get(key);
	if (!ids) inProcess.set(key, (ids = []));
	return ids;
}

function remember(ids: string[], eventId: string): void {
	ids.push(eventId);
	if (ids.length > MAX_RECENT_EVENTS) ids.splice(0, ids.length - MAX_RECENT_EVENTS);
}

function forget(ids: string[], eventId: string): void {
	const at = ids.lastIndexOf(eventId);
	if (at >= 0) ids.splice(at, 1);
}

/**
 * Notes the event; false when it was seen already (a repeat). The returned function forgets
 * it again.
 */
export function noteEvent(ctx: IWebhookFunctions, state: WebhookState, eventId: string): false | (() => void) {
	const memory = memoryOf(ctx);
	if (memory.includes(eventId) || state.recentEvents.includes(eventId)) return false;
	remember(memory, eventId);
	remember(state.recentEvents, eventId);
	return () => {
		forget(memory, eventId);
		forget(state.recentEvents, eventId);
	};
}
