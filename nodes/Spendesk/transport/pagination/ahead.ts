/**
 * Pages of a page or offset list read ahead once the first tells how many are left: at most
 * `window` asked at a time (each still waits for a slot and the budget), handed out in order,
 * nothing left running once the list has ended.
 */
export class PagesAhead<P, T> {
	private readonly asked: Array<Promise<T>> = [];
	/** Index of the next page to ask, of `count`. */
	private next = 0;

	/** `count` pages are named by `pageAt` one by one as they are asked: no `total` can exhaust memory. */
	constructor(
		private count: number,
		private readonly pageAt: (index: number) => P,
		private readonly ask: (page: P) => Promise<T>,
		private readonly window: number,
	) {}

	get left(): number {
		return this.count - this.next + this.asked.length;
	}

	/** The answer of the next page; a failure is thrown here, in its page's turn. */
	async take(): Promise<T> {
		while (this.asked.length < Math.max(1, this.window) && this.next < this.count) {
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

/**
 * The next page of a cursor list, asked as soon as the page before names it, for a reader that
 * takes every page (`readsToEnd`). docs/performance.md#cursor-lists-one-page-ahead
 */
export class NextPageAhead<T> {
	private asked: Promise<T> | undefined;

	constructor(private readonly ask: (pageSize: number) => Promise<T>) {}

	/** The page asked ahead, else the page asked now with `pageSize` items. */
	take(pageSize: number): Promise<T> {
		const answer = this.asked ?? this.ask(pageSize);
		this.asked = undefined;
		return answer;
	}

	/** Asks the next page now; its failure is thrown by take(), in its turn. */
	askNow(pageSize: number): void {
		this.asked = this.ask(pageSize);
		this.asked.catch(() => undefined);
	}

	get pending(): boolean {
		return this.asked !== undefined;
	}

	/** Waits for a page asked ahead that will not be taken: no request outlives its list. */
	async stop(): Promise<void> {
		const answer = this.asked;
		this.asked = undefined;
		await answer?.catch(() => undefined);
	}
}
