/**
 * Record IDs (payable, supplier, settlement, intake, export…): the one place where an
 * operation reads and checks the ID of the record it acts on, and the rule the editor checks
 * an ID typed By ID against.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { isOneIdSegment } from '../transport/placement';
import { fail } from './writeFields';

/** The editor's check of an ID typed By ID: the rule of `isOneIdSegment` as a pattern. */
export const ID_PATTERN = '^(?!(\\.|%2[eE])(\\.|%2[eE])?$)[^\\s/\\\\?#]{1,128}$';

export interface RecordLocatorOptions {
	/** Parameter name, kept as saved workflows hold it (e.g. payableId). */
	name: string;
	/** What the record is called in the editor (e.g. Payable). */
	label: string;
	/** The field's description. */
	description: string;
	/** Example of an ID, for the By ID mode. */
	placeholder: string;
	/** listSearch method of the From List mode; without one (no API lists the records), By ID only. */
	searchListMethod?: string;
	/**
	 * For reads that offer All Companies, the description of the field's copy shown then: a
	 * list cannot know which company to list, so the copy (same name) has By ID only.
	 */
	allCompaniesDescription?: string;
}

/**
 * The record ID field of an operation: a resource locator, From List (the default) or By ID,
 * an expression possible in either. A value saved as plain text by an earlier version (the
 * field was a text field) is still read as the ID (readRecordId). With `allCompanies`, the
 * field comes twice under one name: with One Company as above, with All Companies By ID only
 * (`allCompaniesDescription`).
 */
export function recordLocator(options: RecordLocatorOptions): INodeProperties[] {
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
		{ ...field, displayOptions: { hide: { companyScope: ['all'] } } },
		{
			...field,
			default: { mode: 'id', value: '' },
			description: options.allCompaniesDescription,
			modes: field.modes?.filter((mode) => mode.name === 'id'),
			displayOptions: { show: { companyScope: ['all'] } },
		},
	];
}

/**
 * The record ID of an item (parameter `name`, a resource locator or text), before any request:
 * text or a number, trimmed, not empty, one path segment (`isOneIdSegment`). Messages name the
 * field by `label`; `hint` says where the ID comes from.
 */
export function readRecordId(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	hint: string,
): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	const id =
		typeof raw === 'string'
			? raw.trim()
			: typeof raw === 'number' && Number.isFinite(raw)
				? String(raw)
				: undefined;
	if (id === undefined)
		fail(
			ctx,
			itemIndex,
			`${label} must be an ID (text); got ${Array.isArray(raw) ? 'a list' : typeof raw}`,
			hint,
		);
	if (!id) fail(ctx, itemIndex, `${label} is empty`, hint);
	if (!isOneIdSegment(id)) {
		fail(
			ctx,
			itemIndex,
			`${label} "${id.slice(0, 60)}" is not a valid ID`,
			`An ID is one word of at most 128 characters, without spaces, slashes, "?" or "#", and not "." or "..". ${hint}`,
		);
	}
	return id;
}
