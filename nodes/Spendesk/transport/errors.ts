/**
 * Spendesk API errors: a message that says what happened (naming the company), a description
 * that says what to do. Never the request or a secret: what the server said is quoted redacted.
 */
import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';
import type { CallName } from './callName';
import { companyLabel } from './companyLabel';
import type { Endpoint } from './endpoints';
import { REDIRECT_HELP } from './environment';
import { isoTime } from './timeText';

export type ApiErrorBody = { code?: string; detail?: string; source?: string };

/** The call an error is about, and the company it named (header or path). */
export interface CallFacts {
	endpoint: Endpoint;
	name: CallName;
	companyId?: string;
	itemIndex?: number;
}

export interface FailedCall extends CallFacts {
	status: number;
	error?: ApiErrorBody;
	level: 'organisation' | 'company';
	credentialName: string;
	/** The credential's secret and tokens, never to be quoted. */
	secrets?: readonly string[];
}

type Described = { message: string; description: string };

const REDACTED = '[redacted]';
const QUOTE_MAX = 300;

/** Server text as it may be quoted: secrets, bearer and basic credentials, token values redacted. */
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

function quote(text: string | undefined, secrets?: readonly string[]): string | undefined {
	if (text === undefined) return undefined;
	const safe = redact(text, secrets);
	return safe.length > QUOTE_MAX ? `${safe.slice(0, QUOTE_MAX)}…` : safe;
}

function quotedError({ error, secrets }: FailedCall): ApiErrorBody | undefined {
	return (
		error && {
			code: quote(error.code, secrets),
			detail: quote(error.detail, secrets),
			source: quote(error.source, secrets),
		}
	);
}

const textOr = (value: unknown): string | undefined =>
	typeof value === 'string' ? value : undefined;

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
	const { errors, error, error_description, message } = value as Record<string, unknown>;
	const first = Array.isArray(errors) ? (errors[0] as unknown) : undefined;
	if (first && typeof first === 'object') {
		const entry = first as Record<string, unknown>;
		return {
			code: textOr(entry.code),
			detail: textOr(entry.detail) ?? textOr(entry.message),
			source: textOr(entry.source),
		};
	}
	// A token endpoint's OAuth2 error (RFC 6749): `{ error: "invalid_client", error_description }`.
	if (typeof error === 'string') return { code: error, detail: textOr(error_description) ?? error };
	return typeof message === 'string' ? { detail: message } : undefined;
}

export function isExperimental(endpoint: Endpoint): boolean {
	return endpoint.scope?.startsWith('experimental:') ?? false;
}

export function experimentalAccessHelp(endpoint: Endpoint): string {
	return `Ask your Spendesk contact to enable experimental access for this key (scope "${endpoint.scope}"), then add the scope to the API key in Spendesk (or to the OAuth2 credential's scopes and reconnect); or use an operation of Spendesk's generally available API, which needs no experimental access.`;
}

export const CHOOSE_COMPANY =
	'Choose a company: organisation-level credentials must name the company on this call';

export const chooseCompanyHelp = (name: CallName): string =>
	`${name} works on one company at a time. Choose it in 'Company' (from the list or by ID), or All Companies in 'Companies' where the operation offers it.`;

/** ` for company "…"` when the call named a company; nothing otherwise. */
const forCompany = (companyId: string | undefined): string =>
	companyId ? ` for ${companyLabel(companyId)}` : '';

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Message and description for a failed call, following the cases of docs/api.md#errors. */
export function describeFailure(call: FailedCall): Described {
	const { endpoint, name, status, companyId, credentialName } = call;
	const error = quotedError(call);
	const detail = error?.detail ?? '';
	const company = companyLabel(companyId, 'the company');

	// The specification names the header `headers.x-company-id`; the documented errors name the field alone.
	if (status === 400 && /^(headers\.)?x-company-id$/i.test(error?.source ?? ''))
		return {
			message: CHOOSE_COMPANY,
			description: `${chooseCompanyHelp(name)} Spendesk said: ${detail || 'X-Company-Id header is required'}`,
		};
	// The token endpoint refusing the client: a 400 is allowed by RFC 6749 for invalid_client.
	if (status !== 401 && /^invalid_client$/i.test(error?.code ?? ''))
		return {
			message: `Spendesk refused the credential "${credentialName}" (${status})`,
			description: `Spendesk's token endpoint did not accept the credential's client${detail ? ` (Spendesk said: ${detail})` : ''}. Check 'Client ID' and 'Client Secret' in the credential (copied whole, without spaces), that the API key has not expired or been revoked in Spendesk, and that 'Environment' (Production, Demo or Custom Base URL) is where the key was created.`,
		};
	if (status === 401)
		return {
			message: `Spendesk refused the credential "${credentialName}" (401)`,
			description:
				"Spendesk refused the access token even after the node asked for a new one. Check 'Client ID' and 'Client Secret' in the credential (or connect the OAuth2 credential again), that the API key has not expired or been revoked in Spendesk, and that 'Environment' (Production, Demo or Custom Base URL) is where the key was created.",
		};
	if (status === 403) return forbidden({ ...call, error }, detail, company);
	if (status === 404)
		return {
			message: `Spendesk found nothing for ${name}${companyId ? ` in ${company}` : ''} (404)`,
			description: `${detail ? `Spendesk said: ${detail}. ` : ''}Check the IDs given to this operation, and 'Environment' (or 'Base URL') in the credential.`,
		};
	if (status === 429)
		return {
			message: `Spendesk rate limit reached for ${company} and did not reset in time`,
			description:
				"Spendesk allows a limited number of requests per minute per company and credential. The node waited and retried up to its limit; run the workflow later, lower the number of items, or turn on 'Return All' instead of making many small calls.",
		};
	if (status >= 500)
		return {
			message: `Spendesk could not complete ${name}${forCompany(companyId)} (${status})`,
			description: `The node retried${endpoint.idempotent ? '' : ' nothing, because this call is not safe to repeat: Spendesk may have applied it, so check in Spendesk before running it again'}. Try again later; if it persists, check status.spendesk.com.${detail ? ` Spendesk said: ${detail}` : ''}`,
		};
	return {
		message: `Spendesk rejected ${name}${forCompany(companyId)} (${status})`,
		description: detail
			? `Spendesk said: ${detail}${error?.source ? ` (${error.source})` : ''}`
			: 'Check the parameters of this operation.',
	};
}

/**
 * The cases of a 403: organisation-level only, a company not in the organisation, a user not a
 * member, a deactivated company; the experimental API without access to it (keyed on the
 * endpoint's `experimental:` scope), a missing scope, another company's path.
 */
function forbidden(call: FailedCall, detail: string, company: string): Described {
	const { endpoint, name, error, level, credentialName, companyId } = call;
	if (/requires an organisation-level token/i.test(detail))
		return {
			message: `${name} needs an organisation-level credential; "${credentialName}" is company-level`,
			description:
				'Create an organisation-level API key in Spendesk (Settings → Integrations → API access, by an organisation owner) or reconnect OAuth2 approving the whole organisation, and set \'Access Level\' to "Organisation" in the credential.',
		};
	if (/does not belong to organisation/i.test(detail))
		return {
			message: `${capitalise(company)} does not belong to your organisation`,
			description:
				"Check the company ID, or pick the company from the list in 'Company'. Newly created companies can take up to 20 minutes to become visible.",
		};
	if (/user does not belong/i.test(detail))
		return {
			message: `The user who approved the OAuth2 connection is not a member of ${company}`,
			description:
				'An organisation-level OAuth2 connection acts as the user who approved it. Ask an admin to add that user back to the company, or reconnect the credential as a user who is a member of every company you need.',
		};
	if (/deactivated/i.test(detail))
		return {
			message: `${capitalise(company)} is deactivated`,
			description:
				'Spendesk no longer serves deactivated companies. Remove it from the selection; the company list can show it for up to 20 minutes after deactivation.',
		};
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
		return {
			message: `${name} uses Spendesk's experimental API, and the credential "${credentialName}" has no access to it${forCompany(companyId)}`,
			description: experimentalAccessHelp(endpoint),
		};
	if (scopeRefused) {
		const missing = /scope:?\s*(\S+)/i.exec(detail)?.[1] ?? scope ?? 'unknown';
		return {
			message: `The credential "${credentialName}" lacks the scope "${missing}" needed for ${name}`,
			description: `Edit the API key in Spendesk to grant "${missing}" (or add it to the OAuth2 credential's scopes and reconnect).`,
		};
	}
	if (foreignPath)
		return {
			message: `The company-level credential "${credentialName}" cannot reach ${company}`,
			description:
				"A company-level credential reaches only its own company. Leave 'Company' empty in the node and check 'Company ID' in the credential (or leave it empty too: the node then looks the company up), or use an organisation-level credential to work across companies.",
		};
	return {
		message: `Spendesk denied access to ${name}${companyId ? ` for ${company}` : ''} (403)`,
		description: `${detail ? `Spendesk said: ${detail}. ` : ''}Check 'Access Level' and the scopes of the credential${scope ? ` (this call needs "${scope}")` : ''}.`,
	};
}

/** The error of a call: `response` with the call's endpoint and company, the message and description. */
function callError(
	node: INode,
	{ endpoint, companyId, itemIndex }: CallFacts,
	response: JsonObject,
	{ message, description, httpCode }: Described & { httpCode?: string },
): NodeApiError {
	const where = {
		endpoint: `${endpoint.method} ${endpoint.path}`,
		...(companyId ? { companyId } : {}),
	};
	return new NodeApiError(
		node,
		{ ...where, ...response },
		{ message, description, httpCode, itemIndex },
	);
}

export function apiError(node: INode, call: FailedCall): NodeApiError {
	const error = quotedError(call);
	const quoted: JsonObject = error
		? { apiCode: error.code ?? null, detail: error.detail ?? null, source: error.source ?? null }
		: {};
	const text = { ...describeFailure(call), httpCode: String(call.status) };
	return callError(node, call, { status: call.status, ...quoted }, text);
}

/** n8n's node panel shows an error description as HTML. */
function htmlText(text: string): string {
	return text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

/** The OAuth2 credential must be connected (again): the description links to the approval page (HTML). */
export function renewalRefusedError(
	node: INode,
	call: CallFacts & {
		credentialName: string;
		/** Nothing connected yet, Connect Again on, or the pasted answer unusable. */
		notConnected?: boolean;
		detail?: string;
		approvalAddress?: string;
	},
): NodeApiError {
	const verb = call.notConnected ? 'Connect' : 'Reconnect';
	const message = call.approvalAddress
		? `${verb} the credential "${call.credentialName}" to Spendesk: approve at the link below, then paste the address you land on into the credential and save`
		: `${verb} the credential "${call.credentialName}" to Spendesk: open it, check its fields and save, then run again for an approval link`;
	const why = call.detail ? `${htmlText(call.detail.replace(/[.\s]+$/, ''))}. ` : '';
	const open = call.approvalAddress
		? `Open <a href="${htmlText(call.approvalAddress).replace(/"/g, '&quot;')}" target="_blank">Spendesk's approval page</a> and approve`
		: "Open the credential, check 'Client ID', 'Client Secret' and 'Redirect URI', save, and run again for a link to Spendesk's approval page; approve there";
	const description =
		`${htmlText(call.name)}${htmlText(forCompany(call.companyId))} needs the credential "${htmlText(call.credentialName)}" connected to Spendesk. ${why}` +
		`${open}; then copy the whole address your browser shows, paste it into 'Authorization Response' in the credential and save. ` +
		'The next run connects (start it within 10 minutes of approving).';
	const reason = call.notConnected ? 'oauth2-not-connected' : 'oauth2-refresh-refused';
	return callError(node, call, { reason }, { message, description, httpCode: '401' });
}

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

/** Network failures where the request never left: nothing can have been applied. */
const NEVER_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'];

/** Spendesk could not be reached, after the retries allowed. */
export function unreachableError(
	node: INode,
	call: CallFacts & { origin: string; code?: string; retries: number },
): NodeApiError {
	const { origin, endpoint, name, code, retries } = call;
	const applied =
		code && NEVER_SENT.includes(code)
			? 'It did not reach Spendesk, so nothing was applied. '
			: 'It may have reached Spendesk and been applied: check in Spendesk before running it again. ';
	const notRetried = `This call is not safe to repeat, so it was not retried. ${applied}`;
	// Not under the key `code`, and the code not in the message: NodeApiError would swap our
	// message for its generic one for ECONNRESET & co.
	return new NodeApiError(
		node,
		{ networkError: code ?? null, endpoint: `${endpoint.method} ${endpoint.path}` },
		{
			message: `Could not reach Spendesk at ${origin} for ${name} (${NETWORK_WORDS[code ?? ''] ?? 'no connection'})`,
			description: `${retries ? `The node tried ${retries + 1} times. ` : endpoint.idempotent ? '' : notRetried}Check 'Environment' (or 'Base URL') in the credential and the network of your n8n instance, then run the node again.${code ? ` (${code})` : ''}`,
			itemIndex: call.itemIndex,
		},
	);
}

/** A duration for messages: seconds up to two minutes, then minutes, hours or days. */
function duration(ms: number): string {
	const s = Math.ceil(ms / 1000);
	if (s < 120) return `${s} s`;
	if (s < 7200) return `${Math.round(s / 60)} min`;
	if (s < 172_800) return `${Math.round(s / 3600)} h`;
	return `${Math.round(s / 86_400)} days`;
}

/** The call would have to wait for the rate limit longer than it may. */
export function rateLimitWaitError(
	node: INode,
	call: CallFacts & { waitMs: number; maxWaitMs: number },
): NodeApiError {
	const { waitMs, name, companyId, maxWaitMs } = call;
	// A wait past the last date a Date can hold (a Retry-After of 1e300) has no date to show.
	const retryAt = isoTime(Date.now() + waitMs);
	const until = retryAt
		? `until ${retryAt} (${duration(waitMs)})`
		: 'longer than any date can show';
	return callError(
		node,
		call,
		{ status: 429, ...(retryAt ? { retryAt } : {}) },
		{
			message: `Spendesk rate limit reached for ${companyLabel(companyId, 'the company')} and did not reset in time`,
			description: `Spendesk asked to wait ${until} before the next request of ${name}, longer than a call may wait (${duration(maxWaitMs)} in all). Run the workflow again after that time, lower the number of items, or turn on 'Return All' instead of making many small calls.`,
			httpCode: '429',
		},
	);
}

const NOT_FROM_API =
	"The answer did not come from the Spendesk API as expected: often a proxy, firewall or captive portal of your network answering in its place, or a custom base URL that does not point at the API. Check 'Environment' (or 'Base URL') in the credential and the proxy settings of your n8n instance, then run the node again.";

/** A 2xx whose body is not JSON, or (`expected`) not of a file endpoint's type; never quotes the body. */
export function unexpectedBodyError(
	node: INode,
	call: CallFacts & { status: number; body: unknown; contentType?: string; expected?: string },
): NodeApiError {
	const { endpoint, name, status, expected, contentType } = call;
	const type = contentType?.split(';')[0].trim().toLowerCase();
	let what: string;
	if (expected) what = type || 'no content type';
	else if (call.body === undefined || call.body === null || call.body === '') what = 'no content';
	else if (type && !type.includes('json')) what = type;
	else what = type ? 'a JSON value that is not an object or a list' : 'a body that is not JSON';
	const applied = !expected && !endpoint.idempotent && status >= 200 && status < 300;
	return callError(
		node,
		call,
		{ status, contentType: contentType ?? null },
		{
			message: `Spendesk answered ${name}${forCompany(call.companyId)} with ${what} instead of ${expected ?? 'JSON'} (${status})`,
			description: applied
				? // A write answered 2xx: Spendesk may have applied it; running again may apply it twice.
					`Spendesk may have applied ${name}: the answer said it succeeded (${status}) but had no readable content, so the node cannot show what was done. Check in Spendesk whether it was applied before running the node again, or it may be applied twice. If such answers keep coming, check 'Environment' (or 'Base URL') in the credential and the proxy settings of your n8n instance.`
				: NOT_FROM_API,
			httpCode: String(status),
		},
	);
}

/** A 3xx from the API, or its token endpoint (`via`): never followed, its origin named. */
export function redirectError(
	node: INode,
	call: CallFacts & { status: number; target: string; via?: string },
): NodeApiError {
	const { name, status, target, via } = call;
	const message = via
		? `${via} answered with a redirect (${status}) to ${target}, which was not followed: ${name}${forCompany(call.companyId)} was not sent`
		: `Spendesk answered ${name}${forCompany(call.companyId)} with a redirect (${status}) to ${target}, which was not followed`;
	return callError(
		node,
		call,
		{ status, redirectTo: target },
		{ message, description: REDIRECT_HELP, httpCode: String(status) },
	);
}
