/**
 * The Webhook Trigger's life cycle at Spendesk, as n8n drives it (webhookMethods):
 * - checkExists: every chosen company has the instance this trigger registered (kept in static
 *   data), still at Spendesk with this node's URL and events;
 * - create: one instance per company, with a secret made here; instances of this node's URL
 *   left by an activation that did not finish (n8n stopped, static data not saved) are found
 *   by their URL and deleted first, so they never pile up. A company whose kept instance has
 *   this URL and only other events is updated in place instead (docs/api.md#webhooks): same
 *   instance, same secret, no gap in deliveries; when Spendesk refuses the update or the
 *   instance is gone, that company goes the delete-and-create way;
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
import { singleObject } from '../transport/pagination/strategy';
import { callSpendesk } from '../transport/request';
import { restated } from '../transport/restate';
import { isWebhookEvent, WEBHOOK_EVENTS } from './events';
import type { WebhookEventType } from './events';
import { currentInstances, webhookStaticData } from './staticData';
import type { RegisteredInstance } from './staticData';

/** Spendesk's limit of webhook instances per company. */
export const MAX_INSTANCES_PER_COMPANY = 50;

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
		const answer = await callSpendesk(this, 'getWebhook', {
			company: kept.company,
			pathParams: { webhookId: kept.id },
			allowNotFound: true,
		});
		if (answer.status === 404) return false;
		const remote = singleObject(answer.body);
		if (
			remote?.url !== url ||
			remote.disabled === true ||
			remote.status === 'disabled' ||
			!sameEvents(Array.isArray(remote.events) ? (remote.events as string[]) : [], events)
		)
			return false;
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
		throw restated(ctx.getNode(), error, {
			message: `Could not register the webhook for ${name}: ${cause.message}`,
			description: cause.description ?? undefined,
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
	if (existing.length - leftovers.length >= MAX_INSTANCES_PER_COMPANY) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Spendesk allows ${MAX_INSTANCES_PER_COMPANY} webhook instances per company, and ${name} has ${existing.length - leftovers.length} already`,
			{
				description: `Delete webhook instances of ${name} that are no longer used (deactivate the workflows that own them), or choose other companies, then activate again.`,
			},
		);
	}
	const secret = randomBytes(32).toString('hex');
	const answer = await createAtSpendesk(ctx, company, name, { url, events, secret });
	const created = singleObject(answer.body);
	if (typeof created?.id !== 'string' && typeof created?.id !== 'number') {
		throw new NodeOperationError(
			ctx.getNode(),
			`Spendesk registered a webhook for ${name} but did not say its id`,
			{
				description:
					'Try to activate again; if it keeps failing, check the base URL of the credential.',
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
 * The companies whose kept instance can be updated in place: same URL, other events. Each one
 * updated is taken out of `targets`' way (returned), the others are registered anew.
 */
async function updateChangedEvents(
	ctx: IHookFunctions,
	state: { instances: RegisteredInstance[] },
	targets: CompanyTarget[],
	url: string,
	events: WebhookEventType[],
): Promise<RegisteredInstance[]> {
	const current = currentInstances(state.instances);
	const updated: RegisteredInstance[] = [];
	for (const target of targets) {
		const kept = current.find((i) => (i.company ?? '') === (target.id ?? ''));
		if (!kept || kept.url !== url || sameEvents(kept.events, events)) continue;
		const now = await updateInPlace(ctx, kept, events);
		if (now) updated.push(now);
	}
	return updated;
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
	// Same URL, only the events changed: those instances are updated in place and kept.
	const updated = await updateChangedEvents(this, state, targets, url, events);
	const updatedIds = new Set(updated.map((i) => i.id));
	// Instances of an earlier registration (other companies, URL or events) go first.
	state.instances = await deleteAll(
		this,
		state.instances.filter((i) => !updatedIds.has(i.id)),
	);
	// After the leftovers that could not be deleted: an updated instance is its company's current one.
	state.instances.push(...updated);
	const registered: RegisteredInstance[] = [];
	const deleted = new Set<string>();
	let failure: unknown;
	try {
		for (const target of targets) {
			if (updated.some((i) => (i.company ?? '') === (target.id ?? ''))) continue;
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
