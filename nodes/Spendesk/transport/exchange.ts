/**
 * One HTTP exchange through n8n's authenticated request helper, with one token renewal
 * after a 401, each request over by its deadline.
 *
 * Tokens are n8n's business: the API-key credential fetches its token in
 * `preAuthentication` into a hidden expirable field, and n8n renews it after a thrown 401
 * (OAuth2: with the refresh token). An OAuth2 refresh that Spendesk refuses is told apart
 * from the API's answer to the retried call.
 */
import { sleep } from 'n8n-workflow';
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { rememberSecrets } from './credential';
import type { ResolvedCredential, SpendeskContext } from './credential';
import { flowControl } from './limiter';
import { reconnectReason } from './partnerOAuth2';
import { classifyThrown } from './outcome';
import type { Outcome } from './outcome';
import { transportSettings } from './settings';

/** The OAuth2 access token n8n holds now (undefined for other credentials or when unreadable). */
async function heldAccessToken(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
): Promise<string | undefined> {
	if (credential.credentialType !== 'spendeskOAuth2Api') return undefined;
	try {
		const credentials = await ctx.getCredentials(credential.credentialType);
		const token = (credentials.oauthTokenData as { access_token?: unknown } | undefined)
			?.access_token;
		return typeof token === 'string' ? token : undefined;
	} catch {
		return undefined;
	}
}

/** The Partner OAuth2 refresh token stored now (undefined for other credentials or when unreadable). */
async function heldRefreshToken(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
): Promise<string | undefined> {
	if (credential.credentialType !== 'spendeskPartnerOAuth2Api') return undefined;
	try {
		const token = (await ctx.getCredentials(credential.credentialType)).refreshToken;
		return typeof token === 'string' && token ? token : undefined;
	} catch {
		return undefined;
	}
}

/** The execution's cancel signal, when the context has one (node executions do, polls do not). */
function cancelSignalOf(ctx: SpendeskContext): AbortSignal | undefined {
	const get = (ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined })
		.getExecutionCancelSignal;
	return typeof get === 'function' ? get.call(ctx) : undefined;
}

/**
 * The deadline of the attempts that start now. A timer of its own for every attempt would cost
 * more than the rest of the attempt's own work (tens of microseconds, and a timer alive for the
 * whole timeout after the answer came): the attempts started within one short grain of time
 * (a twentieth of the timeout, at most a second) share one, which expires `timeoutMs` after
 * the grain ends, so each attempt is given between `timeoutMs` and `timeoutMs` + the grain.
 */
let sharedDeadline: { timeoutMs: number; until: number; signal: AbortSignal } | undefined;

function deadlineFrom(now: number): AbortSignal {
	const { timeoutMs } = transportSettings;
	if (!sharedDeadline || sharedDeadline.timeoutMs !== timeoutMs || now >= sharedDeadline.until) {
		const grain = Math.max(1, Math.min(1000, Math.ceil(timeoutMs / 20)));
		sharedDeadline = {
			timeoutMs,
			until: now + grain,
			signal: AbortSignal.timeout(timeoutMs + grain),
		};
	}
	return sharedDeadline.signal;
}

/** The abort signal of one attempt (its deadline or the execution's cancellation) and the deadline as a rejection. */
function attemptDeadline(cancel: AbortSignal | undefined) {
	const deadline = deadlineFrom(Date.now());
	const controller = new AbortController();
	const abort = () => controller.abort();
	let giveUp = () => {};
	const timedOut = new Promise<never>((_, reject) => {
		giveUp = () => reject(new Error(`No complete answer within ${transportSettings.timeoutMs} ms`));
	});
	const onDeadline = () => {
		abort();
		giveUp();
	};
	deadline.addEventListener('abort', onDeadline);
	cancel?.addEventListener('abort', abort);
	if (cancel?.aborted) abort();
	const done = () => {
		deadline.removeEventListener('abort', onDeadline);
		cancel?.removeEventListener('abort', abort);
	};
	return { signal: controller.signal, timedOut, expired: () => deadline.aborted, done };
}

/**
 * One call of n8n's authenticated request helper, over after `timeoutMs` whatever the server
 * does: n8n's `timeout` only limits silence, so a response trickling byte by byte would hold
 * its in-flight slot forever. The deadline aborts the request (n8n puts the execution's
 * cancel signal in place of a request's own, so the helper is called on a view of the context
 * whose cancel signal is the attempt's, which the execution's cancellation aborts too), and
 * the attempt is given up at the deadline even if the request lingers: a network timeout
 * for the retry rules.
 */
async function exchange(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
	request: IHttpRequestOptions,
): Promise<Outcome> {
	const cancel = cancelSignalOf(ctx);
	const attempt = attemptDeadline(cancel);
	const receiver =
		'getExecutionCancelSignal' in ctx
			? Object.create(ctx, { getExecutionCancelSignal: { value: () => attempt.signal } })
			: ctx;
	try {
		const sent = ctx.helpers.httpRequestWithAuthentication.call(
			receiver,
			credential.credentialType,
			// Never follow a redirect: n8n would send the credential to wherever it points.
			{ ...request, abortSignal: attempt.signal, disableFollowRedirect: true },
		);
		return {
			kind: 'response',
			response: (await Promise.race([sent, attempt.timedOut])) as IN8nHttpFullResponse,
		};
	} catch (error) {
		// Partner OAuth2: preAuthentication refused the connection (refresh or code refused, not connected).
		const reconnect = reconnectReason(error);
		if (reconnect) return { kind: 'renewalRefused', notConnected: reconnect === 'notConnected' };
		return attempt.expired() && !cancel?.aborted
			? { kind: 'thrown', code: 'ETIMEDOUT', error }
			: classifyThrown(error);
	} finally {
		attempt.done();
	}
}

/** Resolved credentials whose tokens were read after their first exchange. */
const tokensRead = new WeakSet<ResolvedCredential>();

/** Sends the request; after a 401, asks once more so that n8n renews the token. */
export async function sendWithRenewal(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
	request: IHttpRequestOptions,
): Promise<Outcome> {
	const first = await exchange(ctx, credential, { ...request, ignoreHttpStatusErrors: true });
	// The first exchange may have fetched the API-key token: remember it, so that it is never quoted back.
	if (!tokensRead.has(credential)) {
		tokensRead.add(credential);
		await rememberSecrets(ctx, credential);
	}
	if (first.kind !== 'response' || first.response.statusCode !== 401) return first;
	// Ask again letting the 401 throw: n8n then renews the token (API key: preAuthentication;
	// OAuth2: refresh) and retries once. One renewal at a time per credential: calls that
	// got the same 401 meanwhile find the renewed token and need no renewal of their own.
	return await flowControl.exclusive(`renew:${credential.key}`, async (): Promise<Outcome> => {
		const before = await heldAccessToken(ctx, credential);
		const refreshBefore = await heldRefreshToken(ctx, credential);
		try {
			let outcome = await exchange(ctx, credential, {
				...request,
				ignoreHttpStatusErrors: false,
			});
			// Partner OAuth2 in queue mode: another worker may have spent the refresh token first
			// and saved its pair. Read the credential again after a moment; a new refresh token
			// there means the race was lost, not the connection: try once more with it.
			if (outcome.kind === 'renewalRefused' && !outcome.notConnected && refreshBefore) {
				await sleep(1500);
				const now = await heldRefreshToken(ctx, credential);
				if (now && now !== refreshBefore)
					outcome = await exchange(ctx, credential, { ...request, ignoreHttpStatusErrors: false });
			}
			if (outcome.kind !== 'thrown') return outcome;
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
			// A renewal may have brought new tokens: remember them too.
			await rememberSecrets(ctx, credential);
		}
	});
}
