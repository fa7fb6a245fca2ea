import { listOperation } from '../list';
import { recordLocator } from '../recordId';
import { archivedFilter, readArchivedFilter } from './filters';
import { readRecordId } from '../readers';

export const getAnalyticalFieldValues = listOperation({
	value: 'getValues',
	endpoint: 'listAnalyticalFieldValues',
	properties: [
		...recordLocator({
			name: 'fieldId',
			label: 'Analytical Field',
			description: 'The analytical field whose values to list',
			allCompaniesDescription:
				'The ID of the analytical field whose values to list, in every company',
			placeholder: 'e.g. af_001',
			searchListMethod: 'searchAnalyticalFields',
		}),
	],
	after: [archivedFilter('values')],
	request: (ctx, itemIndex) => {
		const fieldId = readRecordId(
			ctx,
			itemIndex,
			'fieldId',
			"'Analytical Field'",
			'Pick the analytical field from the list, or enter its ID (Analytical Field → Get Many lists them).',
		);
		return { pathParams: { fieldId }, qs: readArchivedFilter(ctx, itemIndex) };
	},
	// Some answers carry a value's label as `value` instead of `name`: it is given as `name` too, so workflows read one field.
	mapItem: (item) =>
		item.name === undefined && typeof item.value === 'string'
			? { ...item, name: item.value }
			: item,
});
