/**
 * Spendesk's documented OAuth2 for partner apps (docs/api.md#oauth2): the address where the user
 * approves, the check of the address they paste back, the JSON code exchange and refresh.
 *
 * PKCE without storing anything: `state` carries a random nonce and the time it was made,
 * signed with the client secret; the code verifier is an HMAC of the nonce with the client
 * secret, so only the n8n server can recompute it (`preAuthentication`).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { chainOf, redirectRefusal, sendPlain } from './door';
import type { PlainCaller } from './door';
import { ENDPOINTS, scopesFor } from './endpoints';
import { REDIRECT_HELP, resolveBaseUrl } from './environment';
import { flowControl } from './limiter';
import { transportSettings } from './settings';

/** How long a rotated refresh token is remembered in this process (old token → new pair). */
const ROTATED_LIFETIME_MS = 5 * 60 * 1000;

/** Marks errors that mean "the credential must be connected (again)". */
const RECONNECT_MARK = 'spendeskOAuth2Connect';

/** Why the connection must be made (again): refresh refused, pasted code refused, nothing to connect with. */
const CONNECT_REASONS = ['refused', 'codeRefused', 'notConnected'] as const;
type ConnectReason = (typeof CONNECT_REASONS)[number];

class OAuth2ConnectError extends Error {
	readonly [RECONNECT_MARK] = true;

	/** Also the mark: n8n wraps a `preAuthentication` failure keeping only the message, description and `httpCode`. */
	readonly httpCode: string;

	constructor(
		message: string,
		readonly reason: ConnectReason,
	) {
		super(message);
		this.name = 'OAuth2ConnectError';
		this.httpCode = `${RECONNECT_MARK}:${reason}`;
	}
}

/** Why an error (or one it wraps) asks for a connection, and what went wrong (never a secret). */
export function connectProblem(
	error: unknown,
): { reason: ConnectReason; detail: string } | undefined {
	for (const e of chainOf(error)) {
		const marked = typeof e.httpCode === 'string' && e.httpCode.startsWith(`${RECONNECT_MARK}:`);
		if (e[RECONNECT_MARK] === true || marked) {
			const given = e[RECONNECT_MARK] === true ? e.reason : String(e.httpCode).split(':')[1];
			const reason = CONNECT_REASONS.find((r) => r === given) ?? 'refused';
			return { reason, detail: typeof e.message === 'string' ? e.message : '' };
		}
	}
	return undefined;
}

const b64u = (bytes: Buffer): string => bytes.toString('base64url');

type Client = { clientId: string; clientSecret: string };

export function clientOf(data: IDataObject): Client {
	return {
		clientId: typeof data.clientId === 'string' ? data.clientId.trim() : '',
		clientSecret: typeof data.clientSecret === 'string' ? data.clientSecret : '',
	};
}

/** The HMAC of `purpose|clientId|text` with the client secret. */
const mac = (client: Client, purpose: 'state' | 'pkce', text: string): Buffer =>
	createHmac('sha256', client.clientSecret)
		.update(`${purpose}|${client.clientId}|${text}`)
		.digest();

/** The PKCE code verifier of a nonce (43 characters). */
const codeVerifier = (client: Client, nonce: string): string => b64u(mac(client, 'pkce', nonce));

/** The nonce and the time of a `state` this credential signed; undefined when the signature is wrong. */
function readState(client: Client, state: string): { nonce: string; issuedAt: number } | undefined {
	const [p, signature, extra] = state.split('.');
	if (!p || !signature || extra !== undefined) return undefined;
	const expected = mac(client, 'state', p);
	const given = Buffer.from(signature, 'base64url');
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
	const payload = Buffer.from(p, 'base64url');
	if (payload.length !== 24) return undefined;
	return { nonce: b64u(payload.subarray(0, 16)), issuedAt: Number(payload.readBigUInt64BE(16)) };
}

export type PastedAnswer =
	| { kind: 'code'; code: string; verifier: string; issuedAt: number }
	| { kind: 'problem'; message: string };

const problem = (message: string): PastedAnswer => ({ kind: 'problem', message });

/** Reads the address the user pasted: its code, and the verifier its `state` gives. */
export function readAuthorizationResponse(client: Client, pasted: string): PastedAnswer {
	let params: URLSearchParams;
	try {
		const text = pasted.trim();
		params = /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
			? new URL(text).searchParams
			: new URLSearchParams(text.replace(/^[^?]*\?/, ''));
	} catch {
		return problem("The pasted 'Authorization Response' is not an address");
	}
	const error = params.get('error');
	if (error) {
		const why = (params.get('error_description') ?? '').slice(0, 200);
		return problem(
			`Spendesk did not grant access (${error.slice(0, 50)}${why ? `: ${why}` : ''}): approve on the approval page, then paste the address you land on`,
		);
	}
	const code = params.get('code');
	const state = params.get('state');
	if (!code || !state)
		return problem(
			"The pasted 'Authorization Response' has no code and state: paste the whole address your browser shows after you approve",
		);
	const read = readState(client, state);
	if (!read)
		return problem(
			"The pasted 'Authorization Response' does not answer an approval link of this credential (its state does not match 'Client ID' and 'Client Secret'; they may have changed since): use a new link",
		);
	return {
		kind: 'code',
		code,
		verifier: codeVerifier(client, read.nonce),
		issuedAt: read.issuedAt,
	};
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * The address where the user approves the partner app, from the credential's own fields;
 * undefined when they cannot give one. Each call gives a new signed, dated `state`.
 */
export function approvalAddress(credentials: IDataObject): string | undefined {
	const client = clientOf(credentials);
	const redirectUri = text(credentials.redirectUri);
	if (!client.clientId || !client.clientSecret || !URL.canParse(redirectUri)) return undefined;
	let baseUrl: string;
	try {
		baseUrl = resolveBaseUrl(credentials);
	} catch {
		return undefined;
	}
	const features = ([] as unknown[]).concat(credentials.experimentalFeatures ?? []).map(String);
	const nonce = randomBytes(16);
	const payload = Buffer.alloc(24);
	nonce.copy(payload, 0);
	payload.writeBigUInt64BE(BigInt(Date.now()), 16);
	const p = b64u(payload);
	const verifier = codeVerifier(client, b64u(nonce));
	const url = new URL(baseUrl + ENDPOINTS.oauth2Authorize.path);
	url.search = new URLSearchParams({
		response_type: 'code',
		client_id: client.clientId,
		redirect_uri: redirectUri,
		scope: scopesFor(features),
		state: `${p}.${b64u(mac(client, 'state', p))}`,
		code_challenge: b64u(createHash('sha256').update(verifier).digest()),
		code_challenge_method: 'S256',
	}).toString();
	return url.toString();
}

/** Who answers the token calls, in errors. */
const TOKEN_ENDPOINT = "Spendesk's OAuth2 token endpoint";

/**
 * One token call per client and grant in this process: concurrent callers share it, and a
 * caller with a grant spent lately (a rotated refresh token, a used code) gets the pair it gave.
 * Its failures never carry the request (the refresh address holds the client secret).
 */
async function tokenCall(
	caller: PlainCaller,
	grant: string,
	options: IHttpRequestOptions,
	refused: { message: string; reason: ConnectReason },
): Promise<IDataObject> {
	const key = createHash('sha256').update(grant).digest('base64url');
	return await flowControl.singleFlight(key, ROTATED_LIFETIME_MS, async () => {
		const timeoutMs = transportSettings.tokenTimeoutMs;
		const deadline = AbortSignal.timeout(timeoutMs);
		let answer: { access_token?: unknown; refresh_token?: unknown };
		try {
			answer = (await sendPlain(
				caller,
				{
					...options,
					headers: { 'content-type': 'application/json', accept: 'application/json' },
					json: true,
					timeout: timeoutMs,
					abortSignal: deadline,
				},
				{ what: TOKEN_ENDPOINT, description: REDIRECT_HELP },
			)) as typeof answer;
		} catch (error) {
			throw tokenFailure(error, deadline.aborted, refused);
		}
		const { access_token: accessToken, refresh_token: refreshToken } = answer ?? {};
		if (
			typeof accessToken !== 'string' ||
			!accessToken ||
			typeof refreshToken !== 'string' ||
			!refreshToken
		)
			throw new Error(`${TOKEN_ENDPOINT} answered without an access and a refresh token`);
		return { accessToken, refreshToken };
	});
}

function tokenFailure(
	error: unknown,
	timedOut: boolean,
	refused: { message: string; reason: ConnectReason },
): Error {
	if (redirectRefusal(error)) return error as Error;
	const e = error as {
		response?: { status?: unknown };
		code?: unknown;
		cause?: { code?: unknown };
	};
	const status = typeof e?.response?.status === 'number' ? e.response.status : undefined;
	if (status !== undefined && status >= 400 && status < 500 && status !== 429)
		return new OAuth2ConnectError(`${refused.message} (HTTP ${status})`, refused.reason);
	const code = timedOut
		? 'ETIMEDOUT'
		: [e?.code, e?.cause?.code].find(
				(c): c is string => typeof c === 'string' && /^E[A-Z_]+$/.test(c),
			);
	return Object.assign(
		new Error(
			`${TOKEN_ENDPOINT} ${status !== undefined ? `answered HTTP ${status}` : `could not be reached${code ? ` (${code})` : ''}`}`,
		),
		status !== undefined ? { httpCode: String(status) } : { code: code ?? 'ECONNRESET' },
	);
}

/**
 * The expirable `connection` field: '' once an answer is pasted or Connect Again is on, so that
 * n8n calls preAuthentication on the next request even while the access token is still valid
 * (a code lives 10 minutes; a token an hour).
 */
export const CONNECTED =
	'={{ $self["authorizationResponse"] || $self["connectAgain"] === true ? "" : "connected" }}';

/** The credential's `preAuthentication`: the code exchange of a pasted answer, else the refresh. */
export async function oauth2PreAuthentication(
	caller: PlainCaller,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const baseUrl = resolveBaseUrl(credentials);
	const client = clientOf(credentials);
	const pasted = text(credentials.authorizationResponse);
	if (pasted) {
		const answer = readAuthorizationResponse(client, pasted);
		if (answer.kind === 'problem') throw new OAuth2ConnectError(answer.message, 'notConnected');
		const { method, path } = ENDPOINTS.oauth2TokenCreate;
		const body = {
			grant_type: 'authorization_code',
			client_id: client.clientId,
			client_secret: client.clientSecret,
			redirect_uri: text(credentials.redirectUri),
			code: answer.code,
			code_verifier: answer.verifier,
		};
		const pair = await tokenCall(
			caller,
			`code:${client.clientId}:${answer.code}`,
			{ method, url: baseUrl + path, body },
			{
				// The paste connects nothing: as if nothing were connected yet, unless another n8n
				// process exchanged it first (transport/exchange.ts reads the credential again).
				message:
					"Spendesk refused the pasted authorization: its code was already used, is more than 10 minutes old, or was given for another 'Redirect URI'",
				reason: 'codeRefused',
			},
		);
		return { ...pair, authorizationResponse: '', connectAgain: false, connection: CONNECTED };
	}
	if (credentials.connectAgain === true)
		throw new OAuth2ConnectError(
			'Connect Again is on: the credential waits for a new approval',
			'notConnected',
		);
	const refreshToken = typeof credentials.refreshToken === 'string' ? credentials.refreshToken : '';
	if (!refreshToken)
		throw new OAuth2ConnectError('The credential is not connected to Spendesk yet', 'notConnected');
	const { method, path } = ENDPOINTS.oauth2TokenRefresh;
	const pair = await tokenCall(
		caller,
		`refresh:${client.clientId}:${refreshToken}`,
		{
			method,
			url: baseUrl + path,
			qs: { client_id: client.clientId, client_secret: client.clientSecret },
			body: { grant_type: 'refresh_token', refresh_token: refreshToken },
		},
		{
			message:
				'Spendesk refused to renew access: the connection was revoked in Spendesk, or its refresh token expired (30 days) or was already used',
			reason: 'refused',
		},
	);
	return { ...pair, connection: CONNECTED };
}
