/** What the Webhook Trigger keeps in static data: its instances with their secrets, and the events it ran. */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

export interface RegisteredInstance {
	id: string;
	/** The company as the trigger named it in its calls; absent for a company-level credential's own company. */
	company?: string;
	/** The company Spendesk registered the instance for (from its answer): deliveries name it. */
	companyId: string;
	secret: string;
	url: string;
	events: string[];
}

export interface WebhookStaticData {
	/** Oldest first: the last of a company is current; older ones are leftovers not deleted yet, still accepted. */
	instances: RegisteredInstance[];
	/** Ids of the events that started an execution, oldest first (bounded, see recent.ts). */
	recentEvents: string[];
}

function isInstance(value: unknown): value is RegisteredInstance {
	const v = value as Partial<RegisteredInstance> | null;
	return (
		!!v &&
		typeof v === 'object' &&
		typeof v.id === 'string' &&
		typeof v.companyId === 'string' &&
		typeof v.secret === 'string' &&
		v.secret.length > 0 &&
		typeof v.url === 'string' &&
		Array.isArray(v.events) &&
		(v.company === undefined || typeof v.company === 'string')
	);
}

/** The trigger's static data, with its two lists in shape (fixed in place, so n8n saves the fix). */
export function webhookStaticData(ctx: IHookFunctions | IWebhookFunctions): WebhookStaticData {
	const data = ctx.getWorkflowStaticData('node') as IDataObject & Partial<WebhookStaticData>;
	data.instances = Array.isArray(data.instances) ? data.instances.filter(isInstance) : [];
	data.recentEvents = Array.isArray(data.recentEvents)
		? data.recentEvents.filter((id): id is string => typeof id === 'string')
		: [];
	return data as WebhookStaticData;
}

/** The current instance of each company: the last one kept for it. */
export function currentInstances(instances: RegisteredInstance[]): RegisteredInstance[] {
	const byCompany = new Map<string, RegisteredInstance>();
	for (const instance of instances) byCompany.set(instance.company ?? '', instance);
	return [...byCompany.values()];
}
