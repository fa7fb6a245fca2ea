/**
 * Waiting for something Spendesk builds in the background (a payables snapshot, an accounting
 * export): ask for its status until COMPLETE, pausing between asks (doubling from the first
 * pause up to 5 s, never under `statusPollMinMs`), failing on ERROR or once Max Wait has
 * passed. Always bounded and spaced, whatever the inputs.
 */
import { sleep } from 'n8n-workflow';
import { transportSettings } from './settings';

/** First pause between status asks, and the longest one. */
export const FIRST_PAUSE_MS = 500;
export const LONGEST_PAUSE_MS = 5000;

export interface StatusPoll<T> {
	/** One status request: the status it read and what to return when it is COMPLETE. */
	ask: () => Promise<{ status: string; value: T }>;
	/** When the wait began (ms since epoch) and how long it may last. */
	started: number;
	maxWaitMs: number;
	firstPauseMs?: number;
	/** The error for status ERROR, and for Max Wait passed (after `waitedMs`). */
	failed: () => Error;
	timedOut: (waitedMs: number) => Error;
}

export async function untilComplete<T>(poll: StatusPoll<T>): Promise<T> {
	const minPause = transportSettings.statusPollMinMs;
	let pause = Math.max(minPause, poll.firstPauseMs ?? FIRST_PAUSE_MS);
	for (;;) {
		const { status, value } = await poll.ask();
		if (status === 'COMPLETE') return value;
		if (status === 'ERROR') throw poll.failed();
		const waited = Date.now() - poll.started;
		if (waited >= poll.maxWaitMs) throw poll.timedOut(waited);
		await sleep(Math.max(minPause, Math.min(pause, poll.maxWaitMs - waited)));
		pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
	}
}
