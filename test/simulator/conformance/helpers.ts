/**
 * Small helpers for the simulator conformance suite: every call is a real HTTP request
 * with Node's global fetch.
 */
import { createHash, randomBytes } from 'node:crypto';

import type { SpendeskSimulator } from '../server';

export interface Cred {
	clientId: string;
	clientSecret: string;
}

export interface ApiResponse {
	status: number;
	headers: Headers;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
}

export interface ApiInit {
	method?: string;
	headers?: Record<string, string>;
	/** JSON body (serialised here) or a ready string. */
	body?: unknown;
	/** Sets the X-Company-Id header. */
	companyId?: string;
}

export function basic(cred: Cred): string {
	return 'Basic ' + Buffer.from(`${cred.clientId}:${cred.clientSecret}`).toString('base64');
}

async function read(res: Response): Promise<ApiResponse> {
	const text = await res.text();
	let body: unknown = text;
	if (text.length > 0) {
		try {
			body = JSON.parse(text);
		} catch {
			body = text;
		}
	} else {
		body = undefined;
	}
	return { status: res.status, headers: res.headers, body };
}

/** Any request; `url` is absolute or a path relative to the simulator. */
export async function request(
	sim: SpendeskSimulator,
	url: string,
	init: ApiInit & { authorization?: string } = {},
): Promise<ApiResponse> {
	const headers: Record<string, string> = { accept: 'application/json', ...(init.headers ?? {}) };
	if (init.authorization !== undefined) headers.authorization = init.authorization;
	if (init.companyId !== undefined) headers['x-company-id'] = init.companyId;
	let body: string | undefined;
	if (init.body !== undefined) {
		body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
		if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
			headers['content-type'] = 'application/json';
		}
	}
	const full = url.startsWith('http') ? url : sim.baseUrl + url;
	const res = await fetch(full, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body });
	return read(res);
}

/** POST /v1/auth/token (client credentials, JSON body); returns the whole response. */
export async function tokenResponse(sim: SpendeskSimulator, cred: Cred): Promise<ApiResponse> {
	return request(sim, '/v1/auth/token', {
		method: 'POST',
		authorization: basic(cred),
		body: { grant_type: 'client_credentials' },
	});
}

/** Access token of an API-key credential (fails the test if the token call fails). */
export async function token(sim: SpendeskSimulator, cred: Cred): Promise<string> {
	const res = await tokenResponse(sim, cred);
	if (res.status !== 200)
		throw new Error(`token call answered ${res.status}: ${JSON.stringify(res.body)}`);
	return res.body.access_token as string;
}

/** Authenticated API call with a bearer token. */
export async function api(
	sim: SpendeskSimulator,
	accessToken: string,
	path: string,
	init: ApiInit = {},
): Promise<ApiResponse> {
	return request(sim, path, { ...init, authorization: `Bearer ${accessToken}` });
}

/** The single error of an error body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function err(res: ApiResponse): { code: string; detail: string; source?: any } {
	expect(Array.isArray(res.body?.errors)).toBe(true);
	expect(res.body.errors.length).toBeGreaterThanOrEqual(1);
	return res.body.errors[0];
}

export const ids = (items: Array<{ id: string }>): string[] => items.map((i) => i.id);

/** The items of a page list's answer: `{data, meta}`, or a bare array as some lists answer (docs/api.md#page-lists). */
export const pageItems = (body: unknown): Array<{ id: string }> =>
	(Array.isArray(body) ? body : (body as { data: unknown }).data) as Array<{ id: string }>;

/** The ids of a page list's items, whichever of the two shapes it answers. */
export const listed = (body: unknown): string[] => ids(pageItems(body));
export const sortedIds = (items: Array<{ id: string }>): string[] => ids(items).sort();

/** Follows a cursor list (query `cursor`) from `path` until hasNextPage is false. */
export async function drainCursor(
	sim: SpendeskSimulator,
	accessToken: string,
	path: string,
	init: ApiInit = {},
	maxPages = 1000,
): Promise<{ items: Array<{ id: string }>; pages: ApiResponse[] }> {
	const items: Array<{ id: string }> = [];
	const pages: ApiResponse[] = [];
	let cursor: string | null = null;
	for (let i = 0; i < maxPages; i++) {
		const sep = path.includes('?') ? '&' : '?';
		const url: string =
			cursor === null ? path : `${path}${sep}cursor=${encodeURIComponent(cursor)}`;
		const res = await api(sim, accessToken, url, init);
		if (res.status !== 200)
			throw new Error(`page ${i + 1} answered ${res.status}: ${JSON.stringify(res.body)}`);
		pages.push(res);
		items.push(...res.body.data);
		const p = res.body.meta.pagination;
		if (!p.hasNextPage) return { items, pages };
		cursor = p.nextCursor;
	}
	throw new Error('too many pages');
}

// ---------------------------------------------------------------- OAuth2

export function pkce(): { verifier: string; challenge: string } {
	const verifier = randomBytes(32).toString('base64url');
	const challenge = createHash('sha256').update(verifier).digest('base64url');
	return { verifier, challenge };
}

export const REDIRECT_URI = 'http://localhost:5678/rest/oauth2-credential/callback';

export interface AuthorizeOptions {
	user?: string;
	consent?: 'organisation' | 'company';
	company?: string;
	scope?: string;
	clientId?: string;
	challenge?: string;
	method?: string;
	state?: string;
}

/** GET /v1/oauth2/authorize without following the redirect. */
export async function authorize(
	sim: SpendeskSimulator,
	opts: AuthorizeOptions = {},
): Promise<{ status: number; location: URL | null; verifier: string; body: string }> {
	const { verifier, challenge } = pkce();
	const q = new URLSearchParams({
		response_type: 'code',
		client_id: opts.clientId ?? sim.credentials.oauthClient.clientId,
		redirect_uri: REDIRECT_URI,
		scope: opts.scope ?? sim.credentials.oauthClient.scopes.join(' '),
		state: opts.state ?? 'st-123',
	});
	const ch = opts.challenge ?? challenge;
	if (ch !== '') q.set('code_challenge', ch);
	if (opts.method !== '') q.set('code_challenge_method', opts.method ?? 'S256');
	if (opts.user) q.set('user', opts.user);
	if (opts.consent) q.set('consent', opts.consent);
	if (opts.company) q.set('company', opts.company);
	const res = await fetch(`${sim.baseUrl}/v1/oauth2/authorize?${q.toString()}`, {
		redirect: 'manual',
	});
	const loc = res.headers.get('location');
	const body = await res.text();
	return { status: res.status, location: loc ? new URL(loc) : null, verifier, body };
}

/** POST /v1/oauth2/token/create: a JSON body with the client in it (the documented code exchange). */
export async function oauthTokenCall(
	sim: SpendeskSimulator,
	params: Record<string, string>,
): Promise<ApiResponse> {
	const c = sim.credentials.oauthClient;
	return await request(sim, '/v1/oauth2/token/create', {
		method: 'POST',
		body: { ...params, client_id: c.clientId, client_secret: c.clientSecret },
	});
}

/** The query a refresh must carry: the client's id and secret (the vendor's refresh rule). */
export function clientQuery(sim: SpendeskSimulator): Record<string, string> {
	const c = sim.credentials.oauthClient;
	return { client_id: c.clientId, client_secret: c.clientSecret };
}

/** POST /v1/oauth2/token/refresh as the vendor documents it: JSON body, the client in the query. */
export async function oauthRefreshCall(
	sim: SpendeskSimulator,
	refreshToken: string,
	query: Record<string, string> = clientQuery(sim),
): Promise<ApiResponse> {
	return await request(sim, `/v1/oauth2/token/refresh?${new URLSearchParams(query).toString()}`, {
		method: 'POST',
		body: { grant_type: 'refresh_token', refresh_token: refreshToken },
	});
}

/** Full authorize + code exchange; returns the token response body. */
export async function oauthLogin(
	sim: SpendeskSimulator,
	opts: AuthorizeOptions = {},
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<any> {
	const a = await authorize(sim, opts);
	const code = a.location?.searchParams.get('code');
	if (a.status !== 302 || !code)
		throw new Error(`authorize answered ${a.status} ${a.location} ${a.body}`);
	const res = await oauthTokenCall(sim, {
		grant_type: 'authorization_code',
		code,
		redirect_uri: REDIRECT_URI,
		code_verifier: a.verifier,
	});
	if (res.status !== 201)
		throw new Error(`oauth token answered ${res.status}: ${JSON.stringify(res.body)}`);
	return res.body;
}

export { sleep } from '../../support/time';
