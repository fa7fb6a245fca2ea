/**
 * Record IDs (payable, supplier, settlement, intake, export…): the one place where an
 * operation reads and checks the ID of the record it acts on, and the rule the editor checks
 * an ID typed By ID against.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { isOneIdSegment } from '../transport/placement';
import { fail, fieldLabel } from './writeFields';

/** The editor's check of an ID typed By ID: the rule of `isOneIdSegment` as a pattern. */
export const ID_PATTERN = '^(?!(\\.|%2[eE])(\\.|%2[eE])?$)[^\\s/\\\\?#]{1,128}$';

export interface RecordLocatorOptions {
	/** Parameter name (e.g. payableId). */
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
 * an expression possible in either (LOCATOR_MODES). With `allCompaniesDescription`, the field
 * comes twice under one name: with One Company as above, with All Companies By ID only.
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

/** The modes of a record locator: From List and By ID. */
export const LOCATOR_MODES: readonly string[] = ['list', 'id'];

/** What a value that is no record locator is, for messages. */
function shownAs(raw: unknown): string {
	if (typeof raw === 'string') return `the text "${raw.slice(0, 60)}"`;
	if (Array.isArray(raw)) return 'a list';
	if (raw !== null && typeof raw === 'object') {
		const { mode } = raw as IDataObject;
		return mode === undefined ? 'an object' : `the mode "${String(mode).slice(0, 40)}"`;
	}
	return String(raw);
}

/**
 * The value of a record locator as n8n hands it over, `{ mode, value }` with mode From List or
 * By ID (LOCATOR_MODES); empty (nothing given) is ''. Anything else (a plain text, another
 * mode) fails naming the field `label`, before any request; `hint` says where the ID comes from.
 */
export function locatorValue(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	itemIndex: number,
	hint: string,
): unknown {
	if (raw === undefined || raw === null || raw === '') return '';
	const locator = raw as IDataObject;
	if (typeof raw === 'object' && 'value' in locator && LOCATOR_MODES.includes(String(locator.mode)))
		return locator.value;
	return fail(
		ctx,
		itemIndex,
		`${fieldLabel(label)} must be picked From List or entered By ID; the node got ${shownAs(raw)}`,
		`Set the field again in the node: From List, or By ID (an expression goes in By ID). ${hint}`,
	);
}

/**
 * A record ID: text or a number, trimmed, one path segment (`isOneIdSegment`); empty (or
 * nothing) gives ''. Messages name the field by `label`; `hint` says where the ID comes from.
 */
export function checkRecordId(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	itemIndex: number,
	hint: string,
): string {
	if (value === undefined || value === null) return '';
	const id =
		typeof value === 'string'
			? value.trim()
			: typeof value === 'number' && Number.isFinite(value)
				? String(value)
				: undefined;
	if (id === undefined)
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)} must be an ID (text); got ${Array.isArray(value) ? 'a list' : typeof value}`,
			hint,
		);
	if (id && !isOneIdSegment(id)) {
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)} holds "${id.slice(0, 60)}", which is not a valid ID`,
			`An ID is one word of at most 128 characters, without spaces, slashes, "?" or "#", and not "." or "..". ${hint}`,
		);
	}
	return id;
}

/**
 * The record ID of an item (parameter `name`, a record locator: locatorValue), before any
 * request: checked by checkRecordId, and not empty.
 */
export function readRecordId(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	hint: string,
): string {
	const id = readOptionalRecordId(ctx, name, label, itemIndex, hint);
	if (id === undefined) fail(ctx, itemIndex, `${fieldLabel(label)} is empty`, hint);
	return id;
}

/** As readRecordId, for an optional field: empty gives undefined. */
export function readOptionalRecordId(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	hint: string,
): string | undefined {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const value = locatorValue(ctx, raw, label, itemIndex, hint);
	return checkRecordId(ctx, value, label, itemIndex, hint) || undefined;
}
