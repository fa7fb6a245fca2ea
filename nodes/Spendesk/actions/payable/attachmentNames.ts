/**
 * The file names and MIME types Payable → Get Attachments gives its files (docs/api.md#files).
 * Spendesk may list an attachment with its own file name (the specification's items) or
 * without any name or ID (the vendor's older document: `mimeType, checksum, attachedAt, url`).
 * Every file gets a name that says what it is, with the extension of its type, and no two files
 * of one payable get the same name, so that a workflow writing them to disk keeps them all.
 */
import type { IDataObject } from 'n8n-workflow';
import { safeFileName } from '../fileParams';

/** Extensions by MIME type: the receipt types first, then other usual attachment types. */
const EXTENSIONS: Record<string, string[]> = {
	'application/pdf': ['pdf'],
	'image/jpeg': ['jpg', 'jpeg', 'jpe'],
	'image/png': ['png'],
	'image/gif': ['gif'],
	'image/heic': ['heic'],
	'image/heif': ['heif'],
	'image/tiff': ['tiff', 'tif'],
	'image/webp': ['webp'],
	'text/csv': ['csv'],
	'text/plain': ['txt'],
	'application/xml': ['xml'],
	'text/xml': ['xml'],
	'application/zip': ['zip'],
};

/** Other spellings of a type, as the one n8n and mail clients know (the older document lists `image/jpg`). */
const ALIASES: Record<string, string> = {
	'image/jpg': 'image/jpeg',
	'image/pjpeg': 'image/jpeg',
	'image/x-png': 'image/png',
};

/** Types that say nothing about the file. */
const GENERIC = new Set(['application/octet-stream', 'binary/octet-stream', 'application/binary']);

/**
 * A MIME type as given (a listing's `mimeType`, a Content-Type header), without parameters,
 * lower case, in its usual spelling; undefined when absent or saying nothing of the file.
 */
export function mimeTypeOf(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const type = value.split(';')[0].trim().toLowerCase();
	if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) || GENERIC.has(type)) return undefined;
	return ALIASES[type] ?? type;
}

/** The last segment of a link's path, decoded; empty when the path ends with a slash. */
function lastSegment(url: URL | undefined): string {
	const segment = url?.pathname.split('/').pop() ?? '';
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/**
 * The name of an attachment before its type is known for sure: its own `fileName`, else its ID,
 * else the last segment of its link (object storage names a file by its key), else "attachment".
 */
export function baseFileName(attachment: IDataObject, url: URL | undefined): string {
	const id = typeof attachment.id === 'string' || typeof attachment.id === 'number';
	return safeFileName(
		attachment.fileName,
		safeFileName(id ? String(attachment.id) : '', safeFileName(lastSegment(url), 'attachment')),
	);
}

/** The name with the extension of its MIME type, unless it already ends with one of that type. */
export function withExtension(name: string, mimeType: string | undefined): string {
	const extensions = mimeType ? EXTENSIONS[mimeType] : undefined;
	if (!extensions) return name;
	const given = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
	return given && extensions.includes(given) ? name : `${name}.${extensions[0]}`;
}

/**
 * The names given so far to the files of one payable, compared without case (a file system
 * may not tell `Receipt.pdf` from `receipt.pdf`): `take` gives a name no earlier file has,
 * numbering a repeat before its extension (`receipt (2).pdf`).
 */
export class FileNames {
	private readonly taken = new Set<string>();

	take(name: string): string {
		const dot = name.lastIndexOf('.');
		const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
		let candidate = name;
		for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) {
			const suffix = ` (${n})${extension}`;
			candidate = `${stem.slice(0, Math.max(1, 255 - suffix.length))}${suffix}`;
		}
		this.taken.add(candidate.toLowerCase());
		return candidate;
	}
}
