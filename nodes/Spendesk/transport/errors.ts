/**
 * Spendesk API errors → NodeApiError with a message that says what happened (naming the
 * company) and a description that says what to do. Only the status and the API's error
 * body reach the error object: never the request, its headers, or any token or secret.
 * What the server said is quoted with bearer tokens, the credential's secret and its tokens
 * redacted, as a server may echo the request it received.
 */
import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';
import type { CallName } from './callName';
import { companyLabel } from './companyLabel';
import type { Endpoint } from './endpoints';
import { REDIRECT_HELP } from './environment';
import { isoTime } from './timeText';

export interface ApiErrorBody {
	code?: string;
	detail?: string;
	source?: string;
}

export interface FailedCall {
	endpoint: Endpoint;
	/** What the user chose, as messages name it (transport/callName.ts). */
	name: CallName;
	status: number;
	/** First entry of the API's `{ errors: [...] }` body, when present. */
	error?: ApiErrorBody;
	/** The company the call named (header or path), if any. */
	companyId?: string;
	level: 'organisation' | 'company';
	credentialName: string;
	itemIndex?: number;
	/** The credential's secret and tokens, never to be quoted (see `credentialSecrets`). */
	secrets?: readonly string[];
}

const REDACTED = '[redacted]';
/** Longest excerpt of server text quoted in a message. */
const QUOTE_MAX = 300;

/**
 * Server text as it may be quoted: the given secrets (longest first), bearer and basic
 * credentials, and token or secret values in `key=value` or JSON form replaced by [redacted].
 */
export function redact(text: string, secrets: readonly string[] = []): string {
	let out = text;
	for (const secret of [...secrets].sort((a, b) => b.length - a.length))
		if (secret) out = out.split(secret).join(REDACTED);
	return out
		.replace(/\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]+/gi, `$1$2${REDACTED}`)
		.replace(
			/\b(access_token|refresh_token|id_token|client_secret|code_verifier|sessionToken|password)(["']?\s*[:=]\s*["']?)[^\s"'&,;]+/gi,
			`$1$2${REDACTED}`,
		);
}

/** Server text to quote: redacted, then cut to QUOTE_MAX characters. */
function quote(text: string | undefined, secrets?: readonly string[]): string | undefined {
	if (text === undefined) return undefined;
	const safe = redact(text, secrets);
	return safe.length > QUOTE_MAX ? `${safe.slice(0, QUOTE_MAX)}…` : safe;
}

/** The API's error body, safe to quote. */
function quotedError(call: FailedCall): ApiErrorBody | undefined {
	const { error, secrets } = call;
	return (
		error && {
			code: quote(error.code, secrets),
			detail: quote(error.detail, secrets),
			source: quote(error.source, secrets),
		}
	);
}

/** Reads `{ errors: [ { code, detail, source } ] }` (or a bare message) from a response body. */
export function readErrorBody(body: unknown): ApiErrorBody | undefined {
	let value = body;
	if (typeof body === 'string') {
		try {
			value = JSON.parse(body) as unknown;
		} catch {
			// Not JSON (an HTTP error page): an excerpt, redacted and cut when quoted.
			return body ? { detail: body.slice(0, 4 * QUOTE_MAX) } : undefined;
		}
	}
	if (!value || typeof value !== 'object') return undefined;
	const errors = (value as { errors?: unknown }).errors;
	const first = Array.isArray(errors) ? (errors[0] as unknown) : undefined;
	if (first && typeof first === 'object') {
		const { code, detail, source, message } = first as Record<string, unknown>;
		return {
			code: typeof code === 'string' ? code : undefined,
			detail:
				typeof detail === 'string' ? detail : typeof message === 'string' ? message : undefined,
			source: typeof source === 'string' ? source : undefined,
		};
	}
	// A token endpoint's OAuth2 error (RFC 6749): `{ error: "invalid_client", error_description }`.
	const { error: oauthCode, error_description: oauthDetail } = value as Record<string, unknown>;
	if (typeof oauthCode === 'string') {
		return {
			code: oauthCode,
			detail: typeof oauthDetail === 'string' ? oauthDetail : oauthCode,
		};
	}
	const message = (value as { message?: unknown }).message;
	return typeof message === 'string' ? { detail: message } : undefined;
}

/** Whether an endpoint belongs to Spendesk's experimental API: its scope starts with `experimental:`. */
export function isExperimental(endpoint: Endpoint): boolean {
	return endpoint.scope?.startsWith('experimental:') ?? false;
}

/** What to do to reach an experimental endpoint: its scope, asked of the Spendesk contact. */
export function experimentalAccessHelp(endpoint: Endpoint): string {
	return `Ask your Spendesk contact to enable experimental access for this key (scope "${endpoint.scope}"), then add the scope to the API key in Spendesk (or to the OAuth2 credential's scopes and reconnect); or use an operation of Spendesk's generally available API, which needs no experimental access.`;
}

/**
 * The one error of a call to Spendesk's experimental API that the credential has no access to
 * (docs/api.md#the-documented-profile): which operation, which credential, which company, and
 * how to get access.
 */
export function experimentalAccess(
	endpoint: Endpoint,
	name: CallName,
	credentialName: string,
	companyId?: string,
): { message: string; description: string } {
	const forCompany = companyId ? ` for ${companyLabel(companyId)}` : '';
	return {
		message: `${name} uses Spendesk's experimental API, and the credential "${credentialName}" has no access to it${forCompany}`,
		description: experimentalAccessHelp(endpoint),
	};
}

/** Message and description for a failed call, following the cases of docs/api.md#errors. */
export function describeFailure(call: FailedCall): { message: string; description: string } {
	const { endpoint, name, status, companyId, credentialName } = call;
	const error = quotedError(call);
	const detail = error?.detail ?? '';
	const company = companyLabel(companyId, 'the company');
	// Where the call names no company (the company list), messages name none.
	const forCompany = companyId ? ` for ${company}` : '';

	// The specification names the header `headers.x-company-id`; the documented errors name the field alone.
	if (status === 400 && /^(headers\.)?x-company-id$/i.test(error?.source ?? '')) {
		return {
			message:
				'Choose a company: organisation-level credentials must name the company on this call',
			description: `${name} works on one company at a time. Choose it in 'Company' (from the list or by ID), or All Companies in 'Companies' where the operation offers it. Spendesk said: ${detail || 'X-Company-Id header is required'}`,
		};
	}
	// The token endpoint refusing the client: a 400 is allowed by RFC 6749 for invalid_client.
	if (status !== 401 && /^invalid_client$/i.test(error?.code ?? '')) {
		return {
			message: `Spendesk refused the credential "${credentialName}" (${status})`,
			description: `Spendesk's token endpoint did not accept the credential's client${detail ? ` (Spendesk said: ${detail})` : ''}. Check 'Client ID' and 'Client Secret' in the credential (copied whole, without spaces), that the API key has not expired or been revoked in Spendesk, and that 'Environment' (Production, Demo or Custom Base URL) is where the key was created.`,
		};
	}
	if (status === 401) {
		return {
			message: `Spendesk refused the credential "${credentialName}" (401)`,
			description:
				"Spendesk refused the access token even after the node asked for a new one. Check 'Client ID' and 'Client Secret' in the credential (or connect the OAuth2 credential again), that the API key has not expired or been revoked in Spendesk, and that 'Environment' (Production, Demo or Custom Base URL) is where the key was created.",
		};
	}
	if (status === 403) return describeForbidden({ ...call, error }, detail, company);
	if (status === 404) {
		return {
			message: `Spendesk found nothing for ${name}${companyId ? ` in ${company}` : ''} (404)`,
			description: `${detail ? `Spendesk said: ${detail}. ` : ''}Check the IDs given to this operation, and 'Environment' (or 'Base URL') in the credential.`,
		};
	}
	if (status === 429) {
		return {
			message: `Spendesk rate limit reached for ${company} and did not reset in time`,
			description:
				"Spendesk allows a limited number of requests per minute per company and credential. The node waited and retried up to its limit; run the workflow later, lower the number of items, or turn on 'Return All' instead of making many small calls.",
		};
	}
	if (status >= 500) {
		return {
			message: `Spendesk could not complete ${name}${forCompany} (${status})`,
			description: `The node retried${endpoint.idempotent ? '' : ' nothing, because this call is not safe to repeat: Spendesk may have applied it, so check in Spendesk before running it again'}. Try again later; if it persists, check status.spendesk.com.${detail ? ` Spendesk said: ${detail}` : ''}`,
		};
	}
	return {
		message: `Spendesk rejected ${name}${forCompany} (${status})`,
		description: detail
			? `Spendesk said: ${detail}${error?.source ? ` (${error.source})` : ''}`
			: 'Check the parameters of this operation.',
	};
}

type Described = { message: string; description: string };

/** The cases of a 403: organisation-level only, foreign or deactivated company, user not a member, missing access. */
function describeForbidden(call: FailedCall, detail: string, company: string): Described {
	return companyRefused(call, detail, company) ?? accessRefused(call, detail, company);
}

/** A 403 about the company or the level: organisation-level only, not in the organisation, user not a member, deactivated. */
function companyRefused(call: FailedCall, detail: string, company: string): Described | undefined {
	const { name, credentialName } = call;
	if (/requires an organisation-level token/i.test(detail)) {
		return {
			message: `${name} needs an organisation-level credential; "${credentialName}" is company-level`,
			description:
				'Create an organisation-level API key in Spendesk (Settings → Integrations → API access, by an organisation owner) or reconnect OAuth2 approving the whole organisation, and set \'Access Level\' to "Organisation" in the credential.',
		};
	}
	if (/does not belong to organisation/i.test(detail)) {
		return {
			message: `${capitalise(company)} does not belong to your organisation`,
			description:
				"Check the company ID, or pick the company from the list in 'Company'. Newly created companies can take up to 20 minutes to become visible.",
		};
	}
	if (/user does not belong/i.test(detail)) {
		return {
			message: `The user who approved the OAuth2 connection is not a member of ${company}`,
			description:
				'An organisation-level OAuth2 connection acts as the user who approved it. Ask an admin to add that user back to the company, or reconnect the credential as a user who is a member of every company you need.',
		};
	}
	if (/deactivated/i.test(detail)) {
		return {
			message: `${capitalise(company)} is deactivated`,
			description:
				'Spendesk no longer serves deactivated companies. Remove it from the selection; the company list can show it for up to 20 minutes after deactivation.',
		};
	}
	return undefined;
}

/**
 * A 403 about access: the experimental API without access to it (one error, keyed on the
 * endpoint's `experimental:` scope), a missing scope, another company's path.
 */
function accessRefused(call: FailedCall, detail: string, company: string): Described {
	const { endpoint, name, error, level, credentialName, companyId } = call;
	const scope = endpoint.scope;
	const scopeRefused =
		error?.code === 'insufficient_scope' ||
		/scope/i.test(detail) ||
		/scope/i.test(error?.source ?? '');
	// Another company's id in the path of a company-level call: the company, not the access, is refused.
	const foreignPath =
		level === 'company' &&
		endpoint.placement === 'path' &&
		!scopeRefused &&
		/companyId/i.test(error?.source ?? '');
	if (isExperimental(endpoint) && !foreignPath)
		return experimentalAccess(endpoint, name, credentialName, companyId);
	if (scopeRefused) {
		const missing = /scope:?\s*(\S+)/i.exec(detail)?.[1] ?? scope ?? 'unknown';
		return {
			message: `The credential "${credentialName}" lacks the scope "${missing}" needed for ${name}`,
			description: `Edit the API key in Spendesk to grant "${missing}" (or add it to the OAuth2 credential's scopes and reconnect).`,
		};
	}
	if (foreignPath) {
		return {
			message: `The company-level credential "${credentialName}" cannot reach ${company}`,
			description:
				"A company-level credential reaches only its own company. Leave 'Company' empty in the node and check 'Company ID' in the credential (or leave it empty too: the node then looks the company up), or use an organisation-level credential to work across companies.",
		};
	}
	return {
		message: `Spendesk denied access to ${name}${companyId ? ` for ${company}` : ''} (403)`,
		description: `${detail ? `Spendesk said: ${detail}. ` : ''}Check 'Access Level' and the scopes of the credential${scope ? ` (this call needs "${scope}")` : ''}.`,
	};
}

export function apiError(node: INode, call: FailedCall): NodeApiError {
	const { message, description } = describeFailure(call);
	const error = quotedError(call);
	const response: JsonObject = {
		status: call.status,
		endpoint: `${call.endpoint.method} ${call.endpoint.path}`,
		...(call.companyId ? { companyId: call.companyId } : {}),
		...(error
			? { apiCode: error.code ?? null, detail: error.detail ?? null, source: error.source ?? null }
			: {}),
	};
	return new NodeApiError(node, response, {
		message,
		description,
		httpCode: String(call.status),
		itemIndex: call.itemIndex,
	});
}

/** Text as it may go into an error description, which n8n's node panel shows as HTML. */
function htmlText(text: string): string {
	return text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

/**
 * The OAuth2 credential must be connected (again): nothing connected yet, Connect Again on, the
 * pasted answer unusable, or Spendesk refused the code or the refresh. The description links to
 * Spendesk's approval page (n8n's node panel shows the description as HTML, so the link is one
 * click; the address stays readable in plain text) and says what to do with the answer.
 */
export function renewalRefusedError(
	node: INode,
	call: {
		credentialName: string;
		/** Nothing connected yet, Connect Again on, or the pasted answer unusable. */
		notConnected?: boolean;
		/** What the credential said went wrong (no secret). */
		detail?: string;
		/** A new link to Spendesk's approval page, when the credential's fields give one. */
		approvalAddress?: string;
		endpoint: Endpoint;
		name: CallName;
		companyId?: string;
		itemIndex?: number;
	},
): NodeApiError {
	const forCompany = call.companyId ? ` for ${companyLabel(call.companyId)}` : '';
	const verb = call.notConnected ? 'Connect' : 'Reconnect';
	const message = call.approvalAddress
		? `${verb} the credential "${call.credentialName}" to Spendesk: approve at the link below, then paste the address you land on into the credential and save`
		: `${verb} the credential "${call.credentialName}" to Spendesk: open it, check its fields and save, then run again for an approval link`;
	const why = call.detail ? `${htmlText(call.detail.replace(/[.\s]+$/, ''))}. ` : '';
	const open = call.approvalAddress
		? `Open <a href="${htmlText(call.approvalAddress).replace(/"/g, '&quot;')}" target="_blank">Spendesk's approval page</a> and approve`
		: "Open the credential, check 'Client ID', 'Client Secret' and 'Redirect URI', save, and run again for a link to Spendesk's approval page; approve there";
	const description =
		`${htmlText(call.name)}${htmlText(forCompany)} needs the credential "${htmlText(call.credentialName)}" connected to Spendesk. ${why}` +
		`${open}; then copy the whole address your browser shows, paste it into 'Authorization Response' in the credential and save. ` +
		'The next run connects (start it within 10 minutes of approving).';
	return new NodeApiError(
		node,
		{
			endpoint: `${call.endpoint.method} ${call.endpoint.path}`,
			...(call.companyId ? { companyId: call.companyId } : {}),
			reason: call.notConnected ? 'oauth2-not-connected' : 'oauth2-refresh-refused',
		},
		{ message, description, httpCode: '401', itemIndex: call.itemIndex },
	);
}

/** Network error codes in words, for messages. */
export const NETWORK_WORDS: Record<string, string> = {
	ECONNRESET: 'connection reset',
	EPIPE: 'connection reset',
	ECONNREFUSED: 'connection refused',
	ECONNABORTED: 'timed out',
	ETIMEDOUT: 'timed out',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host not found',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
};

/** Spendesk could not be reached (connection refused or reset, timeout, unknown host), after the retries allowed. */
export function unreachableError(
	node: INode,
	call: {
		origin: string;
		endpoint: Endpoint;
		name: CallName;
		code?: string;
		retries: number;
		itemIndex?: number;
	},
): NodeApiError {
	const { origin, endpoint, name, code, retries } = call;
	// Not under the key `code`: NodeApiError would swap our message for its generic one for ECONNRESET & co.
	const response: JsonObject = {
		networkError: code ?? null,
		endpoint: `${endpoint.method} ${endpoint.path}`,
	};
	// The code goes in the description: NodeApiError replaces any message that contains it.
	return new NodeApiError(node, response, {
		message: `Could not reach Spendesk at ${origin} for ${name} (${NETWORK_WORDS[code ?? ''] ?? 'no connection'})`,
		description: `${retries ? `The node tried ${retries + 1} times. ` : endpoint.idempotent ? '' : notRetried(code)}Check 'Environment' (or 'Base URL') in the credential and the network of your n8n instance, then run the node again.${code ? ` (${code})` : ''}`,
		itemIndex: call.itemIndex,
	});
}

/** Network failures where the request never left: nothing can have been applied. */
const NEVER_SENT = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/** A write that failed on the network: not retried, and whether Spendesk may have applied it. */
function notRetried(code: string | undefined): string {
	const applied =
		code && NEVER_SENT.has(code)
			? 'It did not reach Spendesk, so nothing was applied. '
			: 'It may have reached Spendesk and been applied: check in Spendesk before running it again. ';
	return `This call is not safe to repeat, so it was not retried. ${applied}`;
}

function capitalise(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A duration for messages: seconds up to two minutes, then minutes, hours or days. */
function duration(ms: number): string {
	const s = Math.ceil(ms / 1000);
	if (s < 120) return `${s} s`;
	if (s < 7200) return `${Math.round(s / 60)} min`;
	if (s < 172_800) return `${Math.round(s / 3600)} h`;
	return `${Math.round(s / 86_400)} days`;
}

/**
 * The call would have to wait for Spendesk's rate limit longer than it may: when the next
 * request is allowed, so the user knows when to run again.
 */
export function rateLimitWaitError(
	node: INode,
	call: {
		endpoint: Endpoint;
		name: CallName;
		companyId?: string;
		waitMs: number;
		maxWaitMs: number;
		itemIndex?: number;
	},
): NodeApiError {
	const { endpoint, name, companyId, waitMs, maxWaitMs } = call;
	const company = companyLabel(companyId, 'the company');
	// A wait past the last date a Date can hold (a Retry-After of 1e300) has no date to show.
	const retryAt = isoTime(Date.now() + waitMs);
	const until = retryAt
		? `until ${retryAt} (${duration(waitMs)})`
		: 'longer than any date can show';
	return new NodeApiError(
		node,
		{
			status: 429,
			endpoint: `${endpoint.method} ${endpoint.path}`,
			...(companyId ? { companyId } : {}),
			...(retryAt ? { retryAt } : {}),
		},
		{
			message: `Spendesk rate limit reached for ${company} and did not reset in time`,
			description: `Spendesk asked to wait ${until} before the next request of ${name}, longer than a call may wait (${duration(maxWaitMs)} in all). Run the workflow again after that time, lower the number of items, or turn on 'Return All' instead of making many small calls.`,
			httpCode: '429',
			itemIndex: call.itemIndex,
		},
	);
}

/** What a body that is not a JSON object or list is, for messages. */
function describeBody(body: unknown, contentType: string | undefined): string {
	if (body === undefined || body === null || body === '') return 'no content';
	const type = contentType?.split(';')[0].trim().toLowerCase();
	if (type && !type.includes('json')) return type;
	return type ? 'a JSON value that is not an object or a list' : 'a body that is not JSON';
}

/**
 * A 2xx whose body is not JSON (an HTML page from a proxy or a captive portal, an empty 204):
 * nothing to turn into items. Names the endpoint and what came instead; never quotes the body.
 */
export function notJsonError(
	node: INode,
	call: {
		endpoint: Endpoint;
		name: CallName;
		status: number;
		body: unknown;
		contentType?: string;
		companyId?: string;
		itemIndex?: number;
	},
): NodeApiError {
	const { endpoint, name, status, companyId } = call;
	const what = describeBody(call.body, call.contentType);
	const forCompany = companyId ? ` for ${companyLabel(companyId)}` : '';
	return new NodeApiError(
		node,
		{
			status,
			endpoint: `${endpoint.method} ${endpoint.path}`,
			...(companyId ? { companyId } : {}),
			contentType: call.contentType ?? null,
		},
		{
			message: `Spendesk answered ${name}${forCompany} with ${what} instead of JSON (${status})`,
			description:
				!endpoint.idempotent && status >= 200 && status < 300
					? // A write answered 2xx: Spendesk may have applied it; running again may apply it twice.
						`Spendesk may have applied ${name}: the answer said it succeeded (${status}) but had no readable content, so the node cannot show what was done. Check in Spendesk whether it was applied before running the node again, or it may be applied twice. If such answers keep coming, check 'Environment' (or 'Base URL') in the credential and the proxy settings of your n8n instance.`
					: "The answer did not come from the Spendesk API as expected: often a proxy, firewall or captive portal of your network answering in its place, or a custom base URL that does not point at the API. Check 'Environment' (or 'Base URL') in the credential and the proxy settings of your n8n instance, then run the node again.",
			httpCode: String(status),
			itemIndex: call.itemIndex,
		},
	);
}

/**
 * A 2xx of a file endpoint that is not the file expected (an HTML page from a proxy, JSON, no
 * content type): names the endpoint, the type expected and what came; never quotes the body.
 */
export function notFileError(
	node: INode,
	call: {
		endpoint: Endpoint;
		name: CallName;
		status: number;
		expected: string;
		contentType?: string;
		companyId?: string;
		itemIndex?: number;
	},
): NodeApiError {
	const { endpoint, name, status, companyId } = call;
	const what = call.contentType?.split(';')[0].trim().toLowerCase() || 'no content type';
	const forCompany = companyId ? ` for ${companyLabel(companyId)}` : '';
	return new NodeApiError(
		node,
		{
			status,
			endpoint: `${endpoint.method} ${endpoint.path}`,
			...(companyId ? { companyId } : {}),
			contentType: call.contentType ?? null,
		},
		{
			message: `Spendesk answered ${name}${forCompany} with ${what} instead of ${call.expected} (${status})`,
			description:
				"The answer did not come from the Spendesk API as expected: often a proxy, firewall or captive portal of your network answering in its place, or a custom base URL that does not point at the API. Check 'Environment' (or 'Base URL') in the credential and the proxy settings of your n8n instance, then run the node again.",
			httpCode: String(status),
			itemIndex: call.itemIndex,
		},
	);
}

/**
 * A 3xx from the API, or from its token endpoint (`via`) while the call waited for a token:
 * never followed (the credential would go with it), an error naming where it pointed (its
 * origin only) and the base URL to check.
 */
export function redirectError(
	node: INode,
	call: {
		endpoint: Endpoint;
		name: CallName;
		status: number;
		target: string;
		/** Who answered the redirect when it was not the API call itself ("Spendesk's token endpoint"). */
		via?: string;
		companyId?: string;
		itemIndex?: number;
	},
): NodeApiError {
	const { endpoint, name, status, target, via, companyId } = call;
	const forCompany = companyId ? ` for ${companyLabel(companyId)}` : '';
	const message = via
		? `${via} answered with a redirect (${status}) to ${target}, which was not followed: ${name}${forCompany} was not sent`
		: `Spendesk answered ${name}${forCompany} with a redirect (${status}) to ${target}, which was not followed`;
	return new NodeApiError(
		node,
		{
			status,
			endpoint: `${endpoint.method} ${endpoint.path}`,
			...(companyId ? { companyId } : {}),
			redirectTo: target,
		},
		{ message, description: REDIRECT_HELP, httpCode: String(status), itemIndex: call.itemIndex },
	);
}
