export { SpendeskSimulator, SimClock, pkceChallenge } from './server';
export type { RequestContext, TokenInfo } from './server';
export { CURSOR_LIMITS } from './routes';
export { DEFAULT_SIZES, ORGANISATION_ID } from './seed';
export * from './types';
