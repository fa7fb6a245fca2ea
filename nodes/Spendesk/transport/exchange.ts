/**
 * One HTTP exchange through n8n's authenticated request helper, with one token renewal
 * after a 401, each request over by its deadline.
 *
 * Tokens are n8n's business: each credential fetches its token in `preAuthentication` into
 * hidden fields (API key: a new token; OAuth2: the code exchange or the refresh), and n8n
 * renews it after a thrown 401. An OAuth2 connection that must be made (again) is told apart
 * from the API's answer to the retried call.
 */
import { sleep } from 'n8n-workflow';
import type { IHttpRequestOptions } from 'n8n-workflow';
import { rememberSecrets } from './credential';
import type { ResolvedCredential, SpendeskContext } from './credential';
import { redirectRefusal, sendAuthenticated } from './door';
import { flowControl } from './limiter';
import { approvalAddress, connectProblem } from './oauth2';
import { classifyThrown } from './outcome';
import type { Outcome } from './outcome';
import { transportSettings } from './settings';

/** The OAuth2 refresh token stored now (undefined for other credentials or when unreadable). */
async function heldRefreshToken(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
): Promise<string | undefined> {
	if (credential.credentialType !== 'spendeskOAuth2Api') return undefined;
	try {
		const token = (await ctx.getCredentials(credential.credentialType)).refreshToken;
		return typeof token === 'string' && token ? token : undefined;
	} catch {
		return undefined;
	}
}

/** A new approval link for the OAuth2 credential (undefined when its fields cannot give one). */
async function newApprovalAddress(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
): Promise<string | undefined> {
	try {
		return approvalAddress(await ctx.getCredentials(credential.credentialType));
	} catch {
		return undefined;
	}
}

/** The execution's cancel signal, when the context has one (node executions do, polls do not). */
export function cancelSignalOf(ctx: SpendeskContext): AbortSignal | undefined {
	const get = (ctx as { getExecutionCancelSignal?: () => AbortSignal | undefined })
		.getExecutionCancelSignal;
	return typeof get === 'function' ? get.call(ctx) : undefined;
}

/**
 * The deadline shared by the attempts that start within one grain of time (a twentieth of the
 * timeout, at most a second), which expires `timeoutMs` after the grain ends: each attempt is
 * given between `timeoutMs` and `timeoutMs` + the grain. An abort signal of its own for every
 * attempt left about 3 KB of garbage each: 6 % more peak memory in a drain (docs/performance.md).
 */
interface Grain {
	timeoutMs: number;
	until: number;
	deadline: AbortSignal;
	/** For each execution's cancel signal, the signal aborted by it or by the deadline. */
	joined: WeakMap<AbortSignal, AbortSignal>;
	/** How to give up each attempt still waiting for its answer at the deadline. */
	waiting: Set<(error: Error) => void>;
}

let grain: Grain | undefined;

function grainAt(now: number): Grain {
	const { timeoutMs } = transportSettings;
	if (grain?.timeoutMs === timeoutMs && now < grain.until) return grain;
	const size = Math.max(1, Math.min(1000, Math.ceil(timeoutMs / 20)));
	const deadline = AbortSignal.timeout(timeoutMs + size);
	const next: Grain = {
		timeoutMs,
		until: now + size,
		deadline,
		joined: new WeakMap(),
		waiting: new Set(),
	};
	deadline.addEventListener('abort', () => {
		const late = new Error(`No complete answer within ${timeoutMs} ms`);
		for (const giveUp of next.waiting) giveUp(late);
	});
	return (grain = next);
}

/**
 * n8n puts the execution's cancel signal in place of a request's own, so the helper is called
 * on a view of the context whose cancel signal is the attempt's.
 */
function attemptView(ctx: SpendeskContext, signal: AbortSignal): SpendeskContext {
	return new Proxy(ctx, {
		get: (target, key, receiver) =>
			key === 'getExecutionCancelSignal'
				? () => signal
				: (Reflect.get(target, key, receiver) as unknown),
	});
}

/**
 * One call of n8n's authenticated request helper, over after `timeoutMs` whatever the server
 * does: n8n's `timeout` only limits silence, so a response trickling byte by byte would hold
 * its in-flight slot forever. The deadline aborts the request (through the attempt's signal,
 * which the execution's cancellation aborts too), and the attempt is given up at the
 * deadline even if the request lingers: a network timeout for the retry rules.
 */
async function exchange(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
	request: IHttpRequestOptions,
	ignoreHttpStatusErrors: boolean,
): Promise<Outcome> {
	const cancel = cancelSignalOf(ctx);
	const { deadline, joined, waiting } = grainAt(Date.now());
	// The attempt's signal: aborted at the deadline, or when the execution is cancelled.
	let signal = deadline;
	if (cancel) {
		signal = joined.get(cancel) ?? AbortSignal.any([deadline, cancel]);
		joined.set(cancel, signal);
	}
	const receiver = 'getExecutionCancelSignal' in ctx ? attemptView(ctx, signal) : ctx;
	// The attempt's own copy of the options (n8n writes to them).
	const options: IHttpRequestOptions = { ...request, ignoreHttpStatusErrors, abortSignal: signal };
	try {
		// Through the one door: a redirect is never followed (transport/door.ts).
		const sent = sendAuthenticated(receiver, credential.credentialType, options);
		// Given up at the deadline even if the request lingers.
		const response = await new Promise<Awaited<typeof sent>>((resolve, reject) => {
			waiting.add(reject);
			void sent.then(resolve, reject).then(() => waiting.delete(reject));
		});
		return { kind: 'response', response };
	} catch (error) {
		// A redirect refused: of the API call, or of the token call n8n made first (`via`).
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
		if (problem)
			return {
				kind: 'renewalRefused',
				notConnected: problem.reason !== 'refused',
				codeRefused: problem.reason === 'codeRefused',
				detail: problem.detail,
				approvalAddress: await newApprovalAddress(ctx, credential),
			};
		if (cancel?.aborted) return { kind: 'thrown', error, cancelled: true };
		return deadline.aborted ? { kind: 'thrown', code: 'ETIMEDOUT', error } : classifyThrown(error);
	}
}

/**
 * How long a call that lost a race for an OAuth2 grant waits before it reads the credential
 * again: in queue mode, the n8n process that won saves its tokens meanwhile.
 */
const RACE_WAIT_MS = 1500;

/**
 * Whether the OAuth2 credential, read again after a moment, holds a connection saved by another
 * n8n process: no pasted answer waiting, Connect Again off, a refresh token.
 */
async function connectedElsewhere(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
): Promise<boolean> {
	await sleep(RACE_WAIT_MS);
	try {
		const data = await ctx.getCredentials(credential.credentialType);
		const pasted =
			typeof data.authorizationResponse === 'string' && data.authorizationResponse.trim();
		const refresh = typeof data.refreshToken === 'string' && data.refreshToken;
		return !pasted && data.connectAgain !== true && !!refresh;
	} catch {
		return false;
	}
}

/**
 * OAuth2 in queue mode: a freshly pasted code is exchanged by whichever process runs first,
 * and the others' exchange of the same code is refused (a code works once). When the code was
 * refused and the credential, read again, holds the connection the winner saved, the race was
 * lost, not the connection: the call is made once more with it (`retry`).
 */
async function afterLostExchange(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
	outcome: Outcome,
	retry: () => Promise<Outcome>,
): Promise<Outcome> {
	if (outcome.kind !== 'renewalRefused' || !outcome.codeRefused) return outcome;
	return (await connectedElsewhere(ctx, credential)) ? await retry() : outcome;
}

/** Resolved credentials whose tokens were read after their first exchange. */
const tokensRead = new WeakSet<ResolvedCredential>();

/** Sends the request; after a 401, asks once more so that n8n renews the token. */
export async function sendWithRenewal(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
	request: IHttpRequestOptions,
): Promise<Outcome> {
	const first = await afterLostExchange(
		ctx,
		credential,
		await exchange(ctx, credential, request, true),
		async () => await exchange(ctx, credential, request, true),
	);
	// The first exchange may have fetched the API-key token: remember it, so that it is never quoted back.
	if (!tokensRead.has(credential)) {
		tokensRead.add(credential);
		await rememberSecrets(ctx, credential);
	}
	if (first.kind !== 'response' || first.response.statusCode !== 401) return first;
	// Ask again letting the 401 throw: n8n then renews the token (preAuthentication: a new
	// API-key token, or the OAuth2 refresh) and retries once. One renewal at a time per
	// credential: calls that got the same 401 meanwhile find the renewed token and need no
	// renewal of their own.
	return await flowControl.exclusive(`renew:${credential.key}`, async (): Promise<Outcome> => {
		const refreshBefore = await heldRefreshToken(ctx, credential);
		try {
			const again = async () => await exchange(ctx, credential, request, false);
			let outcome = await again();
			// OAuth2 in queue mode: another worker may have spent the refresh token first and
			// saved its pair. Read the credential again after a moment; a new refresh token there
			// means the race was lost, not the connection: try once more with it.
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
