/**
 * The one status-polling loop (a payables snapshot, an accounting export, a snapshot's 409): ask
 * until COMPLETE, pausing between asks (doubling up to 5 s, or as the answer asks, or a fixed
 * interval), failing on ERROR or once Max Wait has passed; with an interval, the last ask is the
 * first it allows at or after Max Wait.
 */
import { sleep } from 'n8n-workflow';
import { transportSettings } from './settings';

/** First pause between status asks, and the longest one. */
export const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 5000;

export interface StatusPoll<T> {
	/** One status request: the status read, the value when COMPLETE, and the pause the answer asked for. */
	ask: () => Promise<{ status: string; value?: T; pauseMs?: number }>;
	started: number;
	maxWaitMs: number;
	firstPauseMs?: number;
	/** A fixed pause between asks instead of the doubling one (a payables snapshot: one a minute). */
	intervalMs?: number;
	/** The errors for status ERROR, and for Max Wait passed (after `waitedMs`). */
	failed?: () => Error;
	timedOut: (waitedMs: number) => Error;
}

export async function untilComplete<T>(poll: StatusPoll<T>): Promise<T> {
	const minPause = transportSettings.statusPollMinMs;
	let pause = Math.max(minPause, poll.firstPauseMs ?? FIRST_PAUSE_MS);
	for (;;) {
		const { status, value, pauseMs } = await poll.ask();
		if (status === 'COMPLETE') return value as T;
		if (status === 'ERROR' && poll.failed) throw poll.failed();
		const waited = Date.now() - poll.started;
		if (waited >= poll.maxWaitMs) throw poll.timedOut(waited);
		if (poll.intervalMs !== undefined) {
			await sleep(Math.max(minPause, poll.intervalMs, pauseMs ?? 0));
			continue;
		}
		await sleep(Math.max(minPause, Math.min(pauseMs ?? pause, poll.maxWaitMs - waited)));
		pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
	}
}
