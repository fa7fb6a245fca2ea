/** The webhook events Spendesk delivers (docs/api.md#webhooks). */
export const WEBHOOK_EVENTS = [
	{
		name: 'Payable Created',
		value: 'payables:created',
		description: 'A payable (invoice, expense claim, card purchase) was created',
	},
	{
		name: 'Payable Prepared',
		value: 'payables:prepared',
		description: 'A payable was prepared for bookkeeping',
	},
	{
		name: 'Settlement Created',
		value: 'settlements:created',
		description: 'A payable was settled (paid)',
	},
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]['value'];

export function isWebhookEvent(value: unknown): value is WebhookEventType {
	return WEBHOOK_EVENTS.some((event) => event.value === value);
}
