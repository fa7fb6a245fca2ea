/**
 * One delivery from Spendesk: checked, deduplicated, and turned into the execution's item.
 * - The signature is checked over the raw body with the secrets of the instances kept for the
 *   company the body names, its current one first (an older one that could not be deleted yet
 *   may still deliver, and never shadows the current one); anything that cannot be checked is answered 401 and starts
 *   nothing (the answer does not say why: the log does, at debug level).
 * - A repeat of an event already handled is answered 200 and starts nothing; a repeat of an
 *   event still being handled (a slow Fetch Full Object read) is answered 409 and starts
 *   nothing, so Spendesk delivers it again later: only a delivery that started the execution
 *   marks the event handled, so every event runs exactly once.
 * - Otherwise the execution starts with the delivery as Spendesk sent it, or, with Fetch Full
 *   Object, with the payable or settlement read through the node's transport (rate limits,
 *   retries, errors). n8n answers 200 when the execution starts.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';
import { companyLabel } from '../companies/naming';
import { ENDPOINTS } from '../transport/endpoints';
import { paginate } from '../transport/paginate';
import { singleObject } from '../transport/pagination/response';
import { callSpendesk } from '../transport/request';
import { isWebhookEvent } from './events';
import { noteEvent } from './recent';
import { isValidSignature, SIGNATURE_HEADER } from './signature';
import { instancesOfCompany, webhookStaticData } from './staticData';
import type { RegisteredInstance } from './staticData';

/** A delivery's body, once its signature is checked. */
interface Delivery {
	data: { companyId: string; id: string; version?: unknown };
	event: { id: string; eventType: string; entity?: unknown; timestamp?: unknown };
}

const isObject = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function parse(raw: Buffer): Delivery | undefined {
	let body: unknown;
	try {
		body = JSON.parse(raw.toString('utf8'));
	} catch {
		return undefined;
	}
	if (!isObject(body) || !isObject(body.data) || !isObject(body.event)) return undefined;
	const { data, event } = body;
	if (
		!isText(data.companyId) ||
		!(isText(data.id) || typeof data.id === 'number') ||
		!isText(event.id) ||
		!isText(event.eventType)
	)
		return undefined;
	return body as unknown as Delivery;
}

/** The raw bytes of the request body (n8n keeps them as `rawBody`). */
function rawBodyOf(ctx: IWebhookFunctions): Buffer | undefined {
	const raw = (ctx.getRequestObject() as { rawBody?: unknown }).rawBody;
	if (Buffer.isBuffer(raw)) return raw;
	return typeof raw === 'string' ? Buffer.from(raw, 'utf8') : undefined;
}

function refuse(ctx: IWebhookFunctions, reason: string): IWebhookResponseData {
	ctx.logger.debug(`Spendesk Webhook Trigger: delivery refused (401): ${reason}`);
	const res = ctx.getResponseObject();
	res.status(401).json({ message: 'Invalid or missing signature' });
	return { noWebhookResponse: true };
}

/**
 * A repeat of an event whose first delivery is still being handled: answered 409, so Spendesk
 * takes this attempt as failed and delivers again later (in 10 minutes), when the first one has
 * either run the event (the repeat is then a duplicate) or failed (the repeat then runs it).
 */
function busy(ctx: IWebhookFunctions, eventId: string): IWebhookResponseData {
	ctx.logger.debug(
		`Spendesk Webhook Trigger: event ${eventId.slice(0, 128)} is still being handled by an earlier delivery; answered 409 so that Spendesk delivers it again later`,
	);
	ctx
		.getResponseObject()
		.status(409)
		.json({ message: 'This event is still being handled; deliver it again later' });
	return { noWebhookResponse: true };
}

/** The payable of the event, read with Get a payable. */
async function fetchPayable(
	ctx: IWebhookFunctions,
	instance: RegisteredInstance,
	id: string,
): Promise<IDataObject> {
	const answer = await callSpendesk(ctx, 'getPayable', {
		company: instance.company,
		pathParams: { payableId: id },
		allowNotFound: true,
	});
	if (answer.status === 404) throw notFound(ctx, 'Payable', 'getPayable', instance, id);
	return singleObject(answer.body) ?? {};
}

/**
 * The settlement of the event. Spendesk has no Get a settlement: its list is read filtered by
 * the settlement's ID (`ids`, docs/api.md#filters), one request however many settlements the
 * company has, so the delivery is answered well within Spendesk's 10 s. A list that ignored
 * the filter is still read until the settlement shows up.
 */
async function fetchSettlement(
	ctx: IWebhookFunctions,
	instance: RegisteredInstance,
	id: string,
): Promise<IDataObject> {
	for await (const page of paginate(ctx, 'listSettlements', {
		company: instance.company,
		qs: { ids: [id] },
	})) {
		const found = page.find((settlement) => String(settlement.id) === id);
		if (found) return found;
	}
	throw notFound(ctx, 'Settlement', 'listSettlements', instance, id);
}

function notFound(
	ctx: IWebhookFunctions,
	label: string,
	endpoint: 'getPayable' | 'listSettlements',
	instance: RegisteredInstance,
	id: string,
): NodeApiError {
	const { method, path } = ENDPOINTS[endpoint];
	return new NodeApiError(
		ctx.getNode(),
		{ status: 404, endpoint: `${method} ${path}`, companyId: instance.companyId } as JsonObject,
		{
			message: `${label} "${id}" of a webhook event was not found in ${companyLabel(instance.companyId)}`,
			description: `Spendesk announced the ${label.toLowerCase()} but does not show it to this credential. Check that the credential reaches ${companyLabel(instance.companyId)} with the ${label === 'Payable' ? 'payable:read' : 'settlement:read'} scope, or turn off 'Fetch Full Object'.`,
			httpCode: '404',
		},
	);
}

/** The delivery and the instance whose secret signed it, or the refusal to answer. */
function verified(
	ctx: IWebhookFunctions,
	state: ReturnType<typeof webhookStaticData>,
): { delivery: Delivery; instance: RegisteredInstance } | { refusal: IWebhookResponseData } {
	const raw = rawBodyOf(ctx);
	if (!raw) return { refusal: refuse(ctx, 'no request body') };
	const delivery = parse(raw);
	if (!delivery) return { refusal: refuse(ctx, 'the body is not a Spendesk webhook delivery') };
	// The company's current instance first; a leftover not deleted yet may still deliver.
	const candidates = instancesOfCompany(state.instances, delivery.data.companyId);
	if (candidates.length === 0)
		return {
			refusal: refuse(
				ctx,
				`no webhook of this trigger is registered for ${companyLabel(delivery.data.companyId.slice(0, 128))}`,
			),
		};
	const signature = ctx.getHeaderData()[SIGNATURE_HEADER];
	const instance = candidates.find((i) => isValidSignature(raw, signature, i.secret));
	if (!instance)
		return {
			refusal: refuse(
				ctx,
				`the signature does not match the secret of ${companyLabel(candidates[0].companyId)}`,
			),
		};
	return { delivery, instance };
}

/** Handles one delivery (the node's webhook method). */
export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const state = webhookStaticData(this);
	const checked = verified(this, state);
	if ('refusal' in checked) return checked.refusal;
	const { delivery, instance } = checked;

	const { event, data } = delivery;
	if (!isWebhookEvent(event.eventType) || !instance.events.includes(event.eventType)) {
		return {
			webhookResponse: {
				received: true,
				ignored: `event ${event.eventType.slice(0, 60)} is not one this trigger listens to`,
			},
		};
	}
	const noted = noteEvent(this, state, event.id);
	if (noted === 'handled') return { webhookResponse: { received: true, duplicate: true } };
	if (noted === 'inProgress') return busy(this, event.id);

	// `?? {}`: workflow JSON may hold `"options": null`.
	const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;
	if (!options.fetchFullObject) {
		noted.handled();
		return { workflowData: [[{ json: delivery as unknown as IDataObject }]] };
	}
	const id = String(data.id);
	let failure: unknown;
	try {
		const object =
			event.eventType === 'settlements:created'
				? await fetchSettlement(this, instance, id)
				: await fetchPayable(this, instance, id);
		noted.handled();
		return {
			workflowData: [
				[{ json: { ...object, companyId: instance.companyId, webhookEvent: { ...event } } }],
			],
		};
	} catch (error) {
		failure = error;
	}
	// Not handled: Spendesk's retry of this delivery may start it.
	noted.forget();
	if (failure instanceof NodeApiError || failure instanceof NodeOperationError) throw failure;
	throw new NodeOperationError(this.getNode(), failure as Error, {
		description: `While reading the object of event ${event.id} from ${companyLabel(instance.companyId)}.`,
	});
}
