/**
 * Where the API lives: the environments a credential can choose, and the rule that a base
 * URL must be HTTPS unless it points at this machine (the simulator). The API-key
 * credential and the transport both resolve the base URL here, so it is decided in one place.
 */

export const ENVIRONMENT_URLS = {
	production: 'https://public-api.spendesk.com',
	demo: 'https://public-api.demo.spendesk.com',
} as const;

export type Environment = keyof typeof ENVIRONMENT_URLS | 'custom';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export class BaseUrlError extends Error {}

/** The base URL of a credential, without a trailing slash; refuses plain HTTP except on loopback. */
export function resolveBaseUrl(credentials: { environment?: unknown; baseUrl?: unknown }): string {
	const environment = (credentials.environment ?? 'production') as Environment;
	if (environment !== 'custom') {
		const url = ENVIRONMENT_URLS[environment];
		if (!url) throw new BaseUrlError(`Unknown Spendesk environment "${String(environment)}"`);
		return url;
	}
	const raw = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	if (!URL.canParse(raw)) {
		throw new BaseUrlError(`The custom base URL "${raw}" is not a valid URL: enter e.g. https://public-api.spendesk.com`);
	}
	const url = new URL(raw);
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
		throw new BaseUrlError(
			`The custom base URL "${raw}" must use HTTPS: plain HTTP is only accepted for localhost or 127.0.0.1 (a local test server such as the Spendesk simulator)`,
		);
	}
	return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
