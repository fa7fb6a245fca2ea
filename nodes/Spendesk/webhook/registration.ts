/**
 * The Webhook Trigger's life cycle at Spendesk, as n8n drives it (webhookMethods): one instance
 * per company, kept, updated in place or registered anew (docs/triggers.md#registration).
 */
import { randomBytes } from 'node:crypto';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IHookFunctions } from 'n8n-workflow';
import { companyLabel } from '../companies/label';
import { readCompanyChoice, selectCompanies } from '../companies/select';
import type { CompanyTarget } from '../companies/select';
import { resolveCredential } from '../transport/credential';
import { collect } from '../transport/paginate';
import { singleObject } from '../transport/pagination/response';
import { nameCalls } from '../transport/callName';
import { callSpendesk } from '../transport/request';
import { restated } from '../transport/restate';
import { isWebhookEvent, WEBHOOK_EVENTS } from './events';
import type { WebhookEventType } from './events';
import { currentInstances, webhookStaticData } from './staticData';
import type { RegisteredInstance } from './staticData';

/** From this many instances, a refusal gets advice: the limit is not published (docs/api.md#webhooks). */
const MANY_INSTANCES = 50;

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

const sameEvents = (a: readonly string[], b: readonly string[]) =>
	a.length === b.length && a.every((e) => b.includes(e));

/**
 * Reads a kept instance at Spendesk, or with `update` sets its events there (same URL and
 * secret): why it cannot be kept as it now is, or undefined.
 */
async function checkAtSpendesk(
	ctx: IHookFunctions,
	kept: RegisteredInstance,
	events: readonly string[],
	update = false,
): Promise<string | undefined> {
	const answer = await callSpendesk(ctx, update ? 'updateWebhook' : 'getWebhook', {
		company: kept.company,
		pathParams: { webhookId: kept.id },
		...(update ? { body: { events } } : {}),
		allowNotFound: true,
		// Spendesk's answer (or an error quoting it) may hold the instance's secret.
		secrets: [kept.secret],
	});
	if (answer.status === 404) return 'it is no longer at Spendesk';
	const remote = singleObject(answer.body);
	if (remote?.disabled === true || remote?.status === 'disabled') return 'Spendesk disabled it';
	if (update) {
		const otherUrl = remote?.url !== undefined && remote.url !== kept.url;
		return otherUrl ? 'Spendesk answered another URL for it' : undefined;
	}
	if (remote?.url !== kept.url) return 'Spendesk holds another URL for it';
	const remoteEvents = Array.isArray(remote.events) ? (remote.events as string[]) : [];
	return sameEvents(remoteEvents, events) ? undefined : 'Spendesk holds other events for it';
}

/** How messages name the calls of an activation (transport/callName.ts). */
const REGISTERING = 'Spendesk Webhook Trigger (registering its webhooks at Spendesk)';

/** Whether every chosen company has this trigger's instance at Spendesk, with this URL and these events. */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	nameCalls(this, REGISTERING);
	const state = webhookStaticData(this);
	if (state.instances.length === 0) return false;
	const url = this.getNodeWebhookUrl('default');
	const events = readEvents(this);
	const { targets } = await selectCompanies(this, readCompanyChoice(this));
	const current = currentInstances(state.instances);
	if (targets.length !== current.length) return false;
	for (const target of targets) {
		const kept = current.find((i) => i.company === target.id);
		if (!kept || kept.url !== url || !sameEvents(kept.events, events)) return false;
		if (await checkAtSpendesk(this, kept, events)) return false;
	}
	return true;
}

/** Deletes one instance; a 404 (already gone) counts as deleted. */
async function deleteInstance(ctx: IHookFunctions, company: string | undefined, webhookId: string) {
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

/** A refused registration, naming the company, with advice when it has many instances already. */
function refusedRegistration(ctx: IHookFunctions, error: unknown, name: string, others: number) {
	const cause = error as Error & { description?: string | null };
	const crowded =
		others >= MANY_INSTANCES
			? ` ${name} has ${others} webhook instances already: if Spendesk limits their number, delete those no longer used (deactivate the workflows that own them), or choose other companies, then activate again.`
			: '';
	return restated(ctx.getNode(), error, {
		message: `Could not register the webhook for ${name}: ${cause.message}`,
		description: `${cause.description ?? ''}${crowded}`.trim() || undefined,
	});
}

/** Registers one company's instance, after deleting the leftovers with this URL (the node's own: no other node shares it), added to `deleted`. */
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
	const workflow = ctx.getWorkflow();
	const label = `n8n workflow "${workflow.name ?? workflow.id ?? ''}", node "${ctx.getNode().name}"`;
	let answer;
	try {
		answer = await callSpendesk(ctx, 'createWebhook', {
			company,
			body: { url, events, secret, description: label.slice(0, 250) },
			// Spendesk may quote the request body in an error: the secret must not reach it.
			secrets: [secret],
		});
	} catch (error) {
		throw refusedRegistration(ctx, error, name, others);
	}
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

/** A kept instance with this URL, as it is or with its events updated; undefined (logged): registered anew. */
async function reuse(
	ctx: IHookFunctions,
	instance: RegisteredInstance,
	events: WebhookEventType[],
): Promise<RegisteredInstance | undefined> {
	const same = sameEvents(instance.events, events);
	let reason: string | undefined;
	try {
		reason = await checkAtSpendesk(ctx, instance, events, !same);
	} catch (error) {
		const failure = same ? 'Spendesk could not confirm it' : 'Spendesk refused the update';
		reason = `${failure}: ${(error as Error).message}`;
	}
	if (reason === undefined) return same ? instance : { ...instance, events };
	ctx.logger.info(
		`Spendesk Webhook Trigger: webhook instance ${instance.id} of ${companyLabel(instance.company)} is registered anew (${reason})`,
	);
	return undefined;
}

/** Registers one instance per chosen company. On a failure, what was registered is deleted again. */
export async function create(this: IHookFunctions): Promise<boolean> {
	nameCalls(this, REGISTERING);
	const state = webhookStaticData(this);
	const url = this.getNodeWebhookUrl('default') ?? '';
	const events = readEvents(this);
	const { targets } = await selectCompanies(this, readCompanyChoice(this));
	if (targets.length === 0) {
		throw new NodeOperationError(this.getNode(), 'The credential reaches no company to listen to', {
			description:
				'Check that the credential is the right one and that its companies are active in Spendesk.',
		});
	}
	// Each chosen company's current instance with this URL is kept, or updated in place.
	const current = currentInstances(state.instances);
	const reused: RegisteredInstance[] = [];
	const unregistered: CompanyTarget[] = [];
	for (const target of targets) {
		const kept = current.find((i) => (i.company ?? '') === (target.id ?? ''));
		const now = kept?.url === url ? await reuse(this, kept, events) : undefined;
		if (now) reused.push(now);
		else unregistered.push(target);
	}
	const reusedIds = new Set(reused.map((i) => i.id));
	// Only what is stale goes: instances of companies no longer chosen, of another URL, gone or
	// disabled at Spendesk, and leftovers of earlier activations.
	const stale = state.instances.filter((i) => !reusedIds.has(i.id));
	state.instances = await deleteAll(this, stale);
	// After the leftovers that could not be deleted: a reused instance is its company's current one.
	state.instances.push(...reused);
	const registered: RegisteredInstance[] = [];
	const deleted = new Set<string>();
	let failure: unknown;
	try {
		for (const target of unregistered)
			registered.push(await registerCompany(this, target, url, events, deleted));
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
	nameCalls(this, 'Spendesk Webhook Trigger (removing its webhooks at Spendesk)');
	const state = webhookStaticData(this);
	state.instances = await deleteAll(this, state.instances);
	return state.instances.length === 0;
}
