/**
 * The read routes of the second endpoint catalogue (docs/api.md#endpoints): a payable in
 * detail (answered bare, as the vendor documents it), suppliers, users, cost centers, bank fees and wallet loads. All place the company in
 * the X-Company-Id header for organisation tokens; lists are page-based (pageSize ≤ 30, a later
 * page past the end is a 404).
 */
import { pageOf, SimError } from './paging';
import type { RouteDef } from './routes';
import type { HandlerResult, RequestContext } from './server';
import { listParam } from './params';
import { minorUnits, singleBody } from './shapes';
import type { Payable, PayableLineItem, Supplier, WalletMovement } from './types';

const ok = (body: unknown): HandlerResult => ({ status: 200, body });

/** The page faults the page lists of routes.ts also honour. */
function pageFaults(ctx: RequestContext) {
	return {
		ignorePage: ctx.fault === 'ignorePosition',
		total: ctx.fault === 'understatedTotal' ? (ctx.faultSpec?.total ?? 30) : undefined,
		cap: ctx.fault === 'cappedPages' ? (ctx.faultSpec?.pageCap ?? 20) : undefined,
		repeatLast: ctx.fault === 'repeatLastPage',
	};
}

/** One record by the id in the path, or a 404 naming the path parameter. */
function byIdOr404<T extends { id: string }>(
	list: readonly T[],
	id: string,
	label: string,
	param: string,
): T {
	const found = list.find((item) => item.id === id);
	if (!found) throw new SimError(404, 'not_found', `${label} not found`, `path.${param}`);
	return found;
}

/** A date or date-time query parameter (ISO 8601) as ms since epoch; absent gives undefined, anything else is a 400. */
function dateParam(ctx: RequestContext, name: string): number | undefined {
	const raw = ctx.query[name];
	if (raw === undefined || raw === '') return undefined;
	const at = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN;
	if (Number.isNaN(at))
		throw new SimError(
			400,
			'invalid_parameter',
			`${name} must be an ISO 8601 date or date-time`,
			`query.${name}`,
		);
	return at;
}

/** A boolean query parameter: "true" or "false"; absent gives undefined, anything else is a 400. */
function booleanParam(ctx: RequestContext, name: string): boolean | undefined {
	const raw = ctx.query[name];
	if (raw === undefined || raw === '') return undefined;
	if (raw !== 'true' && raw !== 'false')
		throw new SimError(400, 'invalid_parameter', `${name} must be true or false`, `query.${name}`);
	return raw === 'true';
}

/** A payable as the documented answers give it (Get a payable, the search): see payableDetail. */
export type PayableDetail = Omit<Payable, 'amount'> & {
	/** Minor units (cents), as the vendor's payable answers carry amounts. */
	amount: number;
	version: number;
	bookkeepingStatus: string;
	supplier: { id: string; name: string };
	updatedAt: string;
	payableDate: string;
	counterparty: { type: 'supplier'; id: string; name: string };
	costCenterId: string | null;
	exportedAt: string | null;
	analyticalProperties: Array<{ fieldId: string; valueId: string }>;
	lineItems: PayableLineItem[];
};

/**
 * A payable as Get a payable answers it (docs/api.md#endpoints), at the top level: the record,
 * its amount in minor units, and the documented detail fields (`version`, `payableDate`,
 * `counterparty`, `costCenterId`, `exportedAt`, `analyticalProperties`, `lineItems`, plus
 * `bookkeepingStatus`, `supplier` and `updatedAt`), derived when the record does not hold them.
 */
export function payableDetail(payable: Payable): PayableDetail {
	const amount = minorUnits(payable.amount);
	const supplier = payable.supplier ?? {
		id: `sup_of_${payable.id}`,
		name: payable.description.replace(/\s+\S+$/, ''),
	};
	// Until a write changes it, a payable is `created` (the payable states: docs/api.md#filters).
	const bookkeepingStatus = payable.bookkeepingStatus ?? 'created';
	const updatedAt = payable.updatedAt ?? payable.createdAt;
	// pay_001_000042 → cc_001_0006: one of the first six cost centers of the company, or none.
	const [, suffix = '', n = '0'] = payable.id.split('_');
	const number = Number(n);
	const derived =
		number % 5 === 0 ? null : `cc_${suffix}_${String(((number - 1) % 6) + 1).padStart(4, '0')}`;
	// After an accounting update (docs/api.md#payable-accounting): the lines as written; the
	// payable's cost center and analytical values are those every line shares.
	const lines = payable.lineItems;
	const costCenterId = lines
		? lines.every((l) => l.costCenterId === lines[0].costCenterId)
			? lines[0].costCenterId
			: null
		: derived;
	const shared = lines
		? lines[0].analyticalProperties.filter((p) =>
				lines.every((l) =>
					l.analyticalProperties.some((q) => q.fieldId === p.fieldId && q.valueId === p.valueId),
				),
			)
		: [];
	return {
		...payable,
		amount,
		version: payable.version ?? 1,
		bookkeepingStatus,
		supplier,
		updatedAt,
		payableDate: payable.createdAt.slice(0, 10),
		counterparty: { type: 'supplier', ...supplier },
		costCenterId,
		exportedAt: bookkeepingStatus === 'exported' ? updatedAt : null,
		analyticalProperties: shared,
		lineItems: lines ?? [
			{
				costCenterId,
				financial: { netAmount: amount, vatAmount: 0, grossAmount: amount },
				analyticalProperties: [],
			},
		],
	};
}

/**
 * Suppliers, in the shape Spendesk reads them (docs/api.md#suppliers-as-read): `updatedAfter`
 * and `isArchived` (decided here), and the documented filters (docs/api.md#filters) `ids`,
 * `createdBefore`, `createdAfter`, `updatedBefore`, `bankCountry`, `iban` and `vatNumber`
 * (exact matches on the read fields `bankCountry`, `iban` and `vatNo`; the bank country is the
 * IBAN's when none is recorded).
 */
function listSuppliers(ctx: RequestContext): HandlerResult {
	const updatedAfter = dateParam(ctx, 'updatedAfter');
	const updatedBefore = dateParam(ctx, 'updatedBefore');
	const createdAfter = dateParam(ctx, 'createdAfter');
	const createdBefore = dateParam(ctx, 'createdBefore');
	const isArchived = booleanParam(ctx, 'isArchived');
	const ids = listParam(ctx, 'ids');
	const { bankCountry, iban, vatNumber } = ctx.query;
	const countryOf = (s: Supplier) => s.bankCountry ?? s.iban?.slice(0, 2) ?? null;
	const match = (s: Supplier) =>
		(updatedAfter === undefined || Date.parse(s.updatedAt) > updatedAfter) &&
		(updatedBefore === undefined || Date.parse(s.updatedAt) < updatedBefore) &&
		(createdAfter === undefined || Date.parse(s.createdAt) > createdAfter) &&
		(createdBefore === undefined || Date.parse(s.createdAt) < createdBefore) &&
		(isArchived === undefined || s.isArchived === isArchived) &&
		(!ids || ids.includes(s.id)) &&
		(!bankCountry || countryOf(s) === bankCountry.toUpperCase()) &&
		(!iban || s.iban === iban.replace(/\s+/g, '').toUpperCase()) &&
		(!vatNumber || s.vatNo === vatNumber);
	return ok(
		pageOf(ctx.sim.data(ctx.companyId!).suppliers.filter(match), ctx.query, pageFaults(ctx)),
	);
}

/** Bank fees and wallet loads: `from` and `to` (both inclusive) on the movement's date; `from` after `to` is a 400. */
function listMovements(ctx: RequestContext, list: readonly WalletMovement[]): HandlerResult {
	const from = dateParam(ctx, 'from');
	const to = dateParam(ctx, 'to');
	if (from !== undefined && to !== undefined && from > to)
		throw new SimError(400, 'invalid_parameter', 'from must not be after to', 'query.from');
	const match = (m: WalletMovement) =>
		(from === undefined || Date.parse(m.date) >= from) &&
		(to === undefined || Date.parse(m.date) <= to);
	return ok(pageOf(list.filter(match), ctx.query, pageFaults(ctx)));
}

export const READ_ROUTES: RouteDef[] = [
	{
		id: 'getPayable',
		method: 'GET',
		pattern: /^\/v1\/payables\/(?<payableId>[^/]+)$/,
		scoping: 'header',
		scope: 'payable:read',
		// The payable at the top level, without a `data` wrapper (vendor documentation).
		handler: (ctx) =>
			ok(
				payableDetail(
					byIdOr404(
						ctx.sim.data(ctx.companyId!).payables,
						ctx.params.payableId,
						'Payable',
						'payableId',
					),
				),
			),
	},
	{
		id: 'listSuppliers',
		method: 'GET',
		pattern: /^\/v1\/suppliers$/,
		scoping: 'header',
		scope: 'supplier:read',
		handler: listSuppliers,
	},
	{
		id: 'getSupplier',
		method: 'GET',
		pattern: /^\/v1\/suppliers\/(?<supplierId>[^/]+)$/,
		scoping: 'header',
		scope: 'supplier:read',
		handler: (ctx) =>
			singleBody(
				ctx,
				byIdOr404(
					ctx.sim.data(ctx.companyId!).suppliers,
					ctx.params.supplierId,
					'Supplier',
					'supplierId',
				),
			),
	},
	{
		id: 'listUsers',
		method: 'GET',
		pattern: /^\/v1\/users$/,
		scoping: 'header',
		scope: 'user:read',
		handler: (ctx) => ok(pageOf(ctx.sim.data(ctx.companyId!).users, ctx.query, pageFaults(ctx))),
	},
	{
		id: 'getUser',
		method: 'GET',
		pattern: /^\/v1\/users\/(?<userId>[^/]+)$/,
		scoping: 'header',
		scope: 'user:read',
		handler: (ctx) =>
			singleBody(
				ctx,
				byIdOr404(ctx.sim.data(ctx.companyId!).users, ctx.params.userId, 'User', 'userId'),
			),
	},
	{
		id: 'listCostCenters',
		method: 'GET',
		pattern: /^\/v1\/cost-centers$/,
		scoping: 'header',
		scope: 'cost-center:read',
		handler: (ctx) =>
			ok(pageOf(ctx.sim.data(ctx.companyId!).costCenters, ctx.query, pageFaults(ctx))),
	},
	{
		id: 'listBankFees',
		method: 'GET',
		pattern: /^\/v1\/bank-fees$/,
		scoping: 'header',
		scope: 'bank-fee:read',
		handler: (ctx) => listMovements(ctx, ctx.sim.data(ctx.companyId!).bankFees),
	},
	{
		id: 'listWalletLoads',
		method: 'GET',
		pattern: /^\/v1\/wallet-loads$/,
		scoping: 'header',
		scope: 'wallet-load:read',
		handler: (ctx) => listMovements(ctx, ctx.sim.data(ctx.companyId!).walletLoads),
	},
];
