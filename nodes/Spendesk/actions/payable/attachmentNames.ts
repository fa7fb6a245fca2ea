/**
 * The file names and MIME types of Payable → Get Attachments (docs/api.md#files): every file a
 * name with the extension of its type, no two files of one payable the same name.
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

/** A MIME type without parameters, lower case, in its usual spelling; undefined when it says nothing. */
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

/** An attachment's name before its type is known: `fileName`, its ID, its link's last segment, or "attachment". */
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

/** The names given so far to one payable's files, without case: `take` numbers a repeat (`receipt (2).pdf`). */
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
