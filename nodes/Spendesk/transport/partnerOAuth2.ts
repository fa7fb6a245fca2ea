/**
 * Spendesk's documented partner OAuth2 (docs/api.md#oauth2), for the Partner OAuth2
 * credential: the authorization address, the check of the pasted answer, the JSON code
 * exchange and the JSON refresh.
 *
 * PKCE without storing anything: `state` carries a random nonce and the time it was made,
 * signed with the client secret; the code verifier is an HMAC of the nonce with the client
 * secret. The n8n server alone can build the authorization address (the credential test) and
 * recompute the verifier (`preAuthentication`); the verifier is sent only to the token endpoint.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { ENDPOINTS } from './endpoints';
import { resolveBaseUrl } from './environment';
import { transportSettings } from './settings';

/** How long a pasted authorization answer is accepted by the test (Spendesk's codes live 10 minutes). */
export const AUTHORIZATION_MAX_AGE_MS = 10 * 60 * 1000;

/** How long a rotated refresh token is remembered in this process (old token → new pair). */
const ROTATED_LIFETIME_MS = 5 * 60 * 1000;

/** Marks errors that mean "the credential must be connected again" (a test of the transport). */
export const RECONNECT_MARK = 'spendeskPartnerOAuth2Reconnect';

/** The connection must be made (again): refused refresh or code, or nothing to connect with. */
export class PartnerReconnectError extends Error {
	readonly [RECONNECT_MARK] = true;

	/**
	 * Also the mark: n8n wraps a `preAuthentication` failure in a NodeApiError that keeps only
	 * the message, the description and `httpCode` (not a status: the retry rules ignore it).
	 */
	readonly httpCode: string;

	constructor(
		message: string,
		readonly reason: 'refused' | 'notConnected',
	) {
		super(message);
		this.name = 'PartnerReconnectError';
		this.httpCode = `${RECONNECT_MARK}:${reason}`;
	}
}

/** Whether an error (or the error it wraps, as n8n wraps `preAuthentication` failures) asks for a reconnection. */
export function reconnectReason(error: unknown): 'refused' | 'notConnected' | undefined {
	const seen = new Set<unknown>();
	const queue: unknown[] = [error];
	while (queue.length && seen.size < 8) {
		const e = queue.shift() as Record<string, unknown> | undefined;
		if (!e || typeof e !== 'object' || seen.has(e)) continue;
		seen.add(e);
		if (e[RECONNECT_MARK] === true) return e.reason === 'notConnected' ? 'notConnected' : 'refused';
		if (typeof e.httpCode === 'string' && e.httpCode.startsWith(`${RECONNECT_MARK}:`))
			return e.httpCode.endsWith(':notConnected') ? 'notConnected' : 'refused';
		// n8n's NodeApiError keeps the wrapped error as `errorResponse` (or `cause`).
		queue.push(e.cause, e.errorResponse);
	}
	return undefined;
}

const b64u = (bytes: Buffer): string => bytes.toString('base64url');

function mac(secret: string, text: string): Buffer {
	return createHmac('sha256', secret).update(text).digest();
}

interface Client {
	clientId: string;
	clientSecret: string;
}

export function clientOf(data: IDataObject): Client {
	return {
		clientId: typeof data.clientId === 'string' ? data.clientId.trim() : '',
		clientSecret: typeof data.clientSecret === 'string' ? data.clientSecret : '',
	};
}

/** A new signed, dated `state`. */
export function newState(client: Client, now = Date.now()): string {
	const payload = Buffer.alloc(24);
	randomBytes(16).copy(payload, 0);
	payload.writeBigUInt64BE(BigInt(now), 16);
	const p = b64u(payload);
	return `${p}.${b64u(mac(client.clientSecret, `state|${client.clientId}|${p}`))}`;
}

/** The nonce and the time of a `state` this credential signed; undefined when the signature is wrong. */
export function readState(
	client: Client,
	state: string,
): { nonce: string; issuedAt: number } | undefined {
	const [p, signature, extra] = state.split('.');
	if (!p || !signature || extra !== undefined) return undefined;
	const expected = mac(client.clientSecret, `state|${client.clientId}|${p}`);
	const given = Buffer.from(signature, 'base64url');
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
	const payload = Buffer.from(p, 'base64url');
	if (payload.length !== 24) return undefined;
	return { nonce: b64u(payload.subarray(0, 16)), issuedAt: Number(payload.readBigUInt64BE(16)) };
}

/** The PKCE code verifier of a nonce (43 characters). */
export function codeVerifier(client: Client, nonce: string): string {
	return b64u(mac(client.clientSecret, `pkce|${client.clientId}|${nonce}`));
}

export function codeChallenge(verifier: string): string {
	return b64u(createHash('sha256').update(verifier).digest());
}

/** The address the user opens to approve the partner app. */
export function authorizeUrl(
	baseUrl: string,
	client: Client,
	redirectUri: string,
	scope: string,
	now = Date.now(),
): string {
	const state = newState(client, now);
	const { nonce } = readState(client, state)!;
	const url = new URL(baseUrl + ENDPOINTS.partnerOAuth2Authorize.path);
	url.search = new URLSearchParams({
		response_type: 'code',
		client_id: client.clientId,
		redirect_uri: redirectUri,
		scope,
		state,
		code_challenge: codeChallenge(codeVerifier(client, nonce)),
		code_challenge_method: 'S256',
	}).toString();
	return url.toString();
}

export type PastedAnswer =
	| { kind: 'code'; code: string; verifier: string; issuedAt: number }
	| { kind: 'problem'; message: string };

/** Reads the address the user pasted: its code, and the verifier its `state` gives. */
export function readAuthorizationResponse(client: Client, pasted: string): PastedAnswer {
	let params: URLSearchParams;
	try {
		const text = pasted.trim();
		params = /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
			? new URL(text).searchParams
			: new URLSearchParams(text.replace(/^[^?]*\?/, ''));
	} catch {
		return { kind: 'problem', message: 'Authorization Response is not an address' };
	}
	const error = params.get('error');
	if (error) {
		const why = (params.get('error_description') ?? '').slice(0, 200);
		return {
			kind: 'problem',
			message: `Spendesk did not grant access (${error.slice(0, 50)}${why ? `: ${why}` : ''})`,
		};
	}
	const code = params.get('code');
	const state = params.get('state');
	if (!code || !state)
		return {
			kind: 'problem',
			message: 'Authorization Response has no code and state: paste the whole address',
		};
	const read = readState(client, state);
	if (!read)
		return {
			kind: 'problem',
			message:
				'Authorization Response does not come from an authorization address of this credential (its state does not match the Client ID and Client Secret)',
		};
	return {
		kind: 'code',
		code,
		verifier: codeVerifier(client, read.nonce),
		issuedAt: read.issuedAt,
	};
}

export interface TokenPair {
	accessToken: string;
	refreshToken: string;
}

type HttpRequest = (options: IHttpRequestOptions) => Promise<unknown>;

/**
 * One token call, over after `tokenTimeoutMs`. Its failures never carry the request (the
 * refresh address holds the client secret): an HTTP status as `httpCode`, a network failure
 * as its `code`, a refusal (4xx) as a PartnerReconnectError.
 */
async function tokenCall(
	httpRequest: HttpRequest,
	options: IHttpRequestOptions,
	refused: string,
): Promise<TokenPair> {
	const timeoutMs = transportSettings.tokenTimeoutMs;
	const deadline = AbortSignal.timeout(timeoutMs);
	let answer: { access_token?: unknown; refresh_token?: unknown };
	try {
		answer = (await httpRequest({
			...options,
			headers: { 'content-type': 'application/json', accept: 'application/json' },
			json: true,
			timeout: timeoutMs,
			abortSignal: deadline,
		})) as typeof answer;
	} catch (error) {
		throw tokenFailure(error, deadline.aborted, refused);
	}
	const accessToken = answer?.access_token;
	const refreshToken = answer?.refresh_token;
	if (
		typeof accessToken !== 'string' ||
		!accessToken ||
		typeof refreshToken !== 'string' ||
		!refreshToken
	)
		throw new Error(
			"Spendesk's OAuth2 token endpoint answered without an access and a refresh token",
		);
	return { accessToken, refreshToken };
}

/** What a failed token call becomes: a PartnerReconnectError (4xx), or a status or network code. */
function tokenFailure(error: unknown, timedOut: boolean, refused: string): Error {
	const e = error as {
		response?: { status?: unknown };
		code?: unknown;
		cause?: { code?: unknown };
	};
	const status = typeof e?.response?.status === 'number' ? e.response.status : undefined;
	if (status !== undefined && status >= 400 && status < 500 && status !== 429)
		return new PartnerReconnectError(`${refused} (HTTP ${status})`, 'refused');
	const code = timedOut
		? 'ETIMEDOUT'
		: [e?.code, e?.cause?.code].find(
				(c): c is string => typeof c === 'string' && /^E[A-Z_]+$/.test(c),
			);
	return Object.assign(
		new Error(
			`Spendesk's OAuth2 token endpoint ${status !== undefined ? `answered HTTP ${status}` : `could not be reached${code ? ` (${code})` : ''}`}`,
		),
		status !== undefined ? { httpCode: String(status) } : { code: code ?? 'ECONNRESET' },
	);
}

/** Calls in flight, by client and grant; refresh tokens rotated lately, old → new pair. */
const inFlight = new Map<string, Promise<TokenPair>>();
const rotated = new Map<string, { pair: TokenPair; until: number }>();

function forget(now: number): void {
	for (const [key, entry] of rotated) if (entry.until <= now) rotated.delete(key);
}

/**
 * One call per key in this process: concurrent callers share it, and a caller arriving with a
 * grant spent lately (a rotated refresh token, a used code) gets the pair it gave.
 */
async function singleFlight(key: string, call: () => Promise<TokenPair>): Promise<TokenPair> {
	const now = Date.now();
	forget(now);
	const done = rotated.get(key);
	if (done) return done.pair;
	let running = inFlight.get(key);
	if (!running) {
		running = call().then(
			(pair) => {
				rotated.set(key, { pair, until: Date.now() + ROTATED_LIFETIME_MS });
				return pair;
			},
			(error: unknown) => {
				throw error;
			},
		);
		inFlight.set(key, running);
		const clear = () => inFlight.delete(key);
		running.then(clear, clear);
	}
	return await running;
}

/** Forgets every remembered grant (tests). */
export function resetPartnerOAuth2(): void {
	inFlight.clear();
	rotated.clear();
}

const hash = (text: string): string => createHash('sha256').update(text).digest('base64url');

export const RECONNECT_STEPS =
	'open it, click Test for a new authorization address, approve, paste the address you land on into Authorization Response and save';

/**
 * The credential's `preAuthentication`: the code exchange when an authorization answer is
 * pasted, otherwise the refresh. Returns the fields n8n saves.
 */
export async function partnerPreAuthentication(
	httpRequest: HttpRequest,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const client = clientOf(credentials);
	const baseUrl = resolveBaseUrl(credentials);
	const pasted =
		typeof credentials.authorizationResponse === 'string'
			? credentials.authorizationResponse.trim()
			: '';
	const refreshToken = typeof credentials.refreshToken === 'string' ? credentials.refreshToken : '';
	if (pasted) {
		const answer = readAuthorizationResponse(client, pasted);
		if (answer.kind === 'problem')
			throw new PartnerReconnectError(`${answer.message}; ${RECONNECT_STEPS}`, 'notConnected');
		const redirectUri =
			typeof credentials.redirectUri === 'string' ? credentials.redirectUri.trim() : '';
		const pair = await singleFlight(
			`code:${client.clientId}:${hash(answer.code)}`,
			async () =>
				await tokenCall(
					httpRequest,
					{
						method: ENDPOINTS.partnerOAuth2TokenCreate.method,
						url: baseUrl + ENDPOINTS.partnerOAuth2TokenCreate.path,
						body: {
							grant_type: 'authorization_code',
							client_id: client.clientId,
							client_secret: client.clientSecret,
							redirect_uri: redirectUri,
							code: answer.code,
							code_verifier: answer.verifier,
						},
					},
					'Spendesk refused the authorization code (used, older than 10 minutes, or for another Redirect URI)',
				),
		);
		return { ...pair, authorizationResponse: '' };
	}
	if (!refreshToken)
		throw new PartnerReconnectError(
			`The credential is not connected yet: ${RECONNECT_STEPS}`,
			'notConnected',
		);
	const pair = await singleFlight(
		`refresh:${client.clientId}:${hash(refreshToken)}`,
		async () =>
			await tokenCall(
				httpRequest,
				{
					method: ENDPOINTS.partnerOAuth2TokenRefresh.method,
					url: baseUrl + ENDPOINTS.partnerOAuth2TokenRefresh.path,
					qs: { client_id: client.clientId, client_secret: client.clientSecret },
					body: { grant_type: 'refresh_token', refresh_token: refreshToken },
				},
				'Spendesk refused to renew access (the refresh token expired after 30 days, was revoked or already used)',
			),
	);
	return { ...pair };
}
