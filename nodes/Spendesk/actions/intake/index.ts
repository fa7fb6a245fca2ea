import { listOperation } from '../list';
import type { SpendeskResource } from '../types';
import { createIntake } from './create.operation';
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
				action: 'Create intake',
				description:
					'Create an intake in a company, optionally with the file of the input item attached',
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
				action: 'Upload file to intake',
				description:
					'Upload the file of the input item to an intake and return the file record; needs the intake ID',
			},
		],
		default: 'getAll',
	},
	operations: [listOperation({ endpoint: 'listIntakes' }), createIntake, uploadIntakeFile],
};
