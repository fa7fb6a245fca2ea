/**
 * Purchase orders (docs/api.md#purchase-orders): `GET /v1/purchase-orders` (page list, filters
 * `status[]`, `createdFrom`, `createdTo`, option `withItems`), `GET /v1/purchase-orders/{id}`,
 * `POST /v1/purchase-orders`, and `POST /v1/purchase-orders/{id}/cancel` and `/close`.
 *
 * Decided here where the sources are silent: a purchase order is `open`, `closed` or
 * `cancelled`; only an open one can be cancelled or closed (otherwise 409); amounts are in the
 * company's currency in major units, as the create body gives them; every answer is the purchase
 * order bare; a list leaves out `items` unless `withItems=true`, Get always has them. Each company
 * starts with a few purchase orders of its own (seeded on first use).
 */
import { pageOf, SimError } from './paging';
import { booleanQuery, dateQuery, enumListParam, objectBody, onlyKeys } from './params';
import type { RouteDef } from './routes';
import type { HandlerResult, RequestContext, SpendeskSimulator } from './server';

export const PURCHASE_ORDER_STATUSES = ['open', 'closed', 'cancelled'] as const;
export type PurchaseOrderStatus = (typeof PURCHASE_ORDER_STATUSES)[number];

export interface PurchaseOrderItem {
	description: string;
	quantity: number;
	amount: number;
	netAmount: number;
}

export interface PurchaseOrder {
	id: string;
	status: PurchaseOrderStatus;
	userId: string;
	supplier: { id: string | null; name: string };
	amount: number;
	netAmount: number;
	currency: string;
	costCenterId: string | null;
	startDate: string;
	endDate: string;
	customFieldAssociations: Array<{ fieldId: string; valueId: string }>;
	items: PurchaseOrderItem[];
	createdAt: string;
	updatedAt: string;
	closedAt: string | null;
	cancelledAt: string | null;
}

/** Purchase orders seeded per company. */
export const SEEDED_PURCHASE_ORDERS = 12;
const CREATE_KEYS = [
	'userId',
	'amount',
	'netAmount',
	'costCenterId',
	'startDate',
	'endDate',
	'customFieldAssociations',
	'supplierId',
	'supplierName',
];
const DAY = 24 * 3600 * 1000;
const BASE_TIME = Date.UTC(2026, 0, 1);

const stores = new WeakMap<SpendeskSimulator, Map<string, PurchaseOrder[]>>();

/** The purchase orders of a company, oldest first (seeded on first use). */
export function purchaseOrdersOf(sim: SpendeskSimulator, companyId: string): PurchaseOrder[] {
	let byCompany = stores.get(sim);
	if (!byCompany) stores.set(sim, (byCompany = new Map()));
	let list = byCompany.get(companyId);
	if (!list) byCompany.set(companyId, (list = seed(sim, companyId)));
	return list;
}

function seed(sim: SpendeskSimulator, companyId: string): PurchaseOrder[] {
	const data = sim.data(companyId);
	const suffix = companyId.slice(4);
	const list: PurchaseOrder[] = [];
	for (let n = 1; n <= SEEDED_PURCHASE_ORDERS; n++) {
		const created = new Date(BASE_TIME + n * 3 * DAY).toISOString();
		const supplier = data.suppliers[(n - 1) % Math.max(1, data.suppliers.length)];
		const amount = 100 * n + 0.5;
		const status: PurchaseOrderStatus = n % 4 === 0 ? 'closed' : n % 6 === 0 ? 'cancelled' : 'open';
		list.push({
			id: `po_${suffix}_${String(n).padStart(5, '0')}`,
			status,
			userId: data.users[(n - 1) % Math.max(1, data.users.length)]?.id ?? 'usr_unknown',
			supplier: supplier
				? { id: supplier.id, name: supplier.name }
				: { id: null, name: `Supplier ${n}` },
			amount,
			netAmount: Math.round((amount / 1.2) * 100) / 100,
			currency: 'EUR',
			costCenterId: data.costCenters[(n - 1) % Math.max(1, data.costCenters.length)]?.id ?? null,
			startDate: created.slice(0, 10),
			endDate: new Date(BASE_TIME + (n * 3 + 90) * DAY).toISOString().slice(0, 10),
			customFieldAssociations: [],
			items: [
				{
					description: `Order ${n}`,
					quantity: 1,
					amount,
					netAmount: Math.round((amount / 1.2) * 100) / 100,
				},
			],
			createdAt: created,
			updatedAt: created,
			closedAt: status === 'closed' ? created : null,
			cancelledAt: status === 'cancelled' ? created : null,
		});
	}
	return list;
}

const invalid = (detail: string, field: string) =>
	new SimError(400, 'invalid_body', detail, `body.${field}`);

/** The purchase order as a list shows it: without `items` unless asked for. */
function listed(order: PurchaseOrder, withItems: boolean): Partial<PurchaseOrder> {
	if (withItems) return order;
	const copy: Partial<PurchaseOrder> = { ...order };
	delete copy.items;
	return copy;
}

function listPurchaseOrders(ctx: RequestContext): HandlerResult {
	const status = enumListParam(ctx, 'status', PURCHASE_ORDER_STATUSES);
	const from = dateQuery(ctx, 'createdFrom');
	const to = dateQuery(ctx, 'createdTo');
	if (from !== undefined && to !== undefined && from > to)
		throw new SimError(
			400,
			'invalid_parameter',
			'createdFrom must not be after createdTo',
			'query.createdFrom',
		);
	const withItems = booleanQuery(ctx, 'withItems') ?? false;
	const match = (o: PurchaseOrder) =>
		(!status || status.includes(o.status)) &&
		(from === undefined || Date.parse(o.createdAt) >= from) &&
		(to === undefined || Date.parse(o.createdAt) <= to);
	const page = pageOf(purchaseOrdersOf(ctx.sim, ctx.companyId!).filter(match), ctx.query);
	return { status: 200, body: { ...page, data: page.data.map((o) => listed(o, withItems)) } };
}

function orderOf(ctx: RequestContext): PurchaseOrder {
	const found = purchaseOrdersOf(ctx.sim, ctx.companyId!).find(
		(o) => o.id === ctx.params.purchaseOrderId,
	);
	if (!found)
		throw new SimError(404, 'not_found', 'Purchase order not found', 'path.purchaseOrderId');
	return found;
}

function amountOf(value: unknown, field: string, min: number): number {
	if (typeof value !== 'number' || !Number.isFinite(value) || value < min)
		throw invalid(`${field} must be a number of at least ${min}`, field);
	return Math.round(value * 100) / 100;
}

function dateOf(value: unknown, field: string): string {
	if (
		typeof value !== 'string' ||
		!/^\d{4}-\d{2}-\d{2}$/.test(value) ||
		Number.isNaN(Date.parse(value))
	)
		throw invalid(`${field} must be a date (YYYY-MM-DD)`, field);
	return value;
}

function createPurchaseOrder(ctx: RequestContext): HandlerResult {
	const body = objectBody(ctx);
	onlyKeys(body, CREATE_KEYS, 'body');
	const data = ctx.sim.data(ctx.companyId!);
	if (typeof body.userId !== 'string' || !data.users.some((u) => u.id === body.userId))
		throw invalid('userId must be the ID of a user of the company', 'userId');
	const amount = amountOf(body.amount, 'amount', 0.01);
	const netAmount =
		body.netAmount === undefined ? amount : amountOf(body.netAmount, 'netAmount', 0);
	if (netAmount > amount) throw invalid('netAmount must not be more than amount', 'netAmount');
	const hasId = body.supplierId !== undefined && body.supplierId !== null;
	const hasName = body.supplierName !== undefined && body.supplierName !== null;
	if (hasId === hasName)
		throw invalid(
			'Give exactly one of supplierId and supplierName',
			hasId ? 'supplierName' : 'supplierId',
		);
	let supplier: PurchaseOrder['supplier'];
	if (hasId) {
		const found = data.suppliers.find((s) => s.id === body.supplierId);
		if (!found)
			throw invalid('supplierId must be the ID of a supplier of the company', 'supplierId');
		supplier = { id: found.id, name: found.name };
	} else {
		if (
			typeof body.supplierName !== 'string' ||
			!body.supplierName.trim() ||
			body.supplierName.length > 200
		)
			throw invalid('supplierName must be a name of 1 to 200 characters', 'supplierName');
		supplier = { id: null, name: body.supplierName.trim() };
	}
	let costCenterId: string | null = null;
	if (body.costCenterId !== undefined && body.costCenterId !== null) {
		if (!data.costCenters.some((c) => c.id === body.costCenterId))
			throw invalid('costCenterId must be the ID of a cost center of the company', 'costCenterId');
		costCenterId = body.costCenterId as string;
	}
	const startDate = dateOf(body.startDate, 'startDate');
	const endDate = dateOf(body.endDate, 'endDate');
	if (startDate > endDate) throw invalid('startDate must not be after endDate', 'startDate');
	const associations = body.customFieldAssociations ?? [];
	if (!Array.isArray(associations))
		throw invalid('customFieldAssociations must be a list', 'customFieldAssociations');
	const customFieldAssociations = associations.map((entry: unknown, i) => {
		const at = `customFieldAssociations[${i}]`;
		if (!entry || typeof entry !== 'object' || Array.isArray(entry))
			throw invalid('must be object', at);
		const pair = entry as Record<string, unknown>;
		onlyKeys(pair, ['fieldId', 'valueId'], `body.${at}`);
		const field = data.analyticalFields.find((f) => f.id === pair.fieldId);
		if (!field) throw invalid(`No custom field ${String(pair.fieldId)}`, `${at}.fieldId`);
		if (!field.values.some((v) => v.id === pair.valueId))
			throw invalid(`No value ${String(pair.valueId)} in field ${field.id}`, `${at}.valueId`);
		return { fieldId: field.id, valueId: pair.valueId as string };
	});
	const list = purchaseOrdersOf(ctx.sim, ctx.companyId!);
	const now = ctx.sim.clock.iso();
	const order: PurchaseOrder = {
		id: `po_${ctx.companyId!.slice(4)}_${String(list.length + 1).padStart(5, '0')}`,
		status: 'open',
		userId: body.userId,
		supplier,
		amount,
		netAmount,
		currency: 'EUR',
		costCenterId,
		startDate,
		endDate,
		customFieldAssociations,
		items: [],
		createdAt: now,
		updatedAt: now,
		closedAt: null,
		cancelledAt: null,
	};
	list.push(order);
	return { status: 201, body: order };
}

/** Cancel or close: only an open purchase order moves; anything else is a 409 saying why. */
function transition(to: 'cancelled' | 'closed') {
	return (ctx: RequestContext): HandlerResult => {
		if (ctx.body !== undefined) onlyKeys(objectBody(ctx), [], 'body');
		const order = orderOf(ctx);
		if (order.status !== 'open')
			throw new SimError(
				409,
				'invalid_status',
				`Purchase order ${order.id} is ${order.status}: only an open purchase order can be ${to}`,
				'path.purchaseOrderId',
			);
		const now = ctx.sim.clock.iso();
		order.status = to;
		order.updatedAt = now;
		if (to === 'closed') order.closedAt = now;
		else order.cancelledAt = now;
		return { status: 200, body: order };
	};
}

const READ = 'experimental:purchase-order:read';
const WRITE = 'experimental:purchase-order:write';

export const PURCHASE_ORDER_ROUTES: RouteDef[] = [
	{
		id: 'listPurchaseOrders',
		method: 'GET',
		pattern: /^\/v1\/purchase-orders$/,
		scoping: 'header',
		scope: READ,
		handler: listPurchaseOrders,
	},
	{
		id: 'getPurchaseOrder',
		method: 'GET',
		pattern: /^\/v1\/purchase-orders\/(?<purchaseOrderId>[^/]+)$/,
		scoping: 'header',
		scope: READ,
		handler: (ctx) => ({ status: 200, body: orderOf(ctx) }),
	},
	{
		id: 'createPurchaseOrder',
		method: 'POST',
		pattern: /^\/v1\/purchase-orders$/,
		scoping: 'header',
		scope: WRITE,
		handler: createPurchaseOrder,
	},
	{
		id: 'cancelPurchaseOrder',
		method: 'POST',
		pattern: /^\/v1\/purchase-orders\/(?<purchaseOrderId>[^/]+)\/cancel$/,
		scoping: 'header',
		scope: WRITE,
		handler: transition('cancelled'),
	},
	{
		id: 'closePurchaseOrder',
		method: 'POST',
		pattern: /^\/v1\/purchase-orders\/(?<purchaseOrderId>[^/]+)\/close$/,
		scoping: 'header',
		scope: WRITE,
		handler: transition('closed'),
	},
];
