/**
 * The simulator's routes: one entry per endpoint of docs/api.md#endpoints, with its OAuth
 * scope, the placement of its company (header, path, none) and its handler.
 */
import { createHash } from 'node:crypto';
import { fingerprint, intParam, keysetPage, PAGE_SIZE_MAX, pageOf, SimError } from './paging';
import { payableDetail, READ_ROUTES } from './routes-reads';
import type { PayableDetail } from './routes-reads';
import { REFERENCE_ROUTES } from './routes-reference';
import { dateQuery, dateValue, enumListParam, listParam } from './params';
import { updatePayable } from './payableAccounting';
import { PURCHASE_ORDER_ROUTES } from './purchaseOrders';
import { RECEIPT_ROUTES } from './receipts';
import { minorUnits } from './shapes';
import type { PageFault, SortKey } from './paging';
import type { HandlerResult, RequestContext } from './server';
import type { Intake, Payable, RouteId } from './types';
import { PAYABLE_TYPES } from './types';
import {
	createSuppliers,
	updateBookkeepingStatus,
	updateSettlementState,
	updateSupplier,
	updateSuppliers,
	updateSupplierStatus,
	updateOneSupplierStatus,
} from './writes';
import { FILE_ROUTES } from './fileRoutes';
import { WEBHOOK_ROUTES } from './webhooks';
import { CONTROL_ROUTES } from './events';
import { OAUTH_ROUTES, pkceChallenge } from './oauth';
import type { SimulatorProfile } from './profile';

export { pkceChallenge };

export interface RouteDef {
	id: RouteId;
	method: string;
	pattern: RegExp;
	/** public: no token; organisation: org token, no company; header: X-Company-Id for org tokens; path: company in path. */
	placement: 'public' | 'organisation' | 'header' | 'path';
	scope?: string;
	handler: (ctx: RequestContext) => HandlerResult | Promise<HandlerResult>;
	/** Served by the file host (the simulator's second server, pre-signed URLs) instead of the API. */
	host?: 'files';
	/** Served in this profile only (elsewhere the path is unknown: 404); absent: in both. */
	profile?: SimulatorProfile;
}

/** Cursor limits (default, max) decided for the simulator where docs/api.md gives none. */
export const CURSOR_LIMITS = {
	listInvoices: [20, 100],
	listIntakes: [20, 100],
	listAnalyticalFields: [20, 100],
	listAnalyticalFieldValues: [30, 1000],
	listExpenseCategories: [20, 100],
	searchPayables: [20, 100],
	getAccounts: [20, 100],
} as const;

const SNAPSHOT_REUSE_MS = 12 * 3600 * 1000;
const byId = <T extends { id: string }>(item: T): SortKey => ['', item.id];
const byCreated = <T extends { id: string; createdAt: string }>(item: T): SortKey => [
	item.createdAt,
	item.id,
];
const ok = (body: unknown, status = 200): HandlerResult => ({ status, body });

function bodyObject(ctx: RequestContext): Record<string, unknown> {
	if (ctx.body === undefined) return {};
	if (!ctx.body || typeof ctx.body !== 'object' || Array.isArray(ctx.body)) {
		throw new SimError(400, 'invalid_body', 'The request body must be a JSON object', 'body');
	}
	return ctx.body as Record<string, unknown>;
}

/** Whether the request authenticates its client with a Basic header. */
const basicAuth = (ctx: RequestContext): boolean =>
	/^Basic\s+\S+$/i.test(ctx.headers.authorization ?? '');

/** Basic client authentication (the API key's token request), or client_id/client_secret in the body. */
function clientCredentials(
	ctx: RequestContext,
	body: Record<string, unknown>,
): { id: string; secret: string } | undefined {
	const match = /^Basic\s+(\S+)$/i.exec(ctx.headers.authorization ?? '');
	if (match) {
		const decoded = Buffer.from(match[1], 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		if (colon < 0) return undefined;
		return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
	}
	if (typeof body.client_id === 'string' && typeof body.client_secret === 'string') {
		return { id: body.client_id, secret: body.client_secret };
	}
	return undefined;
}

/** Cursor-style list (query `limit` and `cursor`), answered in the v2 envelope with nextUrl. */
function cursorList<T>(
	ctx: RequestContext,
	route: keyof typeof CURSOR_LIMITS,
	items: readonly T[],
	keyOf: (item: T) => SortKey,
	opts: {
		desc?: boolean;
		match?: (item: T) => boolean;
		filters?: Record<string, unknown>;
		maxReturn?: number;
	} = {},
): HandlerResult {
	const [def, max] = CURSOR_LIMITS[route];
	const limit = intParam(ctx.query.limit, 'limit', 'query', def, 1, max);
	const page = keysetPage({
		items,
		keyOf,
		desc: opts.desc ?? false,
		match: opts.match ?? (() => true),
		// A server that caps its pages serves fewer than asked and still reports the limit asked.
		limit: Math.min(limit, opts.maxReturn ?? limit),
		cursor: fromNumeric(ctx.query.cursor) || undefined,
		fingerprint: fingerprint({ route, company: ctx.companyId, path: ctx.path, ...opts.filters }),
		cursorSource: 'query.cursor',
		emptyPage: ctx.fault === 'emptyPage',
		repeatCursor: ctx.fault === 'repeatCursor',
		ignorePosition: ctx.fault === 'ignorePosition',
	});
	let nextUrl: string | null = null;
	const nextCursor =
		ctx.fault === 'numericCursor' && page.nextCursor ? toNumeric(page.nextCursor) : page.nextCursor;
	if (page.nextCursor) {
		const origin =
			ctx.fault === 'foreignNextUrl'
				? 'http://evil.example.invalid'
				: (ctx.sim.options.nextUrlOrigin ?? ctx.sim.baseUrl);
		const rerouted = ctx.fault === 'reroutingNextUrl' || ctx.fault === 'reroutingNextUrlOnly';
		const url = new URL(rerouted ? '/v1/accounts' : ctx.path, origin);
		for (const [k, v] of Object.entries(ctx.query)) if (k !== 'cursor') url.searchParams.set(k, v);
		url.searchParams.set('cursor', String(nextCursor));
		nextUrl = url.toString();
	}
	return ok({
		data: page.data,
		meta: {
			pagination: {
				limit,
				hasNextPage: page.nextCursor !== null,
				nextCursor:
					ctx.fault === 'noNextCursor' || ctx.fault === 'reroutingNextUrlOnly' ? null : nextCursor,
				nextUrl,
			},
		},
	});
}

/** Cursors handed out as numbers (fault numericCursor): the number n stands for the n-th. */
const numericCursors: string[] = [];

function toNumeric(cursor: string): number {
	numericCursors.push(cursor);
	return numericCursors.length;
}

/** The cursor a query value stands for: a number handed out by toNumeric, else the value itself. */
function fromNumeric(raw: string | undefined): string | undefined {
	if (raw && /^\d+$/.test(raw)) return numericCursors[Number(raw) - 1] ?? raw;
	return raw;
}

/** The page-list faults of this request. */
function pageFault(ctx: RequestContext): PageFault {
	const pageSize = Number(ctx.query.pageSize) || PAGE_SIZE_MAX;
	return {
		ignorePage: ctx.fault === 'ignorePosition',
		total: ctx.fault === 'understatedTotal' ? (ctx.faultSpec?.total ?? pageSize) : undefined,
		cap: ctx.fault === 'cappedPages' ? (ctx.faultSpec?.pageCap ?? 20) : undefined,
		repeatLast: ctx.fault === 'repeatLastPage',
	};
}

const SNAPSHOT_MAX_PAYABLE_DAYS = 31;
const DAY_MS = 24 * 3600 * 1000;

/** A payable's bookkeeping states (docs/api.md#filters): the snapshot filters on them. */
const BOOKKEEPING_STATES = [
	'created',
	'prepared',
	'exported',
	'failedToExport',
	'exportedManually',
	'unprepared',
];
/** What the body of a snapshot create may hold (docs/api.md#filters); anything else is a 400. */
const SNAPSHOT_KEYS = [
	'bookkeepingStatus',
	'ids',
	'type',
	'exportedAfter',
	'createdFrom',
	'createdTo',
	'updatedFrom',
	'fromPayableDate',
	'toPayableDate',
	'sortBy',
	'sortOrder',
];

/** A filter's values (one value or a list), each one of `allowed` when given; absent gives undefined. */
function filterValues(
	value: unknown,
	name: string,
	allowed?: readonly string[],
): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	const values = (Array.isArray(value) ? value : [value]).map(String);
	const unknown = allowed && values.find((v) => !allowed.includes(v));
	if (unknown !== undefined)
		throw new SimError(
			400,
			'invalid_parameter',
			`${name} must be among ${allowed!.join(', ')}; got ${unknown}`,
			`body.${name}`,
		);
	return values;
}

/**
 * The filters of a payables snapshot (docs/api.md#filters), from the create's flat body:
 * `bookkeepingStatus` (the six states), `ids`, `type` (the documented payable types; the name
 * decided here), `exportedAfter`, `createdFrom`, `createdTo`, `updatedFrom`, `fromPayableDate`
 * and `toPayableDate` (at most 31 days apart, else 400), and the order `sortBy` (`createdAt` or
 * `payableDate`) and `sortOrder`. Any other property (such as the `payableType` or `status` we
 * had decided before) is a 400.
 */
function payableFilters(source: Record<string, unknown>) {
	for (const key of Object.keys(source))
		if (!SNAPSHOT_KEYS.includes(key))
			throw new SimError(400, 'invalid_body', 'must NOT have additional properties', `body.${key}`);
	const type = filterValues(source.type, 'type', PAYABLE_TYPES);
	const bookkeepingStatus = filterValues(
		source.bookkeepingStatus,
		'bookkeepingStatus',
		BOOKKEEPING_STATES,
	);
	const ids = filterValues(source.ids, 'ids');
	const date = (name: string) => dateValue(source[name], name, 'body');
	const exportedAfter = date('exportedAfter');
	const createdFrom = date('createdFrom');
	const createdTo = date('createdTo');
	const updatedFrom = date('updatedFrom');
	const fromPayableDate = date('fromPayableDate');
	const toPayableDate = date('toPayableDate');
	if (fromPayableDate !== undefined && toPayableDate !== undefined) {
		if (fromPayableDate > toPayableDate)
			throw new SimError(
				400,
				'invalid_parameter',
				'fromPayableDate must not be after toPayableDate',
				'body.fromPayableDate',
			);
		// Counted in whole days (decided here, docs/api.md#filters): 31 days and 23:59:59.999 are
		// 31 days apart.
		if (Math.floor((toPayableDate - fromPayableDate) / DAY_MS) > SNAPSHOT_MAX_PAYABLE_DAYS)
			throw new SimError(
				400,
				'invalid_parameter',
				`fromPayableDate and toPayableDate must be at most ${SNAPSHOT_MAX_PAYABLE_DAYS} days apart`,
				'body.toPayableDate',
			);
	}
	const sortBy = source.sortBy ?? 'createdAt';
	if (sortBy !== 'createdAt' && sortBy !== 'payableDate')
		throw new SimError(
			400,
			'invalid_parameter',
			'sortBy must be createdAt or payableDate',
			'body.sortBy',
		);
	const sortOrder = source.sortOrder ?? 'asc';
	if (sortOrder !== 'asc' && sortOrder !== 'desc')
		throw new SimError(400, 'invalid_parameter', 'sortOrder must be asc or desc', 'body.sortOrder');
	const after = (value: string | null, bound: number | undefined, inclusive = true) =>
		bound === undefined ||
		(value !== null && (inclusive ? Date.parse(value) >= bound : Date.parse(value) > bound));
	const before = (value: string, bound: number | undefined) =>
		bound === undefined || Date.parse(value) <= bound;
	return {
		filters: Object.fromEntries(
			Object.entries({
				type,
				bookkeepingStatus,
				ids,
				exportedAfter,
				createdFrom,
				createdTo,
				updatedFrom,
				fromPayableDate,
				toPayableDate,
				sortBy: source.sortBy,
				sortOrder: source.sortOrder,
			}).filter(([, v]) => v !== undefined),
		),
		match: (p: Payable) => {
			if (type && !type.includes(p.type)) return false;
			if (ids && !ids.includes(p.id)) return false;
			const d = payableDetail(p);
			return (
				(!bookkeepingStatus || bookkeepingStatus.includes(d.bookkeepingStatus)) &&
				after(d.exportedAt, exportedAfter, false) &&
				after(d.createdAt, createdFrom) &&
				before(d.createdAt, createdTo) &&
				after(p.updatedAt ?? p.createdAt, updatedFrom) &&
				after(d.payableDate, fromPayableDate) &&
				before(d.payableDate, toPayableDate)
			);
		},
		order: (list: Payable[]) => {
			const key = (p: Payable) =>
				sortBy === 'payableDate' ? p.createdAt.slice(0, 10) : p.createdAt;
			const sorted = [...list].sort((a, b) =>
				key(a) === key(b) ? (a.id < b.id ? -1 : 1) : key(a) < key(b) ? -1 : 1,
			);
			return sortOrder === 'desc' ? sorted.reverse() : sorted;
		},
	};
}

const SETTLEMENT_STATES = ['created', 'exported', 'failedToExport'];
const PAID_FROM = ['spendeskAccount', 'externalAccount'];

/**
 * GET /v1/settlements with its documented filters (docs/api.md#filters): `exportedAfter`,
 * `paidFrom[]`, `state[]`, `ids` and `sort` (`+createdAt` or `-createdAt`, the settlement's
 * date), on the settlements of the vendor's shape (docs/api.md#response-shapes).
 */
function listSettlements(ctx: RequestContext): HandlerResult {
	const exportedAfter = dateQuery(ctx, 'exportedAfter');
	const paidFrom = enumListParam(ctx, 'paidFrom', PAID_FROM);
	const state = enumListParam(ctx, 'state', SETTLEMENT_STATES);
	const ids = listParam(ctx, 'ids');
	const sort = ctx.query.sort ?? '+createdAt';
	// An unencoded `+` arrives as a space.
	if (!['+createdAt', '-createdAt', 'createdAt', ' createdAt'].includes(sort))
		throw new SimError(
			400,
			'invalid_parameter',
			'sort must be +createdAt or -createdAt',
			'query.sort',
		);
	const filtered = exportedAfter !== undefined || paidFrom || state || ids;
	let list = ctx.sim.data(ctx.companyId!).settlements;
	if (filtered)
		list = list.filter(
			(s) =>
				(exportedAfter === undefined ||
					(s.exportedAt !== null && Date.parse(s.exportedAt) > exportedAfter)) &&
				(!paidFrom || paidFrom.includes(s.paidFrom)) &&
				(!state || state.includes(s.state)) &&
				(!ids || ids.includes(s.id)),
		);
	if (sort === '-createdAt') list = [...list].reverse();
	return ok(pageOf(list, ctx.query, pageFault(ctx)));
}

/**
 * The search's own bookkeeping vocabulary (docs/api.md#body-cursor-lists): a production client
 * filters on `toPrepare` and reads `state` as `toPrepare`, `toExport` or `exported`; Get a
 * payable says `created`, `prepared`, …. How the two meet is decided here.
 */
const SEARCH_STATES: Record<string, readonly string[]> = {
	toPrepare: ['created', 'unprepared'],
	toExport: ['prepared', 'failedToExport'],
	exported: ['exported', 'exportedManually'],
};

/** A payable's state in the search's vocabulary. */
export function searchState(bookkeepingStatus: string): string {
	const found = Object.entries(SEARCH_STATES).find(([, states]) =>
		states.includes(bookkeepingStatus),
	);
	return found ? found[0] : 'toPrepare';
}

/** A row of the payables search: the payable as Get a payable answers it, plus its `state`. */
export function searchRow(payable: Payable): PayableDetail & { state: string } {
	const detail = payableDetail(payable);
	return { ...detail, state: searchState(detail.bookkeepingStatus) };
}

type SearchTest = (payable: Payable, detail: PayableDetail, values: unknown[]) => boolean;

/**
 * The payable fields a search may filter on, and how a subfilter's values match them: those a
 * production client sends (`requestor`, `bookkeepingStatus` in the search's vocabulary,
 * `paymentId`), `id`, and decided here `type`, `currency` and `amount`. No source shows a
 * `payableType` or `status` subfilter: they are refused like any other field.
 */
const SEARCH_FIELDS: Record<string, SearchTest> = {
	id: (p, d, values) => values.includes(p.id),
	requestor: (p, d, values) => values.includes(p.userId),
	paymentId: (p, d, values) => p.paymentId !== undefined && values.includes(p.paymentId),
	bookkeepingStatus: (p, d, values) => values.includes(searchState(d.bookkeepingStatus)),
	type: (p, d, values) => values.includes(p.type),
	currency: (p, d, values) => values.includes(p.currency),
	// Filter amounts are in major units (12.34); answers carry minor units (1234).
	amount: (p, d, values) =>
		values.some(
			(v) => (typeof v === 'number' || typeof v === 'string') && minorUnits(Number(v)) === p.amount,
		),
};
/** The values a subfilter's field takes, where only some exist. */
const SEARCH_VALUES: Record<string, readonly string[]> = {
	bookkeepingStatus: Object.keys(SEARCH_STATES),
	type: PAYABLE_TYPES,
};
const SEARCH_KEYS = ['limit', 'cursor', 'sort', 'filters'];

/** A 400 for a property the documented search body has no place for. */
function additionalProperty(source: string): SimError {
	return new SimError(400, 'invalid_body', 'must NOT have additional properties', source);
}

function objectAt(value: unknown, source: string): Record<string, unknown> {
	if (!value || typeof value !== 'object' || Array.isArray(value))
		throw new SimError(400, 'invalid_body', 'must be object', source);
	return value as Record<string, unknown>;
}

/**
 * The filters of a payables search in the documented grammar (docs/api.md#body-cursor-lists):
 * `{ operator: "and" | "or", subfilters: [{ field, operator: "=", value: [...] }] }`. Anything
 * else (the flat filters decided earlier, another operator, an unknown field) is a 400.
 */
function searchFilters(raw: unknown): (payable: Payable) => boolean {
	if (raw === undefined || raw === null) return () => true;
	const filters = objectAt(raw, 'body.filters');
	for (const key of Object.keys(filters))
		if (key !== 'operator' && key !== 'subfilters') throw additionalProperty(`body.filters.${key}`);
	if (filters.operator !== 'and' && filters.operator !== 'or')
		throw new SimError(400, 'invalid_body', 'operator must be and or or', 'body.filters.operator');
	if (!Array.isArray(filters.subfilters) || filters.subfilters.length === 0)
		throw new SimError(
			400,
			'invalid_body',
			'subfilters must be a non-empty list',
			'body.filters.subfilters',
		);
	const tests = filters.subfilters.map((entry, i) => {
		const at = `body.filters.subfilters[${i}]`;
		const sub = objectAt(entry, at);
		for (const key of Object.keys(sub))
			if (key !== 'field' && key !== 'operator' && key !== 'value')
				throw additionalProperty(`${at}.${key}`);
		const field = typeof sub.field === 'string' ? SEARCH_FIELDS[sub.field] : undefined;
		if (!field)
			throw new SimError(
				400,
				'invalid_body',
				`field must be one of ${Object.keys(SEARCH_FIELDS).join(', ')}`,
				`${at}.field`,
			);
		if (sub.operator !== '=')
			throw new SimError(400, 'invalid_body', 'operator must be =', `${at}.operator`);
		if (!Array.isArray(sub.value) || sub.value.length === 0)
			throw new SimError(400, 'invalid_body', 'value must be a non-empty list', `${at}.value`);
		const values = sub.value;
		const allowed = SEARCH_VALUES[sub.field as string];
		const unknown = allowed && values.find((v) => !allowed.includes(String(v)));
		if (unknown !== undefined)
			throw new SimError(
				400,
				'invalid_body',
				`value must be among ${allowed.join(', ')}; got ${String(unknown)}`,
				`${at}.value`,
			);
		return (p: Payable) => field(p, payableDetail(p), values);
	});
	return filters.operator === 'and'
		? (p) => tests.every((t) => t(p))
		: (p) => tests.some((t) => t(p));
}

/**
 * POST /v1/payables/search (docs/api.md#body-cursor-lists): body `{ limit, cursor?, sort?,
 * filters? }`, answer `{ payables, nextCursor }` with the payables as Get a payable gives them
 * (amounts in minor units) plus their `state`.
 */
function searchPayables(ctx: RequestContext): HandlerResult {
	const body = bodyObject(ctx);
	for (const key of Object.keys(body))
		if (!SEARCH_KEYS.includes(key)) throw additionalProperty(`body.${key}`);
	const [def, max] = CURSOR_LIMITS.searchPayables;
	const limit = intParam(body.limit, 'limit', 'body', def, 1, max);
	const sort = body.sort ?? 'asc';
	if (sort !== 'asc' && sort !== 'desc')
		throw new SimError(400, 'invalid_body', 'sort must be asc or desc', 'body.sort');
	const match = searchFilters(body.filters);
	// A number is a cursor handed out as a number (fault numericCursor), sent back as it came.
	const numeric = typeof body.cursor === 'number' && Number.isInteger(body.cursor);
	if (
		body.cursor !== undefined &&
		body.cursor !== null &&
		typeof body.cursor !== 'string' &&
		!numeric
	) {
		throw new SimError(400, 'invalid_cursor', 'The cursor is not valid', 'body.cursor');
	}
	// Only the payables a page looks at are shaped (shaping the whole list per page made a long
	// search quadratic).
	const page = keysetPage({
		items: ctx.sim.data(ctx.companyId!).payables,
		keyOf: byCreated,
		desc: sort === 'desc',
		match,
		limit,
		cursor: numeric
			? fromNumeric(String(body.cursor))
			: (body.cursor as string | null | undefined) || undefined,
		fingerprint: fingerprint({
			route: 'searchPayables',
			company: ctx.companyId,
			sort,
			filters: body.filters ?? null,
		}),
		cursorSource: 'body.cursor',
		repeatCursor: ctx.fault === 'repeatCursor',
		ignorePosition: ctx.fault === 'ignorePosition',
	});
	// dataEnvelope: older answers name the list `data`. Each row as Get a payable answers it,
	// plus its `state` in the search's vocabulary (a production client reads it).
	const payables = page.data.map(searchRow);
	const nextCursor =
		ctx.fault === 'numericCursor' && page.nextCursor ? toNumeric(page.nextCursor) : page.nextCursor;
	if (ctx.fault === 'dataEnvelope') return ok({ data: payables, nextCursor });
	return ok({ payables, nextCursor });
}

function tokenGrant(ctx: RequestContext): HandlerResult {
	const body = bodyObject(ctx);
	const client = clientCredentials(ctx, body);
	const key = client ? ctx.sim.apiKey(client.id) : undefined;
	if (!client || !key || key.clientSecret !== client.secret) {
		throw new SimError(
			401,
			'invalid_client',
			'Invalid client credentials',
			'headers.authorization',
		);
	}
	// With Basic authentication the body is optional (docs/api.md#authentication): no body is a
	// client-credentials grant.
	const grant = ctx.body === undefined && basicAuth(ctx) ? 'client_credentials' : body.grant_type;
	if (grant !== 'client_credentials') {
		throw new SimError(
			400,
			'unsupported_grant_type',
			'grant_type must be client_credentials',
			'body.grant_type',
		);
	}
	const scopes = tokenScopes(key.scopes, body.scope);
	const answer = ctx.sim.issueAccessToken({
		kind: 'apiKey',
		clientId: key.clientId,
		level: key.level,
		companyId: key.companyId,
		scopes,
	});
	// The key's scopes, space-separated, as Spendesk's token answers list them
	// (docs/api.md#authentication); the option `tokenAnswerScope: false` leaves them out.
	return ok(
		ctx.sim.options.tokenAnswerScope === false ? answer : { ...answer, scope: scopes.join(' ') },
	);
}

/**
 * The scopes a token is issued with: the key's, or those of the optional `scope` field of the
 * request that the key holds (the field restricts the token; docs/api.md#authentication).
 */
function tokenScopes(held: readonly string[], requested: unknown): string[] {
	if (requested === undefined || requested === null || requested === '') return [...held];
	if (typeof requested !== 'string') {
		throw new SimError(
			400,
			'invalid_scope',
			'scope must be a space-separated string',
			'body.scope',
		);
	}
	const asked = requested.split(/\s+/).filter(Boolean);
	return held.filter((scope) => asked.includes(scope));
}

function createSnapshot(ctx: RequestContext): HandlerResult {
	const body = bodyObject(ctx);
	const { filters, match, order } = payableFilters(body);
	const companyId = ctx.companyId!;
	const key = createHash('sha256')
		.update(JSON.stringify([ctx.token!.clientId, companyId, filters]))
		.digest('hex')
		.slice(0, 24);
	const now = ctx.sim.clock.now();
	if (
		ctx.fault === 'snapshotConflict' ||
		(ctx.sim.options.snapshotBuildConflict && anotherBuilding(ctx, key, companyId, now))
	) {
		const retry = ctx.faultSpec?.retryAfterSeconds;
		throw new SimError(
			409,
			'snapshot_in_progress',
			'Another payables snapshot of this company is being built; retry when it is complete',
			undefined,
			retry === undefined ? {} : { 'retry-after': String(retry) },
		);
	}
	const existing = ctx.sim.snapshots.get(key);
	if (!existing || now - existing.createdAt >= SNAPSHOT_REUSE_MS) {
		ctx.sim.snapshots.set(key, {
			key,
			companyId,
			createdAt: now,
			polls: 0,
			// A copy as of now, each payable as Get a payable answers it (docs/api.md#snapshots).
			items: order(ctx.sim.data(companyId).payables.filter(match)).map(payableDetail),
		});
	}
	// The answer echoes the filters under `query` (vendor documentation).
	const remaining = Math.max(
		0,
		Math.round((SNAPSHOT_REUSE_MS - (now - ctx.sim.snapshots.get(key)!.createdAt)) / 1000),
	);
	return ok(
		{ query: body, key, expireInSeconds: SNAPSHOT_REUSE_MS / 1000, remainingSeconds: remaining },
		201,
	);
}

/** Real-world rule (option snapshotBuildConflict): another snapshot of the company is still PENDING. */
function anotherBuilding(
	ctx: RequestContext,
	key: string,
	companyId: string,
	now: number,
): boolean {
	for (const snapshot of ctx.sim.snapshots.values()) {
		const pending =
			snapshot.polls <= ctx.sim.options.snapshotPendingPolls &&
			now - snapshot.createdAt < SNAPSHOT_REUSE_MS;
		if (snapshot.key !== key && snapshot.companyId === companyId && pending) return true;
	}
	return false;
}

function getSnapshot(ctx: RequestContext): HandlerResult {
	const snapshot = ctx.sim.snapshots.get(ctx.params.key);
	if (!snapshot || snapshot.companyId !== ctx.companyId)
		throw new SimError(404, 'not_found', 'Snapshot not found', 'path.key');
	if (ctx.fault === 'snapshotError')
		return ok({ key: snapshot.key, status: 'ERROR', result: null });
	snapshot.polls++;
	if (snapshot.polls <= ctx.sim.options.snapshotPendingPolls)
		return ok({ key: snapshot.key, status: 'PENDING', result: null });
	return ok({
		key: snapshot.key,
		status: 'COMPLETE',
		result: pageOf(snapshot.items, ctx.query, pageFault(ctx)),
	});
}

export const ROUTES: RouteDef[] = [
	{
		id: 'token',
		method: 'POST',
		pattern: /^\/v1\/auth\/token$/,
		placement: 'public',
		handler: tokenGrant,
	},
	// Spendesk's documented OAuth2 contract (oauth.ts).
	...OAUTH_ROUTES,
	{
		id: 'getCompanies',
		method: 'GET',
		pattern: /^\/v2\/companies$/,
		placement: 'organisation',
		scope: 'experimental:company:read',
		handler: (ctx) =>
			ok(
				pageOf(
					ctx.sim.listedCompanies(ctx.token!).map(({ id, name }) => ({ id, name })),
					ctx.query,
					pageFault(ctx),
				),
			),
	},
	{
		id: 'walletSummary',
		method: 'GET',
		pattern: /^\/v1\/wallet-summary$/,
		placement: 'header',
		scope: 'wallet-summary:read',
		// `{data, meta}` as the vendor's older document answers it (docs/api.md#response-shapes):
		// in both profiles, since the documented profile keeps a `data` that comes with `meta`.
		handler: (ctx) => {
			const summary = ctx.sim.data(ctx.companyId!).walletSummary;
			if (ctx.fault === 'bareObject') return ok(summary);
			return ok({ data: summary, meta: { pagination: { page: 1, pageSize: 1, total: 1 } } });
		},
	},
	{
		id: 'listSettlements',
		method: 'GET',
		pattern: /^\/v1\/settlements$/,
		placement: 'header',
		scope: 'settlement:read',
		handler: listSettlements,
	},
	{
		id: 'listInvoices',
		method: 'GET',
		pattern: /^\/v2\/companies\/(?<companyId>[^/]+)\/invoices$/,
		placement: 'path',
		scope: 'experimental:invoice:read',
		handler: (ctx) => {
			const sortBy = ctx.query.sortBy || 'createdAt';
			const sort = ctx.query.sort || 'asc';
			if (sortBy !== 'updatedAt' && sortBy !== 'createdAt') {
				throw new SimError(
					400,
					'invalid_parameter',
					'sortBy must be updatedAt or createdAt',
					'query.sortBy',
				);
			}
			if (sort !== 'asc' && sort !== 'desc')
				throw new SimError(400, 'invalid_parameter', 'sort must be asc or desc', 'query.sort');
			const status = ctx.query.status;
			return cursorList(
				ctx,
				'listInvoices',
				ctx.sim.invoiceList(ctx.companyId!, sortBy),
				(i) => [i[sortBy], i.id],
				{
					desc: sort === 'desc',
					match: status ? (i) => i.status === status : undefined,
					filters: { sortBy, sort, status: status ?? null },
				},
			);
		},
	},
	{
		id: 'listIntakes',
		method: 'GET',
		pattern: /^\/v2\/companies\/(?<companyId>[^/]+)\/intakes$/,
		placement: 'path',
		scope: 'experimental:intake:read',
		handler: (ctx) => cursorList(ctx, 'listIntakes', ctx.sim.data(ctx.companyId!).intakes, byId),
	},
	{
		id: 'createIntake',
		method: 'POST',
		pattern: /^\/v2\/companies\/(?<companyId>[^/]+)\/intakes$/,
		placement: 'path',
		scope: 'experimental:intake:write',
		handler: (ctx) => {
			const body = bodyObject(ctx);
			if (ctx.body === undefined || Object.keys(body).length === 0) {
				throw new SimError(
					400,
					'invalid_body',
					'The request body must be a non-empty JSON object',
					'body',
				);
			}
			const intake: Intake = {
				...body,
				id: ctx.sim.nextIntakeId(ctx.companyId!),
				createdAt: ctx.sim.clock.iso(),
			};
			ctx.sim.data(ctx.companyId!).intakes.push(intake);
			return ok({ data: intake }, 201);
		},
	},
	{
		id: 'listAnalyticalFields',
		method: 'GET',
		pattern: /^\/v2\/analytical-fields$/,
		placement: 'header',
		scope: 'experimental:analytical-field:read',
		handler: (ctx) =>
			cursorList(
				ctx,
				'listAnalyticalFields',
				// valueLabels: the label under `value` here too, as for the values.
				ctx.sim
					.data(ctx.companyId!)
					.analyticalFields.map(({ id, name }) =>
						ctx.fault === 'valueLabels' ? { id, value: name } : { id, name },
					),
				byId,
			),
	},
	{
		id: 'listAnalyticalFieldValues',
		method: 'GET',
		pattern: /^\/v2\/analytical-fields\/(?<fieldId>[^/]+)\/values$/,
		placement: 'header',
		scope: 'experimental:analytical-field:read',
		handler: (ctx) => {
			const field = ctx.sim
				.data(ctx.companyId!)
				.analyticalFields.find((f) => f.id === ctx.params.fieldId);
			if (!field)
				throw new SimError(404, 'not_found', 'Analytical field not found', 'path.fieldId');
			// Real-world variations: labels under `value` instead of `name`; pages capped whatever the limit asked.
			const values: Array<{ id: string }> =
				ctx.fault === 'valueLabels'
					? field.values.map(({ id, name }) => ({ id, value: name }))
					: field.values;
			return cursorList(ctx, 'listAnalyticalFieldValues', values, byId, {
				maxReturn: ctx.sim.options.analyticalValuesMaxReturn,
			});
		},
	},
	{
		id: 'listExpenseCategories',
		method: 'GET',
		pattern: /^\/v2\/expense-categories$/,
		placement: 'header',
		scope: 'experimental:expense-category:read',
		handler: (ctx) =>
			cursorList(
				ctx,
				'listExpenseCategories',
				ctx.sim.data(ctx.companyId!).expenseCategories,
				byId,
			),
	},
	{
		id: 'getAccounts',
		method: 'GET',
		pattern: /^\/v1\/accounts$/,
		placement: 'header',
		scope: 'account:read',
		handler: (ctx) => {
			const [def, max] = CURSOR_LIMITS.getAccounts;
			const asked = intParam(ctx.query.offset, 'offset', 'query', 0, 0, Number.MAX_SAFE_INTEGER);
			const offset =
				ctx.fault === 'ignorePosition'
					? 0
					: ctx.fault === 'overlappingPages'
						? Math.max(0, asked - (ctx.faultSpec?.overlap ?? 5))
						: asked;
			const usesLimit = ctx.query.limit !== undefined;
			ctx.deprecatedLimit = usesLimit;
			const fetchParam = ctx.query.fetch !== undefined ? 'fetch' : usesLimit ? 'limit' : 'fetch';
			// docs/api.md#offset-lists: the maximum of fetch is unknown, so a larger fetch is capped, not refused.
			let count = Math.min(
				max,
				intParam(ctx.query[fetchParam], fetchParam, 'query', def, 1, Number.MAX_SAFE_INTEGER),
			);
			if (ctx.sim.options.accountsMaxReturn !== undefined)
				count = Math.min(count, ctx.sim.options.accountsMaxReturn);
			const accounts = ctx.sim.data(ctx.companyId!).accounts;
			const data = accounts.slice(offset, offset + count);
			return {
				status: 200,
				body: {
					data,
					totalResults:
						ctx.fault === 'understatedTotal'
							? (ctx.faultSpec?.total ?? accounts.length)
							: accounts.length,
					currentOffset: offset,
					currentFetch: data.length,
				},
				headers: usesLimit ? { deprecation: 'true' } : undefined,
			};
		},
	},
	{
		id: 'searchPayables',
		method: 'POST',
		pattern: /^\/v1\/payables\/search$/,
		placement: 'header',
		scope: 'experimental:payable-search:read',
		handler: searchPayables,
	},
	{
		id: 'createPayablesSnapshot',
		method: 'POST',
		pattern: /^\/v1\/snapshots\/payables$/,
		placement: 'header',
		scope: 'payable:read',
		handler: createSnapshot,
	},
	{
		id: 'getPayablesSnapshot',
		method: 'GET',
		pattern: /^\/v1\/snapshots\/payables\/(?<key>[^/]+)$/,
		placement: 'header',
		scope: 'payable:read',
		handler: getSnapshot,
	},
	{
		id: 'updateBookkeepingStatus',
		method: 'PUT',
		pattern: /^\/v1\/payables\/bookkeeping-status$/,
		placement: 'header',
		scope: 'experimental:accounting:update',
		handler: updateBookkeepingStatus,
	},
	{
		id: 'updateSettlementState',
		method: 'PUT',
		pattern: /^\/v1\/settlements\/(?<settlementId>[^/]+)\/state$/,
		placement: 'header',
		scope: 'experimental:settlement:update',
		handler: updateSettlementState,
	},
	{
		id: 'createSuppliers',
		method: 'POST',
		pattern: /^\/v1\/suppliers$/,
		placement: 'header',
		scope: 'experimental:supplier:manage',
		handler: createSuppliers,
	},
	{
		id: 'updateSupplier',
		method: 'PATCH',
		pattern: /^\/v1\/suppliers\/(?<supplierId>[^/]+)$/,
		placement: 'header',
		scope: 'experimental:supplier:manage',
		handler: updateSupplier,
	},
	{
		id: 'updateSuppliers',
		method: 'PATCH',
		pattern: /^\/v1\/suppliers$/,
		placement: 'header',
		scope: 'experimental:supplier:manage',
		handler: updateSuppliers,
	},
	{
		id: 'updateSupplierStatus',
		method: 'PATCH',
		pattern: /^\/v1\/experimental\/suppliers\/status$/,
		placement: 'header',
		scope: 'experimental:supplier:manage',
		handler: updateSupplierStatus,
	},
	{
		id: 'updateOneSupplierStatus',
		method: 'PATCH',
		pattern: /^\/v1\/experimental\/suppliers\/(?<supplierId>[^/]+)\/status$/,
		placement: 'header',
		scope: 'experimental:supplier:manage',
		handler: updateOneSupplierStatus,
	},
	{
		id: 'updatePayableAccounting',
		method: 'PATCH',
		pattern: /^\/v1\/payables\/(?<payableId>[^/]+)$/,
		placement: 'header',
		scope: 'experimental:accounting:update',
		handler: updatePayable,
	},
	...READ_ROUTES,
	// Receipt upload to a payable, and the file host's form upload (receipts.ts).
	...RECEIPT_ROUTES,
	// Purchase orders (purchaseOrders.ts).
	...PURCHASE_ORDER_ROUTES,
	// The documented v1 reference lists, in both profiles (routes-reference.ts).
	...REFERENCE_ROUTES,
	// Files: attachments, intake uploads, accounting exports (fileRoutes.ts).
	...FILE_ROUTES,
	// Webhook instances (webhooks.ts).
	...WEBHOOK_ROUTES,
	// The simulator's own control route: emit a webhook event (events.ts).
	...CONTROL_ROUTES,
];
