/** The record ID field (From List or By ID) and the editor's check of an ID; reading it: readers.ts. */
import type { INodeProperties } from 'n8n-workflow';

/** The editor's check of an ID typed By ID: the rule of `isOneIdSegment` as a pattern. */
export const ID_PATTERN = '^(?!(\\.|%2[eE])(\\.|%2[eE])?$)[^\\s/\\\\?#]{1,128}$';

/** The record ID field: From List (the default) or By ID; twice with `allCompaniesDescription`. */
export function recordLocator(options: {
	name: string;
	label: string;
	description: string;
	placeholder: string;
	/** listSearch method of the From List mode; without one (no API lists the records), By ID only. */
	searchListMethod?: string;
	/** For reads that offer All Companies: the description of the copy shown then, By ID only. */
	allCompaniesDescription?: string;
}): INodeProperties[] {
	const field: INodeProperties = {
		displayName: options.label,
		name: options.name,
		type: 'resourceLocator',
		required: true,
		default: { mode: options.searchListMethod ? 'list' : 'id', value: '' },
		description: options.description,
		modes: [
			...(options.searchListMethod
				? [
						{
							displayName: 'From List',
							name: 'list',
							type: 'list' as const,
							typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
						},
					]
				: []),
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: options.placeholder,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: ID_PATTERN,
							errorMessage: `Enter one ${options.label.toLowerCase()} ID (no spaces, slashes, "?" or "#", not "." or "..")`,
						},
					},
				],
			},
		],
	};
	if (options.allCompaniesDescription === undefined || !options.searchListMethod) return [field];
	return [
		{ ...field, displayOptions: { hide: { companies: ['all'] } } },
		{
			...field,
			default: { mode: 'id', value: '' },
			description: options.allCompaniesDescription,
			modes: field.modes?.filter((mode) => mode.name === 'id'),
			displayOptions: { show: { companies: ['all'] } },
		},
	];
}

export const LOCATOR_MODES: readonly string[] = ['list', 'id'];

/** An analytical field and one of its values, each From List or By ID (`field`: its label). */
export function fieldValueLocators(
	field: string,
	fieldPlaceholder: string,
	valuePlaceholder: string,
): INodeProperties[] {
	return [
		...recordLocator({
			name: 'fieldId',
			label: field,
			description: 'The analytical field; pick it from the list, or enter its ID',
			placeholder: fieldPlaceholder,
			searchListMethod: 'searchAnalyticalFields',
		}),
		...recordLocator({
			name: 'valueId',
			label: 'Value',
			description:
				'One of the values of the field chosen above: pick it from the list, or enter its ID',
			placeholder: valuePlaceholder,
			searchListMethod: 'searchAnalyticalFieldValues',
		}),
	];
}
