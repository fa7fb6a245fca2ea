/**
 * What the invoice trigger keeps between polls in the workflow's static data, and the
 * housekeeping that keeps it small.
 */
import type { KeptCompanyList } from '../companies/select';
import type { CompanyState } from './state';

export interface TriggerStaticData extends KeptCompanyList {
	/** Per-company cursor state, keyed by company id ('' = a company-level credential's own company). */
	companies?: Record<string, CompanyState>;
	/** Set after the first successful poll: companies found later start from now. */
	initialized?: boolean;
	/**
	 * Start (ms) of companies whose first poll has not succeeded yet although they were
	 * selected at activation: the date of Start From, or the activation time. They catch
	 * up from there once they answer, instead of starting from now.
	 */
	pending?: Record<string, number>;
	/**
	 * Since when (ms) a company with saved state has no longer been selected (it left the
	 * organisation, was deactivated, or was taken out of the selection). After FORGET_AFTER_MS
	 * away its state is dropped, so the state does not keep every company ever watched.
	 */
	absent?: Record<string, number>;
}

/** A company away this long starts afresh (as a new company) if it comes back. */
export const FORGET_AFTER_MS = 7 * 24 * 3_600_000;

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
	for (const key of Object.keys(data.pending ?? {})) if (!selected.has(key)) delete data.pending![key];
}
