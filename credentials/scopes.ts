/**
 * The OAuth2 scopes the Spendesk OAuth2 credential asks for (docs/api.md#scopes-asked-for): the
 * documented read scopes always, and experimental scopes only for the Experimental Features
 * the user ticks. Spendesk's authorize step requires `scope`, and what it does with a scope
 * the partner app was not granted is not documented, so nothing experimental is asked for
 * unless chosen.
 */
import type { INodeProperties } from 'n8n-workflow';

/** The read scopes Spendesk documents for every customer (vendor documentation, docs/api.md#scopes). */
export const DOCUMENTED_READ_SCOPES: readonly string[] = [
	'payable:read',
	'payable-attachment:read',
	'settlement:read',
	'bank-fee:read',
	'wallet-load:read',
	'wallet-summary:read',
	'user:read',
	'supplier:read',
	'cost-center:read',
	'expense-category:read',
	'analytical-field:read',
];

/**
 * Experimental scopes Spendesk documents, or that public client code shows granted
 * (docs/api.md#scopes). A feature may ask only for these or for scopes of the catalogue.
 */
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

function unique(scopes: readonly string[]): string[] {
	return scopes.filter((scope, index) => scopes.indexOf(scope) === index);
}

/** Scopes asked for whatever the choice: exactly the documented read scopes. */
export const DEFAULT_SCOPES: readonly string[] = DOCUMENTED_READ_SCOPES;

export interface ExperimentalFeature {
	/** Option value stored in the credential. */
	value: string;
	name: string;
	/** What it unlocks, as the user sees it. */
	description: string;
	scopes: readonly string[];
}

/**
 * The Experimental Features a user may tick, each with the scopes it adds: the experimental
 * API's, and the one scope the package uses that Spendesk does not document (account:read).
 */
export const EXPERIMENTAL_FEATURES: readonly ExperimentalFeature[] = [
	{
		value: 'organisationAccess',
		name: 'Organisation-Level Access',
		description:
			'Company → Get Many, All Companies and the company lists, and the organisation-level analytical field and expense category lists',
		scopes: [
			'experimental:company:read',
			'experimental:analytical-field:read',
			'experimental:expense-category:read',
		],
	},
	{
		value: 'invoicesIntakes',
		name: 'Invoices and Intakes',
		description: 'Invoice and Intake operations, and the Spendesk Trigger (new invoices)',
		scopes: ['experimental:invoice:read', 'experimental:intake:read', 'experimental:intake:write'],
	},
	{
		value: 'webhooks',
		name: 'Webhooks',
		description: 'The Spendesk Webhook Trigger',
		scopes: ['experimental:webhooks:read', 'experimental:webhooks:write'],
	},
	{
		value: 'accountingWriteBack',
		name: 'Accounting Write-Back',
		description:
			'Payable → Update (accounting lines), Payable → Update Bookkeeping Status and Settlement → Update Bookkeeping Status',
		scopes: ['experimental:accounting:update', 'experimental:settlement:update'],
	},
	{
		value: 'accountingExports',
		name: 'Accounting Exports',
		description: 'Accounting Export operations, their journal templates included',
		scopes: ['experimental:accounting-export:read'],
	},
	{
		value: 'supplierManagement',
		name: 'Supplier Management',
		description: 'Supplier → Create, Update (one supplier or several items), Archive and Unarchive',
		scopes: ['experimental:supplier:manage'],
	},
	{
		value: 'payablesSearch',
		name: 'Payables Search',
		description: 'Payable → Get Many',
		scopes: ['experimental:payable-search:read'],
	},
	{
		value: 'accounts',
		name: 'Accounts',
		description:
			'Account → Get Many (scope account:read, which Spendesk does not document: tick it only if your app was granted it)',
		scopes: ['account:read'],
	},
	{
		value: 'purchaseOrders',
		name: 'Purchase Orders',
		description: 'Purchase Order operations',
		scopes: ['experimental:purchase-order:read', 'experimental:purchase-order:write'],
	},
	{
		value: 'receiptUpload',
		name: 'Receipt Upload',
		description: 'Payable → Upload Receipt',
		scopes: ['experimental:payable-attachment:write'],
	},
];

/** The scope string for a choice of features: default scopes, then each chosen feature's, once each. */
export function scopesFor(features: readonly string[]): string {
	const chosen = EXPERIMENTAL_FEATURES.filter((f) => features.includes(f.value));
	return unique([...DEFAULT_SCOPES, ...chosen.flatMap((f) => f.scopes)]).join(' ');
}

/** The credential's Experimental Features choice; the scopes asked for follow from it (`scopesFor`). */
export const scopeProperties: INodeProperties[] = [
	{
		displayName: 'Experimental Features',
		name: 'experimentalFeatures',
		type: 'multiOptions',
		// Shown sorted by name; the scopes keep the order of EXPERIMENTAL_FEATURES.
		options: EXPERIMENTAL_FEATURES.map(({ name, value, description }) => ({
			name,
			value,
			description,
		})).sort((a, b) => a.name.localeCompare(b.name)),
		default: [],
		description:
			'Spendesk features outside its documented API, each asking for its own scopes. Tick one only once your Spendesk contact has enabled it for your partner app; on a connected credential, also turn on Connect Again so that you approve the new scopes. The documented read scopes are always asked for.',
	},
];
