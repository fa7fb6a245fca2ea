/** Values as an expression hands them to a node: numbers as text, dates as Luxon DateTime or Date. */

/** A date from an expression: a Date as its milliseconds, a Luxon DateTime ({{ $now }}) as ISO text. */
export function expressionDate(value: unknown): unknown {
	if (value instanceof Date) return value.getTime();
	const toISO = (value as { toISO?: unknown } | null)?.toISO;
	return typeof toISO === 'function' ? String((toISO as () => unknown).call(value)) : value;
}

/** A number parameter as expressions may give it: a number, or numeric text; anything else is NaN. */
export function numberOf(raw: unknown): number {
	return typeof raw === 'number'
		? raw
		: typeof raw === 'string' && raw.trim() !== ''
			? Number(raw)
			: Number.NaN;
}
