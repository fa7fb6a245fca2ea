/**
 * One HTTP exchange through n8n's authenticated request helper, each over by its deadline, with
 * one token renewal after a 401 (n8n renews it through the credential's `preAuthentication`).
 */
import { sleep } from 'n8n-workflow';
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { readCredentialAgain, rememberSecrets } from './credential';
import type { ResolvedCredential, SpendeskContext } from './credential';
import { redirectRefusal, sendAuthenticated } from './door';
import { NETWORK_WORDS } from './errors';
import { flowControl } from './limiter';
import { approvalAddress, connectProblem } from './oauth2';
import { transportSettings } from './settings';

export type Outcome =
	| { kind: 'response'; response: IN8nHttpFullResponse }
	/** The request threw: with an HTTP status, a network error code, or neither (an error to pass on). */
	| { kind: 'thrown'; status?: number; code?: string; error: unknown; cancelled?: boolean }
	/**
	 * The OAuth2 credential must be connected (again): the token endpoint refused the refresh or
	 * a pasted code (`codeRefused`: possibly exchanged first by another n8n process), or nothing
	 * is connected yet; `approvalAddress` is a new approval link, when the fields give one.
	 */
	| {
			kind: 'renewalRefused';
			notConnected?: boolean;
			codeRefused?: boolean;
			detail?: string;
			approvalAddress?: string;
	  }
	/** A redirect, never followed: of the API call, or (`via` naming it) of the token call made first. */
	| { kind: 'redirected'; status: number; target: string; via?: string };

/** An error thrown by n8n's request helper: its HTTP status, or its network error code. */
function classifyThrown(error: unknown): Outcome {
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
		(c): c is string => typeof c === 'string' && Object.hasOwn(NETWORK_WORDS, c),
	);
	if (code) return { kind: 'thrown', code, error };
	if (
		typeof e?.message === 'string' &&
		/socket hang up|ECONNRESET|network|timeout/i.test(e.message)
	)
		return { kind: 'thrown', code: 'ECONNRESET', error };
	return { kind: 'thrown', error };
}

async function heldRefreshToken(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
): Promise<string | undefined> {
	if (credential.credentialType !== 'spendeskOAuth2Api') return undefined;
	const token = (await readCredentialAgain(ctx, credential))?.refreshToken;
	return typeof token === 'string' && token ? token : undefined;
}

/**
 * The deadline shared by the attempts that start within one slot (a twentieth of the timeout, at
 * most a second): each is given `timeoutMs` to `timeoutMs` + the slot. A signal per attempt left
 * about 3 KB of garbage each: 6 % more peak memory in a drain (docs/performance.md).
 */
interface SharedDeadline {
	timeoutMs: number;
	until: number;
	signal: AbortSignal;
	/** For each execution's cancel signal, the signal aborted by it or by the deadline. */
	joined: WeakMap<AbortSignal, AbortSignal>;
	/** The attempts still waiting for their answer, given up at the deadline. */
	waiting: Set<(error: Error) => void>;
}

let shared: SharedDeadline | undefined;

function sharedDeadline(now: number): SharedDeadline {
	const { timeoutMs } = transportSettings;
	if (shared?.timeoutMs === timeoutMs && now < shared.until) return shared;
	const slot = Math.max(1, Math.min(1000, Math.ceil(timeoutMs / 20)));
	const next: SharedDeadline = {
		timeoutMs,
		until: now + slot,
		signal: AbortSignal.timeout(timeoutMs + slot),
		joined: new WeakMap(),
		waiting: new Set(),
	};
	next.signal.addEventListener('abort', () => {
		const late = new Error(`No complete answer within ${timeoutMs} ms`);
		for (const giveUp of next.waiting) giveUp(late);
	});
	return (shared = next);
}

/** n8n puts the execution's cancel signal in place of a request's own: a view whose signal is the attempt's. */
function attemptView(ctx: SpendeskContext, signal: AbortSignal): SpendeskContext {
	return new Proxy(ctx, {
		get: (target, key, proxy) =>
			key === 'getExecutionCancelSignal'
				? () => signal
				: (Reflect.get(target, key, proxy) as unknown),
	});
}

/**
 * One call of n8n's authenticated request helper, given up at its deadline even if the request
 * lingers (n8n's `timeout` only limits silence): a network timeout for the retry rules.
 */
async function exchange(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
	request: IHttpRequestOptions,
	ignoreHttpStatusErrors: boolean,
): Promise<Outcome> {
	const getCancel = (ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined })
		.getExecutionCancelSignal;
	const cancel = typeof getCancel === 'function' ? getCancel.call(ctx) : undefined;
	const deadline = sharedDeadline(Date.now());
	let signal = deadline.signal;
	if (cancel) {
		signal = deadline.joined.get(cancel) ?? AbortSignal.any([signal, cancel]);
		deadline.joined.set(cancel, signal);
	}
	const receiver = 'getExecutionCancelSignal' in ctx ? attemptView(ctx, signal) : ctx;
	// The attempt's own copy of the options (n8n writes to them).
	const options: IHttpRequestOptions = { ...request, ignoreHttpStatusErrors, abortSignal: signal };
	try {
		const sent = sendAuthenticated(receiver, credential.credentialType, options);
		const response = await new Promise<Awaited<typeof sent>>((resolve, reject) => {
			deadline.waiting.add(reject);
			void sent.then(resolve, reject).then(() => deadline.waiting.delete(reject));
		});
		return { kind: 'response', response };
	} catch (error) {
		const redirect = redirectRefusal(error);
		if (redirect)
			return {
				kind: 'redirected',
				status: redirect.status,
				target: redirect.target,
				via: redirect.what,
			};
		// OAuth2: preAuthentication asks for a connection (refresh or code refused, not connected).
		const problem = connectProblem(error);
		if (problem) {
			const data = await readCredentialAgain(ctx, credential);
			return {
				kind: 'renewalRefused',
				notConnected: problem.reason !== 'refused',
				codeRefused: problem.reason === 'codeRefused',
				detail: problem.detail,
				approvalAddress: data && approvalAddress(data),
			};
		}
		if (cancel?.aborted) return { kind: 'thrown', error, cancelled: true };
		return deadline.signal.aborted
			? { kind: 'thrown', code: 'ETIMEDOUT', error }
			: classifyThrown(error);
	}
}

/** How long a call that lost a race for an OAuth2 grant waits before reading the credential again. */
const RACE_WAIT_MS = 1500;

/**
 * OAuth2 in queue mode: a pasted code is exchanged by whichever process runs first, and the
 * others are refused. When the credential, read again, holds the connection the winner saved,
 * the race was lost, not the connection: `retry` once with it.
 */
async function afterLostExchange(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
	outcome: Outcome,
	retry: () => Promise<Outcome>,
): Promise<Outcome> {
	if (outcome.kind !== 'renewalRefused' || !outcome.codeRefused) return outcome;
	await sleep(RACE_WAIT_MS);
	const data = await readCredentialAgain(ctx, credential);
	const pasted =
		typeof data?.authorizationResponse === 'string' && data.authorizationResponse.trim();
	const refresh = typeof data?.refreshToken === 'string' && data.refreshToken;
	const connected = !!data && !pasted && data.connectAgain !== true && !!refresh;
	return connected ? await retry() : outcome;
}

const tokensRead = new WeakSet<ResolvedCredential>();

/** Sends the request; after a 401, asks once more so that n8n renews the token. */
export async function sendWithRenewal(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
	request: IHttpRequestOptions,
): Promise<Outcome> {
	const send = () => exchange(ctx, credential, request, true);
	const first = await afterLostExchange(ctx, credential, await send(), send);
	// The first exchange may have fetched the API-key token: remember it, so that it is never quoted back.
	if (!tokensRead.has(credential)) {
		tokensRead.add(credential);
		await rememberSecrets(ctx, credential);
	}
	if (first.kind !== 'response' || first.response.statusCode !== 401) return first;
	// Ask again letting the 401 throw: n8n then renews the token (a new API-key token, or the
	// OAuth2 refresh) and retries once. One renewal at a time per credential: calls that got the
	// same 401 meanwhile find the renewed token and need no renewal of their own.
	return await flowControl.exclusive(`renew:${credential.key}`, async (): Promise<Outcome> => {
		const refreshBefore = await heldRefreshToken(ctx, credential);
		const again = async () => await exchange(ctx, credential, request, false);
		try {
			let outcome = await again();
			// OAuth2 in queue mode: another worker may have spent the refresh token first and saved
			// its pair: a new refresh token after a moment means the race was lost, not the connection.
			if (outcome.kind === 'renewalRefused' && !outcome.notConnected && refreshBefore) {
				await sleep(RACE_WAIT_MS);
				const now = await heldRefreshToken(ctx, credential);
				if (now && now !== refreshBefore) outcome = await again();
			}
			// The same for a pasted code another worker exchanged first.
			return await afterLostExchange(ctx, credential, outcome, again);
		} finally {
			// A renewal may have brought new tokens: remember them too.
			await rememberSecrets(ctx, credential);
		}
	});
}
