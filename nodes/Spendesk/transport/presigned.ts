/**
 * Transfers to and from pre-signed URLs (attachments, intake uploads, receipt forms): their own
 * authorisation, possibly on another host, so never sent with a credential and never redirected
 * (transport/door.ts). HTTPS only (HTTP on loopback); errors never quote the link's query.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { redirectRefusal, sendPlain } from './door';
import { isSecureOrLoopback } from './environment';
import { headerText } from './limiter';
import { transportSettings } from './settings';

/** A pre-signed link as given by the API: an absolute HTTPS URL (HTTP only on loopback), without user info. */
export function presignedUrl(
	ctx: IExecuteFunctions,
	raw: unknown,
	what: string,
	itemIndex: number,
): URL {
	const url = typeof raw === 'string' && URL.canParse(raw) ? new URL(raw) : undefined;
	if (!url)
		throw new NodeOperationError(ctx.getNode(), `Spendesk gave no valid link for ${what}`, {
			description:
				'The answer lacked the pre-signed URL or it was not an absolute URL. Run the node again; if it persists, contact Spendesk support.',
			itemIndex,
		});
	if (!isSecureOrLoopback(url.protocol, url.hostname) || url.username || url.password)
		throw new NodeOperationError(
			ctx.getNode(),
			`Refusing the link for ${what}: only HTTPS links are followed (${url.protocol}//${url.host})`,
			{
				description:
					'A pre-signed link carries its own authorisation, so it is only used over HTTPS (plain HTTP is allowed on this machine only, for a local test server). Check the base URL of the credential; if Spendesk sent it, contact Spendesk support.',
				itemIndex,
			},
		);
	return url;
}

function deadline(ctx: IExecuteFunctions): AbortSignal {
	const timeout = AbortSignal.timeout(transportSettings.timeoutMs);
	const cancel = ctx.getExecutionCancelSignal();
	return cancel ? AbortSignal.any([timeout, cancel]) : timeout;
}

const cancelled = (ctx: IExecuteFunctions): boolean =>
	ctx.getExecutionCancelSignal()?.aborted === true;

/** One request to a pre-signed link (no credential, no redirects): a 2xx, else the error of the refusal. */
async function send(
	ctx: IExecuteFunctions,
	request: Omit<IHttpRequestOptions, 'url'>,
	{ url, what, itemIndex }: { url: URL; what: string; itemIndex: number },
	signal: AbortSignal = deadline(ctx),
): Promise<IN8nHttpFullResponse> {
	let response: IN8nHttpFullResponse;
	try {
		response = (await sendPlain(ctx, {
			...request,
			url: url.toString(),
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: transportSettings.timeoutMs,
			abortSignal: signal,
		})) as IN8nHttpFullResponse;
	} catch (error) {
		const redirect = redirectRefusal(error);
		if (redirect)
			throw new NodeApiError(
				ctx.getNode(),
				{ status: redirect.status, host: url.origin, redirectTo: redirect.target },
				{
					message: `The file host ${url.origin} answered with a redirect (${redirect.status}) to ${redirect.target} for ${what}, which was not followed`,
					description:
						'A pre-signed link carries its own authorisation, so a redirect of it is never followed: nothing was sent to the other address. Run the node again for fresh links; if it persists, contact Spendesk support.',
					httpCode: String(redirect.status),
					itemIndex,
				},
			);
		if (signal.aborted && cancelled(ctx))
			throw new NodeOperationError(
				ctx.getNode(),
				`The execution was cancelled while ${what} waited for the file host ${url.origin}`,
				{ description: 'The transfer was stopped and its connection closed.', itemIndex },
			);
		const code = (error as { code?: unknown }).code;
		const timedOut = signal.aborted;
		const networkError = timedOut ? 'ETIMEDOUT' : typeof code === 'string' ? code : null;
		throw new NodeApiError(
			ctx.getNode(),
			{ host: url.origin, networkError },
			timedOut
				? {
						message: `The file host ${url.origin} did not answer within ${limitWords()} for ${what}`,
						description: `It sent too little, or nothing, in that time, so the transfer was stopped. Check the network and proxy between n8n and ${url.host}, then run the node again.`,
						itemIndex,
					}
				: {
						message: `Could not reach the file host ${url.origin} for ${what}`,
						description: `The connection did not go through${networkError ? ` (${networkError})` : ''}. Check the network and proxy settings of your n8n instance, then run the node again.`,
						itemIndex,
					},
		);
	}
	const status = response.statusCode;
	if (status >= 200 && status < 300) return response;
	throw await refusal(ctx, response, { url, what, itemIndex });
}

/** A pre-signed link refused: expired or invalid (403), gone (404), or another status. */
async function refusal(
	ctx: IExecuteFunctions,
	response: IN8nHttpFullResponse,
	{ url, what, itemIndex }: { url: URL; what: string; itemIndex: number },
): Promise<NodeApiError> {
	const status = response.statusCode;
	const { bytes } = await readBytes(response.body, 4096);
	const code = /<Code>([\w.-]{1,64})<\/Code>/.exec(bytes.toString('utf8'))?.[1];
	const said = code ? ` ${code}` : '';
	return new NodeApiError(
		ctx.getNode(),
		{ status, host: url.origin, ...(code ? { storageCode: code } : {}) },
		{
			message:
				status === 403
					? `The link for ${what} has expired or is not valid (403${said})`
					: `The file host ${url.origin} answered ${status}${said} for ${what}`,
			description:
				status === 403
					? 'Pre-signed links expire after a few minutes and only work as given. Run the node again to get fresh links; if they are refused at once too, check that the clock of your n8n instance is right.'
					: 'Run the node again; if it persists, contact Spendesk support.',
			httpCode: String(status),
			itemIndex,
		},
	);
}

const limitWords = () => `${Math.round(transportSettings.timeoutMs / 1000)} s`;

/** The bytes of a body (a stream read up to `maxBytes` + 1, a Buffer or text); `cut`, what cut a stream. */
async function readBytes(
	body: unknown,
	maxBytes: number,
): Promise<{ bytes: Buffer; over: boolean; cut?: { error: unknown } }> {
	if (Buffer.isBuffer(body)) return { bytes: body, over: body.length > maxBytes };
	if (typeof body === 'string') return readBytes(Buffer.from(body, 'utf8'), maxBytes);
	if (body instanceof ArrayBuffer) return readBytes(Buffer.from(body), maxBytes);
	const stream = body as
		| (AsyncIterable<Uint8Array | string> & { destroy?: () => void })
		| undefined;
	if (!stream || typeof stream[Symbol.asyncIterator] !== 'function')
		return { bytes: Buffer.alloc(0), over: false };
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of stream) {
			const part = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
			total += part.length;
			if (total > maxBytes) {
				stream.destroy?.();
				return { bytes: Buffer.concat(chunks), over: true };
			}
			chunks.push(part);
		}
	} catch (error) {
		stream.destroy?.();
		return { bytes: Buffer.concat(chunks), over: false, cut: { error } };
	}
	return { bytes: Buffer.concat(chunks), over: false };
}

export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} bytes`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Downloads a pre-signed link, stopping as soon as the declared or received size passes `maxBytes`. */
export async function downloadPresigned(
	ctx: IExecuteFunctions,
	url: URL,
	options: { what: string; maxBytes: number; itemIndex: number },
): Promise<{ bytes: Buffer; contentType?: string }> {
	const { what, maxBytes, itemIndex } = options;
	const signal = deadline(ctx);
	const request = { method: 'GET' as const, encoding: 'stream' as const, json: false };
	const response = await send(ctx, request, { url, what, itemIndex }, signal);
	const tooLarge = (size: string) =>
		new NodeOperationError(
			ctx.getNode(),
			`The file of ${what} is larger than 'Max File Size (MB)' allows (${size}; the limit is ${formatBytes(maxBytes)})`,
			{
				description:
					"Raise 'Max File Size (MB)' in the options to download it, or turn on 'Metadata Only' to get the links without the files.",
				itemIndex,
			},
		);
	const declared = Number(headerText(response.headers, 'content-length'));
	if (Number.isFinite(declared) && declared > maxBytes) {
		(response.body as { destroy?: () => void } | undefined)?.destroy?.();
		throw tooLarge(formatBytes(declared));
	}
	const { bytes, over, cut } = await readBytes(response.body, maxBytes);
	if (over) throw tooLarge(`more than ${formatBytes(maxBytes)} received`);
	const expected = Number.isFinite(declared) && declared >= 0 ? declared : undefined;
	if (!cut && (expected === undefined || bytes.length >= expected))
		return { bytes, contentType: headerText(response.headers, 'content-type') };
	// Cut off mid-body: the file and the host are named, never the link's query.
	const code = (cut?.error as { code?: unknown } | undefined)?.code;
	const networkError = typeof code === 'string' ? code : null;
	const verb = cancelled(ctx) ? 'was cancelled' : signal.aborted ? 'stalled' : 'broke off';
	const of = expected !== undefined ? ` of ${expected}` : '';
	const message = `The download of ${what} from the file host ${url.origin} ${verb} after ${bytes.length}${of} bytes`;
	if (cancelled(ctx))
		throw new NodeOperationError(ctx.getNode(), message, {
			description:
				'The execution was cancelled during the download; nothing of this file was kept.',
			itemIndex,
		});
	const cause = signal.aborted
		? `The download did not finish within ${limitWords()} (the file host sent too little, or nothing, in that time), so it was stopped.`
		: `The file host closed the connection before the whole file arrived${networkError ? ` (${networkError})` : ''}.`;
	throw new NodeApiError(
		ctx.getNode(),
		{ host: url.origin, networkError },
		{
			message,
			description: `${cause} Nothing of this file was kept. Run the node again: each run gets fresh links. If it keeps happening, check the network and proxy between n8n and ${url.host}, or contact Spendesk support.`,
			itemIndex,
		},
	);
}

/** Uploads bytes to a pre-signed link without credentials (PUT, with the headers the API asked for). */
export async function uploadPresigned(
	ctx: IExecuteFunctions,
	url: URL,
	options: { what: string; bytes: Buffer; headers: Record<string, string>; itemIndex: number },
): Promise<void> {
	const { what, bytes, headers, itemIndex } = options;
	await send(ctx, { method: 'PUT', body: bytes, headers, json: false }, { url, what, itemIndex });
}

/** The headers an upload link asks for, as strings; headers that would carry credentials or routing are dropped. */
export function uploadHeaders(given: unknown, mimeType: string): Record<string, string> {
	const headers: Record<string, string> = { 'content-type': mimeType };
	if (given && typeof given === 'object' && !Array.isArray(given)) {
		for (const [name, value] of Object.entries(given as IDataObject)) {
			const key = name.toLowerCase();
			if (
				/^(authorization|proxy-authorization|cookie|host|content-length|transfer-encoding|connection)$/.test(
					key,
				)
			)
				continue;
			if (typeof value === 'string' || typeof value === 'number') headers[key] = String(value);
		}
	}
	return headers;
}

/** The fields of a pre-signed form as strings, in their order; fields of other types are left out. */
export function formFields(given: unknown): Array<[string, string]> {
	if (!given || typeof given !== 'object' || Array.isArray(given)) return [];
	return Object.entries(given as IDataObject)
		.filter(([name, value]) => name && (typeof value === 'string' || typeof value === 'number'))
		.map(([name, value]) => [name, String(value)]);
}

/** A header value of a form part: quotes and line breaks replaced, so that it cannot end the header. */
const partValue = (text: string) => text.replace(/["\r\n\\]/g, '_');

/** Uploads a file through a pre-signed form: its fields in their order, then the file as the part `file`. */
export async function uploadPresignedForm(
	ctx: IExecuteFunctions,
	url: URL,
	options: {
		what: string;
		fields: Array<[string, string]>;
		file: { bytes: Buffer; fileName: string; mimeType: string };
		itemIndex: number;
	},
): Promise<void> {
	const { what, fields, file, itemIndex } = options;
	let boundary: string;
	do {
		boundary = `----SpendeskFormBoundary${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
	} while (
		file.bytes.includes(boundary) ||
		fields.some(([name, value]) => `${name}${value}`.includes(boundary))
	);
	const parts: Buffer[] = fields.map(([name, value]) =>
		Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="${partValue(name)}"\r\n\r\n${value}\r\n`,
			'utf8',
		),
	);
	parts.push(
		Buffer.from(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${partValue(file.fileName)}"\r\nContent-Type: ${partValue(file.mimeType)}\r\n\r\n`,
			'utf8',
		),
		file.bytes,
		Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
	);
	const body = Buffer.concat(parts);
	const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
	await send(ctx, { method: 'POST', body, headers, json: false }, { url, what, itemIndex });
}
