import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import { readJsonObject } from '../sharedParams';
import type { SpendeskOperation } from '../types';
import { readInputFile } from '../fileParams';
import { intakeBinaryField, refuseEmptyFile, uploadToIntake, withState } from './upload';
import { fail } from '../readers';

export const createIntake: SpendeskOperation = {
	value: 'create',
	perCompany: true,
	write: true,
	properties: [
		{
			displayName: 'Intake (JSON)',
			name: 'intake',
			type: 'json',
			required: true,
			default: '{\n  "supplierName": "",\n  "amount": 0,\n  "currency": "EUR"\n}',
			description: 'The intake to create, as a JSON object',
		},
		{
			displayName: 'Attach File',
			name: 'attachFile',
			type: 'boolean',
			default: false,
			description:
				'Whether to upload the binary file of the input item to the new intake in the same run',
		},
		{ ...intakeBinaryField, displayOptions: { show: { attachFile: [true] } } },
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const body = readJsonObject(this, 'intake', 'Intake (JSON)', itemIndex);
		if (Object.keys(body).length === 0)
			fail(
				this,
				itemIndex,
				"'Intake (JSON)' is empty",
				'Enter the fields of the intake to create.',
			);
		const file =
			this.getNodeParameter('attachFile', itemIndex, false) === true
				? readInputFile(this, itemIndex)
				: undefined;
		return async (company) => {
			const bytes = file
				? await this.helpers.getBinaryDataBuffer(itemIndex, file.property)
				: undefined;
			// An empty file is refused before the intake is created: a second run must not make two.
			if (file && bytes) refuseEmptyFile(this, bytes, file.fileName, itemIndex);
			const { body: response } = await callSpendesk<IDataObject>(this, 'createIntake', {
				company,
				body,
				itemIndex,
			});
			const items = bodyItems(response);
			if (!file || !bytes) return { items };
			const intakeId = String(items[0]?.id ?? '');
			if (!intakeId)
				fail(
					this,
					itemIndex,
					'The intake was created, but Spendesk did not say its ID: its file was not attached',
					'Find the new intake in Spendesk and attach the file with Intake → Upload File and its ID. Running Create again would create a second intake.',
				);
			const uploaded = await uploadToIntake(this, {
				...file,
				company,
				intakeId,
				bytes,
				itemIndex,
			}).catch(
				withState(
					this,
					`The intake ${intakeId} was created, but its file was not attached. To attach it, use Intake → Upload File with this intake ID; running Create again would create a second intake.`,
					itemIndex,
				),
			);
			return { items: [{ ...items[0], file: uploaded }] };
		};
	},
};
