/**
 * Dates of dateTime fields as ISO 8601 in UTC, a value without a time zone (what the date
 * picker gives) read in the workflow's time zone; the date filters of the lists.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { dateFilter } from './listFilters';
import { filtersCollection, readCollection } from './sharedParams';
import { expressionDate } from '../values/expression';
import { itemError } from './errorItem';

const ISO_LIKE =
	/^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Offset of `timeZone` from UTC at `utcMs`, in ms (0 when the zone is unknown). */
function zoneOffset(utcMs: number, timeZone: string): number {
	try {
		const parts = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		}).formatToParts(new Date(utcMs));
		const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
		const asUtc = Date.UTC(
			get('year'),
			get('month') - 1,
			get('day'),
			get('hour'),
			get('minute'),
			get('second'),
		);
		return asUtc - Math.floor(utcMs / 1000) * 1000;
	} catch {
		return 0;
	}
}

/** A wall-clock time in `timeZone` as ms since epoch (daylight saving time included). */
function fromZone(localAsUtc: number, timeZone: string): number {
	const first = localAsUtc - zoneOffset(localAsUtc, timeZone);
	return localAsUtc - zoneOffset(first, timeZone);
}

/** Why an ISO-like text names no real moment (2026-02-30, 24:00), which JavaScript would roll over. */
export function impossibleDate(text: string): string | undefined {
	const match = ISO_LIKE.exec(text.trim());
	if (!match) return undefined;
	const [year, month, dayOfMonth] = match[1].split('-').map(Number);
	if (month < 1 || month > 12) return `there is no month ${month}`;
	const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
	if (dayOfMonth < 1 || dayOfMonth > days)
		return `${match[1]} does not exist (${new Date(Date.UTC(year, month - 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' })} ${year} has ${days} days)`;
	const [hours, minutes, seconds] = (match[2] ?? '00:00:00').split(':').map(Number);
	if (hours > 23 || minutes > 59 || (seconds ?? 0) >= 60)
		return `${match[2]} is not a time of day (use 00:00 to 23:59)`;
	return undefined;
}

/** The value of a dateTime field as ms since epoch (a value without a zone read in `timeZone`), or NaN when it is no date. */
export function toEpoch(value: unknown, timeZone: string): number {
	const given = expressionDate(value);
	if (typeof given === 'number') return given;
	const text = typeof given === 'string' ? given.trim() : '';
	const match = ISO_LIKE.exec(text);
	if (!match) return Number.NaN;
	const [, day, time, zone] = match;
	const local = Date.parse(`${day}T${time ?? '00:00:00'}Z`);
	if (Number.isNaN(local) || impossibleDate(text) !== undefined) return Number.NaN;
	if (zone)
		return Date.parse(
			`${day}T${time ?? '00:00:00'}${zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`,
		);
	return fromZone(local, timeZone);
}

/** A label ending in "To" or "Until" includes its day; "Before" and "After" do not (docs/api.md#filters). */
export function isEndDateLabel(label: string): boolean {
	return /\b(?:To|Until)$/.test(label);
}

/**
 * One date filter of a collection, as ISO 8601 in UTC (undefined when empty); anything else fails
 * naming the field. Under an end label (isEndDateLabel), a whole day (no time, or 00:00 without
 * a zone: the date picker's day) ends at its last millisecond in the workflow's time zone.
 */
export function readDateFilter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const at = toEpoch(value, ctx.getTimezone());
	const impossible = typeof value === 'string' ? impossibleDate(value) : undefined;
	if (impossible !== undefined)
		throw itemError(
			ctx,
			itemIndex,
			`'${label}' is not a real date: ${impossible}`,
			`Correct '${label}'; the node does not move an impossible date to the next month or day.`,
		);
	if (Number.isNaN(at)) {
		const shown = typeof value === 'string' ? `"${value.slice(0, 60)}"` : typeof value;
		throw itemError(
			ctx,
			itemIndex,
			`'${label}' is not a date: got ${shown}`,
			`Pick a date in '${label}', or give an ISO 8601 date such as 2026-01-31 or 2026-01-31T18:00:00Z (an expression may give {{ $now }}).`,
		);
	}
	const match = typeof value === 'string' ? ISO_LIKE.exec(value.trim()) : null;
	const wholeDay = match && !match[3] && /^(?:00:00(?::00(?:\.0+)?)?)?$/.test(match[2] ?? '');
	if (!wholeDay || !isEndDateLabel(label)) return new Date(at).toISOString();
	const [year, month, dayOfMonth] = match[1].split('-').map(Number);
	const nextMidnight = fromZone(Date.UTC(year, month - 1, dayOfMonth + 1), ctx.getTimezone());
	return new Date(nextMidnight - 1).toISOString();
}

/** The From / Until filters of a dated list (bank fees, wallet loads), both dates included. */
export function fromToFilters(what: string): INodeProperties {
	return filtersCollection([
		dateFilter('From', 'from', `Only ${what} on or after this date`),
		// "Until", not "To": the end date is included (an accounting export's "Before" is not),
		// a day as a whole (readDateFilter).
		dateFilter(
			'Until',
			'to',
			`Only ${what} on or before this date (a day without a time includes the whole day)`,
		),
	]);
}

/** From / Until as the query parameters from / to; From after Until fails before any request. */
export function readFromTo(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = readCollection(ctx, 'filters', itemIndex);
	const from = readDateFilter(ctx, itemIndex, filters.from, 'From');
	const to = readDateFilter(ctx, itemIndex, filters.to, 'Until');
	if (from && to && from > to)
		throw itemError(
			ctx,
			itemIndex,
			`'From' (${from}) is after 'Until' (${to})`,
			"Set 'From' to a date on or before 'Until', or leave one of them empty.",
		);
	return { from, to };
}
