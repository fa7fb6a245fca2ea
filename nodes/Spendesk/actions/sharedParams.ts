/** Parameters and helpers shared by the operations: Return All + Limit, JSON parameters. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { numberOf } from '../values/expression';
import { itemError } from './errorItem';

/** Return All + Limit; the Limit twice, with All Companies carrying the hint that it applies to each. */
export function returnAllOrLimit(maxLimit?: number): INodeProperties[] {
	const limit: INodeProperties = {
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		// Required. n8n's editor marks an emptied required field before the run for text, options,
		// dates and pickers, not yet for a number: an emptied Limit is refused when the node runs.
		required: true,
		typeOptions: { minValue: 1, ...(maxLimit ? { maxValue: maxLimit } : {}) },
		default: 50,
		description: 'Max number of results to return',
	};
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{ ...limit, displayOptions: { show: { returnAll: [false] }, hide: { companies: ['all'] } } },
		{
			...limit,
			hint: 'With All Companies, the limit applies to each company',
			displayOptions: { show: { returnAll: [false], companies: ['all'] } },
		},
	];
}

/** Reads Return All + Limit; undefined means Return All. A Limit out of range fails before any request. */
export function readLimit(
	ctx: IExecuteFunctions,
	itemIndex: number,
	maxLimit?: number,
): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const raw = ctx.getNodeParameter('limit', itemIndex, 50) as unknown;
	const limit = numberOf(raw);
	const max = maxLimit ?? Number.MAX_SAFE_INTEGER;
	if (!Number.isInteger(limit) || limit < 1 || limit > max) {
		const range = maxLimit ? `a whole number from 1 to ${maxLimit}` : 'a whole number of 1 or more';
		const empty = raw === undefined || raw === null || (typeof raw === 'string' && !raw.trim());
		const got = typeof raw === 'string' ? `"${raw}"` : String(raw);
		throw itemError(
			ctx,
			itemIndex,
			empty ? `'Limit' is empty: enter ${range}` : `'Limit' must be ${range}; got ${got}`,
			maxLimit
				? `Spendesk returns at most ${maxLimit} here per call. Turn on 'Return All' to get everything. An expression may give a number or numeric text such as "25".`
				: `Or turn on 'Return All' to get everything. An expression may give a number or numeric text such as "25".`,
		);
	}
	return limit;
}

const COLLECTIONS: Record<string, { label: string; placeholder: string }> = {
	filters: { label: 'Filters', placeholder: 'Add Filter' },
	options: { label: 'Options', placeholder: 'Add Option' },
	additionalFields: { label: 'Additional Fields', placeholder: 'Add Field' },
	updateFields: { label: 'Update Fields', placeholder: 'Add Field' },
};

/** A collection parameter by its name: Filters, Options, Additional Fields or Update Fields. */
export function collection(
	name: string,
	options: INodeProperties[],
	more: Partial<INodeProperties> = {},
): INodeProperties {
	const { label, placeholder } = COLLECTIONS[name];
	return {
		displayName: label,
		name,
		type: 'collection',
		placeholder,
		default: {},
		...more,
		options,
	};
}

/** A list the user adds entries to ("Add ..."), each entry (`entry`: its label and name) the fields `values`. */
export function repeatedFields(
	field: Omit<INodeProperties, 'type' | 'default'>,
	entry: { displayName: string; name: string },
	values: INodeProperties[],
): INodeProperties {
	return {
		...field,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		options: [{ ...entry, values }],
	};
}

export const filtersCollection = (options: INodeProperties[], more?: Partial<INodeProperties>) =>
	collection('filters', options, more);

export const optionsCollection = (options: INodeProperties[]) => collection('options', options);

/** A collection parameter's fields; null or empty gives none (hand-written JSON may hold `null`). */
export function readCollection(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
): IDataObject {
	const raw = ctx.getNodeParameter(name, itemIndex, {}) as unknown;
	if (raw === null || raw === undefined || raw === '') return {};
	if (typeof raw === 'object' && !Array.isArray(raw)) return raw as IDataObject;
	const label = COLLECTIONS[name]?.label ?? name;
	throw itemError(
		ctx,
		itemIndex,
		`'${label}' must be a set of fields; got ${Array.isArray(raw) ? 'a list' : typeof raw}`,
		`Set '${label}' in the node, or remove the value an expression or the workflow's JSON gives it.`,
	);
}

/** A JSON parameter (an object; also a list with `lists`): an expression's object is taken as it is. */
export function readJsonObject(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	lists = false,
): IDataObject {
	const raw = ctx.getNodeParameter(name, itemIndex, '{}') as unknown;
	if (raw && typeof raw === 'object' && (lists || !Array.isArray(raw))) return raw as IDataObject;
	if (raw === null || raw === undefined) return {};
	if (typeof raw !== 'string')
		throw itemError(
			ctx,
			itemIndex,
			`'${label}' must be a JSON object${lists ? ' or list' : ''}; got ${Array.isArray(raw) ? 'a list' : typeof raw}`,
			'Enter an object in curly braces, e.g. {"status": "paid"}, or an expression that gives one.',
		);
	const text = raw.trim();
	if (!text) return {};
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw itemError(
			ctx,
			itemIndex,
			`'${label}' is not valid JSON`,
			`${(error as Error).message}. Enter a JSON object, e.g. {"status": "paid"}.`,
		);
	}
	if (!value || typeof value !== 'object' || (Array.isArray(value) && !lists))
		throw itemError(
			ctx,
			itemIndex,
			`'${label}' must be a JSON object`,
			'Enter an object in curly braces, e.g. {"status": "paid"}.',
		);
	return value as IDataObject;
}

/** A list's Filters (JSON) (parameter `name`): a JSON object that leaves paging to the node. */
export function readJsonFilters(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
): IDataObject {
	const filters = readJsonObject(ctx, name, 'Filters (JSON)', itemIndex);
	for (const reserved of ['limit', 'cursor']) {
		if (reserved in filters)
			throw itemError(
				ctx,
				itemIndex,
				`'Filters (JSON)' must not set "${reserved}"`,
				"Paging is handled by the node: use 'Return All' and 'Limit' instead.",
			);
	}
	return filters;
}

const MAX_WAIT_SECONDS = 3600;

export function maxWaitOption(fallback: number, description: string): INodeProperties {
	return {
		displayName: 'Max Wait (Seconds)',
		name: 'maxWait',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_WAIT_SECONDS },
		default: fallback,
		description,
	};
}

/** Max Wait (Seconds) of Options, in ms: a number or numeric text from 1 to MAX_WAIT_SECONDS (`fallback` when not set). */
export function readMaxWaitMs(
	ctx: IExecuteFunctions,
	itemIndex: number,
	what: string,
	fallback: number,
): number {
	const raw = readCollection(ctx, 'options', itemIndex).maxWait ?? fallback;
	const seconds = numberOf(raw);
	if (!Number.isFinite(seconds) || seconds < 1 || seconds > MAX_WAIT_SECONDS) {
		const got = typeof raw === 'string' ? `"${raw}"` : String(raw);
		throw itemError(
			ctx,
			itemIndex,
			`'Max Wait (Seconds)' must be a number of seconds from 1 to ${MAX_WAIT_SECONDS}; got ${got}`,
			`Enter how long to wait for Spendesk to build the ${what}, e.g. ${fallback}. An expression must give a number.`,
		);
	}
	return seconds * 1000;
}

export function bookkeepingStatusField(exported: string, failed: string): INodeProperties {
	return {
		displayName: 'Bookkeeping Status',
		name: 'bookkeepingStatus',
		type: 'options',
		options: [
			{ name: 'Exported', value: 'exported', description: exported },
			{ name: 'Failed to Export', value: 'failedToExport', description: failed },
		],
		default: 'exported',
		description: 'The bookkeeping status to set',
	};
}
