/**
 * The simulator's routes for files (docs/api.md#files, #accounting-exports): a payable's
 * attachments, intake file uploads (start, pre-signed PUT, confirm), accounting exports and
 * their journal CSV. The pre-signed routes (`host: 'files'`) are served only by the file host,
 * the simulator's second loopback server, and take no bearer token.
 */
import { createHash } from 'node:crypto';
import { pageOf, SimError } from './paging';
import type { RouteDef } from './routes';
import type { HandlerResult, RequestContext } from './server';
import { DEFAULT_URL_LIFETIME_SECONDS, journalCsv, MAX_UPLOAD_BYTES, storageError } from './files';
import type { IntakeUpload } from './files';
import { singleBody } from './shapes';

const ok = (body: unknown, status = 200): HandlerResult => ({ status, body });

function bodyObject(ctx: RequestContext): Record<string, unknown> {
	if (ctx.body === undefined) return {};
	if (!ctx.body || typeof ctx.body !== 'object' || Array.isArray(ctx.body)) {
		throw new SimError(400, 'invalid_body', 'The request body must be a JSON object', 'body');
	}
	return ctx.body as Record<string, unknown>;
}

/** A pre-signed URL on the file host for `method` and `path`, valid for the configured lifetime. */
function presign(
	ctx: RequestContext,
	method: string,
	path: string,
): { url: string; expiresAt: string } {
	const lifetime = ctx.sim.options.fileUrlLifetimeSeconds ?? DEFAULT_URL_LIFETIME_SECONDS;
	const expiresAtMs = ctx.sim.clock.now() + lifetime * 1000;
	return {
		url: `${ctx.sim.fileBaseUrl}${path}?${ctx.sim.files.signedQuery(method, path, expiresAtMs)}`,
		expiresAt: new Date(Math.floor(expiresAtMs / 1000) * 1000).toISOString(),
	};
}

/** Refuses a pre-signed request whose signature is wrong or expired (403, storage format). */
function checkSignature(ctx: RequestContext): void {
	const verdict = ctx.sim.files.verify(ctx.method, ctx.path, ctx.query, ctx.sim.clock.now());
	if (verdict === 'ok') return;
	const body =
		verdict === 'expired'
			? storageError('AccessDenied', 'Request has expired')
			: storageError('SignatureDoesNotMatch', 'The request signature does not match');
	throw Object.assign(
		new SimError(403, verdict === 'expired' ? 'AccessDenied' : 'SignatureDoesNotMatch', body),
		{ storage: true },
	);
}

/** The file host's answers: storage errors are XML, not the API's JSON error body. */
function fileHost(
	handler: (ctx: RequestContext) => HandlerResult,
): (ctx: RequestContext) => HandlerResult {
	return (ctx) => {
		try {
			checkSignature(ctx);
			return handler(ctx);
		} catch (error) {
			if (error instanceof SimError)
				return {
					status: error.status,
					body: (error as { storage?: boolean }).storage
						? error.detail
						: storageError(error.code, error.detail),
					headers: { 'content-type': 'application/xml' },
				};
			throw error;
		}
	};
}

function listAttachments(ctx: RequestContext): HandlerResult {
	const payable = ctx.sim.data(ctx.companyId!).payables.find((p) => p.id === ctx.params.payableId);
	if (!payable) throw new SimError(404, 'not_found', 'Payable not found', 'path.payableId');
	const data = ctx.sim.files.attachmentsOf(payable.id).map((file) => {
		const { url, expiresAt } = presign(ctx, 'GET', `/files/${encodeURIComponent(file.id)}`);
		const listed = file.listedMimeType === undefined ? file.mimeType : file.listedMimeType;
		const mimeType = listed === null ? {} : { mimeType: listed };
		// The vendor's older document (`Attachment`): the MIME type, a checksum, when it was
		// attached and the link under `url`; no ID, file name, size or expiry.
		if (ctx.sim.options.attachmentShape === 'documented')
			return {
				...mimeType,
				checksum: createHash('md5').update(file.content).digest('hex'),
				attachedAt: file.attachedAt ?? payable.createdAt,
				url,
			};
		return {
			id: file.id,
			fileName: file.fileName,
			...mimeType,
			size: file.listedSize ?? file.content.length,
			downloadUrl: url,
			expiresAt,
		};
	});
	return ok({ data });
}

function download(ctx: RequestContext): HandlerResult {
	const file = ctx.sim.files.blob(ctx.params.fileId);
	if (!file)
		return {
			status: 404,
			body: storageError('NoSuchKey', 'The specified key does not exist'),
			headers: { 'content-type': 'application/xml' },
		};
	const headers: Record<string, string> = {
		'content-type': file.mimeType,
		'content-disposition': `attachment; filename="${file.fileName.replace(/"/g, '')}"`,
	};
	// chunkedFile: no Content-Length, as a storage streaming the file does; the client can only count the bytes.
	if (ctx.fault !== 'chunkedFile') headers['content-length'] = String(file.content.length);
	return { status: 200, body: file.content, headers };
}

function intakeOf(ctx: RequestContext) {
	const intake = ctx.sim.data(ctx.companyId!).intakes.find((i) => i.id === ctx.params.intakeId);
	if (!intake) throw new SimError(404, 'not_found', 'Intake not found', 'path.intakeId');
	return intake;
}

function startUpload(ctx: RequestContext): HandlerResult {
	const intake = intakeOf(ctx);
	const body = bodyObject(ctx);
	const { fileName, mimeType, size } = body;
	if (
		typeof fileName !== 'string' ||
		!fileName.trim() ||
		fileName.length > 255 ||
		/[/\\]/.test(fileName)
	) {
		throw new SimError(
			400,
			'invalid_parameter',
			'fileName must be a file name of 1 to 255 characters without slashes',
			'body.fileName',
		);
	}
	if (typeof mimeType !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(mimeType))
		throw new SimError(
			400,
			'invalid_parameter',
			'mimeType must be a MIME type such as application/pdf',
			'body.mimeType',
		);
	if (typeof size !== 'number' || !Number.isInteger(size) || size < 1)
		throw new SimError(
			400,
			'invalid_parameter',
			'size must be the file size in bytes (at least 1)',
			'body.size',
		);
	if (size > MAX_UPLOAD_BYTES)
		throw new SimError(
			400,
			'file_too_large',
			`Files are limited to ${MAX_UPLOAD_BYTES} bytes`,
			'body.size',
		);
	const fileId = ctx.sim.files.nextUploadId();
	ctx.sim.files.uploads.set(fileId, {
		fileId,
		companyId: ctx.companyId!,
		intakeId: intake.id,
		fileName,
		mimeType,
		size,
		status: 'pending',
	});
	const { url, expiresAt } = presign(ctx, 'PUT', `/uploads/${fileId}`);
	return ok(
		{
			data: {
				fileId,
				uploadUrl: url,
				method: 'PUT',
				headers: { 'content-type': mimeType },
				expiresAt,
			},
		},
		201,
	);
}

function receiveUpload(ctx: RequestContext): HandlerResult {
	const upload = ctx.sim.files.uploads.get(ctx.params.fileId);
	if (!upload) throw new SimError(404, 'NoSuchUpload', 'The specified upload does not exist');
	if (upload.status === 'uploaded')
		throw new SimError(409, 'AlreadyConfirmed', 'The upload is already confirmed');
	// The content type is part of what was signed: another one is a signature mismatch.
	const contentType = String(ctx.headers['content-type'] ?? '');
	if (contentType.split(';')[0].trim().toLowerCase() !== upload.mimeType.toLowerCase()) {
		throw Object.assign(
			new SimError(
				403,
				'SignatureDoesNotMatch',
				storageError(
					'SignatureDoesNotMatch',
					`The content type must be ${upload.mimeType}, as declared`,
				),
			),
			{ storage: true },
		);
	}
	const bytes = ctx.rawBody ?? Buffer.alloc(0);
	if (bytes.length !== upload.size)
		throw new SimError(
			400,
			'IncompleteBody',
			`The body has ${bytes.length} bytes; ${upload.size} were declared`,
		);
	upload.content = bytes;
	upload.status = 'received';
	return { status: 200, headers: { etag: `"${upload.fileId}"` } };
}

function completeUpload(ctx: RequestContext): HandlerResult {
	const intake = intakeOf(ctx);
	const upload = ctx.sim.files.uploads.get(ctx.params.fileId);
	if (!upload || upload.companyId !== ctx.companyId || upload.intakeId !== intake.id)
		throw new SimError(404, 'not_found', 'File not found', 'path.fileId');
	if (upload.status === 'pending')
		throw new SimError(
			409,
			'upload_incomplete',
			'The file was not uploaded to its upload URL yet',
			'path.fileId',
		);
	// A second confirm answers the same (docs/api.md#files: confirming is safe to repeat).
	if (upload.status === 'received') {
		upload.status = 'uploaded';
		const files = (Array.isArray(intake.files) ? intake.files : []) as unknown[];
		intake.files = [
			...files,
			{
				fileId: upload.fileId,
				fileName: upload.fileName,
				mimeType: upload.mimeType,
				size: upload.size,
			},
		];
	}
	return ok({ data: { fileId: upload.fileId, status: 'uploaded' } });
}

function isoParam(value: unknown, name: string): string {
	if (
		typeof value !== 'string' ||
		Number.isNaN(Date.parse(value)) ||
		!/^\d{4}-\d{2}-\d{2}/.test(value)
	) {
		throw new SimError(
			400,
			'invalid_parameter',
			`${name} must be an ISO 8601 date-time`,
			`body.${name}`,
		);
	}
	return new Date(value).toISOString();
}

/**
 * The journal templates of a company (docs/api.md#journal-templates): `{id, name}`, the
 * `templateId` an accounting export may name. The same three in every company (decided here).
 */
export const JOURNAL_TEMPLATES = [
	{ id: 'tpl_default', name: 'Spendesk default journal' },
	{ id: 'tpl_datev', name: 'DATEV' },
	{ id: 'tpl_sage', name: 'Sage' },
] as const;

function createExport(ctx: RequestContext): HandlerResult {
	const body = bodyObject(ctx);
	const from = isoParam(body.from, 'from');
	const to = isoParam(body.to, 'to');
	if (from > to)
		throw new SimError(400, 'invalid_parameter', 'from must not be after to', 'body.from');
	if (
		body.templateId !== undefined &&
		(typeof body.templateId !== 'string' || !body.templateId.trim())
	) {
		throw new SimError(
			400,
			'invalid_parameter',
			'templateId must be a template ID',
			'body.templateId',
		);
	}
	if (body.templateId !== undefined && !JOURNAL_TEMPLATES.some((t) => t.id === body.templateId))
		throw new SimError(
			400,
			'invalid_parameter',
			`No journal template ${String(body.templateId)}: list them with GET /v1/accounting/journal-templates`,
			'body.templateId',
		);
	const id = ctx.sim.files.nextExportId();
	const exp = {
		id,
		companyId: ctx.companyId!,
		status: 'PENDING' as const,
		from,
		to,
		templateId: body.templateId as string | undefined,
		createdAt: ctx.sim.clock.iso(),
		polls: 0,
	};
	ctx.sim.files.exports.set(id, exp);
	return singleBody(
		ctx,
		{ id, status: exp.status, from, to, ...(exp.templateId ? { templateId: exp.templateId } : {}) },
		201,
	);
}

function exportOf(ctx: RequestContext) {
	const exp = ctx.sim.files.exports.get(ctx.params.exportId);
	if (!exp || exp.companyId !== ctx.companyId)
		throw new SimError(404, 'not_found', 'Accounting export not found', 'path.exportId');
	return exp;
}

function getExport(ctx: RequestContext): HandlerResult {
	const exp = exportOf(ctx);
	if (ctx.fault === 'exportError') exp.status = 'ERROR';
	if (exp.status === 'PENDING' && ++exp.polls > (ctx.sim.options.exportPendingPolls ?? 2))
		exp.status = 'COMPLETE';
	return singleBody(ctx, {
		id: exp.id,
		status: exp.status,
		from: exp.from,
		to: exp.to,
		...(exp.templateId ? { templateId: exp.templateId } : {}),
	});
}

function journal(ctx: RequestContext): HandlerResult {
	const exp = exportOf(ctx);
	if (exp.status !== 'COMPLETE')
		throw new SimError(
			409,
			'export_not_ready',
			`The export is ${exp.status}; its journal exists once it is COMPLETE`,
			'path.exportId',
		);
	const rows = ctx.sim
		.data(exp.companyId)
		.payables.filter((p) => p.createdAt >= exp.from && p.createdAt < exp.to);
	return {
		status: 200,
		body: journalCsv(rows),
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="journal-${exp.id}.csv"`,
		},
	};
}

/** Upload record of a test (typed for assertions). */
export type { IntakeUpload };

export const FILE_ROUTES: RouteDef[] = [
	{
		id: 'listPayableAttachments',
		method: 'GET',
		pattern: /^\/v1\/payables\/(?<payableId>[^/]+)\/attachments$/,
		placement: 'header',
		scope: 'payable-attachment:read',
		handler: listAttachments,
	},
	{
		id: 'fileDownload',
		method: 'GET',
		pattern: /^\/files\/(?<fileId>[^/]+)$/,
		placement: 'public',
		host: 'files',
		handler: fileHost(download),
	},
	{
		id: 'startIntakeUpload',
		method: 'POST',
		pattern: /^\/v2\/companies\/(?<companyId>[^/]+)\/intakes\/(?<intakeId>[^/]+)\/files$/,
		placement: 'path',
		scope: 'experimental:intake:write',
		handler: startUpload,
	},
	{
		id: 'fileUpload',
		method: 'PUT',
		pattern: /^\/uploads\/(?<fileId>[^/]+)$/,
		placement: 'public',
		host: 'files',
		handler: fileHost(receiveUpload),
	},
	{
		id: 'completeIntakeUpload',
		method: 'POST',
		pattern:
			/^\/v2\/companies\/(?<companyId>[^/]+)\/intakes\/(?<intakeId>[^/]+)\/files\/(?<fileId>[^/]+)\/complete$/,
		placement: 'path',
		scope: 'experimental:intake:write',
		handler: completeUpload,
	},
	{
		id: 'createAccountingExport',
		method: 'POST',
		pattern: /^\/v1\/accounting\/exports$/,
		placement: 'header',
		scope: 'experimental:accounting-export:read',
		handler: createExport,
	},
	{
		id: 'listJournalTemplates',
		method: 'GET',
		pattern: /^\/v1\/accounting\/journal-templates$/,
		placement: 'header',
		scope: 'experimental:accounting-export:read',
		handler: (ctx) => ok(pageOf([...JOURNAL_TEMPLATES], ctx.query)),
	},
	{
		id: 'getAccountingExport',
		method: 'GET',
		pattern: /^\/v1\/accounting\/exports\/(?<exportId>[^/]+)$/,
		placement: 'header',
		scope: 'experimental:accounting-export:read',
		handler: getExport,
	},
	{
		id: 'getJournal',
		method: 'GET',
		pattern: /^\/v1\/accounting\/journal\/(?<exportId>[^/]+)\/content$/,
		placement: 'header',
		scope: 'experimental:accounting-export:read',
		handler: journal,
	},
];
