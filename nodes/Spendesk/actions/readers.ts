/**
 * The field readers of the operations: each reads one value of an item, checks it before any
 * request, and fails naming the field and the item (texts, IDs, amounts, dates, lists, bank
 * details). The editor's side of record IDs: recordId.ts.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { isOneIdSegment } from '../transport/placement';
import { impossibleDate, toEpoch } from './dates';
import { itemError } from './errorItem';
import { LOCATOR_MODES } from './recordId';

/** A field's label as messages write it, in quotes after where it is ("Item 2, 'Name'") (CONTRIBUTING.md). */
export function fieldLabel(label: string): string {
	if (label.includes("'")) return label;
	const at = label.lastIndexOf(', ');
	return at < 0 ? `'${label}'` : `${label.slice(0, at + 2)}'${label.slice(at + 2)}'`;
}

export function fail(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description: string,
): never {
	throw itemError(ctx, itemIndex, message, description);
}

/** A value as messages show it: text in quotes, anything else as it prints (40 characters). */
export const shown = (raw: unknown): string =>
	typeof raw === 'string' ? `"${raw.slice(0, 40)}"` : String(raw).slice(0, 40);

/** The entries of a fixed collection (a list of sets of fields); none when it is no list. */
export const entriesOf = (raw: unknown): IDataObject[] =>
	Array.isArray(raw) ? (raw as IDataObject[]) : [];

/** Optional text: trimmed; empty gives undefined; longer than `max` fails. */
export function readText(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
	max: number,
): string | undefined {
	if (value === undefined || value === null) return undefined;
	const field = fieldLabel(label);
	if (typeof value !== 'string' && typeof value !== 'number')
		fail(ctx, itemIndex, `${field} must be text`, `Enter ${field} as text.`);
	const text = String(value).trim();
	if (text.length > max)
		fail(
			ctx,
			itemIndex,
			`${field} is too long (${text.length} characters; at most ${max})`,
			`Shorten ${field}.`,
		);
	return text || undefined;
}

export const LIST_HINT = 'Pick it from the list, or enter its ID By ID.';

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
 * A record ID, checked to be one path segment (`isOneIdSegment`); empty gives undefined. By
 * default the field is a record locator as n8n hands it over (`{ mode, value }`, From List or
 * By ID); `text`: a plain text field. `hint` says where the ID comes from.
 */
export function readId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	raw: unknown,
	label: string,
	hint: string,
	kind: 'locator' | 'text' = 'locator',
): string | undefined {
	let value = raw;
	if (kind === 'locator' && raw !== undefined && raw !== null && raw !== '') {
		const locator = raw as IDataObject;
		if (
			typeof raw !== 'object' ||
			!('value' in locator) ||
			!LOCATOR_MODES.includes(String(locator.mode))
		)
			fail(
				ctx,
				itemIndex,
				`${fieldLabel(label)} must be picked From List or entered By ID; the node got ${shownAs(raw)}`,
				`Set the field again in the node: From List, or By ID (an expression goes in By ID). ${hint}`,
			);
		value = locator.value;
	}
	if (value === undefined || value === null) return undefined;
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
	if (id && !isOneIdSegment(id))
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)} holds "${id.slice(0, 60)}", which is not a valid ID`,
			`An ID is one word of at most 128 characters, without spaces, slashes, "?" or "#", and not "." or "..". ${hint}`,
		);
	return id || undefined;
}

/** The record an item acts on (parameter `name`, a record locator): readId, and not empty. */
export function readRecordId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
	hint: string,
): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const id = readId(ctx, itemIndex, raw, label, hint);
	if (id === undefined) fail(ctx, itemIndex, `${fieldLabel(label)} is empty`, hint);
	return id;
}

/** Analytical values, `{ fieldId, valueId }` each, both needed; `at` names an entry by its number. */
export function readFieldValues(
	ctx: IExecuteFunctions,
	itemIndex: number,
	entries: IDataObject[],
	names: { at: (n: number) => string; field: string; remove: string },
): Array<{ fieldId: string; valueId: string }> {
	return entries.map((entry, i) => {
		const at = names.at(i + 1);
		const fieldId = readId(ctx, itemIndex, entry.fieldId, `${at}, '${names.field}'`, LIST_HINT);
		const valueId = readId(ctx, itemIndex, entry.valueId, `${at}, 'Value'`, LIST_HINT);
		if (!fieldId || !valueId)
			fail(
				ctx,
				itemIndex,
				`${at} needs both ${/^[AEIOU]/.test(names.field) ? 'an' : 'a'} '${names.field}' and a 'Value'`,
				`Pick the analytical field, and give the ID of one of its values (Analytical Field → Get Many Values lists them), or remove ${names.remove}.`,
			);
		return { fieldId, valueId };
	});
}

/** The decimals of a currency's minor unit (ISO 4217: EUR 2, JPY 0, KWD 3); 2 when unknown. */
function currencyPrecision(currency: string): number {
	try {
		const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
			.maximumFractionDigits;
		return typeof digits === 'number' ? digits : 2;
	} catch {
		return 2;
	}
}

export function readCurrency(ctx: IExecuteFunctions, itemIndex: number, raw: unknown): string {
	const code = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
	if (!/^[A-Z]{3}$/.test(code))
		fail(
			ctx,
			itemIndex,
			`'Currency' must be a three-letter currency code; got ${typeof raw === 'string' ? `"${raw.slice(0, 40)}"` : String(raw)}`,
			"Enter the currency of the company's purchase orders as its ISO 4217 code, e.g. EUR, GBP or USD.",
		);
	return code;
}

/** A whole number of minor units (a number, or its digits as text), as a payable's amounts are. */
export function readMinorUnits(
	ctx: IExecuteFunctions,
	itemIndex: number,
	raw: unknown,
	label: string,
): number {
	// Empty text is no amount (Number('') would make it 0).
	const amount = typeof raw === 'string' ? (raw.trim() === '' ? undefined : Number(raw)) : raw;
	if (typeof amount !== 'number' || !Number.isSafeInteger(amount))
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)} must be a whole number of minor units; got ${shown(raw)}`,
			"Give the amount in minor units, like the payable's amount: 120.00 EUR is 12000.",
		);
	return amount;
}

/** A decimal amount in `currency` as minor units: above 0 (`positive`) or from 0, no more decimals than it has. */
export function readMoney(
	ctx: IExecuteFunctions,
	itemIndex: number,
	raw: unknown,
	label: string,
	currency: string,
	positive = false,
): { amount: number; currency: string; precision: number } {
	const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : raw;
	const precision = currencyPrecision(currency);
	const example = precision ? `1200.${'5'.padEnd(precision, '0')}` : '1200';
	const field = fieldLabel(label);
	if (
		typeof value !== 'number' ||
		!Number.isFinite(value) ||
		value < 0 ||
		(positive && value === 0)
	)
		fail(
			ctx,
			itemIndex,
			`${field} must be a number ${positive ? 'above' : 'of at least'} 0; got ${shown(raw)}`,
			`Enter ${field} as a decimal number in ${currency}, e.g. ${example} (not in minor units such as cents).`,
		);
	const scaled = value * 10 ** precision;
	const amount = Math.round(scaled);
	if (!Number.isSafeInteger(amount))
		fail(
			ctx,
			itemIndex,
			`${field} is too large to send exactly; got ${shown(raw)}`,
			`Enter ${field} in ${currency}, at most ${Math.floor(Number.MAX_SAFE_INTEGER / 10 ** precision)}.`,
		);
	if (Math.abs(scaled - amount) > 1e-6 * Math.max(1, Math.abs(scaled)))
		fail(
			ctx,
			itemIndex,
			`${field} has more decimals than ${currency} has (${precision}); got ${shown(raw)}`,
			`Round ${field} to ${precision} decimal${precision === 1 ? '' : 's'}, e.g. ${example}.`,
		);
	return { amount, currency, precision };
}

/**
 * A date field as an ISO 8601 date-time in UTC (a value without a time zone read in the
 * workflow's). Two wordings of the refusal: `date` says why the value is no date (Purchase
 * Order → Create), `dateTime` what was given (Accounting Export → Create).
 */
export function readDate(
	ctx: IExecuteFunctions,
	itemIndex: number,
	raw: unknown,
	label: string,
	wording: 'date' | 'dateTime' = 'date',
): string {
	const at = toEpoch(raw, ctx.getTimezone());
	const impossible = typeof raw === 'string' ? impossibleDate(raw) : undefined;
	if (wording === 'dateTime' && !Number.isFinite(at))
		fail(
			ctx,
			itemIndex,
			`'${label}' must be a date and time; got ${typeof raw === 'string' && raw.trim() ? `"${raw.trim()}"` : 'nothing'}`,
			'Pick a date in the field, or give an ISO 8601 date-time from an expression, e.g. {{ $now.startOf("month").toISO() }}.',
		);
	if (impossible !== undefined || !Number.isFinite(at)) {
		const given =
			raw === '' || raw === undefined
				? ''
				: `: ${raw instanceof Date ? `"${String(raw)}"` : shown(raw)}`;
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)} is not a date${impossible ? `: ${impossible}` : given}`,
			`Pick a date in ${fieldLabel(label)}, or give one as an ISO 8601 date or date-time, e.g. 2026-03-31 or 2026-03-31T18:00:00Z.`,
		);
	}
	return new Date(at).toISOString();
}

/** The start and end of a period (parameters `[name, label]`), the start not after the end. */
export function readPeriod(
	ctx: IExecuteFunctions,
	itemIndex: number,
	[startName, startLabel]: [string, string],
	[endName, endLabel]: [string, string],
	{ wording, advice }: { wording?: 'date' | 'dateTime'; advice: string },
): { start: string; end: string } {
	const read = (name: string, label: string) =>
		readDate(ctx, itemIndex, ctx.getNodeParameter(name, itemIndex, ''), label, wording);
	const start = read(startName, startLabel);
	const end = read(endName, endLabel);
	if (start > end)
		fail(ctx, itemIndex, `'${startLabel}' (${start}) is after '${endLabel}' (${end})`, advice);
	return { start, end };
}

/** A list from a field: an array (from an expression), or text separated by commas or spaces. */
function valuesOf(value: unknown): unknown[] {
	if (value === undefined || value === null || value === '') return [];
	if (Array.isArray(value)) return value;
	if (typeof value === 'string') return value.split(/[\s,;]+/);
	return [value];
}

/** Record IDs given as text separated by commas (or a list from an expression); undefined when none. */
export function readIdList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
): string[] | undefined {
	const ids = valuesOf(value)
		.map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : v))
		.filter((v) => v !== '');
	for (const id of ids) {
		if (typeof id !== 'string' || !isOneIdSegment(id))
			fail(
				ctx,
				itemIndex,
				`${fieldLabel(label)}: ${typeof id === 'string' ? `"${id.slice(0, 60)}"` : typeof id} is not a valid ID`,
				`Enter the IDs separated by commas, e.g. id_1, id_2 (an expression may give a list). An ID has no spaces, slashes, "?" or "#".`,
			);
	}
	return ids.length ? (ids as string[]) : undefined;
}

/** Choices of a multi-select or a single-select (an expression's text or list), each one of `allowed`; undefined when none. */
export function readChoices(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
	allowed: readonly string[],
): string[] | undefined {
	const chosen = valuesOf(value)
		.map((v) => String(v).trim())
		.filter(Boolean);
	const unknown = chosen.find((v) => !allowed.includes(v));
	if (unknown !== undefined)
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)}: "${unknown.slice(0, 40)}" is not one of the values Spendesk knows`,
			`Choose from the list in '${label}' (an expression must give ${allowed.join(', ')}).`,
		);
	return chosen.length ? chosen : undefined;
}

/** The Sort rule (`{ rule: { field, direction } }`), none given `{}`; `fields`: those the list sorts by, if any. */
export function readSortRule(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: readonly string[] = [],
): { field?: string; direction?: 'asc' | 'desc' } {
	const raw = ctx.getNodeParameter('sort', itemIndex, {}) as unknown;
	if (raw === undefined || raw === null || raw === '') return {};
	if (typeof raw !== 'object' || Array.isArray(raw))
		fail(
			ctx,
			itemIndex,
			`'Sort' must be a sort rule; got ${Array.isArray(raw) ? 'a list' : typeof raw}`,
			"Set 'Sort' in the node, or remove the value an expression or the workflow's JSON gives it.",
		);
	const rule = (raw as { rule?: unknown }).rule as Record<string, unknown> | undefined;
	if (!rule || typeof rule !== 'object') return {};
	const field = fields.length
		? readChoices(ctx, itemIndex, rule.field, 'Field', fields)?.[0]
		: undefined;
	const direction = readChoices(ctx, itemIndex, rule.direction, 'Direction', [
		'asc',
		'desc',
	])?.[0] as 'asc' | 'desc' | undefined;
	return { ...(field ? { field } : {}), ...(direction ? { direction } : {}) };
}

export function readBookkeepingStatus(ctx: IExecuteFunctions, itemIndex: number): string {
	const status = ctx.getNodeParameter('bookkeepingStatus', itemIndex, 'exported') as string;
	if (status !== 'exported' && status !== 'failedToExport')
		fail(
			ctx,
			itemIndex,
			`'Bookkeeping Status' must be "Exported" or "Failed to Export"; got "${String(status).slice(0, 40)}"`,
			'Choose "Exported" or "Failed to Export" (an expression must give "exported" or "failedToExport").',
		);
	return status;
}

/** ISO 13616 check: the rearranged IBAN as a number, modulo 97, is 1. */
function ibanChecksumOk(iban: string): boolean {
	const rearranged = iban.slice(4) + iban.slice(0, 4);
	let remainder = 0;
	for (const char of rearranged) {
		const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
		for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
	}
	return remainder === 1;
}

/** An IBAN without spaces, in capitals, with a valid checksum. */
export function readIban(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
): string | undefined {
	const text = readText(ctx, itemIndex, value, 'IBAN', 64)?.replace(/\s+/g, '').toUpperCase();
	if (text === undefined) return undefined;
	if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(text) || !ibanChecksumOk(text))
		fail(
			ctx,
			itemIndex,
			`'IBAN' holds "${text.slice(0, 40)}", which is not a valid international bank account number`,
			"Check 'IBAN': two letters for the country, two check digits, then the account number (spaces are allowed).",
		);
	return text;
}

/** A BIC (SWIFT code): 8 or 11 letters and digits, in capitals. */
export function readBic(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
): string | undefined {
	const text = readText(ctx, itemIndex, value, 'BIC', 16)?.replace(/\s+/g, '').toUpperCase();
	if (text !== undefined && !/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(text))
		fail(
			ctx,
			itemIndex,
			`'BIC' holds "${text}", which is not a valid SWIFT code`,
			"'BIC' takes a SWIFT code of 8 or 11 characters, e.g. BNPAFRPP or BNPAFRPPXXX.",
		);
	return text;
}

/** A two-letter country code (ISO 3166), in capitals. */
export function readCountry(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
): string | undefined {
	const text = readText(ctx, itemIndex, value, label, 60)?.toUpperCase();
	if (text !== undefined && !/^[A-Z]{2}$/.test(text))
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)} holds "${text.slice(0, 40)}", which is not a two-letter country code`,
			`Enter ${fieldLabel(label)} as its ISO 3166 code, e.g. FR for France or DE for Germany.`,
		);
	return text;
}

export function readEmail(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
): string | undefined {
	const text = readText(ctx, itemIndex, value, 'Email', 254);
	if (text !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text))
		fail(
			ctx,
			itemIndex,
			`'Email' holds "${text.slice(0, 60)}", which is not an email address`,
			'Enter one email address, e.g. billing@supplier.com.',
		);
	return text;
}
