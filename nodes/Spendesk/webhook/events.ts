/** The webhook events Spendesk delivers (docs/api.md#webhooks). */
export const WEBHOOK_EVENTS = [
	{
		value: 'payables:created',
		name: 'Payable Created',
		entity: 'payable',
		description: 'A payable (invoice, expense claim, card purchase) was created',
	},
	{
		value: 'payables:prepared',
		name: 'Payable Prepared',
		entity: 'payable',
		description: 'A payable was prepared for bookkeeping',
	},
	{
		value: 'settlements:created',
		name: 'Settlement Created',
		entity: 'settlement',
		description: 'A payable was settled (paid)',
	},
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]['value'];

export function isWebhookEvent(value: unknown): value is WebhookEventType {
	return WEBHOOK_EVENTS.some((event) => event.value === value);
}
