/**
 * The one door out: every HTTP request of the package leaves through `sendPlain` (n8n's
 * `httpRequest`), `sendAuthenticated` (`httpRequestWithAuthentication`) or `sendLegacy` (the
 * `request` helper of a credential test); a unit test fails on any other. None follows a
 * redirect, as n8n's helpers would re-send the credentials to wherever it points: a 3xx becomes
 * a RedirectRefusedError naming only its target's origin (its path and query may hold secrets).
 */
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

/** Marks a refused redirect, also once n8n has wrapped the error (`httpCode` keeps it). */
const REDIRECT_MARK = 'spendeskRedirectRefused';

/** How the caller names what it called, for the error of a refused redirect. */
export interface DoorLabel {
	/** Who answers ("Spendesk's token endpoint"); by default (and for an API call) the server. */
	what?: string;
	description?: string;
}

export interface RedirectRefusal extends DoorLabel {
	status: number;
	target: string;
}

export class RedirectRefusedError extends Error implements RedirectRefusal {
	readonly [REDIRECT_MARK] = true;

	/** Also the mark: n8n wraps a `preAuthentication` failure keeping the message, description and `httpCode`. */
	readonly httpCode: string;

	constructor(
		readonly status: number,
		readonly target: string,
		readonly what?: string,
		readonly description?: string,
		from?: string,
	) {
		super(
			`${what ?? `The server at ${from ?? 'the address called'}`} answered with a redirect (${status}) to ${target}, which was not followed`,
		);
		this.name = 'RedirectRefusedError';
		this.httpCode = `${REDIRECT_MARK}:${status}`;
	}
}

/** Where a redirect's `Location` points, as it may be shown: scheme, host and port only. */
function redirectTarget(location: unknown, from: string | undefined): string {
	const raw = Array.isArray(location) ? (location[0] as unknown) : location;
	if (typeof raw !== 'string' || !raw.trim()) return 'an address it did not give';
	let url: URL;
	try {
		url = new URL(raw.trim(), from);
	} catch {
		return 'an address that is not a valid URL';
	}
	if (url.origin !== 'null') return url.origin;
	return url.host ? `${url.protocol}//${url.host}` : `an address of the ${url.protocol} scheme`;
}

const isRedirect = (status: unknown): status is number =>
	typeof status === 'number' && status >= 300 && status < 400;

/** An error and the errors it wraps (n8n keeps the original as `cause`, some as `errorResponse`). */
export function chainOf(error: unknown): Array<Record<string, unknown>> {
	const chain: Array<Record<string, unknown>> = [];
	const queue: unknown[] = [error];
	while (queue.length && chain.length < 8) {
		const e = queue.shift();
		if (!e || typeof e !== 'object' || chain.includes(e as Record<string, unknown>)) continue;
		chain.push(e as Record<string, unknown>);
		queue.push((e as { cause?: unknown }).cause, (e as { errorResponse?: unknown }).errorResponse);
	}
	return chain;
}

/** The refused redirect an error carries (itself, or an error it wraps), if it carries one. */
export function redirectRefusal(error: unknown): RedirectRefusal | undefined {
	for (const e of chainOf(error)) {
		if (e instanceof RedirectRefusedError) return e;
		const code = typeof e.httpCode === 'string' ? e.httpCode : '';
		if (e[REDIRECT_MARK] === true || code.startsWith(`${REDIRECT_MARK}:`)) {
			const message = typeof e.message === 'string' ? e.message : '';
			const said = / answered with a redirect \((\d{3})\) to (.+?), which was not followed/.exec(
				message,
			);
			return {
				status: Number(code.split(':')[1] ?? said?.[1]) || 300,
				target: said?.[2] ?? 'an address it did not give',
				what: message.split(' answered with a redirect')[0] || undefined,
				description: typeof e.description === 'string' ? e.description : undefined,
			};
		}
	}
	return undefined;
}

function originOf(url: unknown, base?: unknown): string | undefined {
	const href = String(url);
	const from = typeof base === 'string' ? base : undefined;
	return URL.canParse(href, from) ? new URL(href, from).origin : undefined;
}

/** A thrown error as it is, or as a refused redirect when it carries a 3xx. */
function rethrown(
	error: unknown,
	refused: (status: number, location?: unknown) => RedirectRefusedError,
): unknown {
	if (redirectRefusal(error)) return error;
	for (const e of chainOf(error)) {
		const answer = e.response as { status?: unknown; headers?: IDataObject } | undefined;
		if (isRedirect(answer?.status)) return refused(answer.status, answer.headers?.location);
		const status = Number(e.httpCode ?? e.statusCode);
		if (isRedirect(status)) return refused(status);
	}
	return error;
}

/**
 * Sends with `send`: the full response; a 3xx, answered or thrown, is a RedirectRefusedError
 * (`url` and `base`: the address called, read only then).
 */
async function guarded(
	url: unknown,
	base: unknown,
	label: DoorLabel,
	send: () => Promise<unknown>,
): Promise<IN8nHttpFullResponse> {
	const refused = (status: number, location?: unknown) => {
		const from = originOf(url, base);
		return new RedirectRefusedError(
			status,
			redirectTarget(location, from),
			label.what,
			label.description,
			from,
		);
	};
	let response: IN8nHttpFullResponse;
	try {
		response = (await send()) as IN8nHttpFullResponse;
	} catch (error) {
		throw rethrown(error, refused);
	}
	if (!isRedirect(response.statusCode)) return response;
	(response.body as { destroy?: () => void } | undefined)?.destroy?.();
	throw refused(response.statusCode, response.headers?.location);
}

/** The options every request leaves with: no redirect followed, no credential sent along one. */
function noRedirects(options: IHttpRequestOptions): IHttpRequestOptions {
	return {
		...options,
		returnFullResponse: true,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
}

/** A credential's `this`, an execution context. */
export interface PlainCaller {
	helpers: { httpRequest: (options: IHttpRequestOptions) => Promise<unknown> };
}

/** One request with n8n's plain helper (no credential): the body, or the full response when asked. */
export async function sendPlain(
	ctx: PlainCaller,
	options: IHttpRequestOptions,
	label: DoorLabel = {},
): Promise<unknown> {
	const response = await guarded(options.url, options.baseURL, label, () =>
		ctx.helpers.httpRequest(noRedirects(options)),
	);
	return options.returnFullResponse ? response : response.body;
}

/** An execution, poll, hook or webhook context. */
export interface AuthenticatedCaller {
	helpers: {
		httpRequestWithAuthentication(
			this: unknown,
			credentialsType: string,
			requestOptions: IHttpRequestOptions,
		): Promise<unknown>;
	};
}

/** One request with n8n's authenticated helper, called on `ctx` (n8n reads the cancel signal from it). */
export async function sendAuthenticated(
	ctx: AuthenticatedCaller,
	credentialType: string,
	options: IHttpRequestOptions,
): Promise<IN8nHttpFullResponse> {
	return await guarded(options.url, options.baseURL, {}, () =>
		ctx.helpers.httpRequestWithAuthentication.call(ctx, credentialType, noRedirects(options)),
	);
}

/** A credential test's context. */
export interface LegacyCaller {
	helpers: { request(uriOrObject: string | IDataObject, options?: IDataObject): Promise<unknown> };
}

/** A legacy request not answered in full by its deadline: a network timeout. */
export class DeadlineError extends Error {
	readonly code = 'ETIMEDOUT';

	constructor(readonly timeoutMs: number) {
		super(`No complete answer within ${timeoutMs} ms`);
		this.name = 'DeadlineError';
	}
}

export type Deadline = { signal: AbortSignal; timeoutMs: number };

type Streamed = AsyncIterable<Uint8Array | string> & { destroy(error?: Error): void };

const isStreamed = (body: unknown): body is Streamed =>
	typeof (body as { destroy?: unknown } | null)?.destroy === 'function' &&
	typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';

/** The response of `sent`, or a DeadlineError first; a response that still comes later is let go. */
async function headersBy<T>(sent: Promise<T>, deadline: Deadline): Promise<T> {
	return await new Promise<T>((resolve, reject) => {
		const late = () => reject(new DeadlineError(deadline.timeoutMs));
		if (deadline.signal.aborted) late();
		else deadline.signal.addEventListener('abort', late, { once: true });
		sent.then(
			(response) => {
				deadline.signal.removeEventListener('abort', late);
				const body = (response as { body?: unknown } | null)?.body;
				if (!deadline.signal.aborted) resolve(response);
				else if (isStreamed(body)) body.destroy();
			},
			(error: unknown) => {
				deadline.signal.removeEventListener('abort', late);
				reject(error);
			},
		);
	});
}

/**
 * A streamed body read in full by the deadline, else closed and a DeadlineError; JSON parsed
 * when asked and valid, the text otherwise, undefined when empty.
 */
async function bodyBy(body: unknown, deadline: Deadline, json: boolean): Promise<unknown> {
	if (!isStreamed(body)) return body;
	const stop = () => body.destroy(new DeadlineError(deadline.timeoutMs));
	if (deadline.signal.aborted) stop();
	else deadline.signal.addEventListener('abort', stop, { once: true });
	const chunks: Buffer[] = [];
	try {
		for await (const chunk of body)
			chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
	} finally {
		deadline.signal.removeEventListener('abort', stop);
	}
	const text = Buffer.concat(chunks).toString('utf8');
	if (text === '') return undefined;
	if (!json) return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

/**
 * One request with the legacy helper: every status an answer except a 3xx. It takes no abort
 * signal and its `timeout` only limits silence, so the answer is streamed and closed at the deadline.
 */
export async function sendLegacy(
	ctx: LegacyCaller,
	options: IDataObject,
	deadline: Deadline,
	label: DoorLabel = {},
): Promise<{ statusCode: number; headers?: IDataObject; body: unknown }> {
	const sent = () =>
		ctx.helpers.request({
			...options,
			timeout: deadline.timeoutMs,
			useStream: true,
			simple: false,
			resolveWithFullResponse: true,
			// The legacy helper follows a GET's redirects unless told not to, and others with followAllRedirects.
			followRedirect: false,
			followAllRedirects: false,
			maxRedirects: 0,
			sendCredentialsOnCrossOriginRedirect: false,
		});
	const response = await guarded(
		options.uri ?? options.url,
		undefined,
		label,
		async () => await headersBy(sent(), deadline),
	);
	return {
		statusCode: response.statusCode,
		headers: response.headers,
		body: await bodyBy(response.body, deadline, options.json === true),
	};
}
