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
import { payableLine } from './seed';
import { singleBody } from './shapes';
import type {
	BankFee,
	Payable,
	PayableCounterparty,
	PayableLineItem,
	PayableType,
	Supplier,
	WalletLoad,
} from './types';

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

/** A payable as the documented answers give it (Get a payable, the search, a snapshot's result): see payableDetail. */
export interface PayableDetail {
	id: string;
	version: number;
	type: PayableType;
	userId: string;
	companyId?: string;
	bookkeepingStatus: string;
	description: string;
	/** Minor units (cents), as every documented payable answer carries amounts. */
	amount: number;
	currency: string;
	functionalAmount: number;
	functionalCurrency: string;
	createdAt: string;
	payableDate: string;
	invoiceNumber: string | null;
	counterparty: PayableCounterparty & { accountPayable: null };
	costCenterId: string | null;
	exportedAt: string | null;
	analyticalProperties: Array<{ fieldId: string; valueId: string }>;
	lineItems: PayableLineItem[];
	documentaryEvidence: {
		provided: { type: string; valid: boolean; notValidReason: string | null } | null;
		notProvided: null;
	};
	allocations: [];
	links: Array<{ attachments: string }>;
}

/** The document a payable of each type is backed by (the older vendor OpenAPI document's types). */
const EVIDENCE: Partial<Record<PayableType, string>> = {
	creditNote: 'creditNote',
	mileageAllowance: 'mileageEntry',
	perDiemAllowance: 'perDiemEntry',
};

/**
 * A payable as Get a payable answers it (docs/api.md#payables), at the top level, in the shape
 * the vendor's older OpenAPI document and production answers show: `type`, `userId`,
 * `companyId`, amounts in minor units, `counterparty`, `documentaryEvidence`, `lineItems` with
 * their accounts as objects; no `payableType`, no review `status`, no `supplier` object. The
 * search's rows and a snapshot's result carry the same shape (the search adds `state`).
 */
export function payableDetail(payable: Payable): PayableDetail {
	const bookkeepingStatus = payable.bookkeepingStatus ?? 'created';
	const updatedAt = payable.updatedAt ?? payable.createdAt;
	const [, suffix = '', n = '0'] = payable.id.split('_');
	const number = Number(n);
	const costCenterId =
		payable.costCenterId !== undefined
			? payable.costCenterId
			: number % 5 === 0
				? null
				: `cc_${suffix}_${String(((number - 1) % 6) + 1).padStart(4, '0')}`;
	const lines = payable.lineItems ?? [
		payableLine(payable.amount, { expenseAccount: null, vatAccount: null }, costCenterId),
	];
	// The payable's analytical values: those every line shares.
	const shared = lines[0].analyticalProperties.filter((p) =>
		lines.every((l) =>
			l.analyticalProperties.some((q) => q.fieldId === p.fieldId && q.valueId === p.valueId),
		),
	);
	const counterparty = payable.counterparty ?? {
		id: `sup_of_${payable.id}`,
		type: 'supplier' as const,
		name: payable.description.replace(/\s+\S+$/, ''),
	};
	const evidence = EVIDENCE[payable.type] ?? (number % 3 === 0 ? undefined : 'invoice');
	return {
		id: payable.id,
		version: payable.version ?? 1,
		type: payable.type,
		userId: payable.userId,
		...(payable.companyId ? { companyId: payable.companyId } : {}),
		bookkeepingStatus,
		description: payable.description,
		amount: payable.amount,
		currency: payable.currency,
		functionalAmount: payable.amount,
		functionalCurrency: payable.currency,
		createdAt: payable.createdAt,
		payableDate: payable.createdAt.slice(0, 10),
		invoiceNumber:
			payable.type === 'invoicePurchase'
				? `INV-${suffix}-${String(number).padStart(6, '0')}`
				: null,
		counterparty: { ...counterparty, accountPayable: null },
		costCenterId,
		exportedAt: bookkeepingStatus === 'exported' ? updatedAt : null,
		analyticalProperties: shared,
		lineItems: lines,
		documentaryEvidence: {
			provided: evidence ? { type: evidence, valid: true, notValidReason: null } : null,
			notProvided: null,
		},
		allocations: [],
		links: [{ attachments: `/v1/payables/${payable.id}/attachments` }],
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

/** Bank fees and wallet loads: `from` and `to` (both inclusive) on the record's `createdAt`; `from` after `to` is a 400. */
function listMovements(
	ctx: RequestContext,
	list: ReadonlyArray<BankFee | WalletLoad>,
): HandlerResult {
	const from = dateParam(ctx, 'from');
	const to = dateParam(ctx, 'to');
	if (from !== undefined && to !== undefined && from > to)
		throw new SimError(400, 'invalid_parameter', 'from must not be after to', 'query.from');
	const match = (m: BankFee | WalletLoad) =>
		(from === undefined || Date.parse(m.createdAt) >= from) &&
		(to === undefined || Date.parse(m.createdAt) <= to);
	return ok(pageOf(list.filter(match), ctx.query, pageFaults(ctx)));
}

export const READ_ROUTES: RouteDef[] = [
	{
		id: 'getPayable',
		method: 'GET',
		pattern: /^\/v1\/payables\/(?<payableId>[^/]+)$/,
		placement: 'header',
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
		placement: 'header',
		scope: 'supplier:read',
		handler: listSuppliers,
	},
	{
		id: 'getSupplier',
		method: 'GET',
		pattern: /^\/v1\/suppliers\/(?<supplierId>[^/]+)$/,
		placement: 'header',
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
		placement: 'header',
		scope: 'user:read',
		handler: (ctx) => ok(pageOf(ctx.sim.data(ctx.companyId!).users, ctx.query, pageFaults(ctx))),
	},
	{
		id: 'getUser',
		method: 'GET',
		pattern: /^\/v1\/users\/(?<userId>[^/]+)$/,
		placement: 'header',
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
		placement: 'header',
		scope: 'cost-center:read',
		handler: (ctx) =>
			ok(pageOf(ctx.sim.data(ctx.companyId!).costCenters, ctx.query, pageFaults(ctx))),
	},
	{
		id: 'listBankFees',
		method: 'GET',
		pattern: /^\/v1\/bank-fees$/,
		placement: 'header',
		scope: 'bank-fee:read',
		handler: (ctx) => listMovements(ctx, ctx.sim.data(ctx.companyId!).bankFees),
	},
	{
		id: 'listWalletLoads',
		method: 'GET',
		pattern: /^\/v1\/wallet-loads$/,
		placement: 'header',
		scope: 'wallet-load:read',
		handler: (ctx) => listMovements(ctx, ctx.sim.data(ctx.companyId!).walletLoads),
	},
];
