/** The line items of Payable → Update (docs/api.md#payable-accounting): fields, reading, and Change Some. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { fieldValueLocators, recordLocator } from '../recordId';
import { repeatedFields } from '../sharedParams';
import {
	entriesOf,
	fail,
	LIST_HINT,
	readChoices,
	readFieldValues,
	readId,
	readMinorUnits,
} from '../readers';
import { textField } from '../listFilters';

export interface LineItem {
	grossAmount: number;
	expenseAccountId?: string;
	taxAccountId?: string;
	costCenterId?: string;
	analyticalFieldValues?: Array<{ fieldId: string; valueId: string }>;
}

/** One change of Change Some: its line (from 1; none: every line), its position (from 1), what it sets. */
export interface LineChange {
	line?: number;
	position: number;
	set: Omit<LineItem, 'grossAmount'>;
}

const accountFields: INodeProperties[] = [
	textField(
		'Expense Account ID',
		'expenseAccountId',
		'e.g. ea_6063',
		"ID of the expense account in the company's accounting setup (Spendesk offers no list of them: take it from your chart of accounts or from a payable read earlier)",
	),
	textField(
		'Tax Account ID',
		'taxAccountId',
		'e.g. ta_4456',
		"ID of the tax (VAT) account in the company's accounting setup (Spendesk offers no list of them: take it from your chart of accounts or from a payable read earlier)",
	),
];

const costCenterField: INodeProperties = {
	...recordLocator({
		name: 'costCenterId',
		label: 'Cost Center',
		description: 'The cost center of the line; pick it from the list, or enter its ID',
		placeholder: 'e.g. cc_001_0002',
		searchListMethod: 'searchCostCenters',
	})[0],
	required: false,
};

const analyticalValuesField: INodeProperties = repeatedFields(
	{
		displayName: 'Analytical Values',
		name: 'analyticalValues',
		placeholder: 'Add Analytical Value',
		description:
			'Values of analytical fields for the line, one per field. The value is given by its ID: Analytical Field → Get Many Values lists the values of a field.',
	},
	{ displayName: 'Analytical Value', name: 'value' },
	fieldValueLocators('Analytical Field', 'e.g. af_001_001', 'e.g. afv_001_001_00002'),
);

/** The fields of Line Items: Replace All (every line, with its amount) and Change Some. */
export const lineItemFields: INodeProperties[] = [
	{
		displayName: 'Line Items',
		name: 'lineItemsMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Change Some',
				value: 'changeSome',
				description:
					'Change the cost center, accounts or analytical values of some lines (or every line) and keep the rest: the node reads the payable first, then sends all its lines',
			},
			{
				name: 'Replace All',
				value: 'replaceAll',
				description:
					'Give every line of the payable with its amount: lines not given are removed, and the amounts must add up to the payable’s amount',
			},
		],
		default: 'changeSome',
		description:
			'Spendesk replaces the whole list of lines at each update: Change Some keeps the lines you do not change',
	},
	repeatedFields(
		{
			displayName: 'Changes',
			name: 'lineChanges',
			placeholder: 'Add Change',
			description:
				'What to set, on every line or on one line; fields left empty keep their current value',
			displayOptions: { show: { lineItemsMode: ['changeSome'] } },
		},
		{ displayName: 'Change', name: 'change' },
		[
			{
				displayName: 'Apply To',
				name: 'applyTo',
				type: 'options',
				options: [
					{ name: 'Every Line', value: 'everyLine' },
					{ name: 'One Line', value: 'oneLine' },
				],
				default: 'everyLine',
				description: 'Whether the change applies to every line of the payable or to one',
			},
			{
				displayName: 'Line Number',
				name: 'lineNumber',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1,
				description: 'The line to change, from 1 (the order of lineItems in Payable → Get)',
				displayOptions: { show: { applyTo: ['oneLine'] } },
			},
			costCenterField,
			...accountFields,
			{
				...analyticalValuesField,
				description:
					'Values of analytical fields to set; a field the line already has a value for gets the new one, the others stay',
			},
		],
	),
	repeatedFields(
		{
			displayName: 'Lines',
			name: 'lineItems',
			placeholder: 'Add Line',
			description:
				'Every line of the payable, replacing the lines it has; the gross amounts must add up to its amount',
			displayOptions: { show: { lineItemsMode: ['replaceAll'] } },
		},
		{ displayName: 'Line', name: 'line' },
		[
			{
				displayName: 'Gross Amount (Minor Units)',
				name: 'grossAmount',
				type: 'number',
				default: 0,
				placeholder: 'e.g. 12000',
				description:
					"The line's amount including taxes, in minor units like the payable's amount: 120.00 EUR is 12000",
			},
			costCenterField,
			...accountFields,
			analyticalValuesField,
		],
	),
];

const APPLY_TO = ['everyLine', 'oneLine'];

const FIELD_NAMES: Record<string, string> = {
	grossAmount: 'Gross Amount (Minor Units)',
	costCenterId: 'Cost Center',
	expenseAccountId: 'Expense Account ID',
	taxAccountId: 'Tax Account ID',
	analyticalFieldValues: 'Analytical Values',
	fieldId: 'Analytical Field',
	valueId: 'Value',
};

/** Where a field of a line is, for messages: "line 2, 'Cost Center'". */
export function fieldName(source: string | undefined): string | undefined {
	const found = /lineItems\[(\d+)\](?:\.(\w+))?(?:\[(\d+)\](?:\.(\w+))?)?/.exec(source ?? '');
	if (!found) return /lineItems/.test(source ?? '') ? 'the lines' : undefined;
	const [, line, field, value, inner] = found;
	const parts = [`line ${Number(line) + 1}`];
	if (field) parts.push(FIELD_NAMES[field] ? `'${FIELD_NAMES[field]}'` : field);
	if (value !== undefined) parts.push(`value ${Number(value) + 1}`);
	if (inner) parts.push(FIELD_NAMES[inner] ? `'${FIELD_NAMES[inner]}'` : inner);
	return parts.join(', ');
}

/** What a line or change sets besides its amount: only the fields given. */
function readSettings(
	ctx: IExecuteFunctions,
	entry: IDataObject,
	where: string,
	itemIndex: number,
): LineChange['set'] {
	const set: LineChange['set'] = {};
	const id = (key: 'costCenterId' | 'expenseAccountId' | 'taxAccountId') => {
		const label = `${where}, '${FIELD_NAMES[key]}'`;
		const value = entry[key];
		const found =
			key === 'costCenterId'
				? readId(ctx, itemIndex, value, label, LIST_HINT)
				: readId(ctx, itemIndex, value, label, 'Enter the ID as Spendesk gives it.', 'text');
		if (found) set[key] = found;
	};
	id('costCenterId');
	id('expenseAccountId');
	id('taxAccountId');
	const values = entriesOf((entry.analyticalValues as IDataObject | undefined)?.value);
	if (values.length)
		set.analyticalFieldValues = readFieldValues(ctx, itemIndex, values, {
			at: (n) => `${where}, 'Analytical Value' ${n}`,
			field: 'Analytical Field',
			remove: 'the analytical value',
		});
	return set;
}

/** Replace All: every line with its amount, checked before any request. */
export function readLines(ctx: IExecuteFunctions, itemIndex: number): LineItem[] {
	const entries = entriesOf(ctx.getNodeParameter('lineItems.line', itemIndex, []));
	// No source gives a largest number of lines: Spendesk refuses what it does not take.
	if (!entries.length)
		fail(
			ctx,
			itemIndex,
			"'Lines' must hold at least one line; got none",
			"Add every line of the payable under 'Lines' (their gross amounts adding up to its amount), or choose Change Some to change some lines and keep the others.",
		);
	return entries.map((entry, i) => {
		const where = `Line ${i + 1}`;
		const amount = readMinorUnits(
			ctx,
			itemIndex,
			entry.grossAmount,
			`${where}, 'Gross Amount (Minor Units)'`,
		);
		return { grossAmount: amount, ...readSettings(ctx, entry, where, itemIndex) };
	});
}

/** Change Some: the changes, checked before any request (the line numbers once the payable is read). */
export function readChanges(ctx: IExecuteFunctions, itemIndex: number): LineChange[] {
	const entries = entriesOf(ctx.getNodeParameter('lineChanges.change', itemIndex, []));
	const changes = entries.map((entry, i) => {
		const where = `Change ${i + 1}`;
		const applyTo = readChoices(ctx, itemIndex, entry.applyTo, `${where}, Apply To`, APPLY_TO)?.[0];
		const line = applyTo === 'oneLine' ? Number(entry.lineNumber ?? 1) : undefined;
		if (line !== undefined && (!Number.isSafeInteger(line) || line < 1))
			fail(
				ctx,
				itemIndex,
				`${where}, 'Line Number' must be a whole number from 1; got ${String(entry.lineNumber)}`,
				'Give the number of the line to change, from 1, in the order Payable → Get lists them.',
			);
		const set = readSettings(ctx, entry, where, itemIndex);
		if (!Object.keys(set).length)
			fail(
				ctx,
				itemIndex,
				`${where} sets nothing`,
				'Give a cost center, an account or an analytical value to set, or remove the change.',
			);
		return { line, position: i + 1, set };
	});
	if (!changes.length)
		fail(
			ctx,
			itemIndex,
			"'Changes' is empty: there is nothing to update",
			'Add a change (for example a cost center for every line), or choose Replace All to give every line.',
		);
	return changes;
}

/** An ID as text, a numeric one as its digits; nothing for null, empty or anything else. */
function idOrNumber(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return typeof value === 'string' && value.trim() ? value : undefined;
}

/** The ID of an account as a line names it: `{id, code, …}`, or null when the line has none. */
const accountId = (value: unknown): string | undefined =>
	value && typeof value === 'object' && !Array.isArray(value)
		? idOrNumber((value as IDataObject).id)
		: undefined;

/** A line's gross amount: `financial.grossAmount`, else net + VAT + adjustment (both spellings read). */
function grossOf(line: IDataObject): number | undefined {
	const financial = (line.financial ?? {}) as IDataObject;
	const whole = (value: unknown) =>
		typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
	const gross = whole(financial.grossAmount);
	if (gross !== undefined) return gross;
	const net = whole(financial.netAmount);
	const vat = whole(financial.vatAmount);
	const adjustment =
		whole(financial.vatAdjustmentAmount) ?? whole(financial.vatAdjustementAmount) ?? 0;
	return net !== undefined && vat !== undefined ? net + vat + adjustment : undefined;
}

/**
 * A line as Get a payable gives it (docs/api.md#payables), in the shape the update takes back:
 * account objects become their IDs, and a line without a cost center takes the payable's.
 */
export function lineFromPayable(entry: unknown, payableCostCenter?: unknown): LineItem | undefined {
	if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
	const line = entry as IDataObject;
	const gross = grossOf(line);
	if (gross === undefined) return undefined;
	const result: LineItem = { grossAmount: gross };
	const expense = accountId(line.expenseAccount);
	if (expense) result.expenseAccountId = expense;
	const tax = accountId(line.vatAccount);
	if (tax) result.taxAccountId = tax;
	const costCenter = idOrNumber(line.costCenterId) ?? idOrNumber(payableCostCenter);
	if (costCenter) result.costCenterId = costCenter;
	const values = line.analyticalProperties as unknown;
	if (Array.isArray(values))
		// A field without a value (valueId null) is left out, never sent back as the text "null".
		result.analyticalFieldValues = values.flatMap((v: unknown) => {
			const fieldId = idOrNumber((v as IDataObject | null)?.fieldId);
			const valueId = idOrNumber((v as IDataObject | null)?.valueId);
			return fieldId && valueId ? [{ fieldId, valueId }] : [];
		});
	return result;
}

/** The lines with one change applied (a value of a field replaces the line's value of that field). */
export function applyChange(lines: LineItem[], change: LineChange): LineItem[] {
	return lines.map((line, i) => {
		if (change.line !== undefined && change.line !== i + 1) return line;
		const { analyticalFieldValues: values, ...rest } = change.set;
		const next: LineItem = { ...line, ...rest };
		if (values) {
			const kept = (line.analyticalFieldValues ?? []).filter(
				(v) => !values.some((w) => w.fieldId === v.fieldId),
			);
			next.analyticalFieldValues = [...kept, ...values];
		}
		return next;
	});
}
