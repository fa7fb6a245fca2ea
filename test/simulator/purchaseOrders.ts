/**
 * Purchase orders (docs/api.md#purchase-orders): `GET /v1/purchase-orders` (page list, filters
 * `status[]`, `createdFrom`, `createdTo`, option `withItems`), `GET /v1/purchase-orders/{id}`,
 * `POST /v1/purchase-orders`, and `POST /v1/purchase-orders/{id}/cancel` and `/close`.
 *
 * The create body is the one a public client sent to the vendor's sandbox: amounts as
 * `{amount, currency, precision}` in minor units, custom fields as
 * `{customFieldId, customFieldValueId}`, ISO 8601 date-times, `items[]`, and `netAmount`,
 * `costCenterId` and `customFieldAssociations` required. Any other shape is a 400 naming the
 * field, in the profile's error shape.
 *
 * Decided here where the sources are silent: a purchase order is `open`, `closed` or
 * `cancelled`; only an open one can be cancelled or closed (otherwise 409); a purchase order as
 * read carries its amounts, custom fields, dates and items as the create body gives them; every
 * answer is the purchase order bare; a list leaves out `items` unless `withItems=true`, Get
 * always has them. Each company starts with a few purchase orders of its own (seeded on first
 * use).
 */
import { pageOf, SimError } from './paging';
import { booleanQuery, dateQuery, enumListParam, objectBody, onlyKeys } from './params';
import type { RouteDef } from './routes';
import type { HandlerResult, RequestContext, SpendeskSimulator } from './server';

export const PURCHASE_ORDER_STATUSES = ['open', 'closed', 'cancelled'] as const;
export type PurchaseOrderStatus = (typeof PURCHASE_ORDER_STATUSES)[number];

/** An amount as the purchase-order body gives it: minor units, its currency and its precision. */
export interface Money {
	amount: number;
	currency: string;
	precision: number;
}

export interface PurchaseOrderItem {
	name: string;
	quantity: number;
	unitPrice: Money;
	vatRate: number;
}

export interface CustomFieldAssociation {
	customFieldId: string;
	customFieldValueId: string;
}

export interface PurchaseOrder {
	id: string;
	status: PurchaseOrderStatus;
	userId: string;
	supplier: { id: string | null; name: string };
	description: string | null;
	amount: Money;
	netAmount: Money;
	costCenterId: string | null;
	startDate: string;
	endDate: string;
	customFieldAssociations: CustomFieldAssociation[];
	items: PurchaseOrderItem[];
	deliveryNotesExpected: boolean;
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
	'description',
	'items',
	'deliveryNotesExpected',
];
const REQUIRED_KEYS = [
	'userId',
	'amount',
	'netAmount',
	'costCenterId',
	'startDate',
	'endDate',
	'customFieldAssociations',
];
const DAY = 24 * 3600 * 1000;
const BASE_TIME = Date.UTC(2026, 0, 1);
const euros = (cents: number): Money => ({ amount: cents, currency: 'EUR', precision: 2 });

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
		const amount = 10_000 * n + 50;
		const net = Math.round(amount / 1.2);
		const status: PurchaseOrderStatus = n % 4 === 0 ? 'closed' : n % 6 === 0 ? 'cancelled' : 'open';
		list.push({
			id: `po_${suffix}_${String(n).padStart(5, '0')}`,
			status,
			userId: data.users[(n - 1) % Math.max(1, data.users.length)]?.id ?? 'usr_unknown',
			supplier: supplier
				? { id: supplier.id, name: supplier.name }
				: { id: null, name: `Supplier ${n}` },
			description: `Order ${n}`,
			amount: euros(amount),
			netAmount: euros(net),
			costCenterId: data.costCenters[(n - 1) % Math.max(1, data.costCenters.length)]?.id ?? null,
			startDate: created,
			endDate: new Date(BASE_TIME + (n * 3 + 90) * DAY).toISOString(),
			customFieldAssociations: [],
			items: [{ name: `Order ${n}`, quantity: 1, unitPrice: euros(net), vatRate: 20 }],
			deliveryNotesExpected: false,
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

const isObject = (value: unknown): value is Record<string, unknown> =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/** An amount `{amount, currency, precision}` in minor units, of at least `min` minor units. */
function moneyOf(value: unknown, field: string, min: number): Money {
	if (!isObject(value))
		throw invalid(
			`${field} must be an object {amount, currency, precision}, the amount in minor units`,
			field,
		);
	onlyKeys(value, ['amount', 'currency', 'precision'], `body.${field}`);
	const { amount, currency, precision } = value;
	if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < min)
		throw invalid(
			`amount must be a whole number of minor units of at least ${min}`,
			`${field}.amount`,
		);
	if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
		throw invalid('currency must be a currency code (ISO 4217), e.g. EUR', `${field}.currency`);
	if (
		typeof precision !== 'number' ||
		!Number.isInteger(precision) ||
		precision < 0 ||
		precision > 4
	)
		throw invalid(
			'precision must be the number of decimals of the currency (0 to 4)',
			`${field}.precision`,
		);
	return { amount, currency, precision };
}

/** An amount in the same currency and precision as the purchase order's. */
function sameMoney(value: unknown, field: string, min: number, as: Money): Money {
	const money = moneyOf(value, field, min);
	if (money.currency !== as.currency)
		throw invalid(`currency must be the purchase order's (${as.currency})`, `${field}.currency`);
	if (money.precision !== as.precision)
		throw invalid(`precision must be the purchase order's (${as.precision})`, `${field}.precision`);
	return money;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 date-time with its offset; a bare day (YYYY-MM-DD) is refused. */
function dateTimeOf(value: unknown, field: string): string {
	if (typeof value !== 'string' || !DATE_TIME.test(value) || Number.isNaN(Date.parse(value)))
		throw invalid(`${field} must be an ISO 8601 date-time, e.g. 2026-04-01T00:00:00.000Z`, field);
	return new Date(value).toISOString();
}

function supplierOf(ctx: RequestContext, body: Record<string, unknown>): PurchaseOrder['supplier'] {
	const data = ctx.sim.data(ctx.companyId!);
	const hasId = body.supplierId !== undefined && body.supplierId !== null;
	const hasName = body.supplierName !== undefined && body.supplierName !== null;
	if (hasId === hasName)
		throw invalid(
			'Give exactly one of supplierId and supplierName',
			hasId ? 'supplierName' : 'supplierId',
		);
	if (hasId) {
		const found = data.suppliers.find((s) => s.id === body.supplierId);
		if (!found)
			throw invalid('supplierId must be the ID of a supplier of the company', 'supplierId');
		return { id: found.id, name: found.name };
	}
	if (
		typeof body.supplierName !== 'string' ||
		!body.supplierName.trim() ||
		body.supplierName.length > 200
	)
		throw invalid('supplierName must be a name of 1 to 200 characters', 'supplierName');
	return { id: null, name: body.supplierName.trim() };
}

function associationsOf(ctx: RequestContext, raw: unknown): CustomFieldAssociation[] {
	if (!Array.isArray(raw))
		throw invalid(
			'customFieldAssociations must be a list (empty when none)',
			'customFieldAssociations',
		);
	const data = ctx.sim.data(ctx.companyId!);
	return raw.map((entry: unknown, i) => {
		const at = `customFieldAssociations[${i}]`;
		if (!isObject(entry)) throw invalid('must be object', at);
		onlyKeys(entry, ['customFieldId', 'customFieldValueId'], `body.${at}`);
		const field = data.analyticalFields.find((f) => f.id === entry.customFieldId);
		if (!field)
			throw invalid(`No custom field ${String(entry.customFieldId)}`, `${at}.customFieldId`);
		if (!field.values.some((v) => v.id === entry.customFieldValueId))
			throw invalid(
				`No value ${String(entry.customFieldValueId)} in field ${field.id}`,
				`${at}.customFieldValueId`,
			);
		return { customFieldId: field.id, customFieldValueId: entry.customFieldValueId as string };
	});
}

function itemsOf(raw: unknown, as: Money): PurchaseOrderItem[] {
	if (raw === undefined) return [];
	if (!Array.isArray(raw) || raw.length > 100)
		throw invalid('items must be a list of at most 100 items', 'items');
	return raw.map((entry: unknown, i) => {
		const at = `items[${i}]`;
		if (!isObject(entry)) throw invalid('must be object', at);
		onlyKeys(entry, ['name', 'quantity', 'unitPrice', 'vatRate'], `body.${at}`);
		const { name, quantity, vatRate } = entry;
		if (typeof name !== 'string' || !name.trim() || name.length > 200)
			throw invalid('name must be a text of 1 to 200 characters', `${at}.name`);
		if (typeof quantity !== 'number' || !Number.isFinite(quantity) || quantity <= 0)
			throw invalid('quantity must be a number above 0', `${at}.quantity`);
		const vat = vatRate ?? 0;
		if (typeof vat !== 'number' || !Number.isFinite(vat) || vat < 0 || vat > 100)
			throw invalid('vatRate must be a percentage from 0 to 100', `${at}.vatRate`);
		return {
			name: name.trim(),
			quantity,
			unitPrice: sameMoney(entry.unitPrice, `${at}.unitPrice`, 0, as),
			vatRate: vat,
		};
	});
}

/** The body of a create, checked field by field (a 400 naming the first wrong one); nothing is stored here. */
function readCreateBody(
	ctx: RequestContext,
): Omit<PurchaseOrder, 'id' | 'status' | 'createdAt' | 'updatedAt' | 'closedAt' | 'cancelledAt'> {
	const body = objectBody(ctx);
	onlyKeys(body, CREATE_KEYS, 'body');
	const missing = REQUIRED_KEYS.find((key) => body[key] === undefined || body[key] === null);
	if (missing) throw invalid(`${missing} is required`, missing);
	const data = ctx.sim.data(ctx.companyId!);
	if (typeof body.userId !== 'string' || !data.users.some((u) => u.id === body.userId))
		throw invalid('userId must be the ID of a user of the company', 'userId');
	const amount = moneyOf(body.amount, 'amount', 1);
	const netAmount = sameMoney(body.netAmount, 'netAmount', 0, amount);
	if (netAmount.amount > amount.amount)
		throw invalid('netAmount must not be more than amount', 'netAmount.amount');
	const supplier = supplierOf(ctx, body);
	if (
		typeof body.costCenterId !== 'string' ||
		!data.costCenters.some((c) => c.id === body.costCenterId)
	)
		throw invalid('costCenterId must be the ID of a cost center of the company', 'costCenterId');
	const startDate = dateTimeOf(body.startDate, 'startDate');
	const endDate = dateTimeOf(body.endDate, 'endDate');
	if (startDate > endDate) throw invalid('startDate must not be after endDate', 'startDate');
	const customFieldAssociations = associationsOf(ctx, body.customFieldAssociations);
	const items = itemsOf(body.items, amount);
	if (
		body.description !== undefined &&
		(typeof body.description !== 'string' || body.description.length > 1000)
	)
		throw invalid('description must be a text of at most 1000 characters', 'description');
	if (body.deliveryNotesExpected !== undefined && typeof body.deliveryNotesExpected !== 'boolean')
		throw invalid('deliveryNotesExpected must be true or false', 'deliveryNotesExpected');
	return {
		userId: body.userId,
		supplier,
		description: (body.description as string | undefined) ?? null,
		amount,
		netAmount,
		costCenterId: body.costCenterId,
		startDate,
		endDate,
		customFieldAssociations,
		items,
		deliveryNotesExpected: (body.deliveryNotesExpected as boolean | undefined) ?? false,
	};
}

function createPurchaseOrder(ctx: RequestContext): HandlerResult {
	const fields = readCreateBody(ctx);
	const list = purchaseOrdersOf(ctx.sim, ctx.companyId!);
	const now = ctx.sim.clock.iso();
	const order: PurchaseOrder = {
		id: `po_${ctx.companyId!.slice(4)}_${String(list.length + 1).padStart(5, '0')}`,
		status: 'open',
		...fields,
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
		placement: 'header',
		scope: READ,
		handler: listPurchaseOrders,
	},
	{
		id: 'getPurchaseOrder',
		method: 'GET',
		pattern: /^\/v1\/purchase-orders\/(?<purchaseOrderId>[^/]+)$/,
		placement: 'header',
		scope: READ,
		handler: (ctx) => ({ status: 200, body: orderOf(ctx) }),
	},
	{
		id: 'createPurchaseOrder',
		method: 'POST',
		pattern: /^\/v1\/purchase-orders$/,
		placement: 'header',
		scope: WRITE,
		handler: createPurchaseOrder,
	},
	{
		id: 'cancelPurchaseOrder',
		method: 'POST',
		pattern: /^\/v1\/purchase-orders\/(?<purchaseOrderId>[^/]+)\/cancel$/,
		placement: 'header',
		scope: WRITE,
		handler: transition('cancelled'),
	},
	{
		id: 'closePurchaseOrder',
		method: 'POST',
		pattern: /^\/v1\/purchase-orders\/(?<purchaseOrderId>[^/]+)\/close$/,
		placement: 'header',
		scope: WRITE,
		handler: transition('closed'),
	},
];
