/** Every Spendesk call: credential, company placement, rate budget and in-flight cap, retries, errors. */
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import type { CallOptions, CallResult } from './call';
import { callName } from './callName';
import { credentialSecrets, resolveCredential } from './credential';
import type { ResolvedCredential, SpendeskContext } from './credential';
import { noteDeprecation } from './deprecation';
import { endpointForLevel } from './endpoints';
import type { Endpoint, EndpointRef } from './endpoints';
import {
	apiError,
	rateLimitWaitError,
	readErrorBody,
	redirectError,
	renewalRefusedError,
	unexpectedBodyError,
	unreachableError,
} from './errors';
import type { CallFacts } from './errors';
import { sendWithRenewal } from './exchange';
import type { Outcome } from './exchange';
import { flowControl, numberHeader, refusedInFlight, retryAfterMs } from './limiter';
import { needsOwnCompany, ownCompanyOf } from './ownCompany';
import { applyPlacement } from './placement';
import { transportSettings } from './settings';

export type { SpendeskContext } from './credential';

interface Call extends CallFacts {
	readonly ctx: SpendeskContext;
	readonly credential: ResolvedCredential;
	readonly budgetKey: string;
	readonly options: CallOptions;
	/** All the call's waits together stay within maxWaitMs from here. */
	readonly started: number;
	/** After a 5xx or a connection failure. */
	retries: number;
}

/** An attempt that did not give the result: an HTTP status, or a network error code. */
interface Failure {
	failed: true;
	status?: number;
	headers?: Record<string, unknown>;
	body?: unknown;
	code?: string;
}

/**
 * Calls one catalogue endpoint (or, with `url`, a link the API gave on the same path). Fails
 * before any request when the call cannot be made; resolves with a 2xx (or an accepted status).
 */
export async function callSpendesk<T = unknown>(
	ctx: SpendeskContext,
	ref: EndpointRef,
	options: CallOptions = {},
): Promise<CallResult<T>> {
	const { endpoint, credential } = await resolveEndpoint(ctx, ref);
	const name = callName(ctx, options);
	// A company in the path with a company-level credential and no Company ID: looked up once
	// per execution, for this path only (docs/api.md#the-companys-own-id).
	const company = needsOwnCompany(credential, endpoint, options.company)
		? await ownCompanyOf(ctx, credential, endpoint, name, callSpendesk, options.itemIndex)
		: options.company;
	const placed = applyPlacement(ctx.getNode(), credential, endpoint, name, { ...options, company });
	const request = httpRequest(endpoint, placed, options);
	const call: Call = {
		ctx,
		endpoint,
		name,
		companyId: placed.companyId,
		itemIndex: options.itemIndex,
		credential,
		budgetKey: placed.budgetKey,
		options,
		started: Date.now(),
		retries: 0,
	};
	// Who waits for in-flight slots: the execution, else the context itself.
	const executionId = (ctx as { getExecutionId?: () => unknown }).getExecutionId?.call(ctx);
	const owner = typeof executionId === 'string' && executionId ? executionId : ctx;
	for (;;) {
		const hold = flowControl.reserve(call.budgetKey);
		if (hold > 0) {
			await waitWithin(call, hold, () => rateLimitError(call, hold));
			continue;
		}
		let attempt: CallResult<unknown> | Failure;
		try {
			const outcome = await flowControl.gated(
				credential.key,
				transportSettings.maxInFlight,
				owner,
				() => sendWithRenewal(ctx, credential, request),
			);
			attempt = readOutcome(call, outcome);
		} finally {
			flowControl.answered(call.budgetKey);
		}
		if (!('failed' in attempt)) {
			noteDeprecation(ctx, endpoint, name, attempt.headers);
			options.onHeaders?.(attempt.headers);
			return attempt as CallResult<T>;
		}
		await waitBeforeRetry(call, attempt);
	}
}

/** The entry the credential's level calls: a company-level credential calls the documented v1 one (`companyLevel`). */
export async function resolveEndpoint(
	ctx: SpendeskContext,
	ref: EndpointRef,
): Promise<{ endpoint: Endpoint; credential: ResolvedCredential }> {
	const credential = await resolveCredential(ctx);
	return { endpoint: endpointForLevel(ref, credential.level), credential };
}

/** The request of a call: its placement, the query without empty values, a file endpoint's bytes. */
function httpRequest(
	endpoint: Endpoint,
	placed: { url: string; headers: Record<string, string> },
	options: CallOptions,
): IHttpRequestOptions {
	const request: IHttpRequestOptions = {
		method: endpoint.method as IHttpRequestMethods,
		url: placed.url,
		headers: placed.headers,
		json: true,
		returnFullResponse: true,
		timeout: transportSettings.timeoutMs,
	};
	if (options.qs && !options.url) {
		request.qs = Object.fromEntries(
			Object.entries(options.qs).filter(([, v]) => v !== undefined && v !== null && v !== ''),
		) as IDataObject;
		// A list goes as the parameter repeated, once per value (docs/api.md#filters); n8n would
		// otherwise write `state[0]=…&state[1]=…`.
		request.arrayFormat = 'repeat';
	}
	if (endpoint.method !== 'GET') request.body = options.body ?? {};
	if (endpoint.contentType) {
		// A file endpoint: its bytes as they come (errors are still the API's JSON body).
		request.json = false;
		request.encoding = 'arraybuffer';
		request.headers = {
			...placed.headers,
			accept: `${endpoint.contentType}, application/json;q=0.5`,
		};
	}
	return request;
}

/** A status other than 2xx that is a result for this call. */
const accepted = ({ options }: Call, status: number): boolean =>
	(status === 404 && options.allowNotFound === true) ||
	options.acceptStatus?.includes(status) === true;

/** A 2xx (or a status accepted) is the result; any other answer is a failure for the retry rules. */
function readOutcome(call: Call, outcome: Outcome): CallResult<unknown> | Failure {
	const node = call.ctx.getNode();
	if (outcome.kind === 'renewalRefused')
		throw renewalRefusedError(node, {
			...call,
			...outcome,
			credentialName: call.credential.credentialName,
		});
	if (outcome.kind === 'redirected') throw redirectError(node, { ...call, ...outcome });
	if (outcome.kind === 'thrown') {
		const { status, code, error } = outcome;
		if (outcome.cancelled)
			throw new NodeOperationError(
				node,
				`The execution was cancelled while ${call.name} waited for Spendesk`,
				{
					description:
						'The request was stopped and its connection closed. A read can simply be run again; after a write, check in Spendesk whether it was applied before running it again.',
					itemIndex: call.itemIndex,
				},
			);
		if (status === undefined && code === undefined) {
			if (error instanceof NodeApiError || error instanceof NodeOperationError) throw error;
			throw new NodeOperationError(node, (error as Error)?.message ?? String(error), {
				description: `${call.name} stopped before Spendesk answered. Run the node again; if it persists, check the credential and the network between n8n and Spendesk.`,
				itemIndex: call.itemIndex,
			});
		}
		if (status !== undefined && accepted(call, status))
			return { status, headers: {}, body: undefined };
		const data = (error as { context?: { data?: unknown } })?.context?.data;
		return { failed: true, status, body: textOf(data), code };
	}
	const status = outcome.response.statusCode;
	const headers = (outcome.response.headers ?? {}) as Record<string, unknown>;
	const body: unknown = outcome.response.body;
	flowControl.observe(call.budgetKey, headers, transportSettings.longestRememberedWaitMs);
	if (status >= 200 && status < 300)
		return { status, headers, body: readBody(call, status, headers, body) };
	if (accepted(call, status)) return { status, headers, body };
	return { failed: true, status, headers, body: textOf(body) };
}

/** A body received as bytes (file endpoints), else undefined. */
const bytesOf = (body: unknown): Buffer | undefined =>
	Buffer.isBuffer(body) ? body : body instanceof ArrayBuffer ? Buffer.from(body) : undefined;

/** A body received as bytes as text, for the error rules; anything else as it is. */
const textOf = (body: unknown): unknown => bytesOf(body)?.toString('utf8') ?? body;

/**
 * The body of a 2xx: a file endpoint's bytes when the answer is of its type, else the JSON
 * object or list; anything else is an error naming what came, never items made of characters.
 */
function readBody(call: Call, status: number, headers: Record<string, unknown>, body: unknown) {
	const contentType =
		typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined;
	const expected = call.endpoint.contentType;
	if (expected) {
		const type = contentType?.split(';')[0].trim().toLowerCase();
		const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : bytesOf(body);
		if (bytes && (type === expected || (expected === 'text/csv' && type === 'application/csv')))
			return bytes;
	} else {
		if (body !== null && typeof body === 'object') return body;
		if (typeof body === 'string' && /^\s*[[{]/.test(body)) {
			try {
				return JSON.parse(body) as unknown;
			} catch {
				// not JSON after all: the error below
			}
		}
		if ((body === undefined || body === null || body === '') && call.endpoint.mayAnswerEmpty)
			return {};
	}
	throw unexpectedBodyError(call.ctx.getNode(), { ...call, status, body, contentType, expected });
}

/**
 * After a 429 for the rate, the budget is spent for every call; after a 429 for too many in
 * flight, only this request waits. A 5xx or a connection failure of an idempotent call backs
 * off, up to maxRetries. Anything else, or a wait past maxWaitMs, ends the call.
 */
async function waitBeforeRetry(call: Call, failure: Failure): Promise<void> {
	const { maxRetries, longestRememberedWaitMs, backoffBaseMs, maxBackoffMs } = transportSettings;
	if (failure.status === 429) {
		const headers = failure.headers ?? {};
		// Retry-After, else x-ratelimit-reset, else the default; never shorter than the minimum, so
		// that a fractional or zero wait ("0.001") cannot make a request storm.
		const asked = retryAfterMs(headers) ?? (numberHeader(headers, 'x-ratelimit-reset') ?? 0) * 1000;
		const wait = Math.max(
			asked || transportSettings.defaultRateLimitWaitMs,
			transportSettings.minRateLimitWaitMs,
		);
		// A wait past longestRememberedWaitMs is not remembered: a server asking for days blocks no later call.
		if (!refusedInFlight(429, failure.headers))
			flowControl.exhausted(call.budgetKey, wait, longestRememberedWaitMs);
		await waitWithin(call, wait, () => rateLimitError(call, wait));
		return;
	}
	const retryable = failure.status === undefined || failure.status >= 500;
	if (!retryable || !call.endpoint.idempotent || call.retries >= maxRetries)
		throw failureError(call, failure);
	const step = Math.min(maxBackoffMs, backoffBaseMs * 2 ** call.retries++);
	const wait = Math.round(step / 2 + (Math.random() * step) / 2);
	await waitWithin(call, wait, () => failureError(call, failure));
}

/** Sleeps `ms`, unless the call would then have waited longer than maxWaitMs: then throws `error()`. */
async function waitWithin(call: Call, ms: number, error: () => Error): Promise<void> {
	if (Date.now() + ms - call.started > transportSettings.maxWaitMs) throw error();
	await sleep(ms);
}

function rateLimitError(call: Call, waitMs: number): NodeApiError {
	const { maxWaitMs } = transportSettings;
	return rateLimitWaitError(call.ctx.getNode(), { ...call, waitMs, maxWaitMs });
}

function failureError(call: Call, failure: Failure): NodeApiError {
	const { ctx, credential, options } = call;
	if (failure.status === undefined)
		return unreachableError(ctx.getNode(), {
			...call,
			origin: credential.origin,
			code: failure.code,
		});
	return apiError(ctx.getNode(), {
		...call,
		status: failure.status,
		error: readErrorBody(failure.body),
		level: credential.level,
		credentialName: credential.credentialName,
		secrets: [...credentialSecrets(credential), ...(options.secrets ?? [])],
	});
}
