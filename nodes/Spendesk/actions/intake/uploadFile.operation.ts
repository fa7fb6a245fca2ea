/** Intake → Upload File: the binary file of the input item, uploaded to an intake (start, pre-signed PUT, confirm). */
import type { IExecuteFunctions } from 'n8n-workflow';
import { readInputFile } from '../fileParams';
import { recordLocator } from '../recordId';
import type { SpendeskOperation } from '../types';
import { intakeBinaryField, uploadToIntake } from './upload';
import { readRecordId } from '../readers';

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
			itemIndex,
			'intakeId',
			"'Intake'",
			'Pick the intake from the list, or give its ID, e.g. from Intake → Create.',
		);
		const file = readInputFile(this, itemIndex);
		return async (company) => {
			const bytes = await this.helpers.getBinaryDataBuffer(itemIndex, file.property);
			return {
				items: [await uploadToIntake(this, { ...file, company, intakeId, bytes, itemIndex })],
			};
		};
	},
};
