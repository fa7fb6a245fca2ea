/** The Intake resource: its Operation list, written out for the editor and n8n's checks, and its operations. */
import type { SpendeskResource } from '../types';
import { createIntake } from './create.operation';
import { getAllIntakes } from './getAll.operation';
import { uploadIntakeFile } from './uploadFile.operation';

export const intakeResource: SpendeskResource = {
	value: 'intake',
	name: 'Intake',
	description: 'Incoming spend requests',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['intake'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create an intake',
				description:
					'Create an intake in a company, optionally with the binary file of the input item attached',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many intakes',
				description: 'List the intakes of a company',
			},
			{
				name: 'Upload File',
				value: 'uploadFile',
				action: 'Upload a file to an intake',
				description:
					'Upload the binary file of the input item to an intake and return the file record; needs the intake ID and the binary property',
			},
		],
		default: 'getAll',
	},
	operations: [getAllIntakes, createIntake, uploadIntakeFile],
};
