/**
 * Public types of the Spendesk API simulator.
 *
 * The simulator is a real HTTP server on 127.0.0.1 that implements the API as docs/api.md
 * describes it (placement, authentication, pagination, errors, rate limits and the rest).
 * Tests drive it in-process through `SpendeskSimulator` (see server.ts); the command line
 * starts it through cli.ts.
 */

export type AccessLevel = 'organisation' | 'company';
export type UserRole = 'owner' | 'admin' | 'controller' | 'requester';

/** Every scope the simulator knows; each endpoint requires exactly one of them. */
export const ALL_SCOPES = [
	'experimental:company:read',
	'experimental:invoice:read',
	'experimental:intake:read',
	'experimental:intake:write',
	'experimental:analytical-field:read',
	'experimental:expense-category:read',
	'wallet-summary:read',
	'settlement:read',
	'bank-fee:read',
	'wallet-load:read',
	'account:read',
	'payable:read',
	'experimental:payable-search:read',
	'experimental:accounting:update',
	'experimental:settlement:update',
	'experimental:supplier:manage',
	'supplier:read',
	'user:read',
	'cost-center:read',
	'payable-attachment:read',
	'experimental:accounting-export:read',
	'experimental:webhooks:write',
	'experimental:webhooks:read',
	'analytical-field:read',
	'expense-category:read',
	'experimental:payable-attachment:write',
	'experimental:purchase-order:read',
	'experimental:purchase-order:write',
] as const;
export type Scope = (typeof ALL_SCOPES)[number] | string;

export interface Company {
	id: string;
	name: string;
	active: boolean;
	createdAt: string;
}

export interface Invoice {
	id: string;
	invoiceNumber: string;
	companyId: string;
	supplierName: string;
	/** Minor units (docs/api.md#response-shapes). */
	amount: number;
	currency: string;
	status: 'to_review' | 'to_pay' | 'paid';
	createdAt: string;
	updatedAt: string;
}

export interface Account {
	id: string;
	name: string;
	type: string;
	currency: string;
	/** Minor units (docs/api.md#response-shapes). */
	balance: number;
}

/**
 * The payable types Spendesk documents (docs/api.md#payables): the vendor's guide to spend data
 * and its older OpenAPI document list the same nine.
 */
export const PAYABLE_TYPES = [
	'expenseClaim',
	'invoicePurchase',
	'creditNote',
	'singlePurchaseCard',
	'subscriptionCard',
	'physicalCard',
	'mileageAllowance',
	'perDiemAllowance',
	'reverseBill',
] as const;
export type PayableType = (typeof PAYABLE_TYPES)[number];

/** Who a payable is due to (docs/api.md#payables): a supplier, or the employee who spent. */
export interface PayableCounterparty {
	id: string;
	type: 'supplier' | 'employee';
	name: string;
}

/**
 * A payable as the simulator keeps it (docs/api.md#payables). Get a payable, the search and a
 * snapshot's result answer it through `payableDetail` (routes-reads.ts), in the documented shape.
 */
export interface Payable {
	id: string;
	/** The payable's company, as the vendor's Payable carries it (docs/api.md#the-companys-own-id). */
	companyId?: string;
	type: PayableType;
	/** The user who submitted it: the search's `requestor`. */
	userId: string;
	description: string;
	/** Minor units (cents); negative for a credit note or a reverse bill. */
	amount: number;
	currency: string;
	createdAt: string;
	/** Derived from the description and the type when absent. */
	counterparty?: PayableCounterparty;
	/** The payable's own cost center; derived from its number when absent. */
	costCenterId?: string | null;
	/** The card payment a card payable comes from: the search's `paymentId`. Never answered. */
	paymentId?: string;
	version?: number;
	bookkeepingStatus?: string;
	/** When the payable last changed (the snapshot's `updatedFrom`). Never answered: no source shows it. */
	updatedAt?: string;
	/** The lines in the documented shape; one line of the whole amount is derived when absent. */
	lineItems?: PayableLineItem[];
}

/** An expense account as a payable's line names it (docs/api.md#payables). */
export interface ExpenseAccountRef {
	id: string;
	code: string;
	description: string | null;
}

/** A VAT account as a payable's line names it, with its rate in percent. */
export interface VatAccountRef extends ExpenseAccountRef {
	rate: number;
}

/**
 * A line of a payable, as Get a payable answers it (docs/api.md#payables): its accounts as
 * objects (null when not set), its amounts in minor units, its analytical values and cost
 * center. The accounting update takes lines in another shape (docs/api.md#payable-accounting).
 */
export interface PayableLineItem {
	expenseAccount: ExpenseAccountRef | null;
	vatAccount: VatAccountRef | null;
	financial: {
		netAmount: number;
		vatAmount: number;
		vatAdjustmentAmount: number;
		grossAmount: number;
	};
	analyticalProperties: Array<{ fieldId: string; valueId: string }>;
	costCenterId: string | null;
}

/** A supplier's details in the documented nested shape of the writes (docs/api.md#bulk-writes). */
export interface SupplierDetails {
	legalName?: string | null;
	vatNumber?: string | null;
	country?: string | null;
	city?: string | null;
	zipcode?: string | null;
	address?: string | null;
	registrationNumber?: string | null;
}

/** A supplier's bank account in the documented nested shape of the writes. */
export interface SupplierBankInfo {
	iban?: string | null;
	bic?: string | null;
	bankCountry?: string | null;
}

/** A supplier's address as read (docs/api.md#suppliers-as-read). */
export interface SupplierAddress {
	line1: string | null;
	city: string | null;
	postalCode: string | null;
	country: string | null;
}

/** A settlement as the vendor's older OpenAPI document shows it (docs/api.md#response-shapes). */
export interface Settlement {
	id: string;
	type: 'payment' | 'refund' | 'advance' | 'cashReturn' | 'chargeBack' | 'reimbursement';
	medium: 'card' | 'wireTransfer';
	/** The account that paid (docs/api.md#filters); cards always `spendeskAccount`. */
	paidFrom: 'spendeskAccount' | 'externalAccount';
	transactionDescription: string;
	createdAt: string;
	clearedAt: string;
	/** Minor units, in `currency`. */
	amount: number;
	currency: string;
	/** Minor units, in the account's currency `billingCurrency`. */
	billingAmount: number;
	billingCurrency: string;
	billingExchangeRate: number | null;
	/** `created` until the state write changes it. */
	state: 'created' | 'exported' | 'failedToExport';
	/** Set when the state write first marks the settlement exported. */
	exportedAt: string | null;
	links: Array<{ bankFees: string }>;
}

/**
 * A supplier (vendor) of a company, kept in the shape Spendesk reads it back
 * (docs/api.md#suppliers-as-read): details and bank account at the top level, the address
 * nested, `bankInfo` empty. The writes take another shape (`supplierDetails`, `bankInfo`:
 * writes.ts maps it).
 */
export interface Supplier {
	id: string;
	name: string;
	legalName: string | null;
	registrationNo: string | null;
	vatNo: string | null;
	address: SupplierAddress;
	iban: string | null;
	bic: string | null;
	bankCountry: string | null;
	/** Empty as read: the bank account is at the top level. */
	bankInfo: Record<string, never>;
	primaryEmail: string | null;
	isArchived: boolean;
	createdAt: string;
	updatedAt: string;
}

export interface AnalyticalField {
	id: string;
	name: string;
	values: AnalyticalFieldValue[];
	/** Archived: left out of `GET /v1/analytical-fields` unless `includeArchived=true`. Default false. */
	isArchived?: boolean;
}

export interface AnalyticalFieldValue {
	id: string;
	name: string;
	/** Archived: left out of the v1 values list unless `includeArchived=true`. Default false. */
	isArchived?: boolean;
}

export interface ExpenseCategory {
	id: string;
	name: string;
	/** The cost centers the category applies to. */
	costCenters: Array<{ id: string; name: string }>;
}

export interface Intake {
	id: string;
	createdAt: string;
	[key: string]: unknown;
}

/** The wallet summary as the vendor's older OpenAPI document shows it; amounts in minor units. */
export interface WalletSummary {
	id: string;
	name: string;
	status: 'active';
	currency: string;
	totalAmount: number;
	totalAvailableAmount: number;
	totalAllocatedAmount: number;
	allocatedOnCards: {
		subscriptionAmount: number;
		physicalAmount: number;
		singlePurchaseAmount: number;
		totalAllocatedAmount: number;
	};
	scheduledTransfersAmount: {
		scheduledExpenseClaimsAmount: number;
		scheduledInvoicesAmount: number;
		totalScheduledTransfersAmount: number;
	};
}

/** A member of a company as GET /v1/users lists it (apart from the OAuth2 users of the organisation). */
export interface CompanyUser {
	id: string;
	firstName: string;
	lastName: string;
	email: string;
}

export interface CostCenter {
	id: string;
	name: string;
	/** The owner's user ID. */
	owner: string;
	coOwners: string[];
}

/** A bank fee (docs/api.md#response-shapes): minor units, in the wallet's currency. */
export interface BankFee {
	id: string;
	kind: 'fxFee' | 'atmFee' | 'otherFee';
	settlementId: string;
	amount: number;
	currency: string;
	createdAt: string;
	chargedAt: string;
}

/** A wallet load (docs/api.md#response-shapes): minor units, in the wallet's currency. */
export interface WalletLoad {
	id: string;
	type: 'card' | 'wireTransfer';
	currency: string;
	amount: number;
	createdAt: string;
}

/** All data of one company. Arrays are kept in creation order. */
export interface CompanyData {
	invoices: Invoice[];
	accounts: Account[];
	payables: Payable[];
	settlements: Settlement[];
	analyticalFields: AnalyticalField[];
	expenseCategories: ExpenseCategory[];
	intakes: Intake[];
	walletSummary: WalletSummary;
	suppliers: Supplier[];
	users: CompanyUser[];
	costCenters: CostCenter[];
	bankFees: BankFee[];
	walletLoads: WalletLoad[];
}

export interface User {
	id: string;
	name: string;
	role: UserRole;
	/** Company ids the user is an active member of. */
	companyIds: string[];
}

export interface ApiKeyCredential {
	clientId: string;
	clientSecret: string;
	level: AccessLevel;
	/** Set for company-level keys. */
	companyId?: string;
	scopes: string[];
}

export interface OAuthClient {
	clientId: string;
	clientSecret: string;
	/** Scopes the client may be granted. */
	scopes: string[];
	/** Allowed redirect URIs; empty = any. */
	redirectUris: string[];
}

/** How big each company's data is. Defaults are small so tests are fast. */
export interface DataSizes {
	invoices: number;
	accounts: number;
	payables: number;
	settlements: number;
	analyticalFields: number;
	analyticalFieldValues: number;
	expenseCategories: number;
	intakes: number;
	/** The second endpoint catalogue of docs/api.md#endpoints (optional so that older size lists stay valid; defaults in seed.ts). */
	suppliers?: number;
	users?: number;
	costCenters?: number;
	bankFees?: number;
	walletLoads?: number;
}

export interface CompanySeed {
	id?: string;
	name?: string;
	active?: boolean;
	sizes?: Partial<DataSizes>;
}

export interface SeedOptions {
	/** Deterministic PRNG seed. Default 42. */
	seed?: number;
	/** Number of companies (ids cmp_001…), or explicit company seeds. Default 5 (the last one deactivated). */
	companies?: number | CompanySeed[];
	/** Ids of companies to create deactivated (when `companies` is a number). Default: the last one. */
	deactivated?: string[];
	/** Default sizes for every company. */
	sizes?: Partial<DataSizes>;
	/** Distinct updatedAt values are reused by this many invoices on average (ties). Default 3. */
	invoicesPerTimestamp?: number;
}

export interface SimulatorOptions {
	/**
	 * `specification` (default): the API as the specification describes it. `documented`: what
	 * Spendesk documents publicly, strictly (docs/api.md#the-documented-profile; profile.ts).
	 */
	profile?: 'specification' | 'documented';
	/**
	 * Scopes granted to API keys and OAuth2 clients beyond their seeded ones, by client id (e.g.
	 * an experimental scope for a documented key). `grantScopes()` does the same later.
	 */
	grantScopes?: Record<string, string[]>;
	/**
	 * Whether the API-key token answer lists the token's scopes in `scope` (space-separated).
	 * Default true; false answers `{access_token, token_type, expires_in}` only, as the vendor's
	 * older document shows it (docs/api.md#authentication).
	 */
	tokenAnswerScope?: boolean;
	/** Port on 127.0.0.1; 0 (default) picks a free one. */
	port?: number;
	seed?: SeedOptions;
	/** Lifetime of access tokens in seconds. Default 3600. */
	tokenLifetimeSeconds?: number;
	/** Requests per window per (credential, company). Default 1000 (documented profile: 50). */
	rateLimit?: number;
	/** Rate-limit window in ms. Default 60000. */
	rateLimitWindowMs?: number;
	/** Cap on requests in flight (all clients); exceeding it answers 429. Default: no cap (documented profile: 5). */
	maxInFlight?: number;
	/** Get Companies cache in seconds. Default 1200. */
	companiesCacheSeconds?: number;
	/** Number of GETs of a new payables snapshot that answer PENDING. Default 2. */
	snapshotPendingPolls?: number;
	/** Latency added to every request in ms. Default 0. */
	latencyMs?: number;
	/** The accounts endpoint returns at most this many items per response (less than `fetch` asks). Default: no extra cap. */
	accountsMaxReturn?: number;
	/** Origin used in `nextUrl` links; default the simulator's own base URL. */
	nextUrlOrigin?: string;
	/** Default approving user and consent of the OAuth2 authorize endpoint. */
	oauthDefaultUser?: string;
	oauthDefaultConsent?: AccessLevel;
	/** Analytical values pages hold at most this many values whatever `limit` asks (real-world variation: 30). Default: no extra cap. */
	analyticalValuesMaxReturn?: number;
	/**
	 * Real-world variation: creating a payables snapshot answers 409 while another snapshot of
	 * the same company is still being built (not yet polled to COMPLETE). Default false.
	 */
	snapshotBuildConflict?: boolean;
	/** Port of the file host (pre-signed URLs) on 127.0.0.1; 0 (default) picks a free one. */
	filePort?: number;
	/** Lifetime of pre-signed file URLs in seconds. Default 900. */
	fileUrlLifetimeSeconds?: number;
	/**
	 * The items of a payable's attachments list (docs/api.md#files): `decided` (default) carries
	 * `id, fileName, mimeType, size, downloadUrl, expiresAt`; `documented` carries only
	 * `mimeType, checksum, attachedAt, url`, as the vendor's older document shows them.
	 */
	attachmentShape?: 'decided' | 'documented';
	/**
	 * Page lists answered as a bare JSON array (no `{data, meta}`), by route id
	 * (docs/api.md#page-lists). Default: none; the documented profile: the analytical field
	 * values (`listAnalyticalFieldValuesV1`).
	 */
	bareArrayLists?: RouteId[];
	/** Number of GETs of a new accounting export that answer PENDING. Default 2. */
	exportPendingPolls?: number;
	/**
	 * Multiplies every wait of the webhook retry schedule (immediate, every 10 minutes for an
	 * hour, every 2 hours for 3 days). Default 1 (real time); 0.0001 makes 10 minutes 60 ms.
	 */
	webhookTimeScale?: number;
	/** A webhook delivery attempt without a complete answer within this many ms fails. Default 10000. */
	webhookTimeoutMs?: number;
}

/**
 * Route ids, used by fault injection and in the request log.
 */
export type RouteId =
	| 'token'
	/** Spendesk's documented OAuth2 contract (docs/api.md#oauth2): authorize, code exchange, refresh. */
	| 'oauthAuthorize'
	| 'oauthTokenCreate'
	| 'oauthTokenRefresh'
	| 'getCompanies'
	| 'walletSummary'
	| 'listSettlements'
	| 'listInvoices'
	| 'listIntakes'
	| 'createIntake'
	| 'listAnalyticalFields'
	| 'listAnalyticalFieldValues'
	| 'listExpenseCategories'
	| 'listAnalyticalFieldsV1'
	| 'listAnalyticalFieldValuesV1'
	| 'listExpenseCategoriesV1'
	| 'getAccounts'
	| 'searchPayables'
	| 'createPayablesSnapshot'
	| 'getPayablesSnapshot'
	| 'updateBookkeepingStatus'
	| 'updateSettlementState'
	| 'createSuppliers'
	| 'updateSupplier'
	| 'getPayable'
	| 'listSuppliers'
	| 'getSupplier'
	| 'listUsers'
	| 'getUser'
	| 'listCostCenters'
	| 'listBankFees'
	| 'listWalletLoads'
	| 'listPayableAttachments'
	| 'fileDownload'
	| 'startIntakeUpload'
	| 'fileUpload'
	| 'completeIntakeUpload'
	| 'createAccountingExport'
	| 'getAccountingExport'
	| 'getJournal'
	| 'createWebhook'
	| 'listWebhooks'
	| 'getWebhook'
	| 'updateWebhook'
	| 'deleteWebhook'
	/** Documented operations served in both profiles (docs/api.md#payable-accounting and after). */
	| 'updatePayableAccounting'
	| 'startPayableAttachmentUpload'
	| 'receiptUpload'
	| 'listPurchaseOrders'
	| 'getPurchaseOrder'
	| 'createPurchaseOrder'
	| 'cancelPurchaseOrder'
	| 'closePurchaseOrder'
	| 'listJournalTemplates'
	| 'updateSupplierStatus'
	| 'updateOneSupplierStatus'
	| 'updateSuppliers'
	/** The simulator's control route POST /_simulator/webhooks/events (not a Spendesk endpoint). */
	| 'simulatorWebhookEvent'
	| 'notFound';

export type FaultKind =
	/** Answer with `status` (default 500) and the error body (`detail` and `source` when given). */
	| 'status'
	/**
	 * Answer a redirect: `status` (default 307) with `Location: location` (default
	 * http://redirect.example.invalid/), no body, as a proxy or a wrong base URL does.
	 */
	| 'redirect'
	/**
	 * Answer `status` (default 400) with the error body whose detail quotes the request as it
	 * arrived, headers (authorization included) and all, as a debugging gateway does.
	 */
	| 'echoRequest'
	/** Like echoRequest, as a plain-text page instead of the API's JSON error body. */
	| 'echoRequestText'
	/** Answer `status` (default 400) with the error body whose detail quotes the request body as it arrived. */
	| 'echoBody'
	/** Answer `status` (default 400) with the error body naming the request's access token bare ("The token … is not valid …"). */
	| 'echoToken'
	/** Destroy the socket without answering (connection reset). */
	| 'reset'
	/** Wait `latencyMs` before handling the request normally. */
	| 'latency'
	/** Answer 429 with Retry-After / x-ratelimit-reset = `retryAfterSeconds` (default 1). */
	| 'rateLimit'
	/** Cursor lists: answer an empty page with hasNextPage true and a fresh cursor at the same position. */
	| 'emptyPage'
	/** Cursor and body-cursor lists: answer normally but send back the request's own cursor as nextCursor. */
	| 'repeatCursor'
	/** Cursor lists: answer normally with hasNextPage true but no `nextCursor` (null), only `nextUrl`. */
	| 'noNextCursor'
	/**
	 * Cursor and body-cursor lists: answer normally with `nextCursor` as a number (also in
	 * `nextUrl`); the number works as a cursor (its digits in a query, the number in a body).
	 */
	| 'numericCursor'
	/** Offset lists: answer from `overlap` (default 5) items before the offset asked. */
	| 'overlappingPages'
	/** Cursor lists: answer normally but with `nextUrl` on another origin (http://evil.example.invalid). */
	| 'foreignNextUrl'
	/** Cursor lists: answer normally but with `nextUrl` on the same origin leading to another endpoint (/v1/accounts). */
	| 'reroutingNextUrl'
	/** Cursor lists: as `reroutingNextUrl`, and without `nextCursor` (null): the link is all there is. */
	| 'reroutingNextUrlOnly'
	/** Payables snapshot GET: status ERROR. */
	| 'snapshotError'
	/**
	 * Lists: ignore the position asked for (page, offset, cursor) and answer the first page
	 * again, as a server that drops the parameter does; cursor lists still hand out a fresh
	 * cursor every time (ever-new cursors over the same items).
	 */
	| 'ignorePosition'
	/**
	 * Page lists: answer normally but with `meta.pagination.total` = `total` (default: one
	 * page), lower or higher than the truth; accounts (offset): `totalResults` = `total`.
	 */
	| 'understatedTotal'
	/**
	 * Page lists: serve at most `pageCap` items a page (default 20), pages numbered by that cap,
	 * while `meta.pagination.pageSize` still reports the size asked (a server capping its pages).
	 */
	| 'cappedPages'
	/** Page lists: the page holding the end of the list answers the previous page's items again. */
	| 'repeatLastPage'
	/** A proxy answers in Spendesk's place: 200 with an HTML page (text/html). */
	| 'htmlBody'
	/** 204 No Content, no body. */
	| 'noContent'
	/** Answer normally, with x-ratelimit-remaining 0 and x-ratelimit-reset = `retryAfterSeconds` (default 1). */
	| 'spentBudget'
	/** Payables search: answer `{ data: [...], nextCursor }` instead of `{ payables: [...], nextCursor }` (older answers). */
	| 'dataEnvelope'
	/**
	 * Page lists: answer the page's items as a bare JSON array, without `{data, meta}`, as some
	 * collections answer (docs/api.md#page-lists); the option `bareArrayLists` does it for whole routes.
	 */
	| 'bareArray'
	/** Single objects (Get a supplier, a user, a settlement's new state, …): answer the object bare, without the `data` wrapper. */
	| 'bareObject'
	/** Analytical fields and their values: each carries its label as `value` instead of `name` (real-world variation). */
	| 'valueLabels'
	/** Payables snapshot create: answer 409 as while another snapshot of the company is being built (Retry-After = `retryAfterSeconds` when given). */
	| 'snapshotConflict'
	/** Answer normally, with `Deprecation: true` and a `Sunset` date (HTTP date, `sunset` when given). */
	| 'deprecated'
	/** File host downloads: the file without a Content-Length header (chunked), so only the bytes tell its size. */
	| 'chunkedFile'
	/** Bulk writes (bookkeeping status, suppliers): answer normally, with the per-entry results in reverse order. */
	| 'reversedAnswers'
	/** Create suppliers: like reversedAnswers, and the first result answered without the supplier's name. */
	| 'reversedAnswersOneUnnamed'
	/** File host downloads: the full Content-Length and half the file, then the connection is dropped. */
	| 'dropMidBody'
	/** File host downloads: the full Content-Length and half the file, then silence (the connection stays open until the client gives up or the simulator stops). */
	| 'stallMidBody'
	/**
	 * Any route, the token endpoints and the file host included: the answer as it would be, its
	 * headers at once and its body one byte every `intervalMs` (default 1000): never silent, done
	 * only after the last byte, unless the client closes the connection first.
	 */
	| 'trickleBody'
	/** Accounting export GET: status ERROR. */
	| 'exportError'
	/**
	 * Any route: answer normally, with the fields of `set` (dotted paths into the JSON answer,
	 * such as `meta.pagination.hasNextPage`) replaced by their values: a server's variations.
	 */
	| 'setFields';

export interface FaultSpec {
	/** Route to affect, or '*' for every route except token endpoints. */
	route: RouteId | '*';
	kind: FaultKind;
	/** How many matching requests are affected. Default 1. */
	times?: number;
	/** Let this many matching requests pass first. Default 0. */
	after?: number;
	status?: number;
	/** redirect: where the `Location` header points. */
	location?: string;
	/** `status` faults: the error body's detail and source. */
	detail?: string;
	source?: string;
	latencyMs?: number;
	retryAfterSeconds?: number;
	/** understatedTotal: the `total` (page lists) or `totalResults` (accounts) to report. */
	total?: number;
	/** overlappingPages: how many items before the offset asked the answer starts. */
	overlap?: number;
	/** cappedPages: the most items a page serves. */
	pageCap?: number;
	/** deprecated: the Sunset header's value. */
	sunset?: string;
	/** trickleBody: the pause between two bytes of the body, in ms (default 1000). */
	intervalMs?: number;
	/** setFields: dotted path in the answer → the value it gets. */
	set?: Record<string, unknown>;
}

export interface LoggedRequest {
	seq: number;
	/** Simulated clock time (ms) when the request arrived. */
	at: number;
	method: string;
	/** Path without query string. */
	path: string;
	/** Each query parameter's last value. */
	query: Record<string, string>;
	/** The parameters given more than once (`state=a&state=b`), every value in order. */
	queryRepeated?: Record<string, string[]>;
	/** Parsed JSON or form body (secrets redacted), or undefined. */
	body: unknown;
	/** Lower-cased headers; authorization values and secrets replaced by '<redacted>'. */
	headers: Record<string, string>;
	route: RouteId;
	status: number;
	/** Credential client id, if the request was authenticated. */
	clientId?: string;
	/** Company of the request, wherever it was placed (header, path) or the token's own, if any. */
	companyId?: string;
	/** The fault applied to this request, if any. */
	fault?: FaultKind;
	/** True when the deprecated `limit` query parameter of Get accounts was used. */
	deprecatedLimit?: boolean;
	/** 'files' for requests to the file host (pre-signed URLs); absent for the API. */
	host?: 'files';
	/** File host: bytes of the request body (the body itself is not logged). */
	bytes?: number;
	/** The `code` of an error answer (e.g. `rate_limit_exceeded`, `too_many_requests_in_flight`). */
	errorCode?: string;
}

export interface SeededCredentials {
	/** Organisation-level API key with every scope (documented profile: the documented scopes only). */
	orgKey: ApiKeyCredential;
	/** Company-level API key of the first company, every scope (documented profile: the documented scopes only). */
	companyKey: ApiKeyCredential;
	/** Organisation-level API key without any experimental scope (documented profile: the same scopes as orgKey). */
	orgKeyNoExperimental: ApiKeyCredential;
	/** OAuth2 client with every scope (documented profile: the documented scopes only). */
	oauthClient: OAuthClient;
	/**
	 * A company-level API key per company, by company id. The documented profile seeds one for
	 * every company (the first is `companyKey`); the specification profile has `companyKey` only.
	 */
	companyKeys: Record<string, ApiKeyCredential>;
}
