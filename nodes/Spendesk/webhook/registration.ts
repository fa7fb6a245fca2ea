/**
 * The Webhook Trigger's life cycle at Spendesk, as n8n drives it (webhookMethods):
 * - checkExists: every chosen company has the instance this trigger registered (kept in static
 *   data), still at Spendesk with this node's URL and events;
 * - create: one instance per company, with a secret made here; instances of this node's URL
 *   left by an activation that did not finish (n8n stopped, static data not saved) are found
 *   by their URL and deleted first, so they never pile up. A company whose kept instance is
 *   right (this URL, these events, still so at Spendesk) keeps it as it is, and one whose kept
 *   instance has this URL and only other events has it updated in place
 *   (docs/api.md#webhooks): same instance, same secret, no gap in deliveries, Spendesk's
 *   pending retries kept. Only stale instances are deleted (companies no longer chosen,
 *   another URL, gone or disabled at Spendesk, refused updates), and only missing ones created;
 * - delete: exactly the instances kept in static data.
 * The URL is the node's own webhook URL, which no other node shares, so an instance with that
 * URL is this trigger's.
 */
import { randomBytes } from 'node:crypto';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IHookFunctions } from 'n8n-workflow';
import { companyLabel } from '../companies/naming';
import { readCompanyChoice, selectCompanies } from '../companies/select';
import type { CompanyTarget } from '../companies/select';
import { resolveCredential } from '../transport/credential';
import { collect } from '../transport/paginate';
import { singleObject } from '../transport/pagination/response';
import { callSpendesk } from '../transport/request';
import { restated } from '../transport/restate';
import { isWebhookEvent, WEBHOOK_EVENTS } from './events';
import type { WebhookEventType } from './events';
import { currentInstances, webhookStaticData } from './staticData';
import type { RegisteredInstance } from './staticData';

/**
 * How many webhook instances a company may have is not published (docs/api.md#webhooks): the
 * simulator takes 50. The node never refuses on that number; it only adds advice to Spendesk's
 * own refusal when the company has that many already.
 */
const MANY_INSTANCES = 50;

/** The events chosen in the node, checked. */
export function readEvents(ctx: IHookFunctions): WebhookEventType[] {
	const raw = ctx.getNodeParameter('events', []) as unknown;
	const chosen = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [])
		.map((e) => String(e).trim())
		.filter(Boolean);
	const unknown = chosen.filter((e) => !isWebhookEvent(e));
	if (chosen.length === 0 || unknown.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			chosen.length === 0
				? 'Choose at least one event'
				: `Unknown event "${unknown[0].slice(0, 60)}"`,
			{
				description: `The trigger listens to ${WEBHOOK_EVENTS.map((e) => `${e.name} (${e.value})`).join(', ')}.`,
			},
		);
	}
	return [...new Set(chosen as WebhookEventType[])];
}

/** The companies the trigger registers for, as the node's Companies choice gives them (read at activation). */
async function companiesOf(ctx: IHookFunctions): Promise<CompanyTarget[]> {
	return (await selectCompanies(ctx, readCompanyChoice(ctx))).targets;
}

const sameEvents = (a: readonly string[], b: readonly string[]) =>
	a.length === b.length && a.every((e) => b.includes(e));

/**
 * Why the instance kept for a company is not right at Spendesk (gone, disabled, another URL or
 * other events), or undefined when it is.
 */
async function notRightAtSpendesk(
	ctx: IHookFunctions,
	kept: RegisteredInstance,
	url: string,
	events: readonly string[],
): Promise<string | undefined> {
	const answer = await callSpendesk(ctx, 'getWebhook', {
		company: kept.company,
		pathParams: { webhookId: kept.id },
		allowNotFound: true,
		// Spendesk's answer (or an error quoting it) may hold the instance's secret.
		secrets: [kept.secret],
	});
	if (answer.status === 404) return 'it is no longer at Spendesk';
	const remote = singleObject(answer.body);
	if (remote?.disabled === true || remote?.status === 'disabled') return 'Spendesk disabled it';
	if (remote?.url !== url) return 'Spendesk holds another URL for it';
	const remoteEvents = Array.isArray(remote.events) ? (remote.events as string[]) : [];
	return sameEvents(remoteEvents, events) ? undefined : 'Spendesk holds other events for it';
}

/** Whether every chosen company has this trigger's instance at Spendesk, with this URL and these events. */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const state = webhookStaticData(this);
	if (state.instances.length === 0) return false;
	const url = this.getNodeWebhookUrl('default');
	const events = readEvents(this);
	const targets = await companiesOf(this);
	const current = currentInstances(state.instances);
	if (targets.length !== current.length) return false;
	for (const target of targets) {
		const kept = current.find((i) => i.company === target.id);
		if (!kept || kept.url !== url || !sameEvents(kept.events, events)) return false;
		if (await notRightAtSpendesk(this, kept, url ?? '', events)) return false;
	}
	return true;
}

/** Deletes one instance; a 404 (already gone) counts as deleted. */
async function deleteInstance(
	ctx: IHookFunctions,
	company: string | undefined,
	webhookId: string,
): Promise<void> {
	await callSpendesk(ctx, 'deleteWebhook', {
		company,
		pathParams: { webhookId },
		allowNotFound: true,
	});
}

/** Deletes what `instances` lists at Spendesk; gives back those that could not be deleted (logged). */
async function deleteAll(
	ctx: IHookFunctions,
	instances: RegisteredInstance[],
): Promise<RegisteredInstance[]> {
	const left: RegisteredInstance[] = [];
	for (const instance of instances) {
		try {
			await deleteInstance(ctx, instance.company, instance.id);
		} catch (error) {
			ctx.logger.warn(
				`Spendesk Webhook Trigger: could not delete webhook instance ${instance.id} of ${companyLabel(instance.company)}: ${(error as Error).message}`,
			);
			left.push(instance);
		}
	}
	return left;
}

/** POST the instance to Spendesk; a failure says which company it was for. */
async function createAtSpendesk(
	ctx: IHookFunctions,
	company: string | undefined,
	name: string,
	instance: { url: string; events: WebhookEventType[]; secret: string },
	others: number,
) {
	const workflow = ctx.getWorkflow();
	const label = `n8n workflow "${workflow.name ?? workflow.id ?? ''}", node "${ctx.getNode().name}"`;
	try {
		return await callSpendesk(ctx, 'createWebhook', {
			company,
			body: { ...instance, description: label.slice(0, 250) },
			// Spendesk may quote the request body in an error: the secret must not reach it.
			secrets: [instance.secret],
		});
	} catch (error) {
		const cause = error as Error & { description?: string | null };
		const crowded =
			others >= MANY_INSTANCES
				? ` ${name} has ${others} webhook instances already: if Spendesk limits their number, delete those no longer used (deactivate the workflows that own them), or choose other companies, then activate again.`
				: '';
		throw restated(ctx.getNode(), error, {
			message: `Could not register the webhook for ${name}: ${cause.message}`,
			description: `${cause.description ?? ''}${crowded}`.trim() || undefined,
		});
	}
}

/**
 * Registers one company's instance (after deleting what an unfinished activation, or a
 * deletion that failed, left there with this URL; their ids are added to `deleted`).
 */
async function registerCompany(
	ctx: IHookFunctions,
	target: CompanyTarget,
	url: string,
	events: WebhookEventType[],
	deleted: Set<string>,
): Promise<RegisteredInstance> {
	const company = target.id;
	const existing = await collect(ctx, 'listWebhooks', { company });
	const leftovers = existing.filter((instance) => instance.url === url);
	for (const leftover of leftovers) {
		await deleteInstance(ctx, company, String(leftover.id));
		deleted.add(String(leftover.id));
	}
	const name = companyLabel(target);
	const secret = randomBytes(32).toString('hex');
	const others = existing.length - leftovers.length;
	const answer = await createAtSpendesk(ctx, company, name, { url, events, secret }, others);
	const created = singleObject(answer.body);
	if (typeof created?.id !== 'string' && typeof created?.id !== 'number') {
		throw new NodeOperationError(
			ctx.getNode(),
			`Spendesk registered a webhook for ${name} but did not say its id`,
			{
				description:
					"Try to activate again; if it keeps happening, check 'Environment' (or 'Base URL') in the credential.",
			},
		);
	}
	return {
		id: String(created.id),
		...(company ? { company } : {}),
		companyId:
			typeof created.companyId === 'string' && created.companyId
				? created.companyId
				: (company ?? (await resolveCredential(ctx)).ownCompanyId ?? ''),
		// Spendesk signs with the secret it answers, when it answers one (it may ignore ours).
		secret: typeof created.secret === 'string' && created.secret ? created.secret : secret,
		url,
		events,
	};
}

/**
 * Sets the events of a kept instance at Spendesk (same URL, same secret). Gives back the
 * instance as now registered, or undefined when it must be registered anew instead: the
 * instance is gone (404), disabled, or the update was refused (no scope for it, an outage…);
 * the reason is logged, without the secret.
 */
async function updateInPlace(
	ctx: IHookFunctions,
	instance: RegisteredInstance,
	events: WebhookEventType[],
): Promise<RegisteredInstance | undefined> {
	const name = companyLabel(instance.company);
	let reason: string;
	try {
		const answer = await callSpendesk(ctx, 'updateWebhook', {
			company: instance.company,
			pathParams: { webhookId: instance.id },
			body: { events },
			allowNotFound: true,
			secrets: [instance.secret],
		});
		const remote = singleObject(answer.body);
		if (answer.status === 404) reason = 'it is no longer at Spendesk';
		else if (remote?.disabled === true || remote?.status === 'disabled')
			reason = 'Spendesk disabled it';
		else if (remote?.url !== undefined && remote.url !== instance.url)
			reason = 'Spendesk answered another URL for it';
		else return { ...instance, events };
	} catch (error) {
		reason = `Spendesk refused the update: ${(error as Error).message}`;
	}
	ctx.logger.info(
		`Spendesk Webhook Trigger: webhook instance ${instance.id} of ${name} is registered anew (${reason})`,
	);
	return undefined;
}

/**
 * A kept instance with this URL and these events, if it is still right at Spendesk: kept as it
 * is (same instance and secret, no gap in deliveries, Spendesk's pending retries kept).
 * Otherwise undefined, and the reason is logged: that company is registered anew.
 */
async function keepIfRight(
	ctx: IHookFunctions,
	instance: RegisteredInstance,
	events: WebhookEventType[],
): Promise<RegisteredInstance | undefined> {
	let reason: string | undefined;
	try {
		reason = await notRightAtSpendesk(ctx, instance, instance.url, events);
	} catch (error) {
		reason = `Spendesk could not confirm it: ${(error as Error).message}`;
	}
	if (reason === undefined) return instance;
	ctx.logger.info(
		`Spendesk Webhook Trigger: webhook instance ${instance.id} of ${companyLabel(instance.company)} is registered anew (${reason})`,
	);
	return undefined;
}

/**
 * The instances an activation keeps: for each chosen company, its current instance when it has
 * this URL, as it is when its events are right and Spendesk still holds it so, updated in place
 * when only the events differ. The other companies are registered anew.
 */
async function reusableInstances(
	ctx: IHookFunctions,
	state: { instances: RegisteredInstance[] },
	targets: CompanyTarget[],
	url: string,
	events: WebhookEventType[],
): Promise<RegisteredInstance[]> {
	const current = currentInstances(state.instances);
	const reused: RegisteredInstance[] = [];
	for (const target of targets) {
		const kept = current.find((i) => (i.company ?? '') === (target.id ?? ''));
		if (!kept || kept.url !== url) continue;
		const now = sameEvents(kept.events, events)
			? await keepIfRight(ctx, kept, events)
			: await updateInPlace(ctx, kept, events);
		if (now) reused.push(now);
	}
	return reused;
}

/** Registers one instance per chosen company. On a failure, what was registered is deleted again. */
export async function create(this: IHookFunctions): Promise<boolean> {
	const state = webhookStaticData(this);
	const url = this.getNodeWebhookUrl('default') ?? '';
	const events = readEvents(this);
	const targets = await companiesOf(this);
	if (targets.length === 0) {
		throw new NodeOperationError(this.getNode(), 'The credential reaches no company to listen to', {
			description:
				'Check that the credential is the right one and that its companies are active in Spendesk.',
		});
	}
	// Instances that are right are kept as they are; same URL with other events, updated in place.
	const reused = await reusableInstances(this, state, targets, url, events);
	const reusedIds = new Set(reused.map((i) => i.id));
	// Only what is stale goes: instances of companies no longer chosen, of another URL, gone or
	// disabled at Spendesk, and leftovers of earlier activations.
	state.instances = await deleteAll(
		this,
		state.instances.filter((i) => !reusedIds.has(i.id)),
	);
	// After the leftovers that could not be deleted: a reused instance is its company's current one.
	state.instances.push(...reused);
	const registered: RegisteredInstance[] = [];
	const deleted = new Set<string>();
	let failure: unknown;
	try {
		for (const target of targets) {
			if (reused.some((i) => (i.company ?? '') === (target.id ?? ''))) continue;
			registered.push(await registerCompany(this, target, url, events, deleted));
		}
	} catch (error) {
		failure = error;
	}
	// An instance whose deletion failed above but that was found by its URL and deleted is gone.
	state.instances = state.instances.filter((i) => !deleted.has(i.id));
	if (failure === undefined) {
		// Each company's new instance is its current one.
		state.instances.push(...registered);
		return true;
	}
	state.instances.push(...(await deleteAll(this, registered)));
	if (failure instanceof NodeOperationError || failure instanceof NodeApiError) throw failure;
	throw new NodeOperationError(this.getNode(), failure as Error);
}

/** Deletes the instances this trigger registered; those that could not be deleted stay listed (and are deleted on the next activation). */
export async function remove(this: IHookFunctions): Promise<boolean> {
	const state = webhookStaticData(this);
	state.instances = await deleteAll(this, state.instances);
	return state.instances.length === 0;
}
