/**
 * The read routes of the second endpoint catalogue (docs/api.md#endpoints): a payable in
 * detail, suppliers, users, cost centers, bank fees and wallet loads. All place the company in
 * the X-Company-Id header for organisation tokens; lists are page-based (pageSize ≤ 30, a later
 * page past the end is a 404).
 */
import { pageOf, SimError } from './paging';
import type { RouteDef } from './routes';
import type { HandlerResult, RequestContext } from './server';
import type { Payable, Supplier, WalletMovement } from './types';

const ok = (body: unknown): HandlerResult => ({ status: 200, body });

/** The page faults the page lists of routes.ts also honour. */
function pageFaults(ctx: RequestContext) {
	return {
		ignorePage: ctx.fault === 'ignorePosition',
		total: ctx.fault === 'understatedTotal' ? (ctx.faultSpec?.total ?? 30) : undefined,
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

/**
 * Get a payable: the payable with the detail fields of docs/api.md#endpoints (`version`,
 * `bookkeepingStatus`, `supplier`, `updatedAt`), derived when the record does not hold them.
 */
export function payableDetail(payable: Payable): Payable {
	return {
		...payable,
		version: payable.version ?? 1,
		bookkeepingStatus: payable.bookkeepingStatus ?? 'notExported',
		supplier: payable.supplier ?? {
			id: `sup_of_${payable.id}`,
			name: payable.description.replace(/\s+\S+$/, ''),
		},
		updatedAt: payable.updatedAt ?? payable.createdAt,
	};
}

function listSuppliers(ctx: RequestContext): HandlerResult {
	const updatedAfter = dateParam(ctx, 'updatedAfter');
	const isArchived = booleanParam(ctx, 'isArchived');
	const match = (s: Supplier) =>
		(updatedAfter === undefined || Date.parse(s.updatedAt) > updatedAfter) &&
		(isArchived === undefined || s.isArchived === isArchived);
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
		handler: (ctx) =>
			ok({
				data: payableDetail(
					byIdOr404(
						ctx.sim.data(ctx.companyId!).payables,
						ctx.params.payableId,
						'Payable',
						'payableId',
					),
				),
			}),
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
			ok({
				data: byIdOr404(
					ctx.sim.data(ctx.companyId!).suppliers,
					ctx.params.supplierId,
					'Supplier',
					'supplierId',
				),
			}),
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
			ok({
				data: byIdOr404(ctx.sim.data(ctx.companyId!).users, ctx.params.userId, 'User', 'userId'),
			}),
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
		scope: 'settlement:read',
		handler: (ctx) => listMovements(ctx, ctx.sim.data(ctx.companyId!).bankFees),
	},
	{
		id: 'listWalletLoads',
		method: 'GET',
		pattern: /^\/v1\/wallet-loads$/,
		scoping: 'header',
		scope: 'settlement:read',
		handler: (ctx) => listMovements(ctx, ctx.sim.data(ctx.companyId!).walletLoads),
	},
];
