/**
 * Scopes as the vendor names them (docs/api.md#scopes), to check the catalogue against: the
 * credential's default scopes come from the catalogue (transport/endpoints.ts), and must be
 * exactly the documented read scopes.
 */

/** The read scopes Spendesk documents for every customer, in the order the catalogue first uses them. */
export const DOCUMENTED_READ_SCOPES: readonly string[] = [
	'wallet-summary:read',
	'settlement:read',
	'analytical-field:read',
	'expense-category:read',
	'payable:read',
	'supplier:read',
	'user:read',
	'cost-center:read',
	'bank-fee:read',
	'wallet-load:read',
	'payable-attachment:read',
];

/** Experimental scopes Spendesk documents, or that public client code shows granted. */
export const VENDOR_EXPERIMENTAL_SCOPES: readonly string[] = [
	'experimental:accounting-export:read',
	'experimental:webhooks:read',
	'experimental:webhooks:write',
	'experimental:payable-search:read',
	'experimental:accounting:update',
	'experimental:payable-attachment:write',
	'experimental:supplier:manage',
	'experimental:purchase-order:read',
	'experimental:purchase-order:write',
];
