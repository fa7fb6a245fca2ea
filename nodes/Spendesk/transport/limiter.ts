/**
 * Client-side flow control, shared by every execution in the n8n process: a cap on requests in
 * flight per credential (5 at Spendesk), shared round-robin between executions and lowered while
 * Spendesk refuses requests for crowding; and a rate budget per credential and company, read
 * from `x-ratelimit-*` headers, so the node waits for the reset instead of provoking 429s.
 */

/** Answers without a refusal for crowding after which a lowered cap grows back by one. */
const STEADY_ANSWERS = 10;

/**
 * Slots of a semaphore. Callers that must wait are served round-robin between their owners
 * (executions), first come first served within one owner: an execution that queues many calls
 * does not put another execution's single call behind all of them.
 */
class Semaphore {
	private active = 0;
	/** Waiting callers per owner; the first owner in the map is served next. */
	private readonly waiting = new Map<unknown, Array<() => void>>();
	/** Below `max` while Spendesk refuses requests for being too many in flight. */
	private cap = Infinity;
	private calm = 0;

	constructor(public max: number) {}

	private get room(): number {
		return Math.min(this.max, this.cap);
	}

	/** A request holding a slot was refused for crowding: one fewer than are out from now on, at least one. */
	crowded(): void {
		this.cap = Math.max(1, Math.min(this.room, this.active) - 1);
		this.calm = 0;
	}

	/** An answer that was not such a refusal: after STEADY_ANSWERS of them, one slot more (up to `max`). */
	calmAnswer(): void {
		if (this.cap === Infinity || ++this.calm < STEADY_ANSWERS) return;
		this.calm = 0;
		this.cap = this.cap + 1 >= this.max ? Infinity : this.cap + 1;
		// The slot won back goes to a waiting caller at once.
		while (this.active < this.room && this.waiting.size > 0) {
			this.active++;
			this.handOver();
		}
	}

	/** A slot at once when one is free and nobody waits, else in `owner`'s turn. */
	async acquire(owner?: unknown): Promise<void> {
		if (this.active < this.room && this.waiting.size === 0) {
			this.active++;
			return;
		}
		await new Promise<void>((resolve) => {
			const queue = this.waiting.get(owner);
			if (queue) queue.push(resolve);
			else this.waiting.set(owner, [resolve]);
		});
	}

	/** Gives back a slot (once per slot): to the next owner's first waiter, or free. */
	release(): void {
		// A slot over a lowered cap is not handed over.
		if (this.waiting.size === 0 || this.active > this.room) this.active--;
		else this.handOver();
	}

	/** Passes a taken slot to the next owner's first waiter; the owner goes to the back of the round. */
	private handOver(): void {
		const [owner, queue] = this.waiting.entries().next().value!;
		const resolve = queue.shift()!;
		this.waiting.delete(owner);
		if (queue.length > 0) this.waiting.set(owner, queue);
		resolve();
	}
}

/** A 429 that does not say the budget is spent refuses one request too many in flight (docs/api.md#rate-limits). */
export function refusedInFlight(status: number | undefined, headers: object | undefined): boolean {
	if (status !== 429 || !headers) return false;
	return numberHeader(headers as Record<string, unknown>, 'x-ratelimit-remaining') !== 0;
}

function semaphoreOf(map: Map<string, Semaphore>, key: string, max: number): Semaphore {
	let semaphore = map.get(key);
	if (!semaphore) map.set(key, (semaphore = new Semaphore(max)));
	return semaphore;
}

export class FlowControl {
	private readonly slots = new Map<string, Semaphore>();
	/** `remaining`: what the server still allows in this window, minus those sent since. */
	private readonly budgets = new Map<string, { remaining: number; resetAt: number }>();
	/** Credentials that have had a successful (non-401) answer since the last 401. */
	private readonly warm = new Set<string>();
	private readonly cold = new Map<string, Semaphore>();
	private readonly locks = new Map<string, Semaphore>();
	/** Requests sent on each rate budget and not answered yet. */
	private readonly sending = new Map<string, number>();
	private readonly flights = new Map<string, Promise<unknown>>();
	private readonly landed = new Map<string, { value: unknown; until: number }>();

	/**
	 * Runs one request of a credential: within its in-flight cap and, until the credential has
	 * had a good answer, one at a time, so that concurrent first calls do not each fetch a token.
	 */
	async gated<
		T extends {
			kind: string;
			response?: { statusCode: number; headers?: object };
			status?: number;
		},
	>(credentialKey: string, maxInFlight: number, owner: unknown, run: () => Promise<T>): Promise<T> {
		let cold: Semaphore | undefined;
		if (!this.warm.has(credentialKey)) {
			cold = semaphoreOf(this.cold, credentialKey, 1);
			await cold.acquire();
			if (this.warm.has(credentialKey)) {
				cold.release();
				cold = undefined;
			}
		}
		const slots = semaphoreOf(this.slots, credentialKey, maxInFlight);
		slots.max = maxInFlight;
		await slots.acquire(owner);
		try {
			const outcome = await run();
			const status = outcome.response?.statusCode ?? outcome.status;
			if (status === 401) this.warm.delete(credentialKey);
			else if (status !== undefined) this.warm.add(credentialKey);
			// Other processes hold slots of the same consumer at Spendesk: take fewer.
			if (refusedInFlight(status, outcome.response?.headers)) slots.crowded();
			else if (status !== undefined) slots.calmAnswer();
			return outcome;
		} finally {
			slots.release();
			cold?.release();
		}
	}

	/** Milliseconds to wait before the next request on this budget (0: go now, counted against it). */
	reserve(budgetKey: string, now = Date.now()): number {
		const budget = this.budgets.get(budgetKey);
		if (budget && now < budget.resetAt) {
			if (budget.remaining <= 0) return budget.resetAt - now;
			budget.remaining--;
		} else if (budget) {
			this.budgets.delete(budgetKey);
		}
		this.sending.set(budgetKey, (this.sending.get(budgetKey) ?? 0) + 1);
		return 0;
	}

	answered(budgetKey: string): void {
		const left = (this.sending.get(budgetKey) ?? 1) - 1;
		if (left > 0) this.sending.set(budgetKey, left);
		else this.sending.delete(budgetKey);
	}

	/** Learns the budget from a response's rate-limit headers; a reset past `longestWaitMs` is not believed. */
	observe(
		budgetKey: string,
		headers: Record<string, unknown>,
		longestWaitMs: number,
		now = Date.now(),
	): void {
		const remaining = numberHeader(headers, 'x-ratelimit-remaining');
		const reset = numberHeader(headers, 'x-ratelimit-reset');
		if (remaining === undefined || reset === undefined || reset * 1000 > longestWaitMs) return;
		const resetAt = now + reset * 1000;
		// The other requests of this budget still in flight may not be counted in this answer yet:
		// take them as spent, so that requests in flight never add up to more than the budget.
		const others = Math.max(0, (this.sending.get(budgetKey) ?? 1) - 1);
		const left = Math.max(0, remaining - others);
		const known = this.budgets.get(budgetKey);
		if (known && Math.abs(known.resetAt - resetAt) < 1000) {
			// The same window, answers out of order: keep the lowest count, and the earliest reset
			// (each lies at or after the window's true end).
			known.remaining = Math.min(known.remaining, left);
			known.resetAt = Math.min(known.resetAt, resetAt);
			return;
		}
		this.budgets.set(budgetKey, { remaining: left, resetAt });
	}

	/** After a 429: nothing more on this budget until `waitMs` has passed (unless past `longestWaitMs`). */
	exhausted(budgetKey: string, waitMs: number, longestWaitMs: number, now = Date.now()): void {
		if (waitMs > longestWaitMs) return;
		this.budgets.set(budgetKey, { remaining: 0, resetAt: now + waitMs });
	}

	/** One call per key: concurrent callers share it, and one arriving within `keepMs` of its end gets what it gave. */
	async singleFlight<T>(key: string, keepMs: number, call: () => Promise<T>): Promise<T> {
		const now = Date.now();
		for (const [k, entry] of this.landed) if (entry.until <= now) this.landed.delete(k);
		const done = this.landed.get(key);
		if (done) return done.value as T;
		let running = this.flights.get(key) as Promise<T> | undefined;
		if (!running) {
			running = call().then((value) => {
				this.landed.set(key, { value, until: Date.now() + keepMs });
				return value;
			});
			this.flights.set(key, running);
			const clear = () => this.flights.delete(key);
			running.then(clear, clear);
		}
		return await running;
	}

	async exclusive<T>(key: string, run: () => Promise<T>): Promise<T> {
		const lock = semaphoreOf(this.locks, key, 1);
		await lock.acquire();
		try {
			return await run();
		} finally {
			lock.release();
		}
	}
}

/** A header's (first) value as text; undefined when absent or empty. `name` in lower case. */
export function headerText(headers: object | undefined, name: string): string | undefined {
	const raw = (headers as Record<string, unknown> | undefined)?.[name];
	const value: unknown = Array.isArray(raw) ? raw[0] : raw;
	return value === undefined || value === null || value === '' ? undefined : String(value);
}

export function numberHeader(headers: Record<string, unknown>, name: string): number | undefined {
	const n = Number(headerText(headers, name) ?? NaN);
	return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Retry-After: delta-seconds or an HTTP date. */
export function retryAfterMs(
	headers: Record<string, unknown>,
	now = Date.now(),
): number | undefined {
	const seconds = numberHeader(headers, 'retry-after');
	if (seconds !== undefined) return seconds * 1000;
	const raw = headers['retry-after'];
	const at = typeof raw === 'string' ? Date.parse(raw) : NaN;
	return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** One instance per n8n process: budgets and in-flight slots are shared by all executions. */
export const flowControl = new FlowControl();
