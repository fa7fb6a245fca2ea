/** Payable → Get Attachments: one item per attachment, its file fetched without credentials (transport/presigned.ts). */
import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { ENDPOINTS } from '../../transport/endpoints';
import { unreadableList } from '../../transport/pagination/errors';
import { asItems } from '../../transport/pagination/response';
import { downloadPresigned, formatBytes, presignedUrl } from '../../transport/presigned';
import { callSpendesk } from '../../transport/request';
import {
	binaryPropertyField,
	DOWNLOAD_MAX_FILE_SIZE,
	maxFileSizeOption,
	readBinaryPropertyName,
	readMaxBytes,
} from '../fileParams';
import { recordLocator } from '../recordId';
import type { SpendeskOperation } from '../types';
import { baseFileName, FileNames, mimeTypeOf, withExtension } from './attachmentNames';
import { optionsCollection } from '../sharedParams';
import { isObject } from '../../transport/pagination/response';
import { fail } from '../readers';
import { readPayableId } from './version';

/** The attachment's pre-signed link: `downloadUrl`, else `url` (as the vendor's items carry it). */
function linkOf(attachment: IDataObject): unknown {
	return attachment.downloadUrl !== undefined && attachment.downloadUrl !== null
		? attachment.downloadUrl
		: attachment.url;
}

/** The link as a URL when it is one; for naming only (presignedUrl checks it before any use). */
function parsedLink(attachment: IDataObject): URL | undefined {
	try {
		return new URL(String(linkOf(attachment)));
	} catch {
		return undefined;
	}
}

/** The attachments of an answer: `{data: [...]}`, a bare list, or one under `data`; anything else is an error. */
function attachmentsOf(
	ctx: IExecuteFunctions,
	body: unknown,
	company: string | undefined,
	itemIndex: number,
): IDataObject[] {
	if (Array.isArray(body)) return asItems(body);
	if (isObject(body)) {
		if (Array.isArray(body.data)) return asItems(body.data);
		if (isObject(body.data)) return [body.data];
		if (body.data === null) return [];
	}
	throw unreadableList(ctx, ENDPOINTS.listPayableAttachments, company, 1, body, itemIndex);
}

/** One attachment with its file: link and declared size checked, then the download, named from what Spendesk gives. */
async function withFile(
	ctx: IExecuteFunctions,
	attachment: IDataObject,
	options: { binaryPropertyName: string; maxBytes: number },
	names: FileNames,
	itemIndex: number,
): Promise<IBinaryKeyData> {
	const base = baseFileName(attachment, parsedLink(attachment));
	const listedType = mimeTypeOf(attachment.mimeType);
	const what = `attachment "${withExtension(base, listedType)}" of the payable`;
	const url = presignedUrl(ctx, linkOf(attachment), what, itemIndex);
	const declared = typeof attachment.size === 'number' ? attachment.size : undefined;
	if (declared !== undefined && declared > options.maxBytes)
		fail(
			ctx,
			itemIndex,
			`The file of ${what} is larger than 'Max File Size (MB)' allows (${formatBytes(declared)}; the limit is ${formatBytes(options.maxBytes)})`,
			"Raise 'Max File Size (MB)' in the options to download it, or turn on 'Metadata Only' to get the links without the files.",
		);
	const { bytes, contentType } = await downloadPresigned(ctx, url, {
		what,
		maxBytes: options.maxBytes,
		itemIndex,
	});
	const mimeType = listedType ?? mimeTypeOf(contentType);
	const fileName = names.take(withExtension(base, mimeType));
	return {
		[options.binaryPropertyName]: await ctx.helpers.prepareBinaryData(
			bytes,
			fileName,
			mimeType ?? 'application/octet-stream',
		),
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
		const payableId = readPayableId(this, itemIndex);
		const options = {
			metadataOnly: this.getNodeParameter('options.metadataOnly', itemIndex, false) === true,
			binaryPropertyName: readBinaryPropertyName(this, 'options.binaryPropertyName', itemIndex),
			maxBytes: readMaxBytes(this, 'options.maxFileSize', itemIndex),
		};
		return async (company) => {
			const { body } = await callSpendesk<IDataObject>(this, 'listPayableAttachments', {
				company,
				pathParams: { payableId },
				itemIndex,
			});
			const attachments = attachmentsOf(this, body, company, itemIndex);
			if (options.metadataOnly) return { items: attachments.map((a) => ({ payableId, ...a })) };
			const items: IDataObject[] = [];
			const binary: IBinaryKeyData[] = [];
			const names = new FileNames();
			for (const attachment of attachments) {
				binary.push(await withFile(this, attachment, options, names, itemIndex));
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
