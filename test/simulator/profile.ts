/**
 * The simulator's two profiles (docs/api.md#the-documented-profile):
 *
 * - `specification` (the default): the API as the specification describes it, organisation-level
 *   credentials, experimental scopes and `/v2` endpoints included.
 * - `documented`: what Spendesk documents publicly for ordinary customers, strictly: keys hold
 *   only the documented scopes, `/v2` answers 403 without its `experimental:` scope, errors carry
 *   the documented codes with `source` a field name, single objects come bare, and the published
 *   rate limits apply.
 *
 * Everything that differs between the profiles is decided here; server.ts asks this module.
 */
import type { SimulatorOptions } from './types';

export type SimulatorProfile = 'specification' | 'documented';

/** The scopes of the vendor's scope list that every documented key holds (docs/api.md#the-documented-profile). */
export const DOCUMENTED_SCOPES = [
	'payable:read',
	'payable-attachment:read',
	'settlement:read',
	'bank-fee:read',
	'wallet-load:read',
	'wallet-summary:read',
	'user:read',
	'supplier:read',
	'cost-center:read',
	'expense-category:read',
	'analytical-field:read',
] as const;

/** The documented error codes, by status (docs/api.md#errors). */
const DOCUMENTED_CODES: Record<number, string> = {
	400: 'BAD_REQUEST_INCORRECT_OR_MISSING_FIELD',
	401: 'AUTHENTICATION_ERROR',
	403: 'FORBIDDEN_ERROR',
	404: 'NOT_FOUND',
	429: 'TOO_MANY_REQUESTS',
	500: 'INTERNAL_SERVER_ERROR',
};

/**
 * Defaults of the documented profile, under what the caller's options say: 50 requests a
 * minute per company, 5 in flight, attachments listed as the vendor's document shows them
 * (`mimeType, checksum, attachedAt, url`, without `id`, `fileName`, `size` or `expiresAt`;
 * docs/api.md#files), and the analytical
 * field values answered as a bare array, as some collections answer (docs/api.md#page-lists).
 */
export const DOCUMENTED_DEFAULTS: Pick<
	SimulatorOptions,
	'rateLimit' | 'maxInFlight' | 'attachmentShape' | 'bareArrayLists'
> = {
	rateLimit: 50,
	maxInFlight: 5,
	attachmentShape: 'documented',
	bareArrayLists: ['listAnalyticalFieldValuesV1'],
};

/** The documented code of an error status (5xx all as INTERNAL_SERVER_ERROR); undefined: keep the code. */
function documentedCode(status: number): string | undefined {
	return status >= 500 ? DOCUMENTED_CODES[500] : DOCUMENTED_CODES[status];
}

/** `query.pageSize` → `pageSize`, `headers.x-company-id` → `x-company-id`: the field name alone. */
function fieldName(source: unknown): unknown {
	return typeof source === 'string' ? source.replace(/^(query|body|path|headers)\./, '') : source;
}

/** An error body `{errors: [...]}` with the documented codes and field-name sources; anything else as it is. */
export function documentedErrorBody(status: number, body: unknown): unknown {
	const errors = (body as { errors?: unknown } | undefined)?.errors;
	if (!Array.isArray(errors)) return body;
	const code = documentedCode(status);
	return {
		...(body as object),
		errors: errors.map((e: Record<string, unknown>) => ({
			...e,
			...(code ? { code } : {}),
			...(e.source !== undefined ? { source: fieldName(e.source) } : {}),
		})),
	};
}

/** A GET answer `{data: object}` (one object, wrapped) as the bare object; lists and anything else as they are. */
export function bareSingleObject(body: unknown): unknown {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
	const keys = Object.keys(body);
	const data = (body as { data?: unknown }).data;
	if (
		keys.length === 1 &&
		keys[0] === 'data' &&
		data &&
		typeof data === 'object' &&
		!Array.isArray(data)
	)
		return data;
	return body;
}

/** Whether a path is in the experimental `/v2` API. */
export const isV2Path = (path: string): boolean => /^\/v2(\/|$)/.test(path);
