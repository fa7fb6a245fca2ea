/**
 * The body of Purchase Order → Create, read from an item and checked before any request
 * (docs/api.md#purchase-orders), in the shape a public client sent to the vendor's sandbox:
 * amounts as `{amount, currency, precision}` in minor units, dates as ISO 8601 date-times, custom
 * fields as `{customFieldId, customFieldValueId}`, line items as
 * `{name, quantity, unitPrice, vatRate}`. Users enter amounts as decimal numbers in the currency
 * (1200.50); the node turns them into minor units with the currency's precision.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { impossibleDate, toEpoch } from '../dates';
import { checkRecordId, locatorValue } from '../recordId';
import { fail, fieldLabel, readText } from '../writeFields';

/** An amount as Spendesk takes it: minor units, its currency and the currency's precision. */
export interface Money {
	amount: number;
	currency: string;
	precision: number;
}

/** The decimals of a currency's minor unit (ISO 4217: EUR 2, JPY 0, KWD 3); 2 when unknown. */
export function currencyPrecision(currency: string): number {
	try {
		const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
			.maximumFractionDigits;
		return typeof digits === 'number' ? digits : 2;
	} catch {
		return 2;
	}
}

/** The Currency field: a three-letter code (ISO 4217), in capitals. */
export function readCurrency(ctx: IExecuteFunctions, itemIndex: number): string {
	const raw = ctx.getNodeParameter('currency', itemIndex, '') as unknown;
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

const shown = (raw: unknown): string =>
	typeof raw === 'string' ? `"${raw.slice(0, 40)}"` : String(raw).slice(0, 40);

/**
 * An amount entered as a decimal number in `currency` (a number, or its digits as text), as
 * minor units: above 0 (`positive`) or from 0, with no more decimals than the currency has.
 */
export function readMoney(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	currency: string,
	positive: boolean,
	itemIndex: number,
): Money {
	const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : raw;
	const precision = currencyPrecision(currency);
	const example = precision ? `1200.${'5'.padEnd(precision, '0')}` : '1200';
	if (
		typeof value !== 'number' ||
		!Number.isFinite(value) ||
		value < 0 ||
		(positive && value === 0)
	)
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)} must be a number ${positive ? 'above' : 'of at least'} 0; got ${shown(raw)}`,
			`Enter ${fieldLabel(label)} as a decimal number in ${currency}, e.g. ${example} (not in minor units such as cents).`,
		);
	const scaled = value * 10 ** precision;
	const amount = Math.round(scaled);
	if (!Number.isSafeInteger(amount))
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)} is too large to send exactly; got ${shown(raw)}`,
			`Enter ${fieldLabel(label)} in ${currency}, at most ${Math.floor(Number.MAX_SAFE_INTEGER / 10 ** precision)}.`,
		);
	if (Math.abs(scaled - amount) > 1e-6 * Math.max(1, Math.abs(scaled)))
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)} has more decimals than ${currency} has (${precision}); got ${shown(raw)}`,
			`Round ${fieldLabel(label)} to ${precision} decimal${precision === 1 ? '' : 's'}, e.g. ${example}.`,
		);
	return { amount, currency, precision };
}

/** A date field as an ISO 8601 date-time in UTC (a value without a time zone read in the workflow's). */
export function readDateTime(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	itemIndex: number,
): string {
	const impossible = typeof raw === 'string' ? impossibleDate(raw) : undefined;
	const at = toEpoch(raw, ctx.getTimezone());
	if (impossible !== undefined || !Number.isFinite(at))
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)} is not a date${impossible ? `: ${impossible}` : raw === '' || raw === undefined ? '' : `: ${raw instanceof Date ? `"${String(raw)}"` : shown(raw)}`}`,
			`Pick a date in ${fieldLabel(label)}, or give one as an ISO 8601 date or date-time, e.g. 2026-03-31 or 2026-03-31T18:00:00Z.`,
		);
	return new Date(at).toISOString();
}

/** An ID from a resource locator of a list (Custom Fields): '' when empty. */
function readLocatorId(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	itemIndex: number,
): string {
	const hint = 'Pick it from the list, or enter its ID By ID.';
	return checkRecordId(ctx, locatorValue(ctx, raw, label, itemIndex, hint), label, itemIndex, hint);
}

/** Custom Fields: each an analytical field and one of its values, as `{customFieldId, customFieldValueId}`. */
export function readCustomFields(ctx: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const raw = ctx.getNodeParameter('customFields.field', itemIndex, []) as unknown;
	const entries = Array.isArray(raw) ? (raw as IDataObject[]) : [];
	return entries.map((entry, n) => {
		const label = `'Custom Fields' ${n + 1}`;
		const customFieldId = readLocatorId(ctx, entry.fieldId, `${label}, 'Field'`, itemIndex);
		const customFieldValueId = readLocatorId(ctx, entry.valueId, `${label}, 'Value'`, itemIndex);
		if (!customFieldId || !customFieldValueId)
			fail(
				ctx,
				itemIndex,
				`${label} needs both a 'Field' and a 'Value'`,
				"Pick the analytical field, and give the ID of one of its values (Analytical Field → Get Many Values lists them), or remove it from 'Custom Fields'.",
			);
		return { customFieldId, customFieldValueId };
	});
}

/** One line item: its name, quantity, unit price (in the currency) and VAT rate (%). */
function readItem(
	ctx: IExecuteFunctions,
	entry: IDataObject,
	label: string,
	currency: string,
	itemIndex: number,
): IDataObject {
	const name = readText(ctx, entry.name, `${label}, 'Name'`, 200, itemIndex);
	if (!name)
		fail(
			ctx,
			itemIndex,
			`${label}, 'Name' is empty`,
			"Name each line item, or remove it from 'Items'.",
		);
	const quantity = Number(entry.quantity ?? 1);
	if (!Number.isFinite(quantity) || quantity <= 0)
		fail(
			ctx,
			itemIndex,
			`${label}, 'Quantity' must be a number above 0; got ${shown(entry.quantity)}`,
			'Give how many units the line orders, e.g. 1 or 2.5.',
		);
	const vatRate = Number(entry.vatRate ?? 0);
	if (!Number.isFinite(vatRate) || vatRate < 0 || vatRate > 100)
		fail(
			ctx,
			itemIndex,
			`${label}, 'VAT Rate (%)' must be a percentage from 0 to 100; got ${shown(entry.vatRate)}`,
			'Give the VAT rate in percent, e.g. 20 for 20%.',
		);
	const unitPrice = readMoney(
		ctx,
		entry.unitPrice,
		`${label}, 'Unit Price'`,
		currency,
		false,
		itemIndex,
	);
	return { name, quantity, unitPrice: unitPrice as unknown as IDataObject, vatRate };
}

/** Additional Fields → Items: the purchase order's line items (none when not given). */
export function readItems(
	ctx: IExecuteFunctions,
	raw: unknown,
	currency: string,
	itemIndex: number,
): IDataObject[] | undefined {
	const entries = ((raw as IDataObject | undefined)?.item ?? []) as IDataObject[];
	if (!Array.isArray(entries) || !entries.length) return undefined;
	if (entries.length > 100)
		fail(
			ctx,
			itemIndex,
			`'Items' holds ${entries.length} line items; at most 100`,
			'Give at most 100 line items per purchase order.',
		);
	return entries.map((entry, n) => readItem(ctx, entry, `'Item' ${n + 1}`, currency, itemIndex));
}
