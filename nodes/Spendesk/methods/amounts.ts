/** Amounts in minor units (cents, yen: docs/api.md#response-shapes), for the labels of the editor's lists only. */

/** Digits after the decimal point of a currency (2 when the code is not one Intl knows). */
function minorDigits(currency: string): number {
	try {
		return (
			new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
				.maximumFractionDigits ?? 2
		);
	} catch {
		return 2;
	}
}

/**
 * "EUR 1,326.40" for 132640 EUR: every amount of the editor's lists. The minor unit's digits are
 * `precision` when the record gives it, else the currency's; "" when there is no whole amount.
 */
export function minorAmountText(amount: unknown, currency: unknown, precision?: unknown): string {
	if (typeof amount !== 'number' || !Number.isInteger(amount)) return '';
	const given = typeof currency === 'string' ? currency.trim().toUpperCase() : '';
	// Only an ISO 4217 code is shown (and says how many digits the minor unit has).
	const code = /^[A-Z]{3}$/.test(given) ? given : '';
	const digits =
		typeof precision === 'number' &&
		Number.isInteger(precision) &&
		precision >= 0 &&
		precision <= 10
			? precision
			: code
				? minorDigits(code)
				: 2;
	const major = new Intl.NumberFormat('en-US', {
		minimumFractionDigits: digits,
		maximumFractionDigits: digits,
	}).format(amount / 10 ** digits);
	return code ? `${code} ${major}` : major;
}
