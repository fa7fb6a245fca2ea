/** What the invoice trigger keeps between polls in the static data, its check on load, and its housekeeping. */
import type { IDataObject } from 'n8n-workflow';
import { companyLabel } from '../companies/label';
import type { KeptCompanyList } from '../companies/select';
import { isObject } from '../transport/pagination/response';
import { isDateMs } from '../transport/timeText';
import { time } from './cursorState';
import type { CompanyState } from './cursorState';

export interface TriggerStaticData extends KeptCompanyList {
	/** Per-company cursor state, keyed by company id ('' = a company-level credential's own company). */
	companies?: Record<string, CompanyState>;
	/** Set after the first successful poll: companies found later start from now. */
	initialized?: boolean;
	/** Start (ms) of companies selected at activation whose first poll has not succeeded yet: they catch up from there. */
	pending?: Record<string, number>;
	/** Since when (ms) a company with saved state is no longer selected; dropped after FORGET_AFTER_MS. */
	absent?: Record<string, number>;
}

/** A company away this long starts afresh (as a new company) if it comes back. */
export const FORGET_AFTER_MS = 7 * 24 * 3_600_000;

/** Logs a warning; the message follows the trigger's name ("dropped …", "could not …"). */
type Warn = (message: string) => void;

const isMs = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value);
const isText = (value: unknown): value is string => typeof value === 'string';
type Check = (value: unknown) => boolean;
const orNull = (is: Check): Check => {
	return (value) => value === null || is(value);
};
/** A list of two values that pass `first` and `second`. */
const isPair = (value: unknown, first: Check, second: Check): value is [unknown, unknown] =>
	Array.isArray(value) && value.length === 2 && first(value[0]) && second(value[1]);

/** A company key as a warning may show it (keys are company ids; anything else is not quoted). */
function companyOfKey(key: string): string {
	if (key !== '' && !/^[\w.:-]{1,128}$/.test(key)) return 'a company with an unreadable id';
	return companyLabel(key);
}

/** Whether a saved company state can be used (see CompanyState). */
function usableState(value: unknown): value is CompanyState {
	if (!isObject(value)) return false;
	const { cursor, seen, floor, recheck } = value;
	if (cursor !== null && (typeof cursor !== 'string' || time(cursor) === undefined)) return false;
	if (!isObject(seen)) return false;
	if (!Object.values(seen).every((entry) => isPair(entry, orNull(isMs), isMs))) return false;
	if (floor !== undefined && !isPair(floor, isMs, isText)) return false;
	// A range left to a recheck: two times, the first not after the second.
	return (
		recheck === undefined ||
		(isPair(recheck, isMs, isMs) && (recheck[0] as number) <= (recheck[1] as number))
	);
}

function checkCompanies(data: IDataObject, warn: Warn): void {
	const { companies } = data;
	if (companies === undefined) return;
	if (!isObject(companies)) {
		delete data.companies;
		warn(
			'could not read the saved positions of its companies: every company starts afresh, as a new company does (the invoices that appear from now on are emitted).',
		);
		return;
	}
	const dropped = Object.keys(companies).filter((key) => !usableState(companies[key]));
	if (dropped.length === 0) return;
	for (const key of dropped) delete companies[key];
	warn(
		`dropped the saved position of ${dropped.map(companyOfKey).join(', ')}: it was incomplete or not readable (saved by another version, or edited). ` +
			'It starts afresh, as a new company does: the invoices that appear from now on are emitted.',
	);
}

/** `pending` and `absent`: company → time (ms); other entries are dropped. */
function checkTimes(data: IDataObject, field: 'pending' | 'absent', warn: Warn): void {
	const value = data[field];
	if (value === undefined) return;
	const entries = isObject(value) ? Object.entries(value) : [];
	// These are dates a company starts or stopped from: one no Date can hold is unreadable.
	const kept = entries.filter(([, ms]) => isDateMs(ms));
	if (isObject(value) && kept.length === entries.length) return;
	data[field] = Object.fromEntries(kept);
	warn(
		`dropped unreadable entries of its saved "${field}" list; the companies concerned are handled as if they had none.`,
	);
}

function checkCompanyList(data: IDataObject, warn: Warn): void {
	const list = data.companyList;
	if (list === undefined) return;
	const usable =
		isObject(list) &&
		isMs(list.at) &&
		list.at <= Date.now() &&
		Array.isArray(list.companies) &&
		list.companies.every((entry) => isPair(entry, isText, orNull(isText)));
	if (usable) return;
	delete data.companyList;
	warn(
		'dropped its saved company list (not readable, or dated in the future): the company list is read again.',
	);
}

/** Checks the static data on load: what cannot be used is dropped with a warning (a company starts afresh). */
export function checkStaticData(data: TriggerStaticData, warn: Warn): void {
	const raw = data as IDataObject;
	checkCompanies(raw, warn);
	checkTimes(raw, 'pending', warn);
	checkTimes(raw, 'absent', warn);
	checkCompanyList(raw, warn);
	if (raw.initialized !== undefined && typeof raw.initialized !== 'boolean') {
		// Saved positions mean the trigger was activated: never replay Start From over them.
		raw.initialized = Object.keys(data.companies ?? {}).length > 0;
		warn('could not read whether it was activated before; it goes on from its saved positions.');
	}
}

/** Marks saved companies that are no longer selected; drops those away for FORGET_AFTER_MS. */
export function forgetAbsent(data: TriggerStaticData, selected: Set<string>): void {
	const companies = data.companies ?? {};
	const absent = (data.absent ??= {});
	const now = Date.now();
	for (const key of Object.keys(companies)) {
		if (selected.has(key)) {
			delete absent[key];
			continue;
		}
		absent[key] ??= now;
		if (now - absent[key] >= FORGET_AFTER_MS) {
			delete companies[key];
			delete absent[key];
		}
	}
	for (const key of Object.keys(data.pending ?? {}))
		if (!selected.has(key)) delete data.pending![key];
}
