/** A company a call acts on: its ID (none for a company-level credential's own company) and name. */
export interface CompanyTarget {
	/** Undefined: a company-level credential acting on its own (unnamed) company. */
	id?: string;
	name?: string;
}

/** How messages name a call that names no company: the credential's own company. */
export const OWN_COMPANY = "the credential's own company";

/** How every message names a company: `company "Acme" (cmp_1)`, `company "cmp_1"`, or `unnamed` without an ID. */
export function companyLabel(
	company: CompanyTarget | string | undefined,
	unnamed: string = OWN_COMPANY,
): string {
	const target: CompanyTarget = typeof company === 'string' ? { id: company } : (company ?? {});
	if (!target.id) return unnamed;
	return target.name ? `company "${target.name}" (${target.id})` : `company "${target.id}"`;
}
