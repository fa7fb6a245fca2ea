/**
 * One HTTP exchange through n8n's authenticated request helper, with one token renewal
 * after a 401.
 *
 * Tokens are n8n's business: the API-key credential fetches its token in
 * `preAuthentication` into a hidden expirable field, and n8n renews it after a thrown 401
 * (OAuth2: with the refresh token). An OAuth2 refresh that Spendesk refuses is told apart
 * from the API's answer to the retried call.
 */
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { rememberSecrets } from './credential';
import type { ResolvedCredential, SpendeskContext } from './credential';
import { flowControl } from './limiter';
import { classifyThrown } from './outcome';
import type { Outcome } from './outcome';

/** The OAuth2 access token n8n holds now (undefined for other credentials or when unreadable). */
async function heldAccessToken(ctx: SpendeskContext, credential: ResolvedCredential): Promise<string | undefined> {
	if (credential.credentialType !== 'spendeskOAuth2Api') return undefined;
	try {
		const credentials = await ctx.getCredentials(credential.credentialType);
		const token = (credentials.oauthTokenData as { access_token?: unknown } | undefined)?.access_token;
		return typeof token === 'string' ? token : undefined;
	} catch {
		return undefined;
	}
}

/** Sends the request; after a 401, asks once more so that n8n renews the token. */
export async function sendWithRenewal(ctx: SpendeskContext, credential: ResolvedCredential, request: IHttpRequestOptions): Promise<Outcome> {
	const call = async (ignoreHttpStatusErrors: boolean) =>
		(await ctx.helpers.httpRequestWithAuthentication.call(ctx, credential.credentialType, {
			...request,
			ignoreHttpStatusErrors,
		})) as IN8nHttpFullResponse;
	let response: IN8nHttpFullResponse;
	try {
		response = await call(true);
	} catch (error) {
		return classifyThrown(error);
	} finally {
		// The first exchange may have fetched the API-key token: remember it, so that it is never quoted back.
		if (!tokensRead.has(credential)) {
			tokensRead.add(credential);
			await rememberSecrets(ctx, credential);
		}
	}
	if (response.statusCode !== 401) return { kind: 'response', response };
	// Ask again letting the 401 throw: n8n then renews the token (API key: preAuthentication;
	// OAuth2: refresh) and retries once. One renewal at a time per credential: calls that
	// got the same 401 meanwhile find the renewed token and need no renewal of their own.
	return await flowControl.exclusive(`renew:${credential.key}`, async (): Promise<Outcome> => {
		const before = await heldAccessToken(ctx, credential);
		try {
			return { kind: 'response', response: await call(false) };
		} catch (error) {
			const outcome = classifyThrown(error);
			// OAuth2: a failure that left n8n's token as it was is the refresh being refused, not
			// the API answering the retried call. Read from the credential, whatever error shape
			// the n8n version gives the refusal. A 5xx or a network failure is Spendesk failing,
			// not refusing: it goes to the retry rules, and reconnecting would not help.
			const failing = outcome.code !== undefined || (outcome.status ?? 0) >= 500;
			if (before !== undefined && !failing && (await heldAccessToken(ctx, credential)) === before) {
				return { kind: 'renewalRefused' };
			}
			return outcome;
		} finally {
			await rememberSecrets(ctx, credential);
		}
	});
}

/** Resolved credentials whose tokens were read after their first exchange. */
const tokensRead = new WeakSet<ResolvedCredential>();
