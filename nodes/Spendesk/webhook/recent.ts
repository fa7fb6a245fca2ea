/**
 * Deliveries can repeat (Spendesk retries, and may deliver twice): one execution per event
 * id. Two memories, each bounded to the last MAX_RECENT_EVENTS ids of a trigger:
 * - in this n8n process, keyed by workflow and node: catches a repeat that arrives while the
 *   first delivery is still being handled (n8n saves static data only after a delivery);
 * - in the workflow's static data: survives a restart, and reaches the other n8n processes
 *   (webhook processors, main) that load the workflow after the save.
 * An event is noted before its execution starts and forgotten again when the delivery fails
 * (so Spendesk's retry can start it); it goes into static data only once it was handled. A
 * repeat that arrives while the first delivery is still being handled (a Fetch Full Object
 * read slower than Spendesk's 10 s timeout, after which Spendesk retries at once) is told
 * apart from a repeat of a handled event: the first may still fail.
 *
 * Every delivery works on its own copy of the static data, loaded when it arrived, and n8n
 * saves that copy when the delivery ends: with deliveries that overlap, the last save wins.
 * So each copy is given this process's whole list of handled events (what it read from static
 * data plus what it handled since), which the save writes as it is at that moment: whichever
 * delivery saves last, no event this process handled is lost from the database.
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

function bound(ids: string[]): void {
	if (ids.length > MAX_RECENT_EVENTS) ids.splice(0, ids.length - MAX_RECENT_EVENTS);
}

function remember(ids: string[], eventId: string): void {
	ids.push(eventId);
	bound(ids);
}

function forget(ids: string[], eventId: string): void {
	const at = ids.lastIndexOf(eventId);
	if (at >= 0) ids.splice(at, 1);
}

/** What to do once the delivery is over: `handled` when its execution starts, `forget` when it failed. */
export interface NotedEvent {
	handled(): void;
	forget(): void;
}

/**
 * Notes the event. 'handled' when it was handled already (a repeat); 'inProgress' when an
 * earlier delivery of it is still being handled in this process (it may yet fail, so the
 * repeat must neither start it again nor be taken as delivered).
 */
export function noteEvent(
	ctx: IWebhookFunctions,
	state: WebhookStaticData,
	eventId: string,
): 'handled' | 'inProgress' | NotedEvent {
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
		forget: () => forget(memory.noted, eventId),
	};
}
