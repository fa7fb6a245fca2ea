/**
 * OAuth2 of the simulator (docs/api.md#oauth2): Spendesk's documented contract for partner
 * apps, served in both profiles.
 *
 * - `GET /v1/oauth2/authorize`: the consent step (the approving user, organisation or company
 *   level, a Requester refused with `error=access_denied`), `scope` required.
 * - `POST /v1/oauth2/token/create` (code exchange, 201) and `POST /v1/oauth2/token/refresh`
 *   (client in the query): JSON bodies only, the client in the body (create) or the query
 *   (refresh), never a Basic header; answers without `expires_in`.
 */
import { createHash } from 'node:crypto';
import { SimError } from './paging';
import type { RouteDef } from './routes';
import type { HandlerResult, RequestContext } from './server';
import type { AccessLevel, OAuthClient } from './types';

const CODE_LIFETIME_MS = 10 * 60 * 1000;

/** S256 PKCE challenge of a verifier. */
export function pkceChallenge(verifier: string): string {
	return createHash('sha256').update(verifier).digest('base64url');
}

/**
 * An error of the OAuth2 routes: the profile's error body (`errors: [{code, detail,
 * source}]`, rewritten to the documented codes by the documented profile) plus the OAuth2
 * fields `error` (the RFC 6749 code, in both profiles) and `error_description`.
 */
export class OAuthError extends SimError {
	static from(error: SimError): OAuthError {
		return new OAuthError(error.status, error.code, error.detail, error.source, error.headers);
	}

	override body() {
		return { ...super.body(), error: this.code, error_description: this.detail };
	}
}

/** The authorize step: checks the request, approves as the chosen user, redirects with a code. */
function consent(ctx: RequestContext): HandlerResult {
	const q = ctx.query;
	const client = ctx.sim.oauthClient(q.client_id ?? '');
	if (!client) throw new SimError(400, 'invalid_client', 'Unknown client_id', 'query.client_id');
	if (
		!q.redirect_uri ||
		(client.redirectUris.length && !client.redirectUris.includes(q.redirect_uri))
	) {
		throw new SimError(
			400,
			'invalid_request',
			'redirect_uri is missing or not registered',
			'query.redirect_uri',
		);
	}
	if (q.response_type !== 'code')
		throw new SimError(
			400,
			'unsupported_response_type',
			'response_type must be code',
			'query.response_type',
		);
	if (!q.code_challenge || q.code_challenge_method !== 'S256') {
		throw new SimError(
			400,
			'invalid_request',
			'PKCE with code_challenge_method S256 is required',
			'query.code_challenge',
		);
	}
	const redirect = new URL(q.redirect_uri);
	if (q.state !== undefined) redirect.searchParams.set('state', q.state);
	const refuse = (description: string): HandlerResult => {
		redirect.searchParams.set('error', 'access_denied');
		redirect.searchParams.set('error_description', description);
		return { status: 302, headers: { location: redirect.toString() } };
	};
	const user = ctx.sim.user(q.user ?? ctx.sim.options.oauthDefaultUser);
	if (!user) return refuse('Unknown user');
	const level = (q.consent ?? ctx.sim.options.oauthDefaultConsent) as AccessLevel;
	if (level !== 'organisation' && level !== 'company')
		throw new SimError(
			400,
			'invalid_request',
			'consent must be organisation or company',
			'query.consent',
		);
	if (level === 'organisation' && user.role === 'requester')
		return refuse('A requester cannot approve organisation-level access');
	const companyId = level === 'company' ? (q.company ?? user.companyIds[0]) : undefined;
	if (level === 'company' && (!companyId || !user.companyIds.includes(companyId)))
		return refuse('The user is not a member of that company');
	const requested = (q.scope ?? '').split(/[\s+]+/).filter(Boolean);
	const scopes = requested.length
		? requested.filter((s) => client.scopes.includes(s))
		: client.scopes;
	const code = ctx.sim.saveCode({
		clientId: client.clientId,
		redirectUri: q.redirect_uri,
		challenge: q.code_challenge,
		userId: user.id,
		level,
		companyId,
		scopes,
		expiresAt: ctx.sim.clock.now() + CODE_LIFETIME_MS,
		used: false,
	});
	redirect.searchParams.set('code', code);
	return { status: 302, headers: { location: redirect.toString() } };
}

/** Every SimError an OAuth2 route throws goes out as an OAuthError. */
function oauthErrors(
	handler: (ctx: RequestContext) => HandlerResult,
): (ctx: RequestContext) => HandlerResult {
	return (ctx) => {
		try {
			return handler(ctx);
		} catch (error) {
			if (error instanceof SimError && !(error instanceof OAuthError)) throw OAuthError.from(error);
			throw error;
		}
	};
}

const invalidRequest = (detail: string, source: string) =>
	new SimError(400, 'invalid_request', detail, source);
const invalidGrant = (detail: string, source?: string) =>
	new SimError(400, 'invalid_grant', detail, source);
const invalidClient = (source: string) =>
	new SimError(401, 'invalid_client', 'Invalid client credentials', source);

/** GET /v1/oauth2/authorize: the consent step, with `scope` required. */
function authorize(ctx: RequestContext): HandlerResult {
	if (!(ctx.query.scope ?? '').trim())
		throw invalidRequest('scope is required (space-separated scopes)', 'query.scope');
	return consent(ctx);
}

/** The JSON object body of a token call; any other content type (a form, say) is a 400. */
function jsonBody(ctx: RequestContext): Record<string, unknown> {
	const type = ctx.headers['content-type'] ?? '';
	if (!/^application\/json\s*(;|$)/i.test(type))
		throw invalidRequest(
			'The body must be JSON (content-type: application/json)',
			'headers.content-type',
		);
	const body = ctx.body;
	if (!body || typeof body !== 'object' || Array.isArray(body))
		throw invalidRequest('The body must be a JSON object', 'body');
	return body as Record<string, unknown>;
}

/** A required string field of the body. */
function field(body: Record<string, unknown>, name: string): string {
	const value = body[name];
	if (typeof value !== 'string' || value === '')
		throw invalidRequest(`${name} is required`, `body.${name}`);
	return value;
}

/** The client named by `id` if `secret` is its secret; otherwise 401 invalid_client. */
function client(ctx: RequestContext, id: string, secret: string, source: string): OAuthClient {
	const found = ctx.sim.oauthClient(id);
	if (!found || found.clientSecret !== secret) throw invalidClient(source);
	return found;
}

/** The documented answer of both token calls: no `expires_in`. */
function tokenAnswer(
	ctx: RequestContext,
	clientId: string,
	grant: { userId: string; level: AccessLevel; companyId?: string; scopes: string[] },
	status: number,
): HandlerResult {
	const { userId, level, companyId, scopes } = grant;
	const held = { clientId, userId, level, companyId, scopes };
	const { access_token } = ctx.sim.issueAccessToken({ kind: 'oauth2', ...held });
	const refresh_token = ctx.sim.issueRefreshToken(held);
	return {
		status,
		body: { token_type: 'Bearer', access_token, scope: scopes.join(' '), refresh_token },
	};
}

/**
 * POST /v1/oauth2/token/create: `{grant_type: "authorization_code", client_id, client_secret,
 * redirect_uri, code, code_verifier}` as JSON; 201 with the tokens.
 */
function tokenCreate(ctx: RequestContext): HandlerResult {
	const body = jsonBody(ctx);
	if (body.grant_type === 'refresh_token')
		throw new SimError(
			400,
			'unsupported_grant_type',
			'A refresh goes to POST /v1/oauth2/token/refresh',
			'body.grant_type',
		);
	if (body.grant_type !== 'authorization_code')
		throw new SimError(
			400,
			'unsupported_grant_type',
			'grant_type must be authorization_code',
			'body.grant_type',
		);
	// The client authenticates in the body only; a Basic header is not read.
	const found = client(
		ctx,
		field(body, 'client_id'),
		field(body, 'client_secret'),
		'body.client_secret',
	);
	const redirectUri = field(body, 'redirect_uri');
	const value = field(body, 'code');
	const verifier = field(body, 'code_verifier');
	const code = ctx.sim.takeCode(value);
	if (!code || code.clientId !== found.clientId)
		throw invalidGrant('Unknown authorization code', 'body.code');
	if (code.used) throw invalidGrant('Authorization code already used', 'body.code');
	if (code.expiresAt <= ctx.sim.clock.now())
		throw invalidGrant('Authorization code expired', 'body.code');
	if (redirectUri !== code.redirectUri)
		throw invalidGrant('redirect_uri does not match the authorize step', 'body.redirect_uri');
	if (pkceChallenge(verifier) !== code.challenge)
		throw invalidGrant('code_verifier does not match the code_challenge', 'body.code_verifier');
	code.used = true;
	return tokenAnswer(ctx, found.clientId, code, 201);
}

/**
 * POST /v1/oauth2/token/refresh?client_id=…&client_secret=…: `{grant_type: "refresh_token",
 * refresh_token}` as JSON; 200 with a new pair, the old refresh token no longer valid.
 */
function tokenRefresh(ctx: RequestContext): HandlerResult {
	for (const name of ['client_id', 'client_secret'])
		if (!ctx.query[name])
			throw invalidRequest(`${name} is required as a query parameter`, `query.${name}`);
	const body = jsonBody(ctx);
	const found = client(ctx, ctx.query.client_id, ctx.query.client_secret, 'query.client_secret');
	if (body.grant_type !== 'refresh_token')
		throw new SimError(
			400,
			'unsupported_grant_type',
			'grant_type must be refresh_token',
			'body.grant_type',
		);
	const previous = ctx.sim.consumeRefreshToken(field(body, 'refresh_token'));
	if (!previous || previous.clientId !== found.clientId)
		throw invalidGrant(
			'Invalid, expired, revoked or already used refresh token',
			'body.refresh_token',
		);
	return tokenAnswer(ctx, found.clientId, previous, 200);
}

/** The OAuth2 routes, in both profiles (docs/api.md#oauth2). */
export const OAUTH_ROUTES: RouteDef[] = [
	{
		id: 'oauthAuthorize',
		method: 'GET',
		pattern: /^\/v1\/oauth2\/authorize$/,
		placement: 'public',
		handler: oauthErrors(authorize),
	},
	{
		id: 'oauthTokenCreate',
		method: 'POST',
		pattern: /^\/v1\/oauth2\/token\/create$/,
		placement: 'public',
		handler: oauthErrors(tokenCreate),
	},
	{
		id: 'oauthTokenRefresh',
		method: 'POST',
		pattern: /^\/v1\/oauth2\/token\/refresh$/,
		placement: 'public',
		handler: oauthErrors(tokenRefresh),
	},
];
