/**
 * What one HTTP exchange came to: a response (any status but a 3xx), a thrown failure (an
 * HTTP status, a network error code, or neither), a refused OAuth2 renewal, or a redirect
 * that was not followed.
 */
import type { IN8nHttpFullResponse } from 'n8n-workflow';

/** The request threw: with an HTTP status, a network error code, or neither (an error to pass on). */
export interface Thrown {
	kind: 'thrown';
	status?: number;
	code?: string;
	error: unknown;
	/** The execution was cancelled: the request was aborted, not failed. */
	cancelled?: boolean;
}

export type Outcome =
	| { kind: 'response'; response: IN8nHttpFullResponse }
	| Thrown
	/**
	 * The OAuth2 credential must be connected (again): the token endpoint refused the refresh
	 * or the pasted code, or nothing is connected yet. `detail` says which; `approvalAddress` is
	 * a new link to Spendesk's approval page, when the credential's fields give one.
	 */
	| {
			kind: 'renewalRefused';
			notConnected?: boolean;
			/** The token endpoint refused a pasted code (possibly exchanged first by another n8n process). */
			codeRefused?: boolean;
			detail?: string;
			approvalAddress?: string;
	  }
	/**
	 * A redirect, never followed (transport/door.ts): of the API call, or, with `via` naming
	 * it, of the token call the credential made first. `target` is its origin only.
	 */
	| { kind: 'redirected'; status: number; target: string; via?: string };

const NETWORK_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EPIPE',
	'EAI_AGAIN',
	'ENOTFOUND',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/** Reads an error thrown by n8n's request helper: its HTTP status, or its network error code. */
export function classifyThrown(error: unknown): Thrown {
	const e = error as {
		httpCode?: unknown;
		code?: unknown;
		message?: unknown;
		cause?: { code?: unknown };
	};
	const httpCode = typeof e?.httpCode === 'string' ? e.httpCode : undefined;
	if (httpCode && /^\d{3}$/.test(httpCode))
		return { kind: 'thrown', status: Number(httpCode), error };
	const code = [httpCode, e?.code, e?.cause?.code].find(
		(c): c is string => typeof c === 'string' && NETWORK_CODES.has(c),
	);
	if (code) return { kind: 'thrown', code, error };
	if (
		typeof e?.message === 'string' &&
		/socket hang up|ECONNRESET|network|timeout/i.test(e.message)
	) {
		return { kind: 'thrown', code: 'ECONNRESET', error };
	}
	return { kind: 'thrown', error };
}
