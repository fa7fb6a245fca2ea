/** Parameters of the operations that move files: the field holding the file, Max File Size, safe file names. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { numberOf } from '../values/expression';
import { fail } from './readers';

/** The name of the field holding a file (`label` as the editor names it): not empty, without spaces. */
export function readBinaryPropertyName(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback = 'data',
	// Output files are named among the Options of their operation.
	label = name.startsWith('options.') ? 'Put Output File in Field' : 'Input Data Field Name',
): string {
	const raw = ctx.getNodeParameter(name, itemIndex, fallback) as unknown;
	const value = typeof raw === 'string' ? raw.trim() : '';
	if (!value || /\s/.test(value))
		fail(
			ctx,
			itemIndex,
			`'${label}' must be a field name without spaces, e.g. "data"; got ${value ? `"${value}"` : 'nothing'}`,
			'Enter the name of the field that holds (or will hold) the file, as n8n shows it in the Binary tab.',
		);
	return value;
}

/** Max File Size (MB): the largest value accepted, the value when not set, what to do when out of bounds. */
export interface MaxFileSize {
	largest: number;
	fallback: number;
	description: string;
	advice: string;
}

/** Max File Size of the downloads: a file larger is refused instead of filling n8n's memory. */
export const DOWNLOAD_MAX_FILE_SIZE: MaxFileSize = {
	largest: 1024,
	fallback: 25,
	description:
		'Largest file to download; a larger attachment is refused for its item instead of filling the memory of n8n',
	advice: `Enter the largest file to download in megabytes, e.g. 25.`,
};

export function maxFileSizeOption({
	largest,
	fallback,
	description,
}: MaxFileSize): INodeProperties {
	return {
		displayName: 'Max File Size (MB)',
		name: 'maxFileSize',
		type: 'number',
		typeOptions: { minValue: 0.01, maxValue: largest, numberPrecision: 2 },
		default: fallback,
		description,
	};
}

/** Max File Size (MB) as bytes: a number from 0.01 to the largest `size` allows. */
export function readMaxBytes(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	size: MaxFileSize = DOWNLOAD_MAX_FILE_SIZE,
): number {
	const raw = ctx.getNodeParameter(name, itemIndex, size.fallback) as unknown;
	const mb = numberOf(raw);
	if (!Number.isFinite(mb) || mb < 0.01 || mb > size.largest)
		fail(
			ctx,
			itemIndex,
			`'Max File Size (MB)' must be a number from 0.01 to ${size.largest}; got ${String(raw)}`,
			size.advice,
		);
	return Math.floor(mb * 1024 * 1024);
}

/** "Input Data Field Name" or "Put Output File in Field", as n8n's own nodes name it (`binaryPropertyName`). */
export function binaryPropertyField(
	description: string,
	direction: 'input' | 'output' = 'output',
): INodeProperties {
	return {
		displayName: direction === 'input' ? 'Input Data Field Name' : 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		description,
	};
}

/** A file name safe to hand to n8n: no path separators or control characters, not empty. */
export function safeFileName(name: unknown, fallback: string): string {
	const unsafe = (c: string) =>
		c === '/' || c === '\\' || c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127;
	const text =
		typeof name === 'string'
			? [...name]
					.map((c) => (unsafe(c) ? '_' : c))
					.join('')
					.trim()
			: '';
	return text && text !== '.' && text !== '..' ? text.slice(0, 255) : fallback;
}

/** The input item's file: its property checked before any request (n8n's own error when it is missing). */
export function readInputFile(ctx: IExecuteFunctions, itemIndex: number) {
	const property = readBinaryPropertyName(ctx, 'binaryPropertyName', itemIndex);
	const binary = ctx.helpers.assertBinaryData(itemIndex, property);
	return {
		property,
		fileName: safeFileName(
			binary.fileName,
			`file${binary.fileExtension ? `.${binary.fileExtension}` : ''}`,
		),
		mimeType: binary.mimeType || 'application/octet-stream',
	};
}
