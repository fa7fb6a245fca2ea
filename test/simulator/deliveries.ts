/**
 * Webhook deliveries. An event of a company (payables:created, payables:prepared,
 * settlements:created) is POSTed to every instance of that company whose `events` include it
 * and that is neither deleted nor disabled.
 *
 * - Body: `{"data":{"companyId","id","version"},"event":{"entity","eventType","id","timestamp"}}`,
 *   serialised once per event: every attempt, retry and redelivery sends the same bytes.
 * - Headers: `content-type: application/json`, `user-agent: Spendesk-Webhooks/1.0 (simulator)`
 *   and `x-spendesk-webhook-signature`: HMAC-SHA256 of the raw body with the instance's
 *   secret, lowercase hex.
 * - An attempt succeeds on a 2xx. Anything else (another status, a network error, no complete
 *   answer within the option webhookTimeoutMs) moves on along the schedule: one retry at once,
 *   then every 10 minutes for an hour (6 tries), then every 2 hours for 3 days (36 tries), 44
 *   attempts in all. When the last one fails, the instance is disabled.
 * - The waits are real timers, multiplied by the option webhookTimeScale (1 = real time;
 *   0.0001 makes 10 minutes 60 ms); sim.clock.advance() does not move them. The event's
 *   timestamp and each attempt's `at` are read from the simulator's clock.
 * - Deliveries are independent, also those of one instance (no ordering). A deleted or
 *   disabled instance gets no further attempt, pending retries included; a URL changed by
 *   PATCH is used from the next attempt on; retries of an event already sent go on after a
 *   PATCH of `events`.
 * - stop() cancels every scheduled attempt and aborts those in flight.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { SpendeskSimulator } from './server';
import { disableWebhook, isLive, WEBHOOK_EVENTS, webhooksOf } from './webhooks';
import type { WebhookInstance } from './webhooks';

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** An event as it is emitted: the record of emitWebhookEvent and the control route. */
export interface WebhookEvent {
	/** Unique per event (`evt_…`); a redelivery keeps it, so consumers dedupe on it. */
	id: string;
	entity: 'payable' | 'settlement';
	eventType: WebhookEventType;
	/** ISO 8601, from the simulator's clock. */
	timestamp: string;
	data: { companyId: string; id: string; version: number };
}

export interface WebhookEventInput {
	companyId: string;
	eventType: WebhookEventType;
	/** The payable's or the settlement's id. */
	id: string;
	/** Default: the payable's current version (1 when it has none, or is unknown); 1 for settlements. */
	version?: number;
}

/** One delivery attempt, logged when it is over. Never holds the secret. */
export interface WebhookDeliveryAttempt {
	eventId: string;
	eventType: WebhookEventType;
	instanceId: string;
	companyId: string;
	url: string;
	/** 1 for the first attempt of a delivery, 2 for the immediate retry, … up to 44. A redelivery starts at 1 again. */
	attempt: number;
	/** When the attempt started (simulator's clock). */
	at: string;
	/** The receiver's HTTP status, when it answered. */
	status?: number;
	/** Why there was no answer: a network error, a timeout, or a cancellation by stop(). */
	error?: string;
	/** The x-spendesk-webhook-signature header sent. */
	signature: string;
}

export const WEBHOOK_SIGNATURE_HEADER = 'x-spendesk-webhook-signature';
export const WEBHOOK_USER_AGENT = 'Spendesk-Webhooks/1.0 (simulator)';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The wait before attempt n + 1 once attempt n failed, at index n - 1 (before the time scale). */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
	0,
	...new Array<number>(6).fill(10 * MINUTE),
	...new Array<number>(36).fill(2 * HOUR),
];

interface StoredEvent {
	event: WebhookEvent;
	body: Buffer;
}

/** One delivery: an event to one instance, through its attempts. */
interface Delivery {
	stored: StoredEvent;
	instance: WebhookInstance;
	attempt: number;
	cancelled: boolean;
}

interface Waiter {
	/** Also wait for scheduled retries (settled), not only for attempts in flight or due at once (idle). */
	settled: boolean;
	resolve: () => void;
}

/** HMAC-SHA256 of the raw body with the instance's secret, lowercase hex. */
export function webhookSignature(secret: string, body: Buffer | string): string {
	return createHmac('sha256', secret).update(body).digest('hex');
}

export class WebhookDeliveries {
	private readonly events = new Map<string, StoredEvent>();
	private readonly log: WebhookDeliveryAttempt[] = [];
	/** Scheduled attempts; the value says whether the attempt is due at once (the immediate retry). */
	private readonly timers = new Map<NodeJS.Timeout, { delivery: Delivery; immediate: boolean }>();
	/** Attempts in flight, with their cancellation. */
	private readonly inFlight = new Map<Delivery, (reason: string) => void>();
	private waiters: Waiter[] = [];

	constructor(private readonly sim: SpendeskSimulator) {}

	/** Records the event and starts its deliveries. Throws on an unknown company or event type. */
	emit(input: WebhookEventInput): WebhookEvent {
		if (!(WEBHOOK_EVENTS as readonly string[]).includes(input.eventType)) {
			throw new Error(
				`Unknown webhook event type ${input.eventType} (one of ${WEBHOOK_EVENTS.join(', ')})`,
			);
		}
		if (!this.sim.company(input.companyId))
			throw new Error(`No company ${input.companyId} in the simulator`);
		const entity = input.eventType.startsWith('payables:') ? 'payable' : 'settlement';
		const payable =
			entity === 'payable'
				? this.sim.data(input.companyId).payables.find((p) => p.id === input.id)
				: undefined;
		const version = input.version ?? payable?.version ?? 1;
		const event: WebhookEvent = {
			id: `evt_${randomBytes(12).toString('hex')}`,
			entity,
			eventType: input.eventType,
			timestamp: this.sim.clock.iso(),
			data: { companyId: input.companyId, id: input.id, version },
		};
		const body = Buffer.from(
			JSON.stringify({
				data: event.data,
				event: {
					entity: event.entity,
					eventType: event.eventType,
					id: event.id,
					timestamp: event.timestamp,
				},
			}),
		);
		const stored = { event, body };
		this.events.set(event.id, stored);
		this.fanOut(stored);
		return copyOf(event);
	}

	/** Delivers an event again, same id and same bytes, to the instances it would go to now. */
	redeliver(eventId: string): WebhookEvent {
		const stored = this.events.get(eventId);
		if (!stored) throw new Error(`No webhook event ${eventId} in the simulator`);
		this.fanOut(stored);
		return copyOf(stored.event);
	}

	/** Every attempt that is over, in the order they ended. */
	attempts(): WebhookDeliveryAttempt[] {
		return this.log.map((a) => ({ ...a }));
	}

	/**
	 * Resolves when no attempt is in flight and none is due at once (the immediate retry): what
	 * is left, if anything, are retries scheduled 10 minutes × webhookTimeScale or more ahead.
	 */
	whenIdle(): Promise<void> {
		return this.wait(false);
	}

	/** Resolves when no attempt is in flight or scheduled: every delivery succeeded, ran out (instance disabled) or was dropped. */
	whenSettled(): Promise<void> {
		return this.wait(true);
	}

	/** Cancels every scheduled attempt and aborts those in flight; resolves once they are over. */
	async stop(): Promise<void> {
		for (const [timer, { delivery }] of this.timers) {
			clearTimeout(timer);
			delivery.cancelled = true;
		}
		this.timers.clear();
		for (const [delivery, cancel] of this.inFlight) {
			delivery.cancelled = true;
			cancel('cancelled: the simulator stopped');
		}
		this.check();
		await this.whenSettled();
	}

	private fanOut(stored: StoredEvent): void {
		const { companyId } = stored.event.data;
		for (const instance of webhooksOf(this.sim, companyId)) {
			if (isLive(this.sim, instance) && instance.events.includes(stored.event.eventType)) {
				this.send({ stored, instance, attempt: 1, cancelled: false });
			}
		}
	}

	private send(delivery: Delivery): void {
		const { stored, instance } = delivery;
		if (delivery.cancelled || !isLive(this.sim, instance)) {
			this.check();
			return;
		}
		const signature = webhookSignature(instance.secret, stored.body);
		const entry: WebhookDeliveryAttempt = {
			eventId: stored.event.id,
			eventType: stored.event.eventType,
			instanceId: instance.id,
			companyId: instance.companyId,
			url: instance.url,
			attempt: delivery.attempt,
			at: this.sim.clock.iso(),
			signature,
		};
		const headers = {
			'content-type': 'application/json',
			'content-length': String(stored.body.length),
			'user-agent': WEBHOOK_USER_AGENT,
			[WEBHOOK_SIGNATURE_HEADER]: signature,
		};
		const call = post(instance.url, stored.body, headers, this.sim.options.webhookTimeoutMs);
		this.inFlight.set(delivery, call.cancel);
		void call.answer
			.then(
				(status) => {
					entry.status = status;
				},
				(error: unknown) => {
					entry.error = describe(error);
				},
			)
			.then(() => {
				this.inFlight.delete(delivery);
				this.log.push(entry);
				this.afterAttempt(delivery, entry);
				this.check();
			});
	}

	private afterAttempt(delivery: Delivery, entry: WebhookDeliveryAttempt): void {
		const succeeded = entry.status !== undefined && entry.status >= 200 && entry.status < 300;
		if (succeeded || delivery.cancelled || !isLive(this.sim, delivery.instance)) return;
		const wait = WEBHOOK_RETRY_DELAYS_MS[delivery.attempt - 1];
		if (wait === undefined) {
			disableWebhook(this.sim, delivery.instance);
			return;
		}
		delivery.attempt++;
		this.later(delivery, performance.now() + wait * this.sim.options.webhookTimeScale, wait === 0);
	}

	/**
	 * Sends the delivery's next attempt at `due` (performance.now() time), never before: a Node
	 * timer counts from the event loop's cached time and may fire early, so it is set again for
	 * what is left.
	 */
	private later(delivery: Delivery, due: number, immediate: boolean): void {
		const timer = setTimeout(
			() => {
				this.timers.delete(timer);
				if (performance.now() < due) this.later(delivery, due, immediate);
				else this.send(delivery);
			},
			Math.max(0, due - performance.now()),
		);
		timer.unref();
		this.timers.set(timer, { delivery, immediate });
	}

	private busy(settled: boolean): boolean {
		if (this.inFlight.size > 0) return true;
		for (const { immediate } of this.timers.values()) if (settled || immediate) return true;
		return false;
	}

	private wait(settled: boolean): Promise<void> {
		if (!this.busy(settled)) return Promise.resolve();
		return new Promise((resolve) => this.waiters.push({ settled, resolve }));
	}

	private check(): void {
		const ready = this.waiters.filter((w) => !this.busy(w.settled));
		if (ready.length === 0) return;
		this.waiters = this.waiters.filter((w) => !ready.includes(w));
		for (const w of ready) w.resolve();
	}
}

function copyOf(event: WebhookEvent): WebhookEvent {
	return { ...event, data: { ...event.data } };
}

/** POSTs the body; `answer` is the receiver's status once its whole answer is in. */
function post(
	url: string,
	body: Buffer,
	headers: Record<string, string>,
	timeoutMs: number,
): { answer: Promise<number>; cancel: (reason: string) => void } {
	let cancel: (reason: string) => void = () => undefined;
	const answer = new Promise<number>((resolve, reject) => {
		const target = new URL(url);
		// A connection of its own per attempt (no keep-alive pool outliving the simulator).
		const req = (target.protocol === 'https:' ? https : http).request(target, {
			method: 'POST',
			headers,
			agent: false,
		});
		// The first outcome wins: a timeout or a cancellation is not reported as the reset it causes.
		const fail = (error: unknown) => {
			clearTimeout(timer);
			reject(error);
		};
		const abort = (reason: string) => {
			fail(new Error(reason));
			req.destroy();
		};
		const timer = setTimeout(() => abort(`timeout: no answer within ${timeoutMs} ms`), timeoutMs);
		timer.unref();
		cancel = abort;
		req.on('error', fail);
		req.on('response', (res) => {
			res.on('error', fail);
			res.on('end', () => {
				clearTimeout(timer);
				resolve(res.statusCode ?? 0);
			});
			res.on('close', () => {
				if (!res.complete) fail(new Error('the answer was cut off'));
			});
			res.resume();
		});
		req.end(body);
	});
	return { answer, cancel };
}

function describe(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	const message = error instanceof Error ? error.message : String(error);
	if (!code || message.includes(code)) return message || 'network error';
	return message ? `${code}: ${message}` : code;
}
