/**
 * Uploads a file to an intake in three steps: start (a pre-signed link), PUT of the bytes
 * WITHOUT the bearer token (transport/presigned.ts), confirm; a failure says how far it went.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { presignedUrl, uploadHeaders, uploadPresigned } from '../../transport/presigned';
import { singleObject } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import { restated } from '../../transport/restate';
import { binaryPropertyField } from '../fileParams';
import { fail } from '../readers';

export interface IntakeFile {
	company: string | undefined;
	intakeId: string;
	bytes: Buffer;
	fileName: string;
	mimeType: string;
	itemIndex: number;
}

/** A catch handler: the error again, with what happened so far put in front of its description (restated). */
export function withState(ctx: IExecuteFunctions, state: string, itemIndex: number) {
	return (error: unknown): never => {
		const e = error as { message?: string; description?: string | null };
		throw restated(ctx.getNode(), error, {
			message: e.message ?? String(error),
			description: `${state}${e.description ? ` ${e.description}` : ''}`,
			itemIndex,
		});
	};
}

/** The start step's answer: the file ID and a PUT link. */
function readSlot(
	ctx: IExecuteFunctions,
	body: IDataObject | undefined,
	file: IntakeFile,
): { fileId: string; url: URL; headers: IDataObject | undefined } {
	const data = singleObject(body) ?? {};
	const fileId = typeof data.fileId === 'string' ? data.fileId : '';
	const method = typeof data.method === 'string' ? data.method.toUpperCase() : 'PUT';
	if (!fileId || method !== 'PUT')
		fail(
			ctx,
			file.itemIndex,
			`Spendesk did not open an upload for "${file.fileName}" as expected`,
			`The answer lacked the file ID or asked for ${method} instead of PUT. Nothing was uploaded. Run the node again; if it persists, contact Spendesk support.`,
		);
	const what = `the upload of "${file.fileName}"`;
	const url = presignedUrl(ctx, data.uploadUrl, what, file.itemIndex);
	return { fileId, url, headers: data.headers as IDataObject | undefined };
}

/** An empty file is refused before any request of its operation (Spendesk takes one byte or more). */
export function refuseEmptyFile(
	ctx: IExecuteFunctions,
	bytes: Buffer,
	fileName: string,
	itemIndex: number,
): void {
	if (bytes.length > 0) return;
	fail(
		ctx,
		itemIndex,
		`The file "${fileName}" is empty`,
		'Nothing was sent. Spendesk accepts files of at least one byte: check the binary data of the input item.',
	);
}

/** Start, PUT, confirm: the uploaded file's record. */
export async function uploadToIntake(
	ctx: IExecuteFunctions,
	file: IntakeFile,
): Promise<IDataObject> {
	const { company, intakeId, bytes, fileName, mimeType, itemIndex } = file;
	refuseEmptyFile(ctx, bytes, fileName, itemIndex);
	const pathParams = { intakeId };
	const started = await callSpendesk<IDataObject>(ctx, 'startIntakeUpload', {
		company,
		pathParams,
		body: { fileName, mimeType, size: bytes.length },
		itemIndex,
	}).catch(
		withState(
			ctx,
			'No file was sent: the upload did not start (if Spendesk opened an upload slot, it stays empty and unused), so running again is safe.',
			itemIndex,
		),
	);
	const slot = readSlot(ctx, started.body, file);
	await uploadPresigned(ctx, slot.url, {
		what: `the upload of "${fileName}"`,
		bytes,
		headers: uploadHeaders(slot.headers, mimeType),
		itemIndex,
	}).catch(
		withState(
			ctx,
			`The file was not stored (upload ${slot.fileId} stays unconfirmed and is not attached to the intake), so running again is safe.`,
			itemIndex,
		),
	);
	const confirmed = await callSpendesk<IDataObject>(ctx, 'completeIntakeUpload', {
		company,
		pathParams: { ...pathParams, fileId: slot.fileId },
		itemIndex,
	}).catch(
		withState(
			ctx,
			`The file was uploaded (file ID ${slot.fileId}) but its confirmation failed, so it may not be attached to intake ${intakeId}. Check the intake before running again.`,
			itemIndex,
		),
	);
	const data = singleObject(confirmed.body) ?? {};
	return {
		intakeId,
		fileId: slot.fileId,
		fileName,
		mimeType,
		size: bytes.length,
		status: typeof data.status === 'string' ? data.status : 'uploaded',
	};
}

export const intakeBinaryField: INodeProperties = binaryPropertyField(
	'The name of the input field containing the binary file data to be uploaded',
	'input',
);
