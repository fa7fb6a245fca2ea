import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/strategy';
import { callSpendesk } from '../../transport/request';
import { readJsonObject } from '../common';
import type { SpendeskOperation } from '../types';

export const createIntake: SpendeskOperation = {
	value: 'create',
	companyScoped: true,
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
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const body = readJsonObject(this, 'intake', 'Intake (JSON)', itemIndex);
		if (Object.keys(body).length === 0) {
			throw new NodeOperationError(this.getNode(), 'Intake (JSON) is empty', { description: 'Enter the fields of the intake to create.', itemIndex });
		}
		return async (company) => {
			const { body: response } = await callSpendesk<IDataObject>(this, 'createIntake', { company, body, itemIndex });
			return { items: bodyItems(response) };
		};
	},
};
