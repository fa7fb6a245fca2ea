/**
 * Payable → Get Attachments: one item per attachment of the payable, with its file as binary
 * data (file name and MIME type kept), or its metadata only. Files are fetched from their
 * pre-signed links without credentials (transport/presigned.ts).
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/strategy';
import { downloadPresigned, formatBytes, presignedUrl } from '../../transport/presigned';
import { callSpendesk } from '../../transport/request';
import {
	binaryPropertyField,
	DOWNLOAD_MAX_FILE_SIZE,
	maxFileSizeOption,
	readBinaryPropertyName,
	readMaxBytes,
	safeFileName,
} from '../fileParams';
import { readRecordId, recordLocator } from '../recordId';
import type { SpendeskOperation } from '../types';
import { optionsCollection } from '../sharedParams';

interface AttachmentOptions {
	binaryPropertyName: string;
	metadataOnly: boolean;
	maxBytes: number;
}

function readOptions(ctx: IExecuteFunctions, itemIndex: number): AttachmentOptions {
	const metadataOnly = ctx.getNodeParameter('options.metadataOnly', itemIndex, false) === true;
	return {
		metadataOnly,
		binaryPropertyName: readBinaryPropertyName(ctx, 'options.binaryPropertyName', itemIndex),
		maxBytes: readMaxBytes(ctx, 'options.maxFileSize', itemIndex),
	};
}

/** File name extensions of the usual attachment types, for attachments listed without a file name. */
const EXTENSIONS: Record<string, string> = {
	'application/pdf': 'pdf',
	'image/jpeg': 'jpg',
	'image/jpg': 'jpg',
	'image/png': 'png',
	'image/gif': 'gif',
	'image/heic': 'heic',
	'image/heif': 'heif',
	'image/tiff': 'tiff',
	'image/webp': 'webp',
	'text/csv': 'csv',
	'text/plain': 'txt',
	'application/xml': 'xml',
	'text/xml': 'xml',
	'application/zip': 'zip',
};

/**
 * The attachment's file name; without one (the vendor's items may lack it), one made of its ID
 * and its MIME type, e.g. `att_1.pdf`.
 */
export function attachmentFileName(attachment: IDataObject): string {
	const id = String(attachment.id ?? 'attachment');
	const mime = typeof attachment.mimeType === 'string' ? attachment.mimeType.toLowerCase() : '';
	const extension = EXTENSIONS[mime.split(';')[0].trim()];
	return safeFileName(
		attachment.fileName,
		safeFileName(extension ? `${id}.${extension}` : id, 'attachment'),
	);
}

/** The attachment's pre-signed link: `downloadUrl`, else `url` (as the vendor's items carry it). */
function linkOf(attachment: IDataObject): unknown {
	return attachment.downloadUrl !== undefined && attachment.downloadUrl !== null
		? attachment.downloadUrl
		: attachment.url;
}

/** One attachment with its file: the link checked, the declared size checked, then the download. */
async function withFile(
	ctx: IExecuteFunctions,
	attachment: IDataObject,
	options: AttachmentOptions,
	itemIndex: number,
): Promise<IBinaryKeyData> {
	const fileName = attachmentFileName(attachment);
	const what = `attachment "${fileName}" of the payable`;
	const url = presignedUrl(ctx, linkOf(attachment), what, itemIndex);
	const declared = typeof attachment.size === 'number' ? attachment.size : undefined;
	if (declared !== undefined && declared > options.maxBytes) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The file of ${what} is larger than 'Max File Size (MB)' allows (${formatBytes(declared)}; the limit is ${formatBytes(options.maxBytes)})`,
			{
				description:
					"Raise 'Max File Size (MB)' in the options to download it, or turn on 'Metadata Only' to get the links without the files.",
				itemIndex,
			},
		);
	}
	const { bytes, contentType } = await downloadPresigned(ctx, url, {
		what,
		maxBytes: options.maxBytes,
		itemIndex,
	});
	const mimeType =
		typeof attachment.mimeType === 'string' && attachment.mimeType
			? attachment.mimeType
			: contentType?.split(';')[0].trim() || 'application/octet-stream';
	return {
		[options.binaryPropertyName]: await ctx.helpers.prepareBinaryData(bytes, fileName, mimeType),
	};
}

export const getPayableAttachments: SpendeskOperation = {
	value: 'getAttachments',
	perCompany: true,
	properties: [
		...recordLocator({
			name: 'payableId',
			label: 'Payable',
			description:
				'The payable whose attachments (receipts, invoices) to get; usually its ID taken by an expression from the previous node',
			allCompaniesDescription:
				'The ID of the payable whose attachments (receipts, invoices) to get, usually taken by an expression from the previous node; the node looks for it in every company',
			placeholder: 'e.g. pay_001_000002',
			searchListMethod: 'searchPayables',
		}),
		optionsCollection([
			maxFileSizeOption(DOWNLOAD_MAX_FILE_SIZE),
			{
				displayName: 'Metadata Only',
				name: 'metadataOnly',
				type: 'boolean',
				default: false,
				description:
					'Whether to return the attachments without their files (name, type, size, and the short-lived download link)',
			},
			binaryPropertyField('The name of the output field to put each file in'),
		]),
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const payableId = readRecordId(
			this,
			'payableId',
			"'Payable'",
			itemIndex,
			'Pick the payable from the list, or give its ID, e.g. {{ $json.id }} after Payable → Get Many.',
		);
		const options = readOptions(this, itemIndex);
		return async (company) => {
			const { body } = await callSpendesk<IDataObject>(this, 'listPayableAttachments', {
				company,
				pathParams: { payableId },
				itemIndex,
			});
			const attachments = Array.isArray(body?.data) ? bodyItems(body) : [];
			if (options.metadataOnly) return { items: attachments.map((a) => ({ payableId, ...a })) };
			const items: IDataObject[] = [];
			const binary: IBinaryKeyData[] = [];
			for (const attachment of attachments) {
				binary.push(await withFile(this, attachment, options, itemIndex));
				// The link is spent and soon expired: the item carries the file instead.
				const metadata: IDataObject = { payableId, ...attachment };
				delete metadata.downloadUrl;
				delete metadata.url;
				items.push(metadata);
			}
			return { items, binary };
		};
	},
};
