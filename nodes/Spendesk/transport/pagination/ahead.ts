/**
 * Pages read ahead. Once the first page of a page or offset list tells how many pages are
 * left, those pages are asked concurrently instead of one after the other: at most `window`
 * of them at a time (the credential's in-flight cap; every request still waits for a slot of
 * that cap and for the company's rate budget in callSpendesk, so lists read ahead and All
 * Companies share the same 5 slots), and handed out in page order. Nothing is asked before
 * the reader wants the next page, nothing past the last page planned, and nothing is left
 * running once the list has ended.
 */
export class PagesAhead<P, T> {
	private readonly asked: Array<Promise<T>> = [];
	private readonly plan: P[];

	/**
	 * @param pages what names each page still to read (a page number, an offset), in order
	 * @param ask reads one page
	 * @param window most pages asked and not yet handed out
	 */
	constructor(
		pages: P[],
		private readonly ask: (page: P) => Promise<T>,
		private readonly window: number,
	) {
		this.plan = pages;
	}

	/** Pages planned and not yet handed out. */
	get left(): number {
		return this.plan.length + this.asked.length;
	}

	/**
	 * The answer of the next page, in order; asks the pages after it up to the window. A
	 * failure is thrown here, in its page's turn, never earlier.
	 */
	async take(): Promise<T> {
		while (this.asked.length < Math.max(1, this.window) && this.plan.length > 0) {
			const answer = this.ask(this.plan.shift()!);
			// A page asked but never taken (the list ended before it) must not fail the execution.
			answer.catch(() => undefined);
			this.asked.push(answer);
		}
		const head = this.asked.shift();
		if (!head) throw new Error('No page left to read');
		return await head;
	}

	/**
	 * Gives up the pages not handed out: nothing more is asked, and the pages already asked are
	 * waited for (their answers dropped), so that no request of the list outlives it.
	 */
	async stop(): Promise<void> {
		this.plan.length = 0;
		await Promise.allSettled(this.asked.splice(0));
	}
}
