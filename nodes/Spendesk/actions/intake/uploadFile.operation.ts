/** Intake → Upload File: the binary file of the input item, uploaded to an intake (start, pre-signed PUT, confirm). */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { binaryPropertyField, readBinaryPropertyName, safeFileName } from '../fileParams';
import { readRecordId } from '../recordId';
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
		{
			displayName: 'Intake',
			name: 'intakeId',
			type: 'resourceLocator',
			required: true,
			default: { mode: 'list', value: '' },
			description:
				'The intake to attach the file to; usually its ID taken by an expression from the previous node',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					typeOptions: { searchListMethod: 'searchIntakeRecords', searchable: true },
				},
				{ displayName: 'By ID', name: 'id', type: 'string', placeholder: 'e.g. int_001_000001' },
			],
		},
		{ ...intakeBinaryField, required: true },
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const intakeId = readRecordId(
			this,
			'intakeId',
			'Intake ID',
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
