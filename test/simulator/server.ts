/**
 * The Spendesk API simulator: a real HTTP server on 127.0.0.1 implementing the API as
 * docs/api.md describes it. Tests drive it in-process
 * (seed, mutate, inject faults, read the request log); cli.ts serves it from the command line.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { compareKeys, searchIndex, SimError } from './paging';
import type { SortKey } from './paging';
import { ROUTES } from './routes';
export { pkceChallenge } from './routes';
import type { RouteDef } from './routes';
import { WebhookDeliveries } from './deliveries';
import type { WebhookDeliveryAttempt, WebhookEvent, WebhookEventInput } from './deliveries';
import { createPayable, createSettlement, preparePayable } from './events';
import {
	DEFAULT_SIZES,
	makeCompanyData,
	makeInvoice,
	ORGANISATION_ID,
	prng,
	seedWorld,
	companyId as seqCompanyId,
	companyName,
} from './seed';
import type {
	AccessLevel,
	ApiKeyCredential,
	Company,
	CompanyData,
	CompanySeed,
	FaultKind,
	FaultSpec,
	Invoice,
	LoggedRequest,
	OAuthClient,
	Payable,
	RouteId,
	SeededCredentials,
	Settlement,
	SimulatorOptions,
	User,
} from './types';
import { ALL_SCOPES } from './types';
import { FileStore } from './files';
import {
	bareSingleObject,
	DOCUMENTED_DEFAULTS,
	DOCUMENTED_SCOPES,
	documentedErrorBody,
	isV2Path,
} from './profile';
import type { SimulatorProfile } from './profile';

export class SimClock {
	private offset = 0;
	now(): number {
		return Date.now() + this.offset;
	}
	iso(): string {
		return new Date(this.now()).toISOString();
	}
	advance(ms: number): void {
		this.offset += ms;
	}
}

export interface TokenInfo {
	kind: 'apiKey' | 'oauth2';
	clientId: string;
	level: AccessLevel;
	companyId?: string;
	userId?: string;
	scopes: string[];
	expiresAt: number;
}

interface AuthCode {
	clientId: string;
	redirectUri: string;
	challenge: string;
	userId: string;
	level: AccessLevel;
	companyId?: string;
	scopes: string[];
	expiresAt: number;
	used: boolean;
}

interface RefreshGrant {
	clientId: string;
	userId: string;
	level: AccessLevel;
	companyId?: string;
	scopes: string[];
	expiresAt: number;
}

interface ActiveFault extends FaultSpec {
	remaining: number;
	skip: number;
}

export interface Snapshot {
	key: string;
	companyId: string;
	createdAt: number;
	polls: number;
	items: unknown[];
}

/** What a route handler sees. */
export interface RequestContext {
	sim: SpendeskSimulator;
	method: string;
	path: string;
	params: Record<string, string>;
	query: Record<string, string>;
	/** Every query parameter with its repeats (`state=a&state=b`); `query` keeps the last of each. */
	searchParams: URLSearchParams;
	body: unknown;
	headers: http.IncomingHttpHeaders;
	token?: TokenInfo;
	/** The company of the call, wherever it was placed (header, path) or the company token's own. */
	companyId?: string;
	fault?: FaultKind;
	/** The whole fault applied to this request (its options), if any. */
	faultSpec?: FaultSpec;
	/** Set by handlers: the deprecated `limit` of Get accounts was used. */
	deprecatedLimit?: boolean;
	/** The request body as bytes (file uploads). */
	rawBody?: Buffer;
}

export interface HandlerResult {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

const DAY = 24 * 3600 * 1000;
/** What a proxy or captive portal in front of the API answers (fault htmlBody). */
const PROXY_PAGE =
	'<!DOCTYPE html><html><head><title>Access denied</title></head><body><h1>Access denied</h1><p>Your request was blocked by the network proxy.</p></body></html>';
/** The Sunset date the `deprecated` fault announces when the test names none. */
export const DEFAULT_SUNSET = 'Thu, 31 Dec 2026 23:59:59 GMT';
const TOKEN_ROUTES: ReadonlySet<RouteId> = new Set([
	'token',
	'oauthAuthorize',
	'oauthTokenCreate',
	'oauthTokenRefresh',
]);
/** The simulator's own control routes (not Spendesk's): outside in-flight caps and '*' faults. */
const CONTROL_ROUTES: ReadonlySet<RouteId> = new Set(['simulatorWebhookEvent']);
const outsideApi = (route: RouteId) => TOKEN_ROUTES.has(route) || CONTROL_ROUTES.has(route);
const SECRET_FIELDS = new Set([
	'client_secret',
	'code_verifier',
	'refresh_token',
	'code',
	'access_token',
]);
const updatedKey = (i: Invoice): SortKey => [i.updatedAt, i.id];
const createdKey = (i: Invoice): SortKey => [i.createdAt, i.id];

type OptionalOption =
	| 'grantScopes'
	| 'tokenAnswerScope'
	| 'maxInFlight'
	| 'accountsMaxReturn'
	| 'nextUrlOrigin'
	| 'analyticalValuesMaxReturn'
	| 'snapshotBuildConflict'
	| 'filePort'
	| 'fileUrlLifetimeSeconds'
	| 'exportPendingPolls';

function resolveOptions(
	o: SimulatorOptions,
): Required<Omit<SimulatorOptions, OptionalOption>> & Pick<SimulatorOptions, OptionalOption> {
	return {
		profile: 'specification',
		port: 0,
		seed: {},
		tokenLifetimeSeconds: 3600,
		rateLimit: 1000,
		rateLimitWindowMs: 60_000,
		companiesCacheSeconds: 1200,
		snapshotPendingPolls: 2,
		attachmentShape: 'decided',
		bareArrayLists: [],
		latencyMs: 0,
		oauthDefaultUser: 'u_owner',
		oauthDefaultConsent: 'organisation',
		webhookTimeScale: 1,
		webhookTimeoutMs: 10_000,
		...(o.profile === 'documented' ? DOCUMENTED_DEFAULTS : {}),
		...o,
	};
}

export class SpendeskSimulator {
	readonly clock = new SimClock();
	readonly options: ReturnType<typeof resolveOptions>;
	readonly credentials: SeededCredentials;
	readonly log: LoggedRequest[] = [];
	readonly stats = { inFlight: 0, peakInFlight: 0 };
	readonly organisationId = ORGANISATION_ID;

	private server?: http.Server;
	private url = '';
	private seq = 0;
	private companyList: Company[];
	private companyData: Map<string, CompanyData>;
	private invoiceIndex = new Map<string, { byUpdated: Invoice[]; byCreated: Invoice[] }>();
	private userList: User[];
	private apiKeys = new Map<string, ApiKeyCredential>();
	private oauthClients = new Map<string, OAuthClient>();
	private tokens = new Map<string, TokenInfo>();
	private codes = new Map<string, AuthCode>();
	private refreshTokens = new Map<string, RefreshGrant>();
	private faults: ActiveFault[] = [];
	private windows = new Map<string, { start: number; count: number }>();
	private companiesCache = new Map<string, { at: number; companies: Company[] }>();
	readonly snapshots = new Map<string, Snapshot>();
	private intakeSeq = new Map<string, number>();
	private sockets = new Set<import('node:net').Socket>();
	/** Attachments, intake uploads and accounting exports (files.ts). */
	readonly files = new FileStore();
	private fileServer?: http.Server;
	private fileUrl = '';
	private readonly deliveries = new WebhookDeliveries(this);

	constructor(options: SimulatorOptions = {}) {
		this.options = resolveOptions(options);
		const world = seedWorld(this.options.seed);
		this.companyList = world.companies;
		this.companyData = world.data;
		this.userList = world.users;
		for (const c of this.companyList) this.indexInvoices(c.id);

		// The documented profile: every key holds the documented scopes only (profile.ts).
		const all: string[] = this.documented ? [...DOCUMENTED_SCOPES] : [...ALL_SCOPES];
		const first = this.companyList[0]?.id;
		const companyKey: ApiKeyCredential = {
			clientId: 'sim-company-client',
			clientSecret: 'sim-company-secret',
			level: 'company',
			companyId: first,
			scopes: all,
		};
		this.credentials = {
			orgKey: {
				clientId: 'sim-org-client',
				clientSecret: 'sim-org-secret',
				level: 'organisation',
				scopes: all,
			},
			companyKey,
			orgKeyNoExperimental: {
				clientId: 'sim-org-limited-client',
				clientSecret: 'sim-org-limited-secret',
				level: 'organisation',
				scopes: all.filter((s) => !s.startsWith('experimental:')),
			},
			oauthClient: {
				clientId: 'sim-oauth-client',
				clientSecret: 'sim-oauth-secret',
				scopes: all,
				redirectUris: [],
			},
			companyKeys: first ? { [first]: companyKey } : {},
		};
		this.addApiKey(this.credentials.orgKey);
		this.addApiKey(this.credentials.companyKey);
		this.addApiKey(this.credentials.orgKeyNoExperimental);
		if (this.documented)
			for (const company of this.companyList.slice(1)) this.addCompanyKey(company.id);
		this.addOAuthClient(this.credentials.oauthClient);
		for (const [clientId, scopes] of Object.entries(this.options.grantScopes ?? {}))
			this.grantScopes(clientId, scopes);
	}

	/** The profile the simulator follows (profile.ts). */
	get profile(): SimulatorProfile {
		return this.options.profile;
	}

	private get documented(): boolean {
		return this.options.profile === 'documented';
	}

	/** A company-level API key of `companyId` (`sim-company-<id>-client`), with the seeded scopes of the profile. */
	private addCompanyKey(companyId: string): ApiKeyCredential {
		const key: ApiKeyCredential = {
			clientId: `sim-company-${companyId}-client`,
			clientSecret: `sim-company-${companyId}-secret`,
			level: 'company',
			companyId,
			scopes: [...this.credentials.companyKey.scopes],
		};
		this.credentials.companyKeys[companyId] = key;
		this.addApiKey(key);
		return key;
	}

	/**
	 * Grants scopes to an API key or OAuth2 client beyond its seeded ones (an experimental scope
	 * for a documented key, say). Tokens issued from then on hold them; tokens already issued keep
	 * the scopes they were issued with.
	 */
	grantScopes(clientId: string, scopes: readonly string[]): void {
		const holder = this.apiKeys.get(clientId) ?? this.oauthClients.get(clientId);
		if (!holder) throw new Error(`No API key or OAuth2 client ${clientId} in the simulator`);
		holder.scopes = [...new Set([...holder.scopes, ...scopes])];
	}

	// ---------------------------------------------------------------- lifecycle

	async start(): Promise<string> {
		if (this.server) return this.url;
		const server = await this.listen(this.options.port, 'api');
		// The file host: pre-signed URLs live on another origin, as object storage does.
		const fileServer = await this.listen(this.options.filePort ?? 0, 'files').catch(
			async (error: unknown) => {
				await new Promise<void>((resolve) => server.close(() => resolve()));
				throw error;
			},
		);
		this.server = server;
		this.fileServer = fileServer;
		this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		this.fileUrl = `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}`;
		return this.url;
	}

	private async listen(port: number, host: 'api' | 'files'): Promise<http.Server> {
		const server = http.createServer((req, res) => void this.handle(req, res, host));
		server.keepAliveTimeout = 5000;
		server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, '127.0.0.1', () => resolve());
		});
		return server;
	}

	/** Stops the servers; pending webhook deliveries are cancelled (none is attempted after). */
	async stop(): Promise<void> {
		await this.deliveries.stop();
		const servers = [this.server, this.fileServer].filter((s): s is http.Server => s !== undefined);
		if (servers.length === 0) return;
		this.server = undefined;
		this.fileServer = undefined;
		for (const socket of this.sockets) socket.destroy();
		await Promise.all(
			servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
		);
	}

	get baseUrl(): string {
		return this.url;
	}

	/** Origin of the file host (pre-signed download and upload URLs). */
	get fileBaseUrl(): string {
		return this.fileUrl;
	}

	configure(partial: Partial<SimulatorOptions>): void {
		Object.assign(this.options, partial);
	}

	// ---------------------------------------------------------------- inspection

	companies(): Company[] {
		return this.companyList;
	}

	company(id: string): Company | undefined {
		return this.companyList.find((c) => c.id === id);
	}

	data(companyId: string): CompanyData {
		const data = this.companyData.get(companyId);
		if (!data) throw new Error(`No company ${companyId} in the simulator`);
		return data;
	}

	users(): User[] {
		return this.userList;
	}

	user(id: string): User | undefined {
		return this.userList.find((u) => u.id === id);
	}

	/** Invoices in the order the API lists them for sortBy/sort (ties broken by id). */
	invoicesSorted(
		companyId: string,
		sortBy: 'updatedAt' | 'createdAt' = 'createdAt',
		sort: 'asc' | 'desc' = 'asc',
	): Invoice[] {
		const list = this.invoiceList(companyId, sortBy).slice();
		return sort === 'desc' ? list.reverse() : list;
	}

	/** Ascending index used by the list endpoint. */
	invoiceList(companyId: string, sortBy: 'updatedAt' | 'createdAt'): Invoice[] {
		const index = this.invoiceIndex.get(companyId);
		if (!index) throw new Error(`No company ${companyId} in the simulator`);
		return sortBy === 'updatedAt' ? index.byUpdated : index.byCreated;
	}

	requestsTo(route: RouteId): LoggedRequest[] {
		return this.log.filter((r) => r.route === route);
	}

	clearLog(): void {
		this.log.length = 0;
	}

	resetStats(): void {
		this.stats.peakInFlight = this.stats.inFlight;
	}

	// ---------------------------------------------------------------- registration

	addApiKey(cred: ApiKeyCredential): void {
		this.apiKeys.set(cred.clientId, cred);
	}

	addOAuthClient(client: OAuthClient): void {
		this.oauthClients.set(client.clientId, client);
	}

	addUser(user: User): void {
		this.userList.push(user);
	}

	// ---------------------------------------------------------------- mutations

	insertInvoice(companyId: string, partial: Partial<Invoice> = {}): Invoice {
		const data = this.data(companyId);
		const n = data.invoices.length + 1;
		const now = this.clock.now();
		const invoice = {
			...makeInvoice(companyId, n, now, now, prng(n * 7919 + companyId.length)),
			...partial,
			companyId,
		};
		if (partial.createdAt && !partial.updatedAt) invoice.updatedAt = partial.createdAt;
		if (data.invoices.some((i) => i.id === invoice.id))
			throw new Error(`Invoice ${invoice.id} already exists`);
		data.invoices.push(invoice);
		const index = this.invoiceIndex.get(companyId)!;
		index.byUpdated.splice(
			searchIndex(index.byUpdated, updatedKey(invoice), updatedKey, false),
			0,
			invoice,
		);
		index.byCreated.splice(
			searchIndex(index.byCreated, createdKey(invoice), createdKey, false),
			0,
			invoice,
		);
		return invoice;
	}

	updateInvoice(companyId: string, invoiceId: string, patch: Partial<Invoice> = {}): Invoice {
		const index = this.invoiceIndex.get(companyId);
		const invoice = this.data(companyId).invoices.find((i) => i.id === invoiceId);
		if (!index || !invoice) throw new Error(`No invoice ${invoiceId} in company ${companyId}`);
		const at = searchIndex(index.byUpdated, updatedKey(invoice), updatedKey, false);
		index.byUpdated.splice(at, 1);
		Object.assign(invoice, { ...patch, id: invoice.id, companyId, createdAt: invoice.createdAt });
		invoice.updatedAt = patch.updatedAt ?? this.clock.iso();
		index.byUpdated.splice(
			searchIndex(index.byUpdated, updatedKey(invoice), updatedKey, false),
			0,
			invoice,
		);
		return invoice;
	}

	createCompany(seed: CompanySeed = {}): Company {
		const index = this.companyList.length + 1;
		const company: Company = {
			id: seed.id ?? seqCompanyId(index),
			name: seed.name ?? companyName(index),
			active: seed.active ?? true,
			createdAt: this.clock.iso(),
		};
		if (this.company(company.id)) throw new Error(`Company ${company.id} already exists`);
		this.companyList.push(company);
		const sizes = { ...DEFAULT_SIZES, ...this.options.seed.sizes, ...seed.sizes };
		const seedNumber = (this.options.seed.seed ?? 42) * 1000 + index;
		this.companyData.set(
			company.id,
			makeCompanyData(company.id, sizes, seedNumber, this.options.seed.invoicesPerTimestamp ?? 3),
		);
		this.indexInvoices(company.id);
		for (const u of this.userList) if (u.role === 'owner') u.companyIds.push(company.id);
		if (this.documented) this.addCompanyKey(company.id);
		return company;
	}

	deactivateCompany(companyId: string): void {
		const company = this.company(companyId);
		if (!company) throw new Error(`No company ${companyId} in the simulator`);
		company.active = false;
	}

	removeUserFromCompany(userId: string, companyId: string): void {
		const user = this.user(userId);
		if (!user) throw new Error(`No user ${userId} in the simulator`);
		user.companyIds = user.companyIds.filter((id) => id !== companyId);
	}

	/** Every access token issued so far expires now. */
	expireTokens(): void {
		const now = this.clock.now();
		for (const t of this.tokens.values()) t.expiresAt = Math.min(t.expiresAt, now);
	}

	/**
	 * Revokes the OAuth2 connections of a client (of one approving user when `userId` is given),
	 * as a user disconnecting the app in Spendesk does: its refresh tokens and unused codes stop
	 * working (a refresh answers 400 invalid_grant) and its access tokens expire now (401).
	 */
	revokeOAuth2(clientId: string, userId?: string): void {
		const held = (g: { clientId: string; userId?: string }) =>
			g.clientId === clientId && (userId === undefined || g.userId === userId);
		for (const [value, grant] of this.refreshTokens)
			if (held(grant)) this.refreshTokens.delete(value);
		for (const [value, code] of this.codes) if (held(code)) this.codes.delete(value);
		const now = this.clock.now();
		for (const t of this.tokens.values())
			if (t.kind === 'oauth2' && held(t)) t.expiresAt = Math.min(t.expiresAt, now);
	}

	injectFault(spec: FaultSpec): void {
		this.faults.push({ ...spec, remaining: spec.times ?? 1, skip: spec.after ?? 0 });
	}

	clearFaults(): void {
		this.faults = [];
	}

	// ---------------------------------------------------------------- webhook events (deliveries.ts, events.ts)

	/** Emits an event: delivered to the company's instances subscribed to its type. */
	emitWebhookEvent(input: WebhookEventInput): WebhookEvent {
		return this.deliveries.emit(input);
	}

	/** Delivers an emitted event again on purpose: same event id, same body bytes. */
	redeliverWebhookEvent(eventId: string): WebhookEvent {
		return this.deliveries.redeliver(eventId);
	}

	/** The log of delivery attempts that are over, oldest first. */
	webhookDeliveries(): WebhookDeliveryAttempt[] {
		return this.deliveries.attempts();
	}

	/** Resolves when no delivery attempt is in flight or due at once; later scheduled retries may remain. */
	whenWebhooksIdle(): Promise<void> {
		return this.deliveries.whenIdle();
	}

	/** Resolves when no delivery attempt is in flight or scheduled at all (retries included). */
	whenWebhooksSettled(): Promise<void> {
		return this.deliveries.whenSettled();
	}

	/** Inserts a new payable (bookkeeping status `created`, version 1, created now) and emits payables:created. */
	createPayable(
		companyId: string,
		partial: Partial<Payable> = {},
	): { payable: Payable; event: WebhookEvent } {
		return createPayable(this, companyId, partial);
	}

	/** Prepares a payable still `created` (version + 1) and emits payables:prepared. */
	preparePayable(companyId: string, payableId: string): { payable: Payable; event: WebhookEvent } {
		return preparePayable(this, companyId, payableId);
	}

	/** Appends a new settlement (settled now) and emits settlements:created. */
	createSettlement(
		companyId: string,
		partial: Partial<Settlement> = {},
	): { settlement: Settlement; event: WebhookEvent } {
		return createSettlement(this, companyId, partial);
	}

	// ---------------------------------------------------------------- used by routes

	issueAccessToken(info: Omit<TokenInfo, 'expiresAt'>): {
		access_token: string;
		token_type: 'Bearer';
		expires_in: number;
	} {
		const token = `sat_${randomBytes(24).toString('hex')}`;
		const lifetime = this.options.tokenLifetimeSeconds;
		this.tokens.set(token, { ...info, expiresAt: this.clock.now() + lifetime * 1000 });
		return { access_token: token, token_type: 'Bearer', expires_in: lifetime };
	}

	apiKey(clientId: string): ApiKeyCredential | undefined {
		return this.apiKeys.get(clientId);
	}

	oauthClient(clientId: string): OAuthClient | undefined {
		return this.oauthClients.get(clientId);
	}

	saveCode(code: AuthCode): string {
		const value = `sac_${randomBytes(16).toString('hex')}`;
		this.codes.set(value, code);
		return value;
	}

	takeCode(value: string): AuthCode | undefined {
		return this.codes.get(value);
	}

	issueRefreshToken(grant: Omit<RefreshGrant, 'expiresAt'>): string {
		const value = `srt_${randomBytes(24).toString('hex')}`;
		this.refreshTokens.set(value, { ...grant, expiresAt: this.clock.now() + 30 * DAY });
		return value;
	}

	/** Refresh tokens rotate: using one deletes it. */
	consumeRefreshToken(value: string): RefreshGrant | undefined {
		const grant = this.refreshTokens.get(value);
		this.refreshTokens.delete(value);
		if (!grant || grant.expiresAt <= this.clock.now()) return undefined;
		return grant;
	}

	/** Companies as Get Companies lists them for this token, through the per-viewer cache. */
	listedCompanies(token: TokenInfo): Company[] {
		const viewer = token.kind === 'oauth2' ? `user:${token.userId}` : `apiKey:${token.clientId}`;
		const now = this.clock.now();
		const cached = this.companiesCache.get(viewer);
		if (cached && now - cached.at < this.options.companiesCacheSeconds * 1000)
			return cached.companies;
		const user = token.userId ? this.user(token.userId) : undefined;
		const companies = this.companyList
			.filter(
				(c) => c.active && (token.kind !== 'oauth2' || (user?.companyIds.includes(c.id) ?? false)),
			)
			.map((c) => ({ ...c }));
		this.companiesCache.set(viewer, { at: now, companies });
		return companies;
	}

	nextIntakeId(companyId: string): string {
		const n = (this.intakeSeq.get(companyId) ?? this.data(companyId).intakes.length) + 1;
		this.intakeSeq.set(companyId, n);
		return `int_${companyId.slice(4)}_${String(n).padStart(6, '0')}`;
	}

	// ---------------------------------------------------------------- HTTP plumbing

	private indexInvoices(companyId: string): void {
		const invoices = this.data(companyId).invoices;
		this.invoiceIndex.set(companyId, {
			byUpdated: invoices.slice().sort((a, b) => compareKeys(updatedKey(a), updatedKey(b))),
			byCreated: invoices.slice().sort((a, b) => compareKeys(createdKey(a), createdKey(b))),
		});
	}

	private async handle(
		req: http.IncomingMessage,
		res: http.ServerResponse,
		host: 'api' | 'files' = 'api',
	): Promise<void> {
		const arrived = this.clock.now();
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const method = (req.method ?? 'GET').toUpperCase();
		const query: Record<string, string> = {};
		const repeated: Record<string, string[]> = {};
		for (const [k, v] of url.searchParams) {
			if (k in query) (repeated[k] ??= [query[k]]).push(v);
			query[k] = v;
		}
		const { route, params } = matchRoute(method, url.pathname, host, this.options.profile);
		const entry: LoggedRequest = {
			seq: ++this.seq,
			at: arrived,
			method,
			path: url.pathname,
			query: redact(query) as Record<string, string>,
			...(Object.keys(repeated).length
				? { queryRepeated: redact(repeated) as Record<string, string[]> }
				: {}),
			body: undefined,
			headers: redactHeaders(req.headers),
			route: route.id,
			status: 0,
			...(host === 'files' ? { host } : {}),
		};
		const tracked = !outsideApi(route.id) && host === 'api';
		const ctx: RequestContext = {
			sim: this,
			method,
			path: url.pathname,
			params,
			query,
			searchParams: url.searchParams,
			body: undefined,
			headers: req.headers,
		};
		let result: HandlerResult;

		if (
			tracked &&
			this.options.maxInFlight !== undefined &&
			this.stats.inFlight >= this.options.maxInFlight
		) {
			// Rejected on arrival, before it counts as in flight.
			result = errorResult(
				new SimError(
					429,
					'too_many_requests_in_flight',
					`At most ${this.options.maxInFlight} requests may be in flight`,
					undefined,
					{ 'retry-after': '1' },
				),
			);
			await this.finish(
				res,
				entry,
				result,
				(await readBody(req).catch(() => undefined))?.toString('utf8'),
			);
			return;
		}
		if (tracked) {
			this.stats.inFlight++;
			this.stats.peakInFlight = Math.max(this.stats.peakInFlight, this.stats.inFlight);
		}
		try {
			const bytes = await readBody(req);
			ctx.rawBody = bytes;
			if (host === 'files') {
				entry.bytes = bytes.length;
			} else {
				ctx.body = parseBody(bytes.toString('utf8'), req.headers['content-type']);
				entry.body = redact(ctx.body);
			}
			const fault = this.takeFault(route.id);
			if (fault) {
				entry.fault = fault.kind;
				ctx.fault = fault.kind;
				ctx.faultSpec = fault;
			}
			const latency =
				this.options.latencyMs + (fault?.kind === 'latency' ? (fault.latencyMs ?? 100) : 0);
			if (latency > 0) await delay(latency);
			if (fault?.kind === 'reset') {
				this.log.push(entry);
				req.socket.destroy();
				return;
			}
			if (fault?.kind === 'redirect') {
				result = {
					status: fault.status ?? 307,
					headers: { location: fault.location ?? 'http://redirect.example.invalid/' },
				};
			} else if (fault?.kind === 'status') {
				const status = fault.status ?? 500;
				result = errorResult(
					new SimError(
						status,
						status >= 500 ? 'internal_error' : 'injected_error',
						fault.detail ?? `Injected failure (${status})`,
						fault.source,
					),
				);
			} else if (fault?.kind === 'echoRequest' || fault?.kind === 'echoRequestText') {
				result = echoResult(fault, method, req);
			} else if (fault?.kind === 'echoBody') {
				result = errorResult(
					new SimError(
						fault.status ?? 400,
						'invalid_request',
						`Could not process the body: ${bytes.toString('utf8')}`,
					),
				);
			} else if (fault?.kind === 'echoToken') {
				const token = (req.headers.authorization ?? '').replace(/^\S+\s+/, '');
				result = errorResult(
					new SimError(
						fault.status ?? 400,
						'invalid_token_scope',
						`The token ${token} is not valid for ${url.pathname}`,
					),
				);
			} else if (fault?.kind === 'rateLimit') {
				const s = String(fault.retryAfterSeconds ?? 1);
				result = errorResult(
					new SimError(
						429,
						'rate_limit_exceeded',
						`Rate limit exceeded, retry in ${s} seconds`,
						undefined,
						{
							'retry-after': s,
							'x-ratelimit-limit': String(this.options.rateLimit),
							'x-ratelimit-remaining': '0',
							'x-ratelimit-reset': s,
						},
					),
				);
			} else if (fault?.kind === 'htmlBody') {
				result = {
					status: 200,
					body: PROXY_PAGE,
					headers: { 'content-type': 'text/html; charset=utf-8' },
				};
			} else if (fault?.kind === 'noContent') {
				result = { status: 204 };
			} else {
				result = await this.dispatch(route, ctx);
				// Some collections answer a page as a bare array (docs/api.md#page-lists).
				if (fault?.kind === 'bareArray' || this.options.bareArrayLists.includes(route.id))
					result = bareArrayPage(result);
				if (fault?.kind === 'spentBudget') {
					const s = String(fault.retryAfterSeconds ?? 1);
					result = {
						...result,
						headers: { ...result.headers, 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': s },
					};
				}
				if (
					fault?.kind === 'reversedAnswersOneUnnamed' &&
					Array.isArray((result.body as { items?: unknown }).items)
				) {
					const items = [
						...(result.body as { items: Array<{ supplier?: Record<string, unknown> }> }).items,
					].reverse();
					const supplier = { ...items[0].supplier };
					delete supplier.name;
					items[0] = { ...items[0], supplier };
					result = { ...result, body: { items } };
				}
				if (fault?.kind === 'reversedAnswers' && result.body && typeof result.body === 'object') {
					const body = result.body as Record<string, unknown>;
					const key = Array.isArray(body.data) ? 'data' : 'items';
					if (Array.isArray(body[key]))
						result = {
							...result,
							body: { ...body, [key]: [...(body[key] as unknown[])].reverse() },
						};
				}
				if (fault?.kind === 'deprecated') {
					result = {
						...result,
						headers: {
							...result.headers,
							deprecation: 'true',
							sunset: fault.sunset ?? DEFAULT_SUNSET,
						},
					};
				}
			}
		} catch (error) {
			result =
				error instanceof SimError
					? errorResult(error)
					: errorResult(new SimError(500, 'internal_error', String(error)));
		} finally {
			if (tracked) this.stats.inFlight--;
		}
		entry.clientId = ctx.token?.clientId;
		entry.companyId = ctx.companyId;
		if (ctx.deprecatedLimit) entry.deprecatedLimit = true;
		await this.finish(res, entry, result, undefined, ctx.faultSpec?.intervalMs);
	}

	private async finish(
		res: http.ServerResponse,
		entry: LoggedRequest,
		result: HandlerResult,
		body?: string,
		/** trickleBody: the pause between two bytes. */
		intervalMs = 1000,
	): Promise<void> {
		if (body !== undefined) entry.body = redact(parseBody(body, undefined));
		if (this.documented) result = this.documentedAnswer(entry.method, result);
		entry.status = result.status;
		const code =
			result.status >= 400
				? (result.body as { errors?: Array<{ code?: unknown }> } | undefined)?.errors?.[0]?.code
				: undefined;
		if (typeof code === 'string') entry.errorCode = code;
		this.log.push(entry);
		const headers: Record<string, string> = { ...result.headers };
		if (result.body !== undefined) headers['content-type'] ??= 'application/json; charset=utf-8';
		// The server's clock, as every HTTP server sends it (RFC 9110 §6.6.1), from the simulated clock.
		headers.date ??= new Date(this.clock.now()).toUTCString();
		res.writeHead(result.status, headers);
		if (
			(entry.fault === 'dropMidBody' || entry.fault === 'stallMidBody') &&
			Buffer.isBuffer(result.body)
		) {
			// Half the body, then the connection drops (or falls silent): a transfer cut mid-body.
			const half = result.body.subarray(0, Math.floor(result.body.length / 2));
			if (entry.fault === 'dropMidBody') res.write(half, () => res.socket?.destroy());
			else res.write(half);
			return;
		}
		const payload =
			result.body === undefined
				? undefined
				: typeof result.body === 'string' || Buffer.isBuffer(result.body)
					? result.body
					: JSON.stringify(result.body);
		if (entry.fault === 'trickleBody' && payload !== undefined) {
			trickle(res, Buffer.from(payload), intervalMs);
			return;
		}
		res.end(payload);
	}

	/**
	 * The documented profile's shape of an answer: documented error codes and field-name sources,
	 * no Retry-After on a 429 (x-ratelimit-* only), single objects of a GET bare.
	 */
	private documentedAnswer(method: string, result: HandlerResult): HandlerResult {
		if (result.status >= 400) {
			const headers = { ...result.headers };
			if (result.status === 429) delete headers['retry-after'];
			return { ...result, headers, body: documentedErrorBody(result.status, result.body) };
		}
		if (method === 'GET' && result.status < 300)
			return { ...result, body: bareSingleObject(result.body) };
		return result;
	}

	private takeFault(route: RouteId): ActiveFault | undefined {
		for (const fault of this.faults) {
			const matches = fault.route === route || (fault.route === '*' && !outsideApi(route));
			if (!matches) continue;
			if (fault.skip > 0) {
				fault.skip--;
				continue;
			}
			fault.remaining--;
			if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
			return fault;
		}
		return undefined;
	}

	/** Authentication, OAuth scope, company placement and rate limit, then the route's handler. */
	private async dispatch(route: RouteDef, ctx: RequestContext): Promise<HandlerResult> {
		if (route.id === 'notFound' && this.documented && isV2Path(ctx.path)) {
			// The documented world has no /v2 endpoint: whatever the path, 403 without its experimental scope.
			ctx.token = this.authenticate(ctx.headers.authorization);
			throw new SimError(403, 'forbidden', 'This endpoint is not available to this token', 'scope');
		}
		if (route.placement === 'public') return route.handler(ctx);

		const token = this.authenticate(ctx.headers.authorization);
		ctx.token = token;
		if (route.scope && !token.scopes.includes(route.scope)) {
			throw new SimError(403, 'insufficient_scope', `Missing scope: ${route.scope}`, 'scope');
		}

		let budget: string;
		if (route.placement === 'organisation') {
			if (token.level !== 'organisation') {
				throw new SimError(403, 'forbidden', 'This endpoint requires an organisation-level token');
			}
			budget = 'organisation';
		} else {
			ctx.companyId = this.scopeCompany(route, ctx, token);
			budget = ctx.companyId;
		}

		const limitHeaders = this.countRequest(`${token.clientId}|${budget}`);
		try {
			const result = await route.handler(ctx);
			const body =
				ctx.fault === 'setFields' ? withFields(result.body, ctx.faultSpec?.set) : result.body;
			return { ...result, body, headers: { ...limitHeaders, ...result.headers } };
		} catch (error) {
			if (error instanceof SimError) Object.assign(error.headers, limitHeaders, error.headers);
			throw error;
		}
	}

	private authenticate(header: string | undefined): TokenInfo {
		const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
		const token = match ? this.tokens.get(match[1]) : undefined;
		if (!token || token.expiresAt <= this.clock.now()) {
			throw new SimError(
				401,
				'unauthorized',
				'Invalid or expired access token',
				'headers.authorization',
			);
		}
		return token;
	}

	/**
	 * The company a call with a company targets, with the placement rules of
	 * docs/api.md#levels-and-company-placement and the refusals of docs/api.md#errors.
	 */
	private scopeCompany(route: RouteDef, ctx: RequestContext, token: TokenInfo): string {
		let target: string;
		let source: string;
		if (route.placement === 'path') {
			target = ctx.params.companyId;
			source = 'path.companyId';
			if (token.level === 'company' && target !== token.companyId) {
				throw new SimError(403, 'forbidden', 'Forbidden', source);
			}
		} else if (token.level === 'company') {
			target = token.companyId!;
			source = 'token';
		} else {
			const header = ctx.headers['x-company-id'];
			const value = Array.isArray(header) ? header[0] : header;
			if (!value) {
				throw new SimError(
					400,
					'missing_company_id',
					'X-Company-Id header is required for organisation tokens',
					'headers.x-company-id',
				);
			}
			target = value;
			source = 'headers.x-company-id';
		}
		const company = this.company(target);
		if (!company)
			throw new SimError(403, 'forbidden', 'Company does not belong to organisation', source);
		if (!company.active) throw new SimError(403, 'forbidden', 'Company is deactivated', source);
		if (token.kind === 'oauth2' && token.level === 'organisation') {
			const user = token.userId ? this.user(token.userId) : undefined;
			if (!user?.companyIds.includes(target)) {
				throw new SimError(403, 'forbidden', 'User does not belong to this company', source);
			}
		}
		return target;
	}

	/** Fixed-window budget per (credential, company). Returns the x-ratelimit-* headers. */
	private countRequest(key: string): Record<string, string> {
		const now = this.clock.now();
		const { rateLimit, rateLimitWindowMs } = this.options;
		let window = this.windows.get(key);
		if (!window || now >= window.start + rateLimitWindowMs) {
			window = { start: now, count: 0 };
			this.windows.set(key, window);
		}
		const reset = String(Math.max(1, Math.ceil((window.start + rateLimitWindowMs - now) / 1000)));
		if (window.count >= rateLimit) {
			throw new SimError(
				429,
				'rate_limit_exceeded',
				`Rate limit exceeded, retry in ${reset} seconds`,
				undefined,
				{
					'retry-after': reset,
					'x-ratelimit-limit': String(rateLimit),
					'x-ratelimit-remaining': '0',
					'x-ratelimit-reset': reset,
				},
			);
		}
		window.count++;
		return {
			'x-ratelimit-limit': String(rateLimit),
			'x-ratelimit-remaining': String(rateLimit - window.count),
			'x-ratelimit-reset': reset,
		};
	}
}

function matchRoute(
	method: string,
	path: string,
	host: 'api' | 'files',
	profile: SimulatorProfile,
): { route: RouteDef; params: Record<string, string> } {
	for (const route of ROUTES) {
		if (route.method !== method || (route.host ?? 'api') !== host) continue;
		if (route.profile !== undefined && route.profile !== profile) continue;
		const m = route.pattern.exec(path);
		if (!m) continue;
		const params: Record<string, string> = {};
		for (const [k, v] of Object.entries(m.groups ?? {})) {
			try {
				params[k] = decodeURIComponent(v);
			} catch {
				params[k] = v;
			}
		}
		return { route, params };
	}
	return { route: NOT_FOUND, params: {} };
}

const NOT_FOUND: RouteDef = {
	id: 'notFound',
	method: '*',
	pattern: /.*/,
	placement: 'public',
	handler: () => {
		throw new SimError(404, 'not_found', 'Route not found');
	},
};

/** The request as it arrived (request line and every header), quoted back in a 400. */
/**
 * An answer with the fields of `set` replaced (fault setFields; `payables.0.companyId` reaches
 * into a list, and the value `undefined` removes the field). The objects and lists on each path
 * are copied, never changed: answers share the simulator's own records.
 */
function withFields(body: unknown, set: Record<string, unknown> = {}): unknown {
	const copyOf = (value: unknown): Record<string, unknown> =>
		(Array.isArray(value) ? [...value] : { ...(value as object | undefined) }) as Record<
			string,
			unknown
		>;
	let out = body;
	for (const [path, value] of Object.entries(set)) {
		const keys = path.split('.');
		const root = copyOf(out);
		let at = root;
		for (const key of keys.slice(0, -1)) {
			const copy = copyOf(at[key]);
			at[key] = copy;
			at = copy;
		}
		at[keys[keys.length - 1]] = value;
		out = root;
	}
	return out;
}

function echoResult(fault: FaultSpec, method: string, req: http.IncomingMessage): HandlerResult {
	const lines = [`${method} ${req.url ?? '/'} HTTP/${req.httpVersion}`];
	for (let i = 0; i < req.rawHeaders.length; i += 2)
		lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
	const status = fault.status ?? 400;
	if (fault.kind === 'echoRequestText') {
		return {
			status,
			headers: { 'content-type': 'text/plain; charset=utf-8' },
			body: `Bad request. The request was:\n${lines.join('\n')}\n`,
		};
	}
	return errorResult(
		new SimError(status, 'invalid_request', `Could not process the request: ${lines.join(' | ')}`),
	);
}

function errorResult(error: SimError): HandlerResult {
	return { status: error.status, body: error.body(), headers: error.headers };
}

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/** A page list's answer `{data: [...], meta}` as the bare array of its items; any other answer as it is. */
function bareArrayPage(result: HandlerResult): HandlerResult {
	const body = result.body as { data?: unknown; meta?: unknown } | undefined;
	if (result.status >= 300 || !body || typeof body !== 'object' || !Array.isArray(body.data))
		return result;
	return { ...result, body: body.data };
}

/** JSON or form body; JSON when it parses, form when the content type says so, raw text otherwise. */
function parseBody(raw: string, contentType: string | undefined): unknown {
	if (!raw) return undefined;
	if (contentType?.includes('application/x-www-form-urlencoded')) {
		return Object.fromEntries(new URLSearchParams(raw));
	}
	try {
		return JSON.parse(raw) as unknown;
	} catch {
		if (!contentType && raw.includes('=')) return Object.fromEntries(new URLSearchParams(raw));
		return raw;
	}
}

function redact(value: unknown): unknown {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELDS.has(k) ? '<redacted>' : v;
	return out;
}

function redactHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(headers)) {
		if (v === undefined) continue;
		const value = Array.isArray(v) ? v.join(', ') : v;
		out[k] = k === 'authorization' ? value.replace(/^(\S+)\s+.*$/, '$1 <redacted>') : value;
	}
	return out;
}

/** A body one byte every `intervalMs`: done after the last byte, or when the client closes first. */
function trickle(res: http.ServerResponse, bytes: Buffer, intervalMs: number): void {
	let sent = 0;
	const timer = setInterval(() => {
		res.write(bytes.subarray(sent, sent + 1));
		sent++;
		if (sent >= bytes.length) {
			clearInterval(timer);
			res.end();
		}
	}, intervalMs);
	res.on('close', () => clearInterval(timer));
}
