/**
 * Pages read ahead. Once the first page of a page or offset list tells how many pages are
 * left, those pages are asked concurrently instead of one after the other: at most `window`
 * of them at a time (the credential's in-flight cap; every request still waits for a slot of
 * that cap and for the company's rate budget in callSpendesk, so lists read ahead and All
 * Companies share the same 5 slots), and handed out in page order. Nothing is asked before
 * the reader wants the next page, nothing past the last page planned, and nothing is left
 * running once the list has ended. Lists whose pages name the next one (cursors) can only be
 * one page ahead: NextPageAhead.
 */
export class PagesAhead<P, T> {
	private readonly asked: Array<Promise<T>> = [];
	/** Index of the next page to ask, of `count`. */
	private next = 0;

	/**
	 * @param count how many pages are still to read (a server's `total` may make it huge: the
	 *   pages are named one by one as they are asked, never listed, so no total can exhaust memory)
	 * @param pageAt what names the page of that index (a page number, an offset), in order
	 * @param ask reads one page
	 * @param window most pages asked and not yet handed out
	 */
	constructor(
		private count: number,
		private readonly pageAt: (index: number) => P,
		private readonly ask: (page: P) => Promise<T>,
		private readonly window: number,
	) {}

	/** Pages planned and not yet handed out. */
	get left(): number {
		return this.count - this.next + this.asked.length;
	}

	/**
	 * The answer of the next page, in order; asks the pages after it up to the window. A
	 * failure is thrown here, in its page's turn, never earlier.
	 */
	async take(): Promise<T> {
		while (this.asked.length < Math.max(1, this.window) && this.next < this.count) {
			const answer = this.ask(this.pageAt(this.next++));
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
		this.count = this.next;
		await Promise.allSettled(this.asked.splice(0));
	}
}

/**
 * The next page of a list whose every page names the next one (cursor and body-cursor lists),
 * so at most one page can be asked ahead: asked as soon as the page before names it, while the
 * reader takes that page, and only for a reader that takes every page (`readsToEnd`); without
 * it, nothing is asked before the reader wants the next page, as a reader may stop early (the
 * trigger). docs/performance.md#cursor-lists-one-page-ahead
 */
export class NextPageAhead<T> {
	private asked: Promise<T> | undefined;

	/**
	 * @param ask reads one page of `pageSize` items (named by the list's current cursor)
	 * @param readsToEnd the reader takes every page until the list or the Limit ends
	 */
	constructor(
		private readonly ask: (pageSize: number) => Promise<T>,
		private readonly readsToEnd: boolean,
	) {}

	/** The page asked ahead, else the page asked now with `pageSize` items. */
	take(pageSize: number): Promise<T> {
		const answer = this.asked ?? this.ask(pageSize);
		this.asked = undefined;
		return answer;
	}

	/** Whether the next page (the list says one follows) may be asked ahead: the Limit wants `left` more. */
	mayAsk(left: number): boolean {
		return this.readsToEnd && left > 0;
	}

	/** Asks the next page now; its failure is thrown by take(), in its turn, never earlier. */
	askNow(pageSize: number): void {
		const answer = this.ask(pageSize);
		// A page asked but never taken (the reader failed) must not fail the execution.
		answer.catch(() => undefined);
		this.asked = answer;
	}

	/** A page is asked ahead and not yet taken. */
	get pending(): boolean {
		return this.asked !== undefined;
	}

	/** Waits for a page asked ahead that will not be taken: no request outlives its list. */
	async stop(): Promise<void> {
		const answer = this.asked;
		this.asked = undefined;
		if (answer)
			await answer.then(
				() => undefined,
				() => undefined,
			);
	}
}
