/** Intake → Upload File: the binary file of the input item, uploaded to an intake (start, pre-signed PUT, confirm). */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { binaryPropertyField, readBinaryPropertyName, safeFileName } from '../fileParams';
import { readRecordId, recordLocator } from '../recordId';
import type { SpendeskOperation } from '../types';
import { uploadToIntake } from './upload';

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

export const intakeBinaryField: INodeProperties = binaryPropertyField(
	'The name of the input field containing the binary file data to be uploaded',
	'input',
);

export const uploadIntakeFile: SpendeskOperation = {
	value: 'uploadFile',
	perCompany: true,
	write: true,
	properties: [
		...recordLocator({
			name: 'intakeId',
			label: 'Intake',
			description:
				'The intake to attach the file to; usually its ID taken by an expression from the previous node',
			placeholder: 'e.g. int_001_000001',
			searchListMethod: 'searchIntakeRecords',
		}),
		{ ...intakeBinaryField, required: true },
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const intakeId = readRecordId(
			this,
			'intakeId',
			"'Intake'",
			itemIndex,
			'Pick the intake from the list, or give its ID, e.g. from Intake → Create.',
		);
		const file = readInputFile(this, itemIndex);
		return async (company) => {
			const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, file.property);
			return {
				items: [
					await uploadToIntake(this, {
						company,
						intakeId,
						bytes,
						fileName: file.fileName,
						mimeType: file.mimeType,
						itemIndex,
					}),
				],
			};
		};
	},
};
