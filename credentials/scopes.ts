/**
 * The Experimental Features of the OAuth2 credential (docs/api.md#scopes-asked-for). The scopes
 * each one adds, and the default scopes, come from the catalogue entries that name the feature
 * (transport/endpoints.ts): a scope is asked for only through its feature, since what Spendesk
 * does with a scope the partner app was not granted is not documented.
 */
import type { INodeProperties } from 'n8n-workflow';

/** In the order their scopes are asked for; `description` says what the feature unlocks. */
export const FEATURE_LABELS = {
	organisationAccess: {
		name: 'Organisation-Level Access',
		description:
			'Company → Get Many, All Companies and the company lists, and the organisation-level analytical field and expense category lists',
	},
	invoicesIntakes: {
		name: 'Invoices and Intakes',
		description: 'Invoice and Intake operations, and the Spendesk Trigger (new invoices)',
	},
	webhooks: { name: 'Webhooks', description: 'The Spendesk Webhook Trigger' },
	accountingWriteBack: {
		name: 'Accounting Write-Back',
		description:
			'Payable → Update (accounting lines), Payable → Update Bookkeeping Status and Settlement → Update Bookkeeping Status',
	},
	accountingExports: {
		name: 'Accounting Exports',
		description: 'Accounting Export operations, their journal templates included',
	},
	supplierManagement: {
		name: 'Supplier Management',
		description: 'Supplier → Create, Update (one supplier or several items), Archive and Unarchive',
	},
	payablesSearch: { name: 'Payables Search', description: 'Payable → Get Many' },
	accounts: {
		name: 'Accounts',
		description:
			'Account → Get Many (scope account:read, which Spendesk does not document: tick it only if your app was granted it)',
	},
	purchaseOrders: { name: 'Purchase Orders', description: 'Purchase Order operations' },
	receiptUpload: { name: 'Receipt Upload', description: 'Payable → Upload Receipt' },
} as const;

export type Feature = keyof typeof FEATURE_LABELS;

export const scopeProperties: INodeProperties[] = [
	{
		displayName: 'Experimental Features',
		name: 'experimentalFeatures',
		type: 'multiOptions',
		options: Object.entries(FEATURE_LABELS)
			.map(([value, { name, description }]) => ({ name, value, description }))
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: [],
		description:
			'Spendesk features outside its documented API, each asking for its own scopes. Tick one only once your Spendesk contact has enabled it for your partner app; on a connected credential, also turn on Connect Again so that you approve the new scopes. The documented read scopes are always asked for.',
	},
];
