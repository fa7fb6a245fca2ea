import { NodeOperationError } from 'n8n-workflow';
import { listOperation } from '../list';

export const getAnalyticalFieldValues = listOperation({
	value: 'getValues',
	endpoint: 'listAnalyticalFieldValues',
	properties: [
		{
			displayName: 'Analytical Field ID',
			name: 'fieldId',
			type: 'string',
			required: true,
			default: '',
			description: 'ID of the analytical field, as returned by Analytical Field → Get Many',
		},
	],
	request: (ctx, itemIndex) => {
		const fieldId = String(ctx.getNodeParameter('fieldId', itemIndex, '')).trim();
		if (!fieldId) {
			throw new NodeOperationError(ctx.getNode(), 'Analytical Field ID is empty', {
				description: 'Enter the ID of an analytical field (Analytical Field → Get Many lists them).',
				itemIndex,
			});
		}
		return { pathParams: { fieldId } };
	},
});
