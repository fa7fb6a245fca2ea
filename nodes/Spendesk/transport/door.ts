/**
 * The one door out: every HTTP request the package makes leaves through this module (a unit
 * test fails when code elsewhere in nodes/ or credentials/ reaches n8n's request helpers or any
 * other HTTP client). API calls, both credentials' token calls, the credential tests, file
 * downloads and pre-signed uploads all go through one of its three senders:
 * - `sendPlain`: n8n's plain `httpRequest` (token calls, pre-signed links);
 * - `sendAuthenticated`: n8n's `httpRequestWithAuthentication` (API calls; n8n runs the
 *   credential's `preAuthentication`, whose token call comes back here through `sendPlain`);
 * - `sendLegacy`: the legacy `request` helper, the only one a credential test gets.
 *
 * None of them follows a redirect: n8n's helpers would re-send the request, credentials
 * included (a bearer token, a client secret, a code and its PKCE verifier, a refresh token), to
 * wherever a `Location` points, and take that origin's answer (tokens included) as Spendesk's.
 * A 3xx, answered or thrown, becomes a RedirectRefusedError naming only the scheme, host and
 * port of its target: a redirect's path and query may carry secrets.
 */
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

/** Marks a refused redirect, also once n8n has wrapped the error (`httpCode` keeps it). */
export const REDIRECT_MARK = 'spendeskRedirectRefused';

/** A redirect that was not followed. */
export class RedirectRefusedError extends Error {
	readonly [REDIRECT_MARK] = true;

	/** Also the mark: n8n wraps a `preAuthentication` failure keeping the message, description and `httpCode`. */
	readonly httpCode: string;

	constructor(
		readonly status: number,
		/** Where the redirect pointed: scheme, host and port only. */
		readonly target: string,
		/** Who answered with it ("Spendesk's token endpoint"); undefined for an API call. */
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

/**
 * Where a redirect's `Location` points, as it may be shown: scheme, host and port only, never
 * the path, query or user info, which may carry a signature or a secret.
 */
export function redirectTarget(location: unknown, from: string | undefined): string {
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

/** What a refused redirect says, read from an error or from any error it wraps. */
export interface RedirectRefusal {
	status: number;
	target: string;
	what?: string;
	description?: string;
}

/** The refused redirect an error carries (itself, or an error it wraps), if it carries one. */
export function redirectRefusal(error: unknown): RedirectRefusal | undefined {
	for (const e of chainOf(error)) {
		if (e instanceof RedirectRefusedError)
			return { status: e.status, target: e.target, what: e.what, description: e.description };
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

/** An error and the errors it wraps (n8n keeps the original as `cause`, some as `errorResponse`). */
function chainOf(error: unknown): Array<Record<string, unknown>> {
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

/** A 3xx an error carries (an axios-like `response`, or a wrapper's `httpCode`), with where it pointed. */
function thrownRedirect(error: unknown): { status: number; location?: unknown } | undefined {
	for (const e of chainOf(error)) {
		const response = e.response as { status?: unknown; headers?: IDataObject } | undefined;
		if (isRedirect(response?.status))
			return { status: response.status, location: response.headers?.location };
		const status = Number(e.httpCode ?? e.statusCode);
		if (isRedirect(status)) return { status };
	}
	return undefined;
}

/** How the caller names what it called, for the error of a refused redirect. */
export interface DoorLabel {
	/** Who answers ("Spendesk's token endpoint"); by default "The server at <origin>". */
	what?: string;
	/** What to do about it, for the error's description. */
	description?: string;
}

function originOf(url: unknown, base?: unknown): string | undefined {
	try {
		return new URL(String(url), typeof base === 'string' ? base : undefined).origin;
	} catch {
		return undefined;
	}
}

function refused(
	status: number,
	location: unknown,
	from: string | undefined,
	label: DoorLabel,
): RedirectRefusedError {
	return new RedirectRefusedError(
		status,
		redirectTarget(location, from),
		label.what,
		label.description,
		from,
	);
}

/** A thrown error, as it is, or as a refused redirect when it is one. */
function rethrown(error: unknown, from: string | undefined, label: DoorLabel): unknown {
	if (redirectRefusal(error)) return error;
	const redirect = thrownRedirect(error);
	return redirect ? refused(redirect.status, redirect.location, from, label) : error;
}

/** A full response: as it is unless it is a 3xx, whose body is then let go. */
function checked(
	response: IN8nHttpFullResponse,
	from: string | undefined,
	label: DoorLabel,
): IN8nHttpFullResponse {
	if (!isRedirect(response.statusCode)) return response;
	(response.body as { destroy?: () => void } | undefined)?.destroy?.();
	throw refused(response.statusCode, response.headers?.location, from, label);
}

/** The options every request leaves with: no redirect followed, no credential sent along one. */
function noRedirects(options: IHttpRequestOptions): IHttpRequestOptions {
	const sent: IHttpRequestOptions = Object.assign({}, options);
	sent.returnFullResponse = true;
	sent.disableFollowRedirect = true;
	sent.sendCredentialsOnCrossOriginRedirect = false;
	return sent;
}

type HttpRequest = (options: IHttpRequestOptions) => Promise<unknown>;

/** A caller with n8n's plain request helper: a credential's `this`, an execution context. */
export interface PlainCaller {
	helpers: { httpRequest: HttpRequest };
}

/** One request with n8n's plain helper (no credential): the body, or the full response when asked. */
export async function sendPlain(
	ctx: PlainCaller,
	options: IHttpRequestOptions,
	label: DoorLabel = {},
): Promise<unknown> {
	const from = originOf(options.url, options.baseURL);
	let response: IN8nHttpFullResponse;
	try {
		response = (await ctx.helpers.httpRequest(noRedirects(options))) as IN8nHttpFullResponse;
	} catch (error) {
		throw rethrown(error, from, label);
	}
	checked(response, from, label);
	return options.returnFullResponse ? response : response.body;
}

/** A caller with n8n's authenticated request helper (an execution, poll, hook or webhook context). */
export interface AuthenticatedCaller {
	helpers: {
		httpRequestWithAuthentication(
			this: unknown,
			credentialsType: string,
			requestOptions: IHttpRequestOptions,
		): Promise<unknown>;
	};
}

/**
 * One request with n8n's authenticated helper, called on `ctx` (n8n reads the execution's
 * cancel signal from it): the full response. n8n runs the credential's `preAuthentication`
 * first when the token must be fetched; its token call comes back through `sendPlain`.
 */
export async function sendAuthenticated(
	ctx: AuthenticatedCaller,
	credentialType: string,
	options: IHttpRequestOptions,
): Promise<IN8nHttpFullResponse> {
	const from = originOf(options.url, options.baseURL);
	let response: IN8nHttpFullResponse;
	try {
		response = (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			credentialType,
			noRedirects(options),
		)) as IN8nHttpFullResponse;
	} catch (error) {
		throw rethrown(error, from, {});
	}
	return checked(response, from, {});
}

/** A caller with the legacy request helper (a credential test's context). */
export interface LegacyCaller {
	helpers: { request(uriOrObject: string | IDataObject, options?: IDataObject): Promise<unknown> };
}

/**
 * A legacy request not answered in full by its deadline: no complete answer, whether its server
 * said nothing or kept sending a little at a time. A network timeout (`ETIMEDOUT`).
 */
export class DeadlineError extends Error {
	readonly code = 'ETIMEDOUT';

	constructor(readonly timeoutMs: number) {
		super(`No complete answer within ${timeoutMs} ms`);
		this.name = 'DeadlineError';
	}
}

/** A deadline: its signal and how long it gave. */
export interface Deadline {
	signal: AbortSignal;
	timeoutMs: number;
}

type Streamed = AsyncIterable<Uint8Array | string> & { destroy(error?: Error): void };

const isStreamed = (body: unknown): body is Streamed =>
	typeof (body as { destroy?: unknown } | null)?.destroy === 'function' &&
	typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';

/** Lets go of a response that came too late: its body, a stream, is closed. */
function letGo(response: unknown): void {
	const body = (response as { body?: unknown } | null)?.body;
	if (isStreamed(body)) body.destroy();
}

/**
 * The response of `sent` (its headers), or a DeadlineError when the deadline comes first. The
 * legacy helper takes no abort signal: a response that still comes later is let go.
 */
async function headersBy<T>(sent: Promise<T>, deadline: Deadline): Promise<T> {
	return await new Promise<T>((resolve, reject) => {
		const late = () => reject(new DeadlineError(deadline.timeoutMs));
		if (deadline.signal.aborted) late();
		else deadline.signal.addEventListener('abort', late, { once: true });
		sent.then(
			(response) => {
				deadline.signal.removeEventListener('abort', late);
				if (deadline.signal.aborted) letGo(response);
				else resolve(response);
			},
			(error: unknown) => {
				deadline.signal.removeEventListener('abort', late);
				reject(error);
			},
		);
	});
}

/**
 * A streamed body read in full by the deadline, else closed (its connection with it) and a
 * DeadlineError; as the helper would give it: JSON parsed when asked and valid, the text
 * otherwise, undefined when empty. A body that is not a stream is given as it is.
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
 * One request with the legacy helper: every status an answer ({statusCode, headers, body})
 * except a 3xx. Over by `deadline` whatever the server does: the helper takes no abort signal
 * and its `timeout` only limits silence (a server sending a byte a second is never cut), so the
 * answer is streamed and read here, and closed at the deadline; a DeadlineError then.
 */
export async function sendLegacy(
	ctx: LegacyCaller,
	options: IDataObject,
	deadline: Deadline,
	label: DoorLabel = {},
): Promise<{ statusCode: number; headers?: IDataObject; body: unknown }> {
	const from = originOf(options.uri ?? options.url);
	let response: IN8nHttpFullResponse;
	try {
		const sent = ctx.helpers.request({
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
		}) as Promise<IN8nHttpFullResponse>;
		response = await headersBy(sent, deadline);
	} catch (error) {
		throw rethrown(error, from, label);
	}
	checked(response, from, label);
	return {
		statusCode: response.statusCode,
		headers: response.headers,
		body: await bodyBy(response.body, deadline, options.json === true),
	};
}
