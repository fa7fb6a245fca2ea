/**
 * Webhook instances (docs/api.md#webhooks): POST and GET /v1/webhooks, GET,
 * PATCH and DELETE /v1/webhooks/{webhookId}. One company per instance (the call's company);
 * the secret is shown only in the answer to the create; at most 50 instances per company.
 * Decided here where the catalogue is silent: the URL must be HTTPS (plain HTTP only for
 * loopback, as n8n's test webhooks on this machine need); a create without a secret gets one
 * generated; the list is page-based like the other v1 lists; DELETE answers 204. An instance
 * whose deliveries kept failing through the whole retry schedule is disabled (deliveries.ts):
 * it shows `status: 'disabled'` and `disabled: true` and receives nothing more.
 */
import { randomBytes } from 'node:crypto';
import { pageOf, SimError } from './paging';
import type { RouteDef } from './routes';
import type { SpendeskSimulator, HandlerResult, RequestContext } from './server';
import { singleBody } from './shapes';

export const WEBHOOK_EVENTS = [
	'payables:created',
	'payables:prepared',
	'settlements:created',
] as const;
export const MAX_WEBHOOKS_PER_COMPANY = 50;

export interface WebhookInstance {
	id: string;
	companyId: string;
	url: string;
	events: string[];
	secret: string;
	description: string | null;
	/** 'disabled' once the retry schedule of a delivery ran out; nothing is delivered to it then. */
	status: 'active' | 'disabled';
	disabled: boolean;
	createdAt: string;
	updatedAt: string;
}

const stores = new WeakMap<
	SpendeskSimulator,
	{ seq: number; byCompany: Map<string, WebhookInstance[]> }
>();

function storeOf(sim: SpendeskSimulator) {
	let store = stores.get(sim);
	if (!store) stores.set(sim, (store = { seq: 0, byCompany: new Map() }));
	return store;
}

/** The webhook instances of a company (for tests and deliveries). */
export function webhooksOf(sim: SpendeskSimulator, companyId: string): WebhookInstance[] {
	const store = storeOf(sim);
	let list = store.byCompany.get(companyId);
	if (!list) store.byCompany.set(companyId, (list = []));
	return list;
}

/** An instance as the API shows it after its creation: without its secret. */
function shown(instance: WebhookInstance): Omit<WebhookInstance, 'secret'> {
	const copy: Partial<WebhookInstance> = { ...instance };
	delete copy.secret;
	return copy as Omit<WebhookInstance, 'secret'>;
}

function body(ctx: RequestContext): Record<string, unknown> {
	if (!ctx.body || typeof ctx.body !== 'object' || Array.isArray(ctx.body))
		throw new SimError(400, 'invalid_body', 'The request body must be a JSON object', 'body');
	return ctx.body as Record<string, unknown>;
}

function checkUrl(value: unknown): string {
	const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
	const loopback = url && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
	if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback))) {
		throw new SimError(
			400,
			'invalid_parameter',
			'url must be an HTTPS URL (plain HTTP only for localhost)',
			'body.url',
		);
	}
	return url.href;
}

function checkEvents(value: unknown): string[] {
	const events = Array.isArray(value) ? value : [];
	if (
		events.length === 0 ||
		events.some((e) => !(WEBHOOK_EVENTS as readonly unknown[]).includes(e))
	) {
		throw new SimError(
			400,
			'invalid_parameter',
			`events must be a non-empty list of ${WEBHOOK_EVENTS.join(', ')}`,
			'body.events',
		);
	}
	return [...new Set(events as string[])];
}

function optionalText(value: unknown, name: string): string | null {
	if (value === undefined || value === null) return null;
	if (typeof value !== 'string')
		throw new SimError(400, 'invalid_parameter', `${name} must be a string`, `body.${name}`);
	return value;
}

function createWebhook(ctx: RequestContext): HandlerResult {
	const input = body(ctx);
	const list = webhooksOf(ctx.sim, ctx.companyId!);
	if (list.length >= MAX_WEBHOOKS_PER_COMPANY) {
		throw new SimError(
			400,
			'too_many_webhooks',
			`A company has at most ${MAX_WEBHOOKS_PER_COMPANY} webhook instances`,
			'body',
		);
	}
	const now = ctx.sim.clock.iso();
	const secret = optionalText(input.secret, 'secret') || randomBytes(24).toString('hex');
	const instance: WebhookInstance = {
		id: `wh_${String(++storeOf(ctx.sim).seq).padStart(6, '0')}`,
		companyId: ctx.companyId!,
		url: checkUrl(input.url),
		events: checkEvents(input.events),
		secret,
		description: optionalText(input.description, 'description'),
		status: 'active',
		disabled: false,
		createdAt: now,
		updatedAt: now,
	};
	list.push(instance);
	return singleBody(ctx, instance, 201);
}

/** Still registered (not deleted) and not disabled: deliveries go to it. */
export function isLive(sim: SpendeskSimulator, instance: WebhookInstance): boolean {
	return !instance.disabled && webhooksOf(sim, instance.companyId).includes(instance);
}

/** The retry schedule of a delivery ran out: the instance receives nothing more. */
export function disableWebhook(sim: SpendeskSimulator, instance: WebhookInstance): void {
	Object.assign(instance, { status: 'disabled', disabled: true, updatedAt: sim.clock.iso() });
}

function instanceOf(ctx: RequestContext): WebhookInstance {
	const found = webhooksOf(ctx.sim, ctx.companyId!).find((w) => w.id === ctx.params.webhookId);
	if (!found) throw new SimError(404, 'not_found', 'Webhook not found', 'path.webhookId');
	return found;
}

function updateWebhook(ctx: RequestContext): HandlerResult {
	const input = body(ctx);
	const instance = instanceOf(ctx);
	const changes: Partial<WebhookInstance> = {};
	if ('url' in input) changes.url = checkUrl(input.url);
	if ('events' in input) changes.events = checkEvents(input.events);
	if ('description' in input) changes.description = optionalText(input.description, 'description');
	Object.assign(instance, changes, { updatedAt: ctx.sim.clock.iso() });
	return singleBody(ctx, shown(instance));
}

function deleteWebhook(ctx: RequestContext): HandlerResult {
	const list = webhooksOf(ctx.sim, ctx.companyId!);
	list.splice(list.indexOf(instanceOf(ctx)), 1);
	return { status: 204, body: undefined };
}

const WRITE = 'experimental:webhooks:write';
const READ = 'experimental:webhooks:read';
const ONE = /^\/v1\/webhooks\/(?<webhookId>[^/]+)$/;

export const WEBHOOK_ROUTES: RouteDef[] = [
	{
		id: 'createWebhook',
		method: 'POST',
		pattern: /^\/v1\/webhooks$/,
		placement: 'header',
		scope: WRITE,
		handler: createWebhook,
	},
	{
		id: 'listWebhooks',
		method: 'GET',
		pattern: /^\/v1\/webhooks$/,
		placement: 'header',
		scope: READ,
		handler: (ctx) => ({
			status: 200,
			body: pageOf(webhooksOf(ctx.sim, ctx.companyId!).map(shown), ctx.query),
		}),
	},
	{
		id: 'getWebhook',
		method: 'GET',
		pattern: ONE,
		placement: 'header',
		scope: READ,
		handler: (ctx) => singleBody(ctx, shown(instanceOf(ctx))),
	},
	{
		id: 'updateWebhook',
		method: 'PATCH',
		pattern: ONE,
		placement: 'header',
		scope: WRITE,
		handler: updateWebhook,
	},
	{
		id: 'deleteWebhook',
		method: 'DELETE',
		pattern: ONE,
		placement: 'header',
		scope: WRITE,
		handler: deleteWebhook,
	},
];
