/**
 * The only HTTP code of the package. Every call names an entry of the endpoint catalogue;
 * this function picks the credential the node is set to, applies the entry's company
 * scoping, keeps within the rate limit and the in-flight cap, retries what is safe to
 * retry, and turns failures into errors that say what happened and what to do.
 */
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions, JsonObject } from 'n8n-workflow';
import { resolveCredential } from './credential';
import type { ResolvedCredential, SpendeskContext } from './credential';
import { endpointOf } from './endpoints';
import type { Endpoint, EndpointRef } from './endpoints';
import { apiError, readErrorBody, renewalRefusedError } from './errors';
import { DEFAULT_MAX_IN_FLIGHT, flowControl, numberHeader, retryAfterMs } from './limiter';
import { sendWithRenewal } from './renewal';
import { applyScoping } from './scoping';
import type { CallTarget } from './scoping';

export type { SpendeskContext } from './credential';

/** Tunables of the transport; tests and benchmarks may change them. */
export const transportSettings = {
	maxInFlight: DEFAULT_MAX_IN_FLIGHT,
	/** Longest total time one call may spend waiting for rate limits and retries. */
	maxWaitMs: 120_000,
	/** Retries of a 5xx or connection failure (idempotent calls only). */
	maxRetries: 4,
	/** First backoff step; doubles each retry up to maxBackoffMs, with jitter. */
	backoffBaseMs: 500,
	maxBackoffMs: 8_000,
	/** Wait after a 429 that gives neither Retry-After nor x-ratelimit-reset. */
	defaultRateLimitWaitMs: 1_000,
	timeoutMs: 60_000,
};

const NETWORK_WORDS: Record<string, string> = {
	ECONNRESET: 'connection reset',
	EPIPE: 'connection reset',
	ECONNREFUSED: 'connection refused',
	ECONNABORTED: 'timed out',
	ETIMEDOUT: 'timed out',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host not found',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
};

export interface CallOptions extends CallTarget {
	qs?: IDataObject;
	body?: IDataObject;
	/** Answer 404 as a result instead of an error (page-based lists past their end). */
	allowNotFound?: boolean;
}

export interface CallResult<T> {
	status: number;
	headers: Record<string, unknown>;
	body: T;
}

function backoff(attempt: number): number {
	const { backoffBaseMs, maxBackoffMs } = transportSettings;
	const step = Math.min(maxBackoffMs, backoffBaseMs * 2 ** attempt);
	return Math.round(step / 2 + (Math.random() * step) / 2);
}

/** Calls one catalogue endpoint. Resolves with the response of a 2xx (or of a 404 when allowed). */
export async function callSpendesk<T = unknown>(ctx: SpendeskContext, ref: EndpointRef, options: CallOptions = {}): Promise<CallResult<T>> {
	const endpoint = endpointOf(ref);
	const credential = await resolveCredential(ctx);
	const scoped = applyScoping(ctx.getNode(), credential, endpoint, options);
	const node = ctx.getNode();
	const request: IHttpRequestOptions = {
		method: endpoint.method as IHttpRequestMethods,
		url: scoped.url,
		headers: scoped.headers,
		json: true,
		returnFullResponse: true,
		timeout: transportSettings.timeoutMs,
	};
	if (options.qs && !options.url) request.qs = dropUndefined(options.qs);
	if (endpoint.method !== 'GET') request.body = options.body ?? {};

	const started = Date.now();
	const fail = (status: number, body?: unknown) =>
		apiError(node, {
			endpoint,
			status,
			error: readErrorBody(body),
			companyId: scoped.companyId,
			level: credential.level,
			credentialName: credential.credentialName,
			itemIndex: options.itemIndex,
		});
	let retries = 0;

	for (let attempt = 0; ; attempt++) {
		const hold = flowControl.reserve(scoped.budgetKey);
		if (hold > 0) {
			if (Date.now() + hold - started > transportSettings.maxWaitMs) throw fail(429);
			await sleep(hold);
			continue;
		}
		const outcome = await flowControl.gated(credential.key, transportSettings.maxInFlight, async () => await sendWithRenewal(ctx, credential, request));
		if (outcome.kind === 'renewalRefused') {
			throw renewalRefusedError(node, { credentialName: credential.credentialName, endpoint, companyId: scoped.companyId, itemIndex: options.itemIndex });
		}

		let status: number | undefined;
		let headers: Record<string, unknown> = {};
		let body: unknown;
		if (outcome.kind === 'response') {
			status = outcome.response.statusCode;
			headers = (outcome.response.headers ?? {}) as Record<string, unknown>;
			body = outcome.response.body;
			flowControl.observe(scoped.budgetKey, headers);
			if (status >= 200 && status < 300) return { status, headers, body: body as T };
			if (status === 404 && options.allowNotFound) return { status, headers, body: body as T };
		} else {
			status = outcome.status;
			if (status === undefined && outcome.code === undefined) {
				if (outcome.error instanceof NodeApiError || outcome.error instanceof NodeOperationError) throw outcome.error;
				throw new NodeOperationError(node, (outcome.error as Error)?.message ?? String(outcome.error), { itemIndex: options.itemIndex });
			}
			if (status === 404 && options.allowNotFound) return { status, headers, body: undefined as T };
			body = (outcome.error as { context?: { data?: unknown } })?.context?.data;
		}

		let wait: number | undefined;
		if (status === 429) {
			wait = retryAfterMs(headers) ?? (numberHeader(headers, 'x-ratelimit-reset') ?? 0) * 1000;
			if (!wait) wait = transportSettings.defaultRateLimitWaitMs;
			flowControl.exhausted(scoped.budgetKey, wait);
		} else if ((status === undefined || status >= 500) && endpoint.idempotent && retries < transportSettings.maxRetries) {
			wait = backoff(retries++);
		}
		if (wait === undefined || Date.now() + wait - started > transportSettings.maxWaitMs) {
			if (status !== undefined) throw fail(status, body);
			throw unreachable(ctx, credential, endpoint, outcome.kind === 'thrown' ? outcome.code : undefined, retries, options.itemIndex);
		}
		if (status !== 429) await sleep(wait);
	}
}

function unreachable(ctx: SpendeskContext, credential: ResolvedCredential, endpoint: Endpoint, code: string | undefined, retries: number, itemIndex?: number) {
	// Not under the key `code`: NodeApiError would swap our message for its generic one for ECONNRESET & co.
	const response: JsonObject = { networkError: code ?? null, endpoint: `${endpoint.method} ${endpoint.path}` };
	// The code goes in the description: NodeApiError replaces any message that contains it.
	return new NodeApiError(ctx.getNode(), response, {
		message: `Could not reach Spendesk at ${credential.origin} for "${endpoint.label}" (${NETWORK_WORDS[code ?? ''] ?? 'connection failed'})`,
		description: `${retries ? `The node tried ${retries + 1} times. ` : endpoint.idempotent ? '' : 'This call is not safe to repeat, so it was not retried. '}Check the environment or custom base URL of the credential and the network of your n8n instance, then run the node again.${code ? ` (${code})` : ''}`,
		itemIndex,
	});
}

function dropUndefined(qs: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [k, v] of Object.entries(qs)) if (v !== undefined && v !== null && v !== '') out[k] = v;
	return out;
}
