/**
 * The one status-polling loop: waiting for something Spendesk builds in the background (a
 * payables snapshot, an accounting export) or for its turn to build one (a snapshot's 409).
 * Ask until COMPLETE, pausing between asks (doubling from the first pause up to 5 s, or as
 * long as the answer asks, never under `statusPollMinMs`; or a fixed interval when the API
 * sets one), failing on ERROR or once Max Wait has passed.
 *
 * The last ask comes at the end of Max Wait, or, when the API sets an interval, at the first
 * ask the interval allows at or after it: a Max Wait shorter than the interval (a snapshot's
 * Max Wait of 60 s against Spendesk's one check a minute) waits one interval and asks once
 * more, never stopping right after the first answer with time left. So the wait lasts at least
 * Max Wait and at most one interval more. Always bounded and spaced, whatever the inputs.
 */
import { sleep } from 'n8n-workflow';
import { transportSettings } from './settings';

/** First pause between status asks, and the longest one. */
export const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 5000;

export interface StatusPoll<T> {
	/**
	 * One status request: the status it read, what to return when it is COMPLETE, and the
	 * pause the answer asked for before the next ask (a Retry-After), if any.
	 */
	ask: () => Promise<{ status: string; value?: T; pauseMs?: number }>;
	/** When the wait began (ms since epoch) and how long it may last. */
	started: number;
	maxWaitMs: number;
	firstPauseMs?: number;
	/**
	 * A fixed pause between asks instead of the doubling one (a payables snapshot: at most one
	 * ask a minute). When Max Wait ends before the next ask is allowed, that ask is still made,
	 * once, as the last.
	 */
	intervalMs?: number;
	/** The error for status ERROR (an ask that never reads ERROR needs none), and for Max Wait passed (after `waitedMs`). */
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
			// Max Wait has time left: the next ask is made, even when the interval ends after
			// Max Wait; the answer after it ends the wait (the check above).
			await sleep(Math.max(minPause, poll.intervalMs, pauseMs ?? 0));
			continue;
		}
		await sleep(Math.max(minPause, Math.min(pauseMs ?? pause, poll.maxWaitMs - waited)));
		pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
	}
}
