/**
 * THE endpoint catalogue: every Spendesk API call the package makes is described here, and
 * only here. Operations name an entry; the transport derives the method, path, company
 * placement, pagination and required scope from it, and the OAuth2 credential its scopes.
 */
import { FEATURE_LABELS } from '../../../credentials/scopes';
import type { Feature } from '../../../credentials/scopes';

/**
 * How a call names its company when the credential is organisation-level.
 * - none: the call names no company (token endpoint).
 * - organisation: organisation-level tokens only, no company (Get Companies).
 * - header: `X-Company-Id` header (v1 and v2 endpoints without company in the path).
 * - path: `/v2/companies/{companyId}/…`; the header is never sent.
 */
export type CompanyPlacement = 'none' | 'organisation' | 'header' | 'path';

export type PaginationStyle = 'none' | 'page' | 'cursor' | 'offset' | 'bodyCursor' | 'snapshot';

export interface PageSize {
	/** Query (or body) parameter carrying the page size. */
	readonly param: 'pageSize' | 'limit' | 'fetch';
	readonly default: number;
	readonly max: number;
}

export interface Endpoint {
	readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	/** Path relative to the base URL; `{name}` placeholders are URL-encoded path parameters. */
	readonly path: string;
	readonly placement: CompanyPlacement;
	readonly pagination: PaginationStyle;
	readonly pageSize?: PageSize;
	/** OAuth scope the token needs; a 403 for it names this scope. */
	readonly scope?: string;
	/** Safe to retry after a 5xx or a connection reset (a write setting absolute values: a replay leaves what the first call did). */
	readonly idempotent: boolean;
	/** Snapshot lists: the entry that creates the snapshot whose key this one reads. */
	readonly snapshotCreate?: EndpointName;
	/** The documented v1 entry a company-level credential calls instead (`endpointForLevel`; docs/api.md#the-documented-profile). */
	readonly companyLevel?: EndpointName;
	/** A 2xx without a body is a success, read as `{}` (a write whose answer is unverified); otherwise an error. */
	readonly mayAnswerEmpty?: boolean;
	/** A file endpoint: a 2xx of this type (or an alias) gives its bytes as a Buffer; other answers are errors. */
	readonly contentType?: 'text/csv';
}

/** The page size of each list style, unless an entry says otherwise (and for Custom API Call). */
export const STYLE_PAGE_SIZES: Readonly<Record<Exclude<PaginationStyle, 'none'>, PageSize>> = {
	page: { param: 'pageSize', default: 30, max: 30 },
	cursor: { param: 'limit', default: 20, max: 100 },
	offset: { param: 'fetch', default: 20, max: 100 },
	bodyCursor: { param: 'limit', default: 20, max: 100 },
	snapshot: { param: 'pageSize', default: 30, max: 30 },
};

/** What only the docs read (`npm run docs`, scripts/docs.ts). */
interface Docs {
	/** The API's name for the endpoint, for docs/api.md only: messages name what the user chose (callName.ts). */
	readonly label: string;
	/** Who calls it, as the user sees it ("Resource → Operation", a trigger or the credential). */
	readonly operations: readonly string[];
	/** Where its facts come from (docs/api.md#sources). */
	readonly source: string;
}

/**
 * A catalogue entry as written. Unless it says otherwise: a GET, the company in the path if the
 * path has `{companyId}` and in the header otherwise, no pagination, the page size of its list
 * style, retried only if a GET, and a scope without `feature` is a documented read scope,
 * always asked for.
 */
type CatalogueEntry<Name> = Docs &
	Omit<
		Endpoint,
		'method' | 'placement' | 'pagination' | 'idempotent' | 'snapshotCreate' | 'companyLevel'
	> & {
		readonly method?: Endpoint['method'];
		readonly placement?: CompanyPlacement;
		readonly pagination?: PaginationStyle;
		readonly idempotent?: boolean;
		/** The Experimental Feature of the OAuth2 credential that asks for `scope`. */
		readonly feature?: Feature;
		readonly snapshotCreate?: Name;
		readonly companyLevel?: Name;
	};

type Entry = Endpoint & Docs & { readonly feature?: Feature };

/** An entry as written, its defaults filled in (a list's page size included), its literal types kept. */
type Filled<E> = E &
	Entry &
	(E extends { pagination: Exclude<PaginationStyle, 'none'> }
		? { readonly pageSize: PageSize }
		: unknown);

/** Checks the catalogue at compile time (shape of each entry, names it refers to) and fills in the defaults. */
function catalogue<const T extends { readonly [K in keyof T]: CatalogueEntry<keyof T> }>(
	entries: T,
): { readonly [K in keyof T]: Filled<T[K]> } {
	const filled = Object.entries<CatalogueEntry<keyof T>>(entries).map(([name, entry]) => {
		const method = entry.method ?? 'GET';
		const pagination = entry.pagination ?? 'none';
		const full: Entry = {
			method,
			placement: entry.path.includes('{companyId}') ? 'path' : 'header',
			pagination,
			...(pagination === 'none' ? {} : { pageSize: STYLE_PAGE_SIZES[pagination] }),
			idempotent: method === 'GET',
			...(entry as CatalogueEntry<EndpointName>),
		};
		return [name, full];
	});
	return Object.fromEntries(filled) as { readonly [K in keyof T]: Filled<T[K]> };
}

export const ENDPOINTS = catalogue({
	token: {
		label: 'Get access token',
		operations: ['Credential: API key (every call, test)'],
		source: 'Path, Basic client authentication and body: the specification (#authentication).',
		method: 'POST',
		path: '/v1/auth/token',
		placement: 'none',
	},
	oauth2Authorize: {
		label: 'OAuth2 approval page',
		operations: ['Credential: OAuth2 (the link of "Connect the credential")'],
		source:
			"Authorization code with PKCE (S256), scope required: vendor documentation; `/v1` path: an integration platform's configuration (#the-documented-contract).",
		path: '/v1/oauth2/authorize',
		placement: 'none',
		idempotent: false,
	},
	oauth2TokenCreate: {
		label: 'OAuth2 code exchange',
		operations: ['Credential: OAuth2 (first run after the paste)'],
		source:
			"JSON body with the client in it, 201 without expires_in: vendor documentation; `/v1` path and JSON body: an integration platform's configuration (#the-documented-contract).",
		method: 'POST',
		path: '/v1/oauth2/token/create',
		placement: 'none',
	},
	oauth2TokenRefresh: {
		label: 'OAuth2 refresh',
		operations: ['Credential: OAuth2 (renewal after a 401)'],
		source:
			'Client ID and secret as query parameters, JSON body, rotating refresh tokens: vendor documentation; v1 path: decided here (#the-documented-contract).',
		method: 'POST',
		path: '/v1/oauth2/token/refresh',
		placement: 'none',
	},
	getCompanies: {
		label: 'Get companies',
		operations: [
			'Company → Get Many',
			'Companies: All Companies, company list',
			'Credential: API key (test, organisation level)',
		],
		source:
			'Path, organisation-only placement, page size and scope: the specification (#companies).',
		path: '/v2/companies',
		placement: 'organisation',
		pagination: 'page',
		scope: 'experimental:company:read',
		feature: 'organisationAccess',
	},
	walletSummary: {
		label: 'Get wallet summary',
		operations: ['Wallet Summary → Get'],
		source:
			'Path and placement: the specification (no vendor document shows this `/v1` path; the older OpenAPI document has `/v0/wallet-summaries`); answer `{data, meta}`: older OpenAPI document; scope: vendor documentation.',
		path: '/v1/wallet-summary',
		scope: 'wallet-summary:read',
	},
	listSettlements: {
		label: 'List settlements',
		operations: [
			'Settlement → Get Many',
			'Webhook Trigger: Fetch Full Object (settlements)',
			'Credential: API key (test, company level)',
		],
		source: 'Path and page style: the specification; scope: vendor documentation.',
		path: '/v1/settlements',
		pagination: 'page',
		scope: 'settlement:read',
	},
	listInvoices: {
		label: 'List invoices',
		operations: ['Invoice → Get Many', 'Spendesk Trigger (polling)'],
		source: 'Path, placement, limit 1–100, sort and scope: the specification.',
		path: '/v2/companies/{companyId}/invoices',
		pagination: 'cursor',
		scope: 'experimental:invoice:read',
		feature: 'invoicesIntakes',
	},
	listIntakes: {
		label: 'List intakes',
		operations: ['Intake → Get Many'],
		source:
			'Placement and cursor style: the specification; path, page-size maximum and scope: decided here, by analogy with invoices.',
		path: '/v2/companies/{companyId}/intakes',
		pagination: 'cursor',
		scope: 'experimental:intake:read',
		feature: 'invoicesIntakes',
	},
	createIntake: {
		label: 'Create an intake',
		operations: ['Intake → Create'],
		source: 'Placement: the specification; path, body and scope: decided here.',
		method: 'POST',
		path: '/v2/companies/{companyId}/intakes',
		scope: 'experimental:intake:write',
		feature: 'invoicesIntakes',
	},
	listAnalyticalFields: {
		label: 'List analytical fields',
		operations: ['Analytical Field → Get Many'],
		source:
			'Header placement: the specification; cursor style, path, page-size maximum and scope: decided here.',
		path: '/v2/analytical-fields',
		pagination: 'cursor',
		scope: 'experimental:analytical-field:read',
		feature: 'organisationAccess',
		companyLevel: 'listAnalyticalFieldsV1',
	},
	listAnalyticalFieldValues: {
		// Real world: a page may hold fewer values than `limit` asked; the cursor goes on.
		label: 'List analytical field values',
		operations: ['Analytical Field → Get Many Values'],
		source:
			'Cursor style, default 30 and maximum 1,000: the specification; path and scope: decided here.',
		path: '/v2/analytical-fields/{fieldId}/values',
		pagination: 'cursor',
		pageSize: { param: 'limit', default: 30, max: 1000 },
		scope: 'experimental:analytical-field:read',
		feature: 'organisationAccess',
		companyLevel: 'listAnalyticalFieldValuesV1',
	},
	listExpenseCategories: {
		label: 'List expense categories',
		operations: ['Expense Category → Get Many'],
		source:
			'Header placement and cursor style: the specification; path, page-size maximum and scope: decided here.',
		path: '/v2/expense-categories',
		pagination: 'cursor',
		scope: 'experimental:expense-category:read',
		feature: 'organisationAccess',
		companyLevel: 'listExpenseCategoriesV1',
	},
	// The documented v1 reference lists: what a company-level credential calls instead of the
	// three entries above (docs/api.md#the-documented-profile).
	listAnalyticalFieldsV1: {
		label: 'List analytical fields',
		operations: [
			'Analytical Field → Get Many (company-level credential)',
			'Credential: API key (test, company level)',
		],
		source:
			"Path: public client code; page style, `includeArchived` and item shape `{id, name, isArchived}`: older OpenAPI document (under `/v0`); `pageSize` ≤ 30: public client code (the older document allows 100); scope: decided here, from the vendor's scope list.",
		path: '/v1/analytical-fields',
		pagination: 'page',
		scope: 'analytical-field:read',
	},
	listAnalyticalFieldValuesV1: {
		label: 'List analytical field values',
		operations: ['Analytical Field → Get Many Values (company-level credential)'],
		source:
			"Path and `pageSize` ≤ 30 (a larger one served as 30): public client code; page style, items `{id, value, isArchived}` and `includeArchived`: older OpenAPI document (under `/v0`) and public client code; scope: decided here, from the vendor's scope list.",
		path: '/v1/analytical-fields/{fieldId}/values',
		pagination: 'page',
		scope: 'analytical-field:read',
	},
	listExpenseCategoriesV1: {
		label: 'List expense categories',
		operations: [
			'Expense Category → Get Many (company-level credential)',
			'Credential: API key (test, company level)',
		],
		source:
			"Path and `pageSize` ≤ 30: public client code; page style: older OpenAPI document (under `/v0`); scope: decided here, from the vendor's scope list.",
		path: '/v1/expense-categories',
		pagination: 'page',
		scope: 'expense-category:read',
	},
	getAccounts: {
		label: 'Get accounts',
		operations: ['Account → Get Many'],
		source:
			'Offset style (`offset`, `fetch`): the specification; path, maximum of `fetch` (100) and scope: decided here.',
		path: '/v1/accounts',
		pagination: 'offset',
		scope: 'account:read',
		feature: 'accounts',
	},
	searchPayables: {
		label: 'Search payables',
		operations: [
			'Payable → Get Many',
			'Company ID look-up (company-level credential without Company ID, calls with the company in the path)',
		],
		source:
			'Cursor in the JSON body: the specification; path, filter grammar and `payables` answer: public client code; scope: decided here, from a scope public client code shows granted (#body-cursor-lists).',
		method: 'POST',
		path: '/v1/payables/search',
		pagination: 'bodyCursor',
		scope: 'experimental:payable-search:read',
		feature: 'payablesSearch',
		idempotent: true,
	},
	createPayablesSnapshot: {
		label: 'Create a payables snapshot',
		operations: ['Payable → Get Many as Snapshot'],
		source:
			'Path and polling (status at most once a minute): vendor documentation; placement: the specification (v1 rule).',
		method: 'POST',
		path: '/v1/snapshots/payables',
		scope: 'payable:read',
		// Same parameters give the same snapshot key, so a retry is harmless.
		idempotent: true,
	},
	getPayablesSnapshot: {
		label: 'Get a payables snapshot',
		operations: ['Payable → Get Many as Snapshot'],
		source:
			'Path: vendor documentation; pages inside `result`: the specification; status answer and page size: decided here (as page lists).',
		path: '/v1/snapshots/payables/{key}',
		pagination: 'snapshot',
		scope: 'payable:read',
		snapshotCreate: 'createPayablesSnapshot',
	},
	updateBookkeepingStatus: {
		label: 'Update bookkeeping status',
		operations: ['Payable → Update Bookkeeping Status'],
		source:
			'State values `exported` and `failedToExport`: vendor documentation; path, bulk body (1–100) and per-payable answer: decided here, and the answer read defensively (#bulk-writes).',
		method: 'PUT',
		path: '/v1/payables/bookkeeping-status',
		scope: 'experimental:accounting:update',
		feature: 'accountingWriteBack',
	},
	updateSettlementState: {
		label: "Update a settlement's state",
		operations: ['Settlement → Update Bookkeeping Status'],
		source:
			'State values `exported` and `failedToExport`: vendor documentation; path, body and scope: decided here.',
		method: 'PUT',
		path: '/v1/settlements/{settlementId}/state',
		scope: 'experimental:settlement:update',
		feature: 'accountingWriteBack',
		idempotent: true,
	},
	createSuppliers: {
		label: 'Create suppliers',
		operations: ['Supplier → Create'],
		source:
			'Path, array body in the nested shape, strict properties, `items` answer and `{item}` for one supplier: public client code; 100 per call: decided here (#bulk-writes).',
		method: 'POST',
		path: '/v1/suppliers',
		scope: 'experimental:supplier:manage',
		feature: 'supplierManagement',
	},
	updateSupplier: {
		label: 'Update a supplier',
		operations: ['Supplier → Update'],
		source: 'Path and nested body: public client code (#bulk-writes).',
		method: 'PATCH',
		path: '/v1/suppliers/{supplierId}',
		scope: 'experimental:supplier:manage',
		feature: 'supplierManagement',
		idempotent: true,
	},
	// Second catalogue (docs/api.md#endpoints): reads.
	getPayable: {
		label: 'Get a payable',
		operations: [
			'Payable → Get',
			'Payable → Update (Change Some, or without a version)',
			'Webhook Trigger: Fetch Full Object (payables)',
			"Company ID look-up (company-level credential without Company ID, when the search's payable does not carry it)",
		],
		source:
			'Path, scope, bare answer and fields (amount in minor units): vendor documentation and public client code.',
		path: '/v1/payables/{payableId}',
		scope: 'payable:read',
	},
	listSuppliers: {
		label: 'List suppliers',
		operations: ['Supplier → Get Many', 'Credential: API key (test, company level)'],
		source:
			'Path: public client code (the older OpenAPI document: `/v0/suppliers`); page style: older OpenAPI document; filters: public client code; the `isArchived` filter: decided here; scope: vendor documentation.',
		path: '/v1/suppliers',
		pagination: 'page',
		scope: 'supplier:read',
	},
	getSupplier: {
		label: 'Get a supplier',
		operations: ['Supplier → Get'],
		source:
			"Path: public client code (a read by ID against the vendor's sandbox); scope: vendor documentation. Answered bare in the documented world, in `{data}` in the specification profile (decided here); the package reads both (#variations).",
		path: '/v1/suppliers/{supplierId}',
		scope: 'supplier:read',
	},
	listUsers: {
		label: 'List users',
		operations: ['User → Get Many', 'Credential: API key (test, company level)'],
		source:
			'Path: public client code (the older OpenAPI document: `/v0/users`); page style: older OpenAPI document; scope: vendor documentation.',
		path: '/v1/users',
		pagination: 'page',
		scope: 'user:read',
	},
	getUser: {
		label: 'Get a user',
		operations: ['User → Get'],
		source:
			'Path: decided here (public client code lists it, without a reported run); scope: vendor documentation. Answered bare in the documented world, in `{data}` in the specification profile (decided here); the package reads both (#variations).',
		path: '/v1/users/{userId}',
		scope: 'user:read',
	},
	listCostCenters: {
		label: 'List cost centers',
		operations: ['Cost Center → Get Many', 'Credential: API key (test, company level)'],
		source:
			'Path: public client code (the older OpenAPI document: `/v0/cost-centers`); page style: older OpenAPI document; scope: vendor documentation.',
		path: '/v1/cost-centers',
		pagination: 'page',
		scope: 'cost-center:read',
	},
	listBankFees: {
		label: 'List bank fees',
		operations: ['Bank Fee → Get Many', 'Credential: API key (test, company level)'],
		source:
			"Path: public client code (the older OpenAPI document: `/v0/bank-fees`); page style and filters `from`, `to`: older OpenAPI document; scope: decided here, from the vendor's scope list.",
		path: '/v1/bank-fees',
		pagination: 'page',
		scope: 'bank-fee:read',
	},
	listWalletLoads: {
		label: 'List wallet loads',
		operations: ['Wallet Load → Get Many', 'Credential: API key (test, company level)'],
		source:
			"Path: public client code (the older OpenAPI document: `/v0/wallet-loads`); page style and filters `from`, `to`: older OpenAPI document; scope: decided here, from the vendor's scope list.",
		path: '/v1/wallet-loads',
		pagination: 'page',
		scope: 'wallet-load:read',
	},
	listPayableAttachments: {
		label: "List a payable's attachments",
		operations: ['Payable → Get Attachments'],
		source:
			'Path: public client code (the older OpenAPI document: under `/v0`); scope: vendor documentation; items `{mimeType, checksum, attachedAt, url}`: older OpenAPI document; `id`, `downloadUrl`, `fileName`, `size`, `expiresAt`: decided here (#files).',
		path: '/v1/payables/{payableId}/attachments',
		scope: 'payable-attachment:read',
	},
	startIntakeUpload: {
		label: 'Start an intake file upload',
		operations: ['Intake → Upload File', 'Intake → Create (Attach File)'],
		source: 'Placement: the specification; path and pre-signed upload: decided here.',
		method: 'POST',
		path: '/v2/companies/{companyId}/intakes/{intakeId}/files',
		scope: 'experimental:intake:write',
		feature: 'invoicesIntakes',
	},
	completeIntakeUpload: {
		label: 'Confirm an intake file upload',
		operations: ['Intake → Upload File', 'Intake → Create (Attach File)'],
		source: 'Placement: the specification; path and safe repeat: decided here.',
		method: 'POST',
		path: '/v2/companies/{companyId}/intakes/{intakeId}/files/{fileId}/complete',
		scope: 'experimental:intake:write',
		feature: 'invoicesIntakes',
		// Decided here: confirming a file twice attaches it once.
		idempotent: true,
	},
	createAccountingExport: {
		label: 'Create an accounting export',
		operations: ['Accounting Export → Create'],
		source:
			"Path: an integration platform's listing; scope: vendor documentation (its scope list); body and polling: decided here.",
		method: 'POST',
		path: '/v1/accounting/exports',
		scope: 'experimental:accounting-export:read',
		feature: 'accountingExports',
	},
	getAccountingExport: {
		label: 'Get an accounting export',
		operations: ['Accounting Export → Create'],
		source:
			"Path: an integration platform's listing; scope: vendor documentation (its scope list); status values: decided here.",
		path: '/v1/accounting/exports/{exportId}',
		scope: 'experimental:accounting-export:read',
		feature: 'accountingExports',
	},
	getJournal: {
		label: 'Get the journal of an accounting export',
		operations: ['Accounting Export → Get Journal'],
		source:
			"Path: an integration platform's listing; scope: vendor documentation (its scope list); CSV content type: decided here.",
		path: '/v1/accounting/journal/{exportId}/content',
		scope: 'experimental:accounting-export:read',
		feature: 'accountingExports',
		contentType: 'text/csv',
	},
	// Webhook instances (the Webhook Trigger registers one per company on activation).
	listWebhooks: {
		label: 'List webhook instances',
		operations: ['Webhook Trigger: activation'],
		source:
			'Path and scope: vendor documentation (webhooks guide); page style and the 50-instance limit: decided here.',
		path: '/v1/webhooks',
		pagination: 'page',
		scope: 'experimental:webhooks:read',
		feature: 'webhooks',
	},
	getWebhook: {
		label: 'Get a webhook instance',
		operations: ['Webhook Trigger: activation check'],
		source: 'Path and scope: vendor documentation (webhooks guide).',
		path: '/v1/webhooks/{webhookId}',
		scope: 'experimental:webhooks:read',
		feature: 'webhooks',
	},
	createWebhook: {
		label: 'Create a webhook instance',
		operations: ['Webhook Trigger: activation'],
		source: 'Path and scope: vendor documentation (webhooks guide); answer shape: decided here.',
		method: 'POST',
		path: '/v1/webhooks',
		scope: 'experimental:webhooks:write',
		feature: 'webhooks',
	},
	deleteWebhook: {
		label: 'Delete a webhook instance',
		operations: ['Webhook Trigger: activation, deactivation'],
		source: 'Path and scope: vendor documentation (webhooks guide).',
		method: 'DELETE',
		path: '/v1/webhooks/{webhookId}',
		scope: 'experimental:webhooks:write',
		feature: 'webhooks',
		// Deleting twice leaves the same result (the second answers 404, read as done).
		idempotent: true,
		mayAnswerEmpty: true,
	},
	updateWebhook: {
		label: 'Update a webhook instance',
		operations: ['Webhook Trigger: activation'],
		source:
			"Path and scope: an integration platform's listing; the secret kept and deliveries going on: decided here (#webhooks).",
		method: 'PATCH',
		path: '/v1/webhooks/{webhookId}',
		scope: 'experimental:webhooks:write',
		feature: 'webhooks',
		// Sets the instance's events (absolute values): a replay leaves it as the first call did.
		idempotent: true,
	},
	// The documented operations added after the first release (docs/api.md#payable-accounting and after).
	updatePayableAccounting: {
		label: "Update a payable's accounting",
		operations: ['Payable → Update'],
		source:
			'Path, body (`version`, `lineItems` replacing the whole list), `{item: {version}}` answer, strict properties, scope, minor units and lines adding up to the amount: public client code; 1 to 100 lines (simulator) and the 409s: decided here (#payable-accounting).',
		method: 'PATCH',
		path: '/v1/payables/{payableId}',
		scope: 'experimental:accounting:update',
		feature: 'accountingWriteBack',
	},
	startPayableAttachmentUpload: {
		label: 'Start a receipt upload to a payable',
		operations: ['Payable → Upload Receipt'],
		source:
			"Path, body `{mimeType, contentLength}`, the `{method, url, fields}` form upload without the bearer token, and scope: public client code; file types: older OpenAPI document (an attachment's `mimeType`); size and lifetime: decided here (#receipt-upload).",
		method: 'POST',
		path: '/v1/payables/{payableId}/attachments',
		scope: 'experimental:payable-attachment:write',
		feature: 'receiptUpload',
		// Opens an upload form and attaches nothing by itself: a repeat leaves an unused form.
		idempotent: true,
	},
	listPurchaseOrders: {
		label: 'List purchase orders',
		operations: ['Purchase Order → Get Many'],
		source:
			'Path, `withItems`, date and status filters, and scope: public client code; page style, filter names and status values: decided here (#purchase-orders).',
		path: '/v1/purchase-orders',
		pagination: 'page',
		scope: 'experimental:purchase-order:read',
		feature: 'purchaseOrders',
	},
	getPurchaseOrder: {
		label: 'Get a purchase order',
		operations: ['Purchase Order → Get'],
		source: 'Path and scope: public client code; bare answer: decided here (#purchase-orders).',
		path: '/v1/purchase-orders/{purchaseOrderId}',
		scope: 'experimental:purchase-order:read',
		feature: 'purchaseOrders',
	},
	createPurchaseOrder: {
		label: 'Create a purchase order',
		operations: ['Purchase Order → Create'],
		source:
			'Path, scope and body (amounts `{amount, currency, precision}` in minor units, `customFieldId`/`customFieldValueId`, ISO date-times, `items`; `netAmount`, `costCenterId`, `customFieldAssociations` required; `supplierId` or `supplierName`): public client code run against the vendor sandbox; answer: decided here (#purchase-orders).',
		method: 'POST',
		path: '/v1/purchase-orders',
		scope: 'experimental:purchase-order:write',
		feature: 'purchaseOrders',
	},
	cancelPurchaseOrder: {
		label: 'Cancel a purchase order',
		operations: ['Purchase Order → Cancel'],
		source:
			'Path and scope: public client code; open orders only, else 409: decided here (#purchase-orders).',
		method: 'POST',
		path: '/v1/purchase-orders/{purchaseOrderId}/cancel',
		scope: 'experimental:purchase-order:write',
		feature: 'purchaseOrders',
	},
	closePurchaseOrder: {
		label: 'Close a purchase order',
		operations: ['Purchase Order → Close'],
		source:
			'Path and scope: public client code; open orders only, else 409: decided here (#purchase-orders).',
		method: 'POST',
		path: '/v1/purchase-orders/{purchaseOrderId}/close',
		scope: 'experimental:purchase-order:write',
		feature: 'purchaseOrders',
	},
	listJournalTemplates: {
		label: 'List journal templates',
		operations: ['Accounting Export → Create (template list)', 'Journal Template → Get Many'],
		source:
			'Path: public client code (listed, without a reported run); `{id, name}` items, scope and page style: decided here (#journal-templates).',
		path: '/v1/accounting/journal-templates',
		pagination: 'page',
		scope: 'experimental:accounting-export:read',
		feature: 'accountingExports',
	},
	updateSupplierStatus: {
		label: 'Archive or unarchive suppliers',
		operations: ['Supplier → Archive (several items)', 'Supplier → Unarchive (several items)'],
		source:
			'Path, body `{supplierIds, isArchived}` and scope: public client code; `items` answer: decided here, as the create answers, and read defensively (#supplier-management).',
		method: 'PATCH',
		path: '/v1/experimental/suppliers/status',
		scope: 'experimental:supplier:manage',
		feature: 'supplierManagement',
		idempotent: true,
		mayAnswerEmpty: true,
	},
	updateOneSupplierStatus: {
		label: 'Archive or unarchive a supplier',
		operations: ['Supplier → Archive (one item)', 'Supplier → Unarchive (one item)'],
		source:
			'Path, body `{isArchived}` and scope: public client code; the supplier as the answer: decided here, and read defensively (#supplier-management).',
		method: 'PATCH',
		path: '/v1/experimental/suppliers/{supplierId}/status',
		scope: 'experimental:supplier:manage',
		feature: 'supplierManagement',
		idempotent: true,
		mayAnswerEmpty: true,
	},
	updateSuppliers: {
		label: 'Update several suppliers',
		operations: ['Supplier → Update (several items)'],
		source:
			'Path, array body with `id` and scope: public client code; `items` answer: decided here, as the create answers, and read defensively (#supplier-management).',
		method: 'PATCH',
		path: '/v1/suppliers',
		scope: 'experimental:supplier:manage',
		feature: 'supplierManagement',
		idempotent: true,
		mayAnswerEmpty: true,
	},
});

export type EndpointName = keyof typeof ENDPOINTS;

/** A catalogue entry by name, or an ad-hoc endpoint (Custom API Call). */
export type EndpointRef = EndpointName | Endpoint;

/** The entry a credential of this level calls: the one place where the level chooses the endpoint. */
export function endpointForLevel(ref: EndpointRef, level: 'organisation' | 'company'): Endpoint {
	const endpoint = typeof ref === 'string' ? ENDPOINTS[ref] : ref;
	return level === 'company' && endpoint.companyLevel ? ENDPOINTS[endpoint.companyLevel] : endpoint;
}

function unique(scopes: Array<string | undefined>): string[] {
	return [...new Set(scopes.filter((scope): scope is string => scope !== undefined))];
}

const entries: readonly Entry[] = Object.values(ENDPOINTS);

/** Asked for whatever the choice: the scopes of the entries that need no feature (the documented read scopes). */
export const DEFAULT_SCOPES: readonly string[] = unique(
	entries.filter((e) => !e.feature).map((e) => e.scope),
);

/** The credential's Experimental Features, each with the scopes of the entries that name it, in catalogue order. */
export const EXPERIMENTAL_FEATURES = Object.entries(FEATURE_LABELS).map(([value, labels]) => ({
	value,
	...labels,
	scopes: unique(entries.filter((e) => e.feature === value).map((e) => e.scope)),
}));

/** The scope string for a choice of features: default scopes, then each chosen feature's, once each. */
export function scopesFor(features: readonly string[]): string {
	const chosen = EXPERIMENTAL_FEATURES.filter((f) => features.includes(f.value));
	return unique([...DEFAULT_SCOPES, ...chosen.flatMap((f) => f.scopes)]).join(' ');
}
