export { SpendeskSimulator, SimClock, pkceChallenge } from './server';
export type { RequestContext, TokenInfo } from './server';
export { CURSOR_LIMITS } from './routes';
export { DEFAULT_SIZES, NO_DATA, ORGANISATION_ID } from './seed';
export * from './types';
export {
	WEBHOOK_RETRY_DELAYS_MS,
	WEBHOOK_SIGNATURE_HEADER,
	WEBHOOK_USER_AGENT,
	webhookSignature,
} from './deliveries';
export type {
	WebhookDeliveryAttempt,
	WebhookEvent,
	WebhookEventInput,
	WebhookEventType,
} from './deliveries';
export { WEBHOOK_EVENTS } from './webhooks';
export type { WebhookInstance } from './webhooks';
export { DOCUMENTED_SCOPES } from './profile';
export type { SimulatorProfile } from './profile';
