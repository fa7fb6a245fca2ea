import { NodeOperationError } from 'n8n-workflow';
import { listOperation } from '../list';
import { ID_PATTERN } from '../recordId';

export const getAnalyticalFieldValues = listOperation({
	value: 'getValues',
	endpoint: 'listAnalyticalFieldValues',
	properties: [
		{
			displayName: 'Analytical Field',
			name: 'fieldId',
			type: 'resourceLocator',
			required: true,
			default: { mode: 'list', value: '' },
			description: 'The analytical field whose values to list',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					typeOptions: { searchListMethod: 'searchAnalyticalFields', searchable: true },
				},
				{
					displayName: 'By ID',
					name: 'id',
					type: 'string',
					placeholder: 'e.g. af_001',
					validation: [
						{
							type: 'regex',
							properties: {
								regex: ID_PATTERN,
								errorMessage:
									'Enter one analytical field ID (no spaces, slashes, "?" or "#", not "." or "..")',
							},
						},
					],
				},
			],
		},
	],
	request: (ctx, itemIndex) => {
		const fieldId = String(
			ctx.getNodeParameter('fieldId', itemIndex, '', { extractValue: true }) ?? '',
		).trim();
		if (!fieldId) {
			throw new NodeOperationError(ctx.getNode(), 'Choose an analytical field', {
				description:
					'Pick the analytical field from the list, or enter its ID (Analytical Field → Get Many lists them).',
				itemIndex,
			});
		}
		return { pathParams: { fieldId } };
	},
	// Some answers carry a value's label as `value` instead of `name`: it is given as `name` too, so workflows read one field.
	mapItem: (item) =>
		item.name === undefined && typeof item.value === 'string'
			? { ...item, name: item.value }
			: item,
});
