/**
 * Uploading a receipt to a payable (docs/api.md#receipt-upload): `POST
 * /v1/payables/{payableId}/attachments` with `{mimeType, contentLength}` answers a pre-signed
 * form upload `{method: "POST", url, fields}`; the client then POSTs multipart/form-data to
 * `url` on the file host (the simulator's second server): the fields first, then the file.
 *
 * The file host takes no bearer token: a request carrying an Authorization header is refused
 * (400) and the request log keeps it (redacted) for tests to see. Decided here: the form works
 * once and for 15 minutes (the file host's lifetime), the file's size must be the declared
 * `contentLength`, its part comes last, PDF, JPEG and PNG only, 50 MB at most; on success the
 * file host answers 204 and the payable lists the file among its attachments.
 */
import { randomBytes } from 'node:crypto';
import { SimError } from './paging';
import { objectBody, onlyKeys } from './params';
import type { RouteDef } from './routes';
import type { HandlerResult, RequestContext, SpendeskSimulator } from './server';
import { DEFAULT_URL_LIFETIME_SECONDS, MAX_UPLOAD_BYTES, storageError } from './files';

export const RECEIPT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;

export interface ReceiptUpload {
	uploadId: string;
	companyId: string;
	payableId: string;
	mimeType: string;
	contentLength: number;
	signature: string;
	expiresAt: number;
	/** The attachment the upload became, once received. */
	attachmentId?: string;
}

const stores = new WeakMap<
	SpendeskSimulator,
	{ seq: number; uploads: Map<string, ReceiptUpload> }
>();

function storeOf(sim: SpendeskSimulator) {
	let store = stores.get(sim);
	if (!store) stores.set(sim, (store = { seq: 0, uploads: new Map() }));
	return store;
}

/** The receipt uploads opened so far (tests). */
export function receiptUploads(sim: SpendeskSimulator): ReceiptUpload[] {
	return [...storeOf(sim).uploads.values()];
}

function startUpload(ctx: RequestContext): HandlerResult {
	const body = objectBody(ctx);
	onlyKeys(body, ['mimeType', 'contentLength'], 'body');
	const { mimeType, contentLength } = body;
	if (typeof mimeType !== 'string' || !(RECEIPT_TYPES as readonly string[]).includes(mimeType))
		throw new SimError(
			400,
			'invalid_body',
			`mimeType must be one of ${RECEIPT_TYPES.join(', ')}`,
			'body.mimeType',
		);
	if (
		typeof contentLength !== 'number' ||
		!Number.isInteger(contentLength) ||
		contentLength < 1 ||
		contentLength > MAX_UPLOAD_BYTES
	)
		throw new SimError(
			400,
			'invalid_body',
			`contentLength must be the file size in bytes, 1 to ${MAX_UPLOAD_BYTES}`,
			'body.contentLength',
		);
	const payable = ctx.sim.data(ctx.companyId!).payables.find((p) => p.id === ctx.params.payableId);
	if (!payable) throw new SimError(404, 'not_found', 'Payable not found', 'path.payableId');
	const store = storeOf(ctx.sim);
	const uploadId = `rcp_${String(++store.seq).padStart(6, '0')}`;
	const lifetime = ctx.sim.options.fileUrlLifetimeSeconds ?? DEFAULT_URL_LIFETIME_SECONDS;
	const upload: ReceiptUpload = {
		uploadId,
		companyId: ctx.companyId!,
		payableId: payable.id,
		mimeType,
		contentLength,
		signature: randomBytes(32).toString('hex'),
		expiresAt: ctx.sim.clock.now() + lifetime * 1000,
	};
	store.uploads.set(uploadId, upload);
	return {
		status: 200,
		body: {
			method: 'POST',
			url: `${ctx.sim.fileBaseUrl}/receipts`,
			fields: {
				key: `receipts/${uploadId}`,
				'Content-Type': mimeType,
				'x-expires': String(Math.floor(upload.expiresAt / 1000)),
				'x-signature': upload.signature,
			},
		},
	};
}

interface Part {
	name: string;
	fileName?: string;
	contentType?: string;
	content: Buffer;
}

/** The parts of a multipart/form-data body, in order; undefined when it is not one. */
function multipart(body: Buffer, contentType: string): Part[] | undefined {
	const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
	if (!/^multipart\/form-data/i.test(contentType) || !boundary) return undefined;
	const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
	const parts: Part[] = [];
	let at = body.indexOf(delimiter);
	if (at < 0) return undefined;
	for (;;) {
		const start = at + delimiter.length;
		if (body.subarray(start, start + 2).toString() === '--') return parts;
		const next = body.indexOf(delimiter, start);
		if (next < 0) return undefined;
		const chunk = body.subarray(start + 2, next - 2);
		const split = chunk.indexOf('\r\n\r\n');
		if (split < 0) return undefined;
		const head = chunk.subarray(0, split).toString('utf8');
		const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? '';
		const name = /\bname="([^"]*)"/.exec(disposition)?.[1];
		if (name === undefined) return undefined;
		parts.push({
			name,
			fileName: /\bfilename="([^"]*)"/.exec(disposition)?.[1],
			contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1].trim(),
			content: chunk.subarray(split + 4),
		});
		at = next;
	}
}

/** An answer of the file host: the storage's XML error format. */
function refused(status: number, code: string, message: string): HandlerResult {
	return {
		status,
		body: storageError(code, message),
		headers: { 'content-type': 'application/xml' },
	};
}

function receiveUpload(ctx: RequestContext): HandlerResult {
	if (ctx.headers.authorization !== undefined)
		return refused(
			400,
			'InvalidArgument',
			'The upload form carries its own authorization: do not send an Authorization header',
		);
	const parts = multipart(
		ctx.rawBody ?? Buffer.alloc(0),
		String(ctx.headers['content-type'] ?? ''),
	);
	if (!parts) return refused(400, 'MalformedPOSTRequest', 'The body is not multipart/form-data');
	const fileAt = parts.findIndex((p) => p.name === 'file');
	if (fileAt < 0) return refused(400, 'InvalidArgument', 'The form has no file part');
	if (fileAt !== parts.length - 1)
		return refused(400, 'InvalidArgument', 'The file must be the last part of the form');
	const fields = Object.fromEntries(
		parts.slice(0, fileAt).map((p) => [p.name, p.content.toString('utf8')]),
	);
	const uploadId = /^receipts\/(.+)$/.exec(fields.key ?? '')?.[1];
	const upload = uploadId ? storeOf(ctx.sim).uploads.get(uploadId) : undefined;
	if (!upload || fields['x-signature'] !== upload.signature)
		return refused(403, 'SignatureDoesNotMatch', 'The form fields do not match their signature');
	if (upload.expiresAt <= ctx.sim.clock.now())
		return refused(403, 'AccessDenied', 'Request has expired');
	if (upload.attachmentId) return refused(403, 'AccessDenied', 'The upload form was already used');
	if (fields['Content-Type'] !== upload.mimeType)
		return refused(
			403,
			'AccessDenied',
			`Invalid according to Policy: Content-Type must be ${upload.mimeType}`,
		);
	const file = parts[fileAt].content;
	if (file.length !== upload.contentLength)
		return refused(
			400,
			file.length < upload.contentLength ? 'EntityTooSmall' : 'EntityTooLarge',
			`The file has ${file.length} bytes; ${upload.contentLength} were declared`,
		);
	const attachmentId = `att_${upload.payableId.replace(/^pay_/, '')}_${upload.uploadId}`;
	const extension = upload.mimeType === 'application/pdf' ? 'pdf' : upload.mimeType.slice(6);
	ctx.sim.files.setAttachments(upload.payableId, [
		...ctx.sim.files.attachmentsOf(upload.payableId),
		{
			id: attachmentId,
			fileName: parts[fileAt].fileName || `${upload.uploadId}.${extension}`,
			mimeType: upload.mimeType,
			content: Buffer.from(file),
			attachedAt: new Date(ctx.sim.clock.now()).toISOString(),
		},
	]);
	upload.attachmentId = attachmentId;
	return { status: 204 };
}

export const RECEIPT_ROUTES: RouteDef[] = [
	{
		id: 'startPayableAttachmentUpload',
		method: 'POST',
		pattern: /^\/v1\/payables\/(?<payableId>[^/]+)\/attachments$/,
		placement: 'header',
		scope: 'experimental:payable-attachment:write',
		handler: startUpload,
	},
	{
		id: 'receiptUpload',
		method: 'POST',
		pattern: /^\/receipts$/,
		placement: 'public',
		host: 'files',
		handler: receiveUpload,
	},
];
