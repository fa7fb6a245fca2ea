/** The most milliseconds from 1970 a Date can hold, either way (`new Date(1e20).toISOString()` throws). */
const LAST_DATE_MS = 8.64e15;

export function isDateMs(value: unknown): value is number {
	return typeof value === 'number' && Math.abs(value) <= LAST_DATE_MS;
}

/** The time as ISO 8601, or undefined when no date can hold it. */
export function isoTime(ms: number): string | undefined {
	return isDateMs(ms) ? new Date(ms).toISOString() : undefined;
}
