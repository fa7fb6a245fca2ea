/** Accounting Export → Get Journal: the journal of a complete export, as a CSV file in binary data. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { callSpendesk } from '../../transport/request';
import { binaryPropertyField, readBinaryPropertyName } from '../fileParams';
import { recordLocator } from '../recordId';
import type { SpendeskOperation } from '../types';
import { optionsCollection } from '../sharedParams';
import { readRecordId } from '../readers';

export const getJournal: SpendeskOperation = {
	value: 'getJournal',
	perCompany: true,
	// An export and its journal belong to the company that made it.
	oneCompany: true,
	properties: [
		// No API lists the exports: By ID only.
		...recordLocator({
			name: 'exportId',
			label: 'Export',
			placeholder: 'e.g. exp_000001',
			description: 'ID of a complete accounting export, as Accounting Export → Create returns it',
		}),
		optionsCollection([binaryPropertyField('The name of the output field to put the CSV file in')]),
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const exportId = readRecordId(
			this,
			itemIndex,
			'exportId',
			"'Export'",
			'Give the ID of an export, e.g. from Accounting Export → Create.',
		);
		const property = readBinaryPropertyName(this, 'options.binaryPropertyName', itemIndex);
		return async (company) => {
			const { body } = await callSpendesk<Buffer>(this, 'getJournal', {
				company,
				pathParams: { exportId },
				itemIndex,
			});
			const fileName = `journal-${exportId}.csv`;
			const json: IDataObject = { exportId, fileName, mimeType: 'text/csv', size: body.length };
			return {
				items: [json],
				binary: [{ [property]: await this.helpers.prepareBinaryData(body, fileName, 'text/csv') }],
			};
		};
	},
};
