/**
 * Files of the simulator: payables' attachments, intake file uploads and accounting exports
 * with their journal. Attachments and uploads move through pre-signed URLs on the simulator's
 * second loopback server (the file host), as object storage does: a URL carries its expiry
 * and an HMAC signature, and is used WITHOUT the API's bearer token. A wrong or expired
 * signature is a 403, in the storage's own (XML) error format.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface StoredFile {
	id: string;
	fileName: string;
	mimeType: string;
	content: Buffer;
	/** Size the listing states, when it differs from the content's (tests: a listing that understates). */
	listedSize?: number;
	/** MIME type the listing states, when it differs from the stored one; null: none listed (tests). */
	listedMimeType?: string | null;
	/** When it was attached (the documented listing's `attachedAt`); seeded files: the payable's creation. */
	attachedAt?: string;
}

export interface IntakeUpload {
	fileId: string;
	companyId: string;
	intakeId: string;
	fileName: string;
	mimeType: string;
	size: number;
	/** pending: slot opened; received: bytes PUT; uploaded: confirmed and attached to the intake. */
	status: 'pending' | 'received' | 'uploaded';
	content?: Buffer;
}

export interface AccountingExport {
	id: string;
	companyId: string;
	status: 'PENDING' | 'COMPLETE' | 'ERROR';
	from: string;
	to: string;
	templateId?: string;
	createdAt: string;
	polls: number;
}

/** Largest intake file the simulator accepts (decided here): 50 MB. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** Lifetime of pre-signed URLs (download and upload) unless the options say otherwise: 15 minutes. */
export const DEFAULT_URL_LIFETIME_SECONDS = 900;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

/** A small PDF whose text names what it is. */
function pdf(title: string): Buffer {
	return Buffer.from(
		`%PDF-1.4\n% ${title}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
		'latin1',
	);
}

/** Every byte value after a signature, so a client that reads the file as text damages it visibly. */
function image(signature: Buffer, n: number): Buffer {
	const bytes = Buffer.alloc(512);
	for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + n) % 256;
	return Buffer.concat([signature, bytes]);
}

/**
 * The seeded files of a payable, by its number: n mod 3 gives none, a PDF receipt, or a PDF and
 * a PNG photo; a number that is 8 mod 9 (8, 17, …) gives two PDFs (a receipt and an invoice)
 * and a JPEG photo instead, the receipt types the vendor's older document lists
 * (docs/api.md#files).
 */
export function seededAttachments(payableId: string): StoredFile[] {
	const n = Number(/(\d+)$/.exec(payableId)?.[1] ?? 0);
	const suffix = payableId.replace(/^pay_/, '');
	const file = (i: number, fileName: string, mimeType: string, content: Buffer): StoredFile => ({
		id: `att_${suffix}_${i}`,
		fileName,
		mimeType,
		content,
	});
	if (n % 9 === 8)
		return [
			file(1, `receipt-${payableId}.pdf`, 'application/pdf', pdf(`Receipt for ${payableId}`)),
			file(2, `invoice-${payableId}.pdf`, 'application/pdf', pdf(`Invoice for ${payableId}`)),
			file(3, `photo ${payableId}.jpg`, 'image/jpeg', image(JPEG_SIGNATURE, n)),
		];
	const files: StoredFile[] = [];
	if (n % 3 >= 1)
		files.push(
			file(1, `receipt-${payableId}.pdf`, 'application/pdf', pdf(`Receipt for ${payableId}`)),
		);
	if (n % 3 === 2)
		files.push(file(2, `photo ${payableId} (2).png`, 'image/png', image(PNG_SIGNATURE, n)));
	return files;
}

export class FileStore {
	/** Signing key of the pre-signed URLs; only the simulator knows it. */
	private readonly secret = randomBytes(32);
	private readonly attachments = new Map<string, StoredFile[]>();
	private readonly blobs = new Map<string, StoredFile>();
	readonly uploads = new Map<string, IntakeUpload>();
	readonly exports = new Map<string, AccountingExport>();
	private uploadSeq = 0;
	private exportSeq = 0;

	/** The attachments of a payable (seeded on first use). */
	attachmentsOf(payableId: string): StoredFile[] {
		let list = this.attachments.get(payableId);
		if (!list) {
			list = seededAttachments(payableId);
			this.attachments.set(payableId, list);
		}
		for (const file of list) this.blobs.set(file.id, file);
		return list;
	}

	/** Replaces a payable's attachments (tests: large files, odd names, none). */
	setAttachments(payableId: string, files: StoredFile[]): void {
		this.attachments.set(payableId, files);
		for (const file of files) this.blobs.set(file.id, file);
	}

	blob(id: string): StoredFile | undefined {
		return this.blobs.get(id);
	}

	nextUploadId(): string {
		return `fil_${String(++this.uploadSeq).padStart(6, '0')}`;
	}

	nextExportId(): string {
		return `exp_${String(++this.exportSeq).padStart(6, '0')}`;
	}

	/** `?expires=<unix seconds>&signature=<hex>` for a method and path of the file host. */
	signedQuery(method: string, path: string, expiresAtMs: number): string {
		const expires = Math.floor(expiresAtMs / 1000);
		return `expires=${expires}&signature=${this.signature(method, path, expires)}`;
	}

	/** Checks a pre-signed request: 'ok', 'expired' or 'bad' (missing, wrong, or for another method or path). */
	verify(
		method: string,
		path: string,
		query: Record<string, string>,
		nowMs: number,
	): 'ok' | 'expired' | 'bad' {
		const expires = Number(query.expires);
		const given = query.signature ?? '';
		if (!Number.isInteger(expires) || !/^[0-9a-f]{64}$/.test(given)) return 'bad';
		const expected = this.signature(method, path, expires);
		if (!timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'))) return 'bad';
		return expires * 1000 <= nowMs ? 'expired' : 'ok';
	}

	private signature(method: string, path: string, expires: number): string {
		return createHmac('sha256', this.secret).update(`${method}\n${path}\n${expires}`).digest('hex');
	}
}

/** What the file host answers to a refused pre-signed request (the format of object storage). */
export function storageError(code: string, message: string): string {
	return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;
}

/** One CSV field, quoted when it needs to be. */
function csvField(value: unknown): string {
	const text = String(value ?? '');
	return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The journal of an export: one line per payable created in [from, to). */
export function journalCsv(
	rows: Array<{
		id: string;
		description: string;
		amount: number;
		currency: string;
		createdAt: string;
	}>,
): string {
	const lines = ['date,payableId,description,amount,currency'];
	for (const row of rows)
		lines.push(
			// Payables hold minor units (docs/api.md#payables); the journal shows major units.
			[
				row.createdAt.slice(0, 10),
				row.id,
				row.description,
				(row.amount / 100).toFixed(2),
				row.currency,
			]
				.map(csvField)
				.join(','),
		);
	return `${lines.join('\r\n')}\r\n`;
}
