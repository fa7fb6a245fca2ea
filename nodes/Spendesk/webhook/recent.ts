/**
 * One execution per event id (docs/triggers.md#repeats): the last MAX_RECENT_EVENTS, in this n8n
 * process (a repeat may arrive while the first is handled; n8n saves static data only after a
 * delivery) and in static data. Overlapping deliveries each save their own copy, the last save
 * wins: so each copy gets this process's whole list of handled events.
 */
import type { IWebhookFunctions } from 'n8n-workflow';
import type { WebhookStaticData } from './staticData';

export const MAX_RECENT_EVENTS = 1000;

interface Memory {
	/** Events being handled or handled here: a repeat of one of them starts nothing. */
	noted: string[];
	/** Events handled (here, or read from static data), oldest first: what every save writes. */
	handled: string[];
}

const inProcess = new Map<string, Memory>();

function memoryOf(ctx: IWebhookFunctions): Memory {
	const key = JSON.stringify([String(ctx.getWorkflow().id ?? ''), ctx.getNode().id]);
	let memory = inProcess.get(key);
	if (!memory) inProcess.set(key, (memory = { noted: [], handled: [] }));
	return memory;
}

function remember(ids: string[], eventId: string): void {
	ids.push(eventId);
	if (ids.length > MAX_RECENT_EVENTS) ids.splice(0, ids.length - MAX_RECENT_EVENTS);
}

/**
 * Notes the event: 'handled' for a repeat; 'inProgress' while an earlier delivery of it may yet
 * fail; else what to do once the delivery is over: `handled` when its execution starts, `forget`
 * when it failed.
 */
export function noteEvent(
	ctx: IWebhookFunctions,
	state: WebhookStaticData,
	eventId: string,
): 'handled' | 'inProgress' | { handled(): void; forget(): void } {
	const memory = memoryOf(ctx);
	if (memory.handled.includes(eventId) || state.recentEvents.includes(eventId)) return 'handled';
	if (memory.noted.includes(eventId)) return 'inProgress';
	// What other processes (or this one before a restart) saved joins the list, as older entries.
	const known = new Set(memory.handled);
	const read = state.recentEvents.filter((id) => !known.has(id));
	// As older entries, only as many as the bound leaves room for: a saved list of 200,000 ids
	// (an older version's, a hand edit) is never spread whole into one call.
	const room = MAX_RECENT_EVENTS - memory.handled.length;
	if (read.length > 0 && room > 0) memory.handled.unshift(...read.slice(-room));
	// This copy of the static data is saved with the list as it is when the save happens.
	state.recentEvents = memory.handled;
	remember(memory.noted, eventId);
	return {
		handled: () => {
			if (!memory.handled.includes(eventId)) remember(memory.handled, eventId);
		},
		forget: () => {
			const at = memory.noted.lastIndexOf(eventId);
			if (at >= 0) memory.noted.splice(at, 1);
		},
	};
}
