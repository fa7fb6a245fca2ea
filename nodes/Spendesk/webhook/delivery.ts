/**
 * One delivery from Spendesk: its signature checked, repeats dropped, and turned into the
 * execution's item (docs/triggers.md#signature, #repeats and #output). Only a delivery that
 * started the execution marks its event handled, so every event runs exactly once.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';
import { companyLabel } from '../companies/label';
import { ENDPOINTS } from '../transport/endpoints';
import { paginate } from '../transport/paginate';
import { isObject, singleObject } from '../transport/pagination/response';
import { callSpendesk } from '../transport/request';
import { isWebhookEvent } from './events';
import { noteEvent } from './recent';
import { isValidSignature, SIGNATURE_HEADER } from './signature';
import { webhookStaticData } from './staticData';
import type { RegisteredInstance } from './staticData';

/** A delivery's body, once its signature is checked. */
interface Delivery {
	data: { companyId: string; id: string; version?: unknown };
	event: { id: string; eventType: string; entity?: unknown; timestamp?: unknown };
}

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

/** Answers the delivery here (it starts nothing); why goes to the debug log only. */
function answer(
	ctx: IWebhookFunctions,
	status: 401 | 409,
	message: string,
	why: string,
): IWebhookResponseData {
	ctx.logger.debug(`Spendesk Webhook Trigger: ${why}`);
	ctx.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}

/** The payable, or the settlement: no Get a settlement, so its list filtered by its ID (`ids`, docs/api.md#filters), one request within 10 s. */
async function fetchObject(
	ctx: IWebhookFunctions,
	instance: RegisteredInstance,
	{ eventType }: Delivery['event'],
	id: string,
): Promise<IDataObject> {
	if (eventType !== 'settlements:created') {
		const answer = await callSpendesk(ctx, 'getPayable', {
			company: instance.company,
			pathParams: { payableId: id },
			allowNotFound: true,
		});
		if (answer.status === 404) throw notFound(ctx, 'Payable', instance, id);
		return singleObject(answer.body) ?? {};
	}
	for await (const page of paginate(ctx, 'listSettlements', {
		company: instance.company,
		qs: { ids: [id] },
	})) {
		const found = page.find((settlement) => String(settlement.id) === id);
		if (found) return found;
	}
	throw notFound(ctx, 'Settlement', instance, id);
}

function notFound(
	ctx: IWebhookFunctions,
	label: 'Payable' | 'Settlement',
	instance: RegisteredInstance,
	id: string,
): NodeApiError {
	const { method, path, scope } = ENDPOINTS[label === 'Payable' ? 'getPayable' : 'listSettlements'];
	return new NodeApiError(
		ctx.getNode(),
		{ status: 404, endpoint: `${method} ${path}`, companyId: instance.companyId } as JsonObject,
		{
			message: `${label} "${id}" of a webhook event was not found in ${companyLabel(instance.companyId)}`,
			description: `Spendesk announced the ${label.toLowerCase()} but does not show it to this credential. Check that the credential reaches ${companyLabel(instance.companyId)} with the ${scope} scope, or turn off 'Fetch Full Object'.`,
			httpCode: '404',
		},
	);
}

/** The delivery and the instance whose secret signed it, or why it is refused. */
function verified(
	ctx: IWebhookFunctions,
	state: ReturnType<typeof webhookStaticData>,
): { delivery: Delivery; instance: RegisteredInstance } | string {
	// The raw bytes of the body, as n8n keeps them.
	const rawBody = (ctx.getRequestObject() as { rawBody?: unknown }).rawBody;
	const raw = Buffer.isBuffer(rawBody)
		? rawBody
		: typeof rawBody === 'string'
			? Buffer.from(rawBody, 'utf8')
			: undefined;
	if (!raw) return 'no request body';
	const delivery = parse(raw);
	if (!delivery) return 'the body is not a Spendesk webhook delivery';
	// The company's current instance first; a leftover not deleted yet may still deliver.
	const { companyId } = delivery.data;
	const candidates = state.instances.filter((i) => i.companyId === companyId).reverse();
	if (candidates.length === 0)
		return `no webhook of this trigger is registered for ${companyLabel(companyId.slice(0, 128))}`;
	const signature = ctx.getHeaderData()[SIGNATURE_HEADER];
	const instance = candidates.find((i) => isValidSignature(raw, signature, i.secret));
	if (!instance)
		return `the signature does not match the secret of ${companyLabel(candidates[0].companyId)}`;
	return { delivery, instance };
}

export async function receiveDelivery(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const state = webhookStaticData(this);
	const checked = verified(this, state);
	if (typeof checked === 'string')
		return answer(this, 401, 'Invalid or missing signature', `delivery refused (401): ${checked}`);
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
	if (noted === 'inProgress') {
		// Still being handled: Spendesk takes a 409 as failed and delivers again (in 10 minutes).
		return answer(
			this,
			409,
			'This event is still being handled; deliver it again later',
			`event ${event.id.slice(0, 128)} is still being handled by an earlier delivery; answered 409 so that Spendesk delivers it again later`,
		);
	}

	// `?? {}`: workflow JSON may hold `"options": null`.
	const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;
	if (!options.fetchFullObject) {
		noted.handled();
		return { workflowData: [[{ json: delivery as unknown as IDataObject }]] };
	}
	const id = String(data.id);
	let failure: unknown;
	try {
		const object = await fetchObject(this, instance, event, id);
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
