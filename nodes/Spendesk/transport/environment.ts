/**
 * Where the API lives: the environments a credential can choose, and the rule for a custom base
 * URL: HTTPS unless it points at this machine, normalised to `scheme://host[:port][/path]`.
 */

export const ENVIRONMENT_URLS = {
	production: 'https://public-api.spendesk.com',
	demo: 'https://public-api.demo.spendesk.com',
} as const;

export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** Whether a URL may go in clear: HTTPS always, plain HTTP only to this machine. */
export function isSecureOrLoopback(scheme: string, host: string): boolean {
	const protocol = scheme.toLowerCase().replace(/:$/, '');
	return (
		protocol === 'https' ||
		(protocol === 'http' && (LOOPBACK_HOSTS as readonly string[]).includes(host.toLowerCase()))
	);
}

/** A custom base URL: scheme, user info (dropped), host, port, path, query and fragment (dropped). */
const BASE_URL_PATTERN =
	/^(https?):\/\/(?:[^/?#@\\\s]*@)?([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::([0-9]+))?((?:\/[^?#\\\s]*)?)(?:\?[^#]*)?(?:#.*)?$/i;

/** A `.` or `..` path segment, plain or percent-encoded (URLs resolve them, leaving the path). */
export const DOT_SEGMENT = /(^|\/)(\.|%2e)(\.|%2e)?(\/|$)/i;

/** The base URL of a credential, without a trailing slash; refuses plain HTTP except on loopback. */
export function resolveBaseUrl(credentials: { environment?: unknown; baseUrl?: unknown }): string {
	const environment = (credentials.environment ?? 'production') as
		| keyof typeof ENVIRONMENT_URLS
		| 'custom';
	if (environment !== 'custom') {
		const url = ENVIRONMENT_URLS[environment];
		if (!url) throw new Error(`Unknown Spendesk environment "${String(environment)}"`);
		return url;
	}
	const raw = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	const parts = BASE_URL_PATTERN.exec(raw);
	const [, scheme = '', host = '', port, path = ''] = parts ?? [];
	const invalid = `The custom base URL "${displayUrl(raw)}" is not a valid URL: enter e.g. https://public-api.spendesk.com`;
	if (!parts || Number(port ?? 0) > 65535 || DOT_SEGMENT.test(path)) throw new Error(invalid);
	if (!isSecureOrLoopback(scheme, host))
		throw new Error(
			`The custom base URL "${displayUrl(raw)}" must use HTTPS: plain HTTP is only accepted for a server on this machine (localhost, 127.0.0.1 or [::1])`,
		);
	const base = `${scheme.toLowerCase()}://${host.toLowerCase()}${port === undefined ? '' : `:${port}`}${path.replace(/\/+$/, '')}`;
	if (!URL.canParse(base)) throw new Error(invalid);
	return base;
}

/** A base URL as it may be shown in a message: without user info, query or fragment. */
function displayUrl(raw: string): string {
	const withoutQuery = raw.replace(/[?#][\s\S]*$/, '');
	if (URL.canParse(withoutQuery)) {
		const url = new URL(withoutQuery);
		if (url.host) return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
	}
	const at = withoutQuery.lastIndexOf('@');
	return at === -1 ? withoutQuery : `…${withoutQuery.slice(at + 1)}`;
}

/** What to say about a redirect from Spendesk's API: it never redirects, so the base URL is wrong. */
export const REDIRECT_HELP =
	"Spendesk's API never redirects, so nothing was sent there: check 'Environment' (or 'Base URL') in the credential (it must be the API's own address, not a page or a proxy that forwards elsewhere), then run the node again.";
