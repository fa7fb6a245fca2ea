import { transportSettings } from '../settings';

/**
 * Pages of a page or offset list read ahead once the first tells how many are left: at most
 * maxInFlight asked at a time (each still waits for a slot and the budget), handed out in order,
 * nothing left running once the list has ended.
 */
export class PagesAhead<P, T> {
	private readonly asked: Array<Promise<T>> = [];
	private readonly window = Math.max(1, transportSettings.maxInFlight);
	/** Index of the next page to ask, of `count`. */
	private next = 0;

	/** `count` pages are named by `pageAt` one by one as they are asked: no `total` can exhaust memory. */
	constructor(
		private count: number,
		private readonly pageAt: (index: number) => P,
		private readonly ask: (page: P) => Promise<T>,
	) {}

	get left(): number {
		return this.count - this.next + this.asked.length;
	}

	/** The answer of the next page; a failure is thrown here, in its page's turn. */
	async take(): Promise<T> {
		while (this.asked.length < this.window && this.next < this.count) {
			const answer = this.ask(this.pageAt(this.next++));
			// A page asked but never taken (the list ended before it) must not fail the execution.
			answer.catch(() => undefined);
			this.asked.push(answer);
		}
		return await this.asked.shift()!;
	}

	/** Asks nothing more, and waits for the pages already asked (their answers dropped). */
	async stop(): Promise<void> {
		this.count = this.next;
		await Promise.allSettled(this.asked.splice(0));
	}
}
