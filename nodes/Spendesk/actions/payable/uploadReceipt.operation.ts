/**
 * Payable → Upload Receipt (docs/api.md#receipt-upload): a pre-signed form, then the file
 * WITHOUT the bearer token (transport/presigned.ts). No source gives Spendesk's largest receipt:
 * Max File Size defaults to 50 MB (the simulator's limit).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { singleObject } from '../../transport/pagination/response';
import {
	formatBytes,
	formFields,
	presignedUrl,
	uploadPresignedForm,
} from '../../transport/presigned';
import { callSpendesk } from '../../transport/request';
import {
	DOWNLOAD_MAX_FILE_SIZE,
	maxFileSizeOption,
	readInputFile,
	readMaxBytes,
} from '../fileParams';
import type { MaxFileSize } from '../fileParams';
import { withState } from '../intake/upload';
import type { SingleOperation } from '../types';
import { optionsCollection } from '../sharedParams';
import { fail } from '../readers';
import { payableLocator, readPayableId } from './version';

/** Max File Size of a receipt by default; Spendesk's own limit is not published (docs/api.md#receipt-upload). */
const DEFAULT_RECEIPT_MB = 50;

const RECEIPT_MAX_FILE_SIZE: MaxFileSize = {
	largest: DOWNLOAD_MAX_FILE_SIZE.largest,
	fallback: DEFAULT_RECEIPT_MB,
	description:
		'Largest receipt to upload; a larger file is refused before anything is sent. Spendesk does not publish its own limit: raise this if it takes larger receipts.',
	advice: `Enter the largest receipt to upload in megabytes, e.g. ${DEFAULT_RECEIPT_MB}.`,
};

/** The receipt types Spendesk takes, by the MIME types files come with. */
const RECEIPT_TYPES: Record<string, string> = {
	'application/pdf': 'application/pdf',
	'image/jpeg': 'image/jpeg',
	'image/jpg': 'image/jpeg',
	'image/pjpeg': 'image/jpeg',
	'image/png': 'image/png',
};

/** The form Spendesk opened: a POST to a pre-signed URL with its fields. */
function readForm(
	ctx: IExecuteFunctions,
	body: unknown,
	what: string,
	itemIndex: number,
): { url: URL; fields: Array<[string, string]> } {
	const data = singleObject(body) ?? {};
	const method = typeof data.method === 'string' ? data.method.toUpperCase() : 'POST';
	const fields = formFields(data.fields);
	if (method !== 'POST' || !fields.length)
		fail(
			ctx,
			itemIndex,
			`Spendesk did not open an upload form for ${what} as expected`,
			`The answer lacked the form's fields or asked for ${method} instead of POST. Nothing was uploaded. Run the node again; if it persists, contact Spendesk support.`,
		);
	return { url: presignedUrl(ctx, data.url, what, itemIndex), fields };
}

async function uploadReceipt(
	ctx: IExecuteFunctions,
	company: string | undefined,
	payableId: string,
	file: { bytes: Buffer; fileName: string; mimeType: string },
	itemIndex: number,
): Promise<IDataObject> {
	const what = `receipt "${file.fileName}"`;
	const opened = await callSpendesk<IDataObject>(ctx, 'startPayableAttachmentUpload', {
		company,
		pathParams: { payableId },
		body: { mimeType: file.mimeType, contentLength: file.bytes.length },
		itemIndex,
	}).catch(withState(ctx, 'No file was sent, so running again is safe.', itemIndex));
	const form = readForm(ctx, opened.body, what, itemIndex);
	await uploadPresignedForm(ctx, form.url, { what, fields: form.fields, file, itemIndex }).catch(
		withState(
			ctx,
			`The ${what} may not be attached to payable "${payableId}": check its attachments (Payable → Get Attachments with Metadata Only) before running again, so that it is not attached twice.`,
			itemIndex,
		),
	);
	return { payableId, fileName: file.fileName, mimeType: file.mimeType, size: file.bytes.length };
}

export const uploadPayableReceipt: SingleOperation = {
	value: 'uploadReceipt',
	perCompany: true,
	write: true,
	properties: [
		...payableLocator(
			'The payable to attach the receipt to: pick it from the list, or enter its ID (usually from an expression)',
		),
		{
			displayName: 'Input Data Field Name',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			placeholder: 'e.g. data',
			description:
				'The name of the input field holding the receipt (PDF, JPEG or PNG), as the Binary tab of the input shows it',
		},
		optionsCollection([maxFileSizeOption(RECEIPT_MAX_FILE_SIZE)]),
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const payableId = readPayableId(this, itemIndex);
		const input = readInputFile(this, itemIndex);
		const mimeType = RECEIPT_TYPES[input.mimeType.split(';')[0].trim().toLowerCase()];
		if (!mimeType)
			fail(
				this,
				itemIndex,
				`The file "${input.fileName}" is ${input.mimeType}: Spendesk takes PDF, JPEG and PNG receipts only`,
				'Convert the receipt to PDF, JPEG or PNG first (or set the right MIME type when making the file).',
			);
		const maxBytes = readMaxBytes(this, 'options.maxFileSize', itemIndex, RECEIPT_MAX_FILE_SIZE);
		return async (company) => {
			const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, input.property);
			if (bytes.length === 0 || bytes.length > maxBytes)
				fail(
					this,
					itemIndex,
					bytes.length === 0
						? `The file "${input.fileName}" is empty`
						: `The file "${input.fileName}" is larger than 'Max File Size (MB)' (${formatBytes(bytes.length)}; the limit is ${formatBytes(maxBytes)})`,
					bytes.length === 0
						? 'Nothing was sent. Check the binary data of the input item.'
						: "Nothing was sent. Raise 'Max File Size (MB)' in the options, or make the file smaller.",
				);
			const file = { bytes, fileName: input.fileName, mimeType };
			return { items: [await uploadReceipt(this, company, payableId, file, itemIndex)] };
		};
	},
};
