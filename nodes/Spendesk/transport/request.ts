/**
 * Every Spendesk call of the package goes through `callSpendesk`. A call names an entry of
 * the endpoint catalogue; `callSpendesk` resolves the credential the node is set to,
 * applies the entry's company placement, keeps within the rate budget and the in-flight cap,
 * retries what is safe to retry, and turns failures into errors that say what happened and
 * what to do.
 */
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { callName } from './callName';
import type { CallName } from './callName';
import { credentialSecrets, resolveCredential } from './credential';
import type { ResolvedCredential, SpendeskContext } from './credential';
import { noteDeprecation } from './deprecation';
import { endpointForLevel } from './endpoints';
import type { Endpoint, EndpointRef } from './endpoints';
import {
	apiError,
	notFileError,
	notJsonError,
	redirectError,
	rateLimitWaitError,
	readErrorBody,
	renewalRefusedError,
	unreachableError,
} from './errors';
import { flowControl, numberHeader, refusedInFlight, retryAfterMs } from './limiter';
import type { Outcome, Thrown } from './outcome';
import { sendWithRenewal } from './exchange';
import { needsOwnCompany, ownCompanyOf } from './ownCompany';
import { applyPlacement } from './placement';
import type { PlacedCall } from './placement';
import type { CallOptions, CallResult } from './call';
import { transportSettings } from './settings';

export type { SpendeskContext } from './credential';
export type { CallOptions, CallResult } from './call';

/** One call in progress: what the steps of the loop read. */
interface Call {
	readonly ctx: SpendeskContext;
	readonly endpoint: Endpoint;
	/** What the user chose, as messages name the call (transport/callName.ts). */
	readonly name: CallName;
	readonly credential: ResolvedCredential;
	readonly placed: PlacedCall;
	readonly options: CallOptions;
	/** When the call started: all its waits together stay within transportSettings.maxWaitMs. */
	readonly started: number;
	/** Retries made so far after a 5xx or a connection failure. */
	retries: number;
}

/** An attempt that did not give the result: an HTTP status, or a network error code. */
interface Failure {
	status?: number;
	/** The answer's headers; none when the request threw. */
	headers?: Record<string, unknown>;
	body?: unknown;
	code?: string;
}

type Attempt = { result: CallResult<unknown> } | { failure: Failure };

/**
 * Calls one catalogue endpoint (or, with `url`, a link the API gave on the same path):
 * within the rate budget and the in-flight cap, retrying what is safe to retry. Fails before
 * any request when the call cannot be made. Resolves with the response of a 2xx (or of a 404
 * when allowed).
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
	const qs = options.url ? undefined : options.qs;
	const request = httpRequest(endpoint, placed, qs, options.body);
	const call: Call = {
		ctx,
		endpoint,
		name,
		credential,
		placed,
		options,
		started: Date.now(),
		retries: 0,
	};
	const owner = executionOf(ctx);
	for (;;) {
		const hold = flowControl.reserve(placed.budgetKey);
		if (hold > 0) {
			// The rate budget is spent: wait for the reset.
			await waitWithin(call, hold, () => rateLimitError(call, hold));
			continue;
		}
		let attempt: Attempt;
		try {
			const outcome = await flowControl.gated(
				credential.key,
				transportSettings.maxInFlight,
				owner,
				() => sendWithRenewal(ctx, credential, request),
			);
			attempt = readOutcome(call, outcome);
		} finally {
			flowControl.answered(placed.budgetKey);
		}
		if ('result' in attempt) {
			noteDeprecation(ctx, endpoint, name, attempt.result.headers);
			options.onHeaders?.(attempt.result.headers);
			return attempt.result as CallResult<T>;
		}
		await waitBeforeRetry(call, attempt.failure);
	}
}

/**
 * The endpoint a call goes to with the credential the node is set to: a company-level
 * credential calls the documented v1 entry where the catalogue names one (`companyLevel`).
 * Lists resolve it before choosing their pagination style, so style, page size, placement
 * and scope all follow the entry called.
 */
export async function resolveEndpoint(
	ctx: SpendeskContext,
	ref: EndpointRef,
): Promise<{ endpoint: Endpoint; credential: ResolvedCredential }> {
	const credential = await resolveCredential(ctx);
	return { endpoint: endpointForLevel(ref, credential.level), credential };
}

/** Who waits for in-flight slots: the execution (its id), else the context itself. */
function executionOf(ctx: SpendeskContext): unknown {
	const get = (ctx as { getExecutionId?: () => unknown }).getExecutionId;
	const id = typeof get === 'function' ? get.call(ctx) : undefined;
	return typeof id === 'string' && id ? id : ctx;
}

function httpRequest(
	endpoint: Endpoint,
	placed: PlacedCall,
	qs: IDataObject | undefined,
	body: CallOptions['body'],
): IHttpRequestOptions {
	const request: IHttpRequestOptions = {
		method: endpoint.method as IHttpRequestMethods,
		url: placed.url,
		headers: placed.headers,
		json: true,
		returnFullResponse: true,
		timeout: transportSettings.timeoutMs,
	};
	if (qs) {
		request.qs = dropUndefined(qs);
		// A list goes as the parameter repeated, once per value (docs/api.md#filters); n8n would
		// otherwise write `state[0]=…&state[1]=…`. Single values are written the same either way.
		request.arrayFormat = 'repeat';
	}
	if (endpoint.method !== 'GET') request.body = body ?? {};
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

/** A 2xx (or an allowed 404) is the result; any other answer is a failure for the retry rules. */
function readOutcome(call: Call, outcome: Outcome): Attempt {
	const { ctx, endpoint, name, credential, placed, options } = call;
	if (outcome.kind === 'renewalRefused') {
		throw renewalRefusedError(ctx.getNode(), {
			credentialName: credential.credentialName,
			notConnected: outcome.notConnected,
			detail: outcome.detail,
			approvalAddress: outcome.approvalAddress,
			endpoint,
			name,
			companyId: placed.companyId,
			itemIndex: options.itemIndex,
		});
	}
	if (outcome.kind === 'redirected') throw redirectOf(call, outcome);
	if (outcome.kind === 'thrown') return readThrown(call, outcome);
	const status = outcome.response.statusCode;
	const headers = (outcome.response.headers ?? {}) as Record<string, unknown>;
	const body: unknown = outcome.response.body;
	flowControl.observe(placed.budgetKey, headers, transportSettings.longestRememberedWaitMs);
	if (status >= 200 && status < 300) {
		const read = call.endpoint.contentType
			? fileBody(call, status, headers, body)
			: jsonBody(call, status, headers, body);
		return { result: { status, headers, body: read } };
	}
	if ((status === 404 && options.allowNotFound) || options.acceptStatus?.includes(status))
		return { result: { status, headers, body } };
	return { failure: { status, headers, body: textOf(body) } };
}

/** A 3xx from the API or its token endpoint (never followed): the error naming where it pointed. */
function redirectOf(call: Call, redirect: Extract<Outcome, { kind: 'redirected' }>): NodeApiError {
	return redirectError(call.ctx.getNode(), {
		endpoint: call.endpoint,
		name: call.name,
		status: redirect.status,
		target: redirect.target,
		via: redirect.via,
		companyId: call.placed.companyId,
		itemIndex: call.options.itemIndex,
	});
}

/** A body received as bytes (file endpoints) as text, for the error rules; anything else as it is. */
function textOf(body: unknown): unknown {
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	return body;
}

/**
 * The file of a 2xx of a file endpoint, as bytes: the answer must say it is of the endpoint's
 * type (text/csv also as application/csv); anything else (a proxy's HTML page, JSON) is an
 * error naming the endpoint and what came, as for JSON endpoints.
 */
function fileBody(
	call: Call,
	status: number,
	headers: Record<string, unknown>,
	body: unknown,
): Buffer {
	const contentType =
		typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined;
	const type = contentType?.split(';')[0].trim().toLowerCase();
	const expected = call.endpoint.contentType!;
	const accepted = type === expected || (expected === 'text/csv' && type === 'application/csv');
	const bytes = Buffer.isBuffer(body)
		? body
		: body instanceof ArrayBuffer
			? Buffer.from(body)
			: typeof body === 'string'
				? Buffer.from(body, 'utf8')
				: undefined;
	if (accepted && bytes) return bytes;
	throw notFileError(call.ctx.getNode(), {
		endpoint: call.endpoint,
		name: call.name,
		status,
		expected,
		contentType,
		companyId: call.placed.companyId,
		itemIndex: call.options.itemIndex,
	});
}

/**
 * The JSON object or list of a 2xx. Anything else (an HTML page from a proxy, no content)
 * is an error naming the endpoint and what came, never items made of characters; only an
 * endpoint that may answer with no content (a Custom API Call other than GET) gets `{}`.
 */
function jsonBody(
	call: Call,
	status: number,
	headers: Record<string, unknown>,
	body: unknown,
): unknown {
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
	const contentType = headers['content-type'];
	throw notJsonError(call.ctx.getNode(), {
		endpoint: call.endpoint,
		name: call.name,
		status,
		body,
		contentType: typeof contentType === 'string' ? contentType : undefined,
		companyId: call.placed.companyId,
		itemIndex: call.options.itemIndex,
	});
}

/** A thrown request: an HTTP status or a network failure, or else an error passed on as it is. */
function readThrown(call: Call, thrown: Thrown): Attempt {
	const { status, code, error } = thrown;
	if (thrown.cancelled) {
		throw new NodeOperationError(
			call.ctx.getNode(),
			`The execution was cancelled while ${call.name} waited for Spendesk`,
			{
				description:
					'The request was stopped and its connection closed. A read can simply be run again; after a write, check in Spendesk whether it was applied before running it again.',
				itemIndex: call.options.itemIndex,
			},
		);
	}
	if (status === undefined && code === undefined) {
		if (error instanceof NodeApiError || error instanceof NodeOperationError) throw error;
		throw new NodeOperationError(call.ctx.getNode(), (error as Error)?.message ?? String(error), {
			description: `${call.name} stopped before Spendesk answered. Run the node again; if it persists, check the credential and the network between n8n and Spendesk.`,
			itemIndex: call.options.itemIndex,
		});
	}
	if (
		status !== undefined &&
		((status === 404 && call.options.allowNotFound) || call.options.acceptStatus?.includes(status))
	) {
		return { result: { status, headers: {}, body: undefined } };
	}
	return {
		failure: {
			status,
			body: textOf((error as { context?: { data?: unknown } })?.context?.data),
			code,
		},
	};
}

/**
 * After a 429 for the rate: marks the rate budget exhausted (concurrent calls wait too) and
 * waits for it. After a 429 for too many in flight: only this request waits (the credential's
 * in-flight cap has been lowered, limiter.ts).
 * After a 5xx or a connection failure of an idempotent call: backs off, up to maxRetries.
 * Anything else, or a wait past maxWaitMs, ends the call with the failure's error.
 */
async function waitBeforeRetry(call: Call, failure: Failure): Promise<void> {
	if (failure.status === 429) {
		const wait = rateLimitWait(failure.headers ?? {});
		// Too many in flight: the budget is not spent, only this request waits (the in-flight
		// cap has been lowered). A wait past longestRememberedWaitMs is not remembered: a server
		// asking for days blocks no later call.
		if (!refusedInFlight(429, failure.headers))
			flowControl.exhausted(call.placed.budgetKey, wait, transportSettings.longestRememberedWaitMs);
		await waitWithin(call, wait, () => rateLimitError(call, wait));
		return;
	}
	const retryable = failure.status === undefined || failure.status >= 500;
	if (!retryable || !call.endpoint.idempotent || call.retries >= transportSettings.maxRetries)
		throw callError(call, failure);
	const wait = backoff(call.retries++);
	await waitWithin(call, wait, () => callError(call, failure));
}

/** Sleeps `ms`, unless the call would then have waited longer than maxWaitMs: then throws `error()`. */
async function waitWithin(call: Call, ms: number, error: () => Error): Promise<void> {
	if (Date.now() + ms - call.started > transportSettings.maxWaitMs) throw error();
	await sleep(ms);
}

/**
 * Wait after a 429: Retry-After, else x-ratelimit-reset, else the default; never shorter than
 * `minRateLimitWaitMs`, so that a fractional or zero wait ("0.001") cannot make a request storm.
 */
function rateLimitWait(headers: Record<string, unknown>): number {
	const wait = retryAfterMs(headers) ?? (numberHeader(headers, 'x-ratelimit-reset') ?? 0) * 1000;
	return Math.max(
		wait || transportSettings.defaultRateLimitWaitMs,
		transportSettings.minRateLimitWaitMs,
	);
}

function backoff(attempt: number): number {
	const { backoffBaseMs, maxBackoffMs } = transportSettings;
	const step = Math.min(maxBackoffMs, backoffBaseMs * 2 ** attempt);
	return Math.round(step / 2 + (Math.random() * step) / 2);
}

/** The call cannot wait `waitMs` for the rate limit: when to retry. */
function rateLimitError(call: Call, waitMs: number): NodeApiError {
	const { ctx, endpoint, name, placed, options } = call;
	return rateLimitWaitError(ctx.getNode(), {
		endpoint,
		name,
		companyId: placed.companyId,
		waitMs,
		maxWaitMs: transportSettings.maxWaitMs,
		itemIndex: options.itemIndex,
	});
}

/** The error a failure ends the call with: the API's answer, or Spendesk unreachable. */
function callError(call: Call, failure: Failure): NodeApiError {
	const { ctx, endpoint, name, credential, placed, options } = call;
	if (failure.status === undefined) {
		return unreachableError(ctx.getNode(), {
			origin: credential.origin,
			endpoint,
			name,
			code: failure.code,
			retries: call.retries,
			itemIndex: options.itemIndex,
		});
	}
	return apiError(ctx.getNode(), {
		endpoint,
		name,
		status: failure.status,
		error: readErrorBody(failure.body),
		companyId: placed.companyId,
		level: credential.level,
		credentialName: credential.credentialName,
		itemIndex: options.itemIndex,
		secrets: [...credentialSecrets(credential), ...(options.secrets ?? [])],
	});
}

function dropUndefined(qs: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const k of Object.keys(qs)) {
		const v = qs[k];
		if (v !== undefined && v !== null && v !== '') out[k] = v;
	}
	return out;
}
