/**
 * What makes webhook events happen: a new payable (payables:created), a payable prepared
 * (payables:prepared), a new settlement (settlements:created). Each changes the company's data
 * as the API then shows it (Get a payable, the payables search, the settlements list) and
 * emits its event (deliveries.ts).
 *
 * The control route POST /_simulator/webhooks/events does the same over HTTP, for the dev
 * sandbox and trying by hand; it exists on the simulator only and needs no token. Body
 * `{ companyId, eventType, id? }`. Without `id` it makes the change: payables:created creates
 * a payable, settlements:created a settlement, payables:prepared prepares the newest
 * payable still `created` (bookkeeping status; 409 when there is none). With `id` it announces that existing payable or
 * settlement as it is, without changing it (404 when the company has no such record). It
 * answers 201 `{ data: event }`.
 */
import { searchIndex, SimError } from './paging';
import type { SortKey } from './paging';
import type { RouteDef } from './routes';
import type { WebhookEvent, WebhookEventType } from './deliveries';
import type { HandlerResult, RequestContext, SpendeskSimulator } from './server';
import { makeSettlement } from './seed';
import type { Payable, Settlement } from './types';
import { WEBHOOK_EVENTS } from './webhooks';

const byCreated = (p: Payable): SortKey => [p.createdAt, p.id];

/** `pay_001_000046`: the next number of the company's records, past any id already taken. */
function freshId(prefix: string, companyId: string, taken: ReadonlyArray<{ id: string }>): string {
	const ids = new Set(taken.map((r) => r.id));
	const idOf = (n: number) => `${prefix}_${companyId.slice(4)}_${String(n).padStart(6, '0')}`;
	let n = taken.length + 1;
	while (ids.has(idOf(n))) n++;
	return idOf(n);
}

/**
 * A new payable (an invoice of 120.00 EUR, bookkeeping status `created`) at version 1, created
 * now (simulator's clock), unless `partial` says otherwise; kept in createdAt order as the
 * payables search reads them.
 */
export function createPayable(
	sim: SpendeskSimulator,
	companyId: string,
	partial: Partial<Payable> = {},
): { payable: Payable; event: WebhookEvent } {
	const payables = sim.data(companyId).payables;
	const now = sim.clock.iso();
	const payable: Payable = {
		id: freshId('pay', companyId, payables),
		companyId,
		type: 'invoicePurchase',
		userId: `usr_${companyId.slice(4)}_00001`,
		description: 'Office Depot office',
		amount: 12000,
		currency: 'EUR',
		counterparty: { id: `sup_${companyId.slice(4)}_00001`, type: 'supplier', name: 'Office Depot' },
		createdAt: now,
		version: 1,
		...partial,
	};
	payable.updatedAt = partial.updatedAt ?? payable.createdAt;
	if (payables.some((p) => p.id === payable.id))
		throw new Error(`Payable ${payable.id} already exists`);
	payables.splice(searchIndex(payables, byCreated(payable), byCreated, true), 0, payable);
	const event = sim.emitWebhookEvent({
		companyId,
		eventType: 'payables:created',
		id: payable.id,
		version: payable.version ?? 1,
	});
	return { payable, event };
}

/** A payable still `created` becomes `prepared`: its version moves on by one, updatedAt is now. */
export function preparePayable(
	sim: SpendeskSimulator,
	companyId: string,
	payableId: string,
): { payable: Payable; event: WebhookEvent } {
	const payable = sim.data(companyId).payables.find((p) => p.id === payableId);
	if (!payable) throw new Error(`No payable ${payableId} in company ${companyId}`);
	const status = payable.bookkeepingStatus ?? 'created';
	if (status !== 'created')
		throw new Error(`Payable ${payableId} is ${status}: only a created payable can be prepared`);
	payable.bookkeepingStatus = 'prepared';
	payable.version = (payable.version ?? 1) + 1;
	payable.updatedAt = sim.clock.iso();
	const event = sim.emitWebhookEvent({
		companyId,
		eventType: 'payables:prepared',
		id: payable.id,
		version: payable.version,
	});
	return { payable, event };
}

/** A new settlement, settled now, of the company's newest payable unless `partial` says otherwise. */
export function createSettlement(
	sim: SpendeskSimulator,
	companyId: string,
	partial: Partial<Settlement> = {},
): { settlement: Settlement; event: WebhookEvent } {
	const data = sim.data(companyId);
	const id = freshId('stl', companyId, data.settlements);
	const settlement: Settlement = {
		...makeSettlement(companyId, data.settlements.length + 1, sim.clock.now(), () => 0.25),
		id,
		links: [{ bankFees: `/bank-fees?settlementIds=${id}` }],
		...partial,
	};
	if (data.settlements.some((s) => s.id === settlement.id))
		throw new Error(`Settlement ${settlement.id} already exists`);
	data.settlements.push(settlement);
	const event = sim.emitWebhookEvent({
		companyId,
		eventType: 'settlements:created',
		id: settlement.id,
		version: 1,
	});
	return { settlement, event };
}

/** The newest payable of a company still `created` (createdAt order), if any. */
function newestCreated(payables: readonly Payable[]): Payable | undefined {
	for (let i = payables.length - 1; i >= 0; i--)
		if ((payables[i].bookkeepingStatus ?? 'created') === 'created') return payables[i];
	return undefined;
}

function emitEvent(ctx: RequestContext): HandlerResult {
	const body = ctx.body;
	if (!body || typeof body !== 'object' || Array.isArray(body))
		throw new SimError(400, 'invalid_body', 'The request body must be a JSON object', 'body');
	const { companyId, eventType, id } = body as Record<string, unknown>;
	if (typeof companyId !== 'string' || !ctx.sim.company(companyId))
		throw new SimError(404, 'not_found', 'Company not found', 'body.companyId');
	if (!(WEBHOOK_EVENTS as readonly unknown[]).includes(eventType)) {
		throw new SimError(
			400,
			'invalid_parameter',
			`eventType must be one of ${WEBHOOK_EVENTS.join(', ')}`,
			'body.eventType',
		);
	}
	const type = eventType as WebhookEventType;
	const data = ctx.sim.data(companyId);
	let event: WebhookEvent;
	if (id !== undefined) {
		if (typeof id !== 'string' || id === '')
			throw new SimError(400, 'invalid_parameter', 'id must be a non-empty string', 'body.id');
		const records: ReadonlyArray<{ id: string }> =
			type === 'settlements:created' ? data.settlements : data.payables;
		if (!records.some((r) => r.id === id))
			throw new SimError(
				404,
				'not_found',
				`${type === 'settlements:created' ? 'Settlement' : 'Payable'} not found`,
				'body.id',
			);
		event = ctx.sim.emitWebhookEvent({ companyId, eventType: type, id });
	} else if (type === 'payables:created') {
		event = ctx.sim.createPayable(companyId).event;
	} else if (type === 'settlements:created') {
		event = ctx.sim.createSettlement(companyId).event;
	} else {
		const payable = newestCreated(data.payables);
		if (!payable)
			throw new SimError(
				409,
				'no_payable_to_prepare',
				'The company has no created payable to prepare',
				'body.companyId',
			);
		event = ctx.sim.preparePayable(companyId, payable.id).event;
	}
	return { status: 201, body: { data: event } };
}

export const CONTROL_ROUTES: RouteDef[] = [
	{
		id: 'simulatorWebhookEvent',
		method: 'POST',
		pattern: /^\/_simulator\/webhooks\/events$/,
		placement: 'public',
		handler: emitEvent,
	},
];
