/**
 * The simulator's write routes (docs/api.md#bulk-writes, #endpoints): the bulk bookkeeping
 * status of payables, a settlement's state, and suppliers (bulk create, update).
 *
 * Decisions where the catalogue is silent:
 * - A bulk call is validated whole first: a malformed entry answers 400 naming it
 *   (`body.payables[3].version`, `body.suppliers[0].iban`) and nothing is applied.
 * - Bookkeeping status: the answer lists one result per entry, in the order sent; `updated`
 *   moves the version on by one; `conflict` (stale version) and `not_found` carry the
 *   payable's current version (null when unknown). A seeded payable without a version is at 1.
 * - Supplier create (public client code: a JSON array of suppliers in the nested shape,
 *   unknown properties refused) is all or nothing here; the answer lists one `{ outcome,
 *   supplier }` per supplier in the order sent, or `{ item: supplier }` for one. Suppliers are
 *   kept and answered in the shape Spendesk reads them (docs/api.md#suppliers-as-read).
 * - A settlement's state is `exported` or `failedToExport` (vendor documentation).
 */
import { SimError } from './paging';
import type { HandlerResult, RequestContext } from './server';
import { singleBody } from './shapes';
import type { Payable, Settlement, Supplier, SupplierBankInfo, SupplierDetails } from './types';

/** What the bookkeeping-status write keeps on a payable. */
export type BookkeptPayable = Payable & {
	version?: number;
	bookkeepingStatus?: string;
	failureReason?: string;
	updatedAt?: string;
};

const BULK_MAX = 100;
/** Bookkeeping statuses of the bulk payable update (the payable states' names, docs/api.md#bulk-writes). */
const STATES = ['exported', 'failedToExport'];
/** A settlement's states (vendor documentation). */
const SETTLEMENT_STATES = ['exported', 'failedToExport'];

function bodyOf(ctx: RequestContext): Record<string, unknown> {
	if (!ctx.body || typeof ctx.body !== 'object' || Array.isArray(ctx.body)) {
		throw new SimError(400, 'invalid_body', 'The request body must be a JSON object', 'body');
	}
	return ctx.body as Record<string, unknown>;
}

function bulkList(body: Record<string, unknown>, key: string): Array<Record<string, unknown>> {
	const list = body[key];
	if (!Array.isArray(list) || list.length < 1 || list.length > BULK_MAX) {
		throw new SimError(
			400,
			'invalid_body',
			`${key} must be a list of 1 to ${BULK_MAX} entries`,
			`body.${key}`,
		);
	}
	list.forEach((entry, i) => {
		if (!entry || typeof entry !== 'object' || Array.isArray(entry))
			throw new SimError(400, 'invalid_body', 'Each entry must be an object', `body.${key}[${i}]`);
	});
	return list as Array<Record<string, unknown>>;
}

function checkBookkeepingEntry(entry: Record<string, unknown>, i: number): void {
	const at = (field: string) => `body.payables[${i}].${field}`;
	if (typeof entry.id !== 'string' || !entry.id.trim())
		throw new SimError(400, 'invalid_body', 'id must be a non-empty string', at('id'));
	if (typeof entry.version !== 'number' || !Number.isInteger(entry.version) || entry.version < 0) {
		throw new SimError(400, 'invalid_body', 'version must be a whole number', at('version'));
	}
	if (!STATES.includes(entry.bookkeepingStatus as string)) {
		throw new SimError(
			400,
			'invalid_body',
			'bookkeepingStatus must be exported or failedToExport',
			at('bookkeepingStatus'),
		);
	}
	if (entry.failureReason !== undefined) {
		if (entry.bookkeepingStatus !== 'failedToExport')
			throw new SimError(
				400,
				'invalid_body',
				'failureReason is only for failedToExport',
				at('failureReason'),
			);
		if (typeof entry.failureReason !== 'string' || entry.failureReason.length > 1000) {
			throw new SimError(
				400,
				'invalid_body',
				'failureReason must be a string of at most 1000 characters',
				at('failureReason'),
			);
		}
	}
}

/** PUT /v1/payables/bookkeeping-status */
export function updateBookkeepingStatus(ctx: RequestContext): HandlerResult {
	const entries = bulkList(bodyOf(ctx), 'payables');
	entries.forEach(checkBookkeepingEntry);
	const payables = ctx.sim.data(ctx.companyId!).payables as BookkeptPayable[];
	const data = entries.map((entry) => {
		const payable = payables.find((p) => p.id === entry.id);
		if (!payable) return { id: entry.id, status: 'not_found', version: null };
		const current = payable.version ?? 1;
		if (entry.version !== current) return { id: entry.id, status: 'conflict', version: current };
		payable.version = current + 1;
		payable.bookkeepingStatus = entry.bookkeepingStatus as string;
		if (entry.failureReason !== undefined) payable.failureReason = entry.failureReason as string;
		else delete payable.failureReason;
		payable.updatedAt = ctx.sim.clock.iso();
		return { id: entry.id, status: 'updated', version: payable.version };
	});
	return { status: 200, body: { data } };
}

/** PUT /v1/settlements/{settlementId}/state */
export function updateSettlementState(ctx: RequestContext): HandlerResult {
	const body = bodyOf(ctx);
	if (!SETTLEMENT_STATES.includes(body.state as string))
		throw new SimError(
			400,
			'invalid_body',
			'state must be exported or failedToExport',
			'body.state',
		);
	const settlement = ctx.sim
		.data(ctx.companyId!)
		.settlements.find((s) => s.id === ctx.params.settlementId);
	if (!settlement)
		throw new SimError(404, 'not_found', 'Settlement not found', 'path.settlementId');
	// The first export stamps exportedAt (the settlements list filters on it: docs/api.md#filters).
	if (body.state === 'exported' && !settlement.exportedAt)
		settlement.exportedAt = ctx.sim.clock.iso();
	settlement.state = body.state as Settlement['state'];
	return singleBody(ctx, settlement);
}

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;
const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const COUNTRY = /^[A-Z]{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface TextRule {
	max: number;
	pattern?: RegExp;
}
/** The documented supplier shape: top-level properties, then the nested objects'. */
const SUPPLIER_TEXT: Record<string, TextRule> = {
	primaryEmail: { max: 254, pattern: EMAIL },
};
const DETAILS_TEXT: Record<keyof SupplierDetails, TextRule> = {
	legalName: { max: 200 },
	vatNumber: { max: 32 },
	country: { max: 2, pattern: COUNTRY },
	city: { max: 100 },
	zipcode: { max: 20 },
	address: { max: 300 },
	registrationNumber: { max: 64 },
};
const BANK_TEXT: Record<keyof SupplierBankInfo, TextRule> = {
	iban: { max: 34, pattern: IBAN },
	bic: { max: 11, pattern: BIC },
	bankCountry: { max: 2, pattern: COUNTRY },
};

/** A 400 as the vendor answers a property its schema has no place for. */
function additionalProperty(source: string): SimError {
	return new SimError(400, 'invalid_body', 'must NOT have additional properties', source);
}

/** Checks the optional texts of `object` against `rules`; anything else in it is a 400. */
function checkTexts(
	object: Record<string, unknown>,
	rules: Record<string, TextRule>,
	source: string,
	also: readonly string[] = [],
): void {
	for (const key of Object.keys(object))
		if (!(key in rules) && !also.includes(key)) throw additionalProperty(`${source}.${key}`);
	for (const [key, rule] of Object.entries(rules)) {
		const value = object[key];
		if (value === undefined || value === null) continue;
		if (
			typeof value !== 'string' ||
			value.length > rule.max ||
			(rule.pattern && !rule.pattern.test(value))
		) {
			throw new SimError(400, 'invalid_body', `${key} is not valid`, `${source}.${key}`);
		}
	}
}

function nested(entry: Record<string, unknown>, key: string, source: string) {
	const value = entry[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'object' || Array.isArray(value))
		throw new SimError(400, 'invalid_body', 'must be object', `${source}.${key}`);
	return value as Record<string, unknown>;
}

/** Checks one supplier in the documented nested shape; `source` names where it is in the body. */
function checkSupplier(
	entry: Record<string, unknown>,
	source: string,
	nameRequired: boolean,
): void {
	checkTexts(entry, SUPPLIER_TEXT, source, ['name', 'supplierDetails', 'bankInfo']);
	if (nameRequired || 'name' in entry) {
		if (typeof entry.name !== 'string' || !entry.name.trim() || entry.name.length > 200) {
			throw new SimError(
				400,
				'invalid_body',
				'name must be a non-empty string of at most 200 characters',
				`${source}.name`,
			);
		}
	}
	const details = nested(entry, 'supplierDetails', source);
	if (details) checkTexts(details, DETAILS_TEXT, `${source}.supplierDetails`);
	const bank = nested(entry, 'bankInfo', source);
	if (bank) checkTexts(bank, BANK_TEXT, `${source}.bankInfo`);
}

/** Where each field of the written nested shape lands in the supplier as read (docs/api.md#suppliers-as-read). */
const DETAILS_READ: Record<keyof SupplierDetails, (s: Supplier, v: string | null) => void> = {
	legalName: (s, v) => (s.legalName = v),
	registrationNumber: (s, v) => (s.registrationNo = v),
	vatNumber: (s, v) => (s.vatNo = v),
	address: (s, v) => (s.address.line1 = v),
	city: (s, v) => (s.address.city = v),
	zipcode: (s, v) => (s.address.postalCode = v),
	country: (s, v) => (s.address.country = v),
};
const BANK_READ: Record<keyof SupplierBankInfo, (s: Supplier, v: string | null) => void> = {
	iban: (s, v) => (s.iban = v),
	bic: (s, v) => (s.bic = v),
	bankCountry: (s, v) => (s.bankCountry = v),
};

/**
 * Applies the written fields of `entry` (the nested shape) to `supplier` (the shape as read): a
 * PATCH keeps what is absent and clears what is null.
 */
function applySupplier(supplier: Supplier, entry: Record<string, unknown>): void {
	if (typeof entry.name === 'string') supplier.name = entry.name.trim();
	if ('primaryEmail' in entry)
		supplier.primaryEmail = (entry.primaryEmail as string | null) ?? null;
	const details = (entry.supplierDetails ?? {}) as Record<string, string | null | undefined>;
	for (const [key, set] of Object.entries(DETAILS_READ))
		if (details[key] !== undefined) set(supplier, details[key] ?? null);
	const bank = (entry.bankInfo ?? {}) as Record<string, string | null | undefined>;
	for (const [key, set] of Object.entries(BANK_READ))
		if (bank[key] !== undefined) set(supplier, bank[key] ?? null);
}

/** A new supplier, as read, with nothing but its ID and dates yet. */
function newSupplier(id: string, now: string): Supplier {
	return {
		id,
		name: '',
		legalName: null,
		registrationNo: null,
		vatNo: null,
		address: { line1: null, city: null, postalCode: null, country: null },
		iban: null,
		bic: null,
		bankCountry: null,
		bankInfo: {},
		primaryEmail: null,
		isArchived: false,
		createdAt: now,
		updatedAt: now,
	};
}

/** The body of a bulk supplier call: a JSON array of 1 to BULK_MAX objects, else a 400. */
function supplierList(ctx: RequestContext): Array<Record<string, unknown>> {
	const list = ctx.body;
	if (!Array.isArray(list) || list.length < 1 || list.length > BULK_MAX) {
		throw new SimError(
			400,
			'invalid_body',
			`The body must be a list of 1 to ${BULK_MAX} suppliers`,
			'body',
		);
	}
	list.forEach((entry: unknown, i) => {
		if (!entry || typeof entry !== 'object' || Array.isArray(entry))
			throw new SimError(400, 'invalid_body', 'must be object', `body[${i}]`);
	});
	return list as Array<Record<string, unknown>>;
}

/**
 * POST /v1/suppliers: a JSON array of 1 to 100 suppliers; 201 `{ items: [{ outcome, supplier }] }`,
 * or for one supplier `{ item: supplier }` (public client code: `item.id`).
 */
export function createSuppliers(ctx: RequestContext): HandlerResult {
	const entries = supplierList(ctx);
	entries.forEach((entry, i) => checkSupplier(entry, `body[${i}]`, true));
	const suppliers = ctx.sim.data(ctx.companyId!).suppliers;
	const suffix = ctx.companyId!.slice(4);
	const now = ctx.sim.clock.iso();
	const items = entries.map((entry) => {
		const supplier = newSupplier(
			`sup_${suffix}_${String(suppliers.length + 1).padStart(4, '0')}`,
			now,
		);
		applySupplier(supplier, entry);
		suppliers.push(supplier);
		return { outcome: 'created', supplier };
	});
	if (items.length === 1) return { status: 201, body: { item: items[0].supplier } };
	return { status: 201, body: { items } };
}

/** PATCH /v1/suppliers/{supplierId}: the fields given, in the same nested shape. */
export function updateSupplier(ctx: RequestContext): HandlerResult {
	const body = bodyOf(ctx);
	if (Object.keys(body).length === 0)
		throw new SimError(400, 'invalid_body', 'Give at least one field to change', 'body');
	checkSupplier(body, 'body', false);
	const supplier = ctx.sim
		.data(ctx.companyId!)
		.suppliers.find((s) => s.id === ctx.params.supplierId);
	if (!supplier) throw new SimError(404, 'not_found', 'Supplier not found', 'path.supplierId');
	applySupplier(supplier, body);
	supplier.updatedAt = ctx.sim.clock.iso();
	return singleBody(ctx, supplier);
}

/**
 * PATCH /v1/suppliers (docs/api.md#supplier-management): a JSON array of 1 to 100 suppliers,
 * each with its `id` and the fields to change in the nested shape. Validated whole first;
 * answered `{ items: [{ outcome: "updated" | "notFound", supplier }] }` in the order sent (decided
 * here, after the create's answer); an unknown ID changes nothing and is answered `notFound`.
 */
export function updateSuppliers(ctx: RequestContext): HandlerResult {
	const list = supplierList(ctx);
	list.forEach((entry, i) => {
		const { id, ...fields } = entry;
		if (typeof id !== 'string' || !id.trim())
			throw new SimError(400, 'invalid_body', 'id must be a supplier ID', `body[${i}].id`);
		if (Object.keys(fields).length === 0)
			throw new SimError(400, 'invalid_body', 'Give at least one field to change', `body[${i}]`);
		checkSupplier(fields, `body[${i}]`, false);
	});
	const suppliers = ctx.sim.data(ctx.companyId!).suppliers;
	const now = ctx.sim.clock.iso();
	const items = list.map(({ id, ...fields }) => {
		const supplier = suppliers.find((s) => s.id === id);
		if (!supplier) return { outcome: 'notFound', supplier: { id } };
		applySupplier(supplier, fields);
		supplier.updatedAt = now;
		return { outcome: 'updated', supplier };
	});
	return { status: 200, body: { items } };
}

/**
 * PATCH /v1/experimental/suppliers/status (docs/api.md#supplier-management): `{ supplierIds
 * (1 to 100), isArchived }` archives or unarchives; answered like PATCH /v1/suppliers.
 */
export function updateSupplierStatus(ctx: RequestContext): HandlerResult {
	const body = bodyOf(ctx);
	for (const key of Object.keys(body))
		if (key !== 'supplierIds' && key !== 'isArchived') throw additionalProperty(`body.${key}`);
	const ids = body.supplierIds;
	if (
		!Array.isArray(ids) ||
		ids.length < 1 ||
		ids.length > BULK_MAX ||
		ids.some((id) => typeof id !== 'string' || !id.trim())
	)
		throw new SimError(
			400,
			'invalid_body',
			`supplierIds must be a list of 1 to ${BULK_MAX} supplier IDs`,
			'body.supplierIds',
		);
	if (typeof body.isArchived !== 'boolean')
		throw new SimError(400, 'invalid_body', 'isArchived must be true or false', 'body.isArchived');
	const suppliers = ctx.sim.data(ctx.companyId!).suppliers;
	const now = ctx.sim.clock.iso();
	const items = (ids as string[]).map((id) => {
		const supplier = suppliers.find((s) => s.id === id);
		if (!supplier) return { outcome: 'notFound', supplier: { id } };
		supplier.isArchived = body.isArchived as boolean;
		supplier.updatedAt = now;
		return { outcome: 'updated', supplier };
	});
	return { status: 200, body: { items } };
}

/**
 * PATCH /v1/experimental/suppliers/{supplierId}/status (docs/api.md#supplier-management):
 * `{ isArchived }` archives or unarchives one supplier. Decided here: the answer is the
 * supplier as it now is (a single object: `{data}` in the specification profile, bare under
 * the `bareObject` fault), an unknown supplier a 404.
 */
export function updateOneSupplierStatus(ctx: RequestContext): HandlerResult {
	const body = bodyOf(ctx);
	for (const key of Object.keys(body))
		if (key !== 'isArchived') throw additionalProperty(`body.${key}`);
	if (typeof body.isArchived !== 'boolean')
		throw new SimError(400, 'invalid_body', 'isArchived must be true or false', 'body.isArchived');
	const supplier = ctx.sim
		.data(ctx.companyId!)
		.suppliers.find((s) => s.id === ctx.params.supplierId);
	if (!supplier) throw new SimError(404, 'not_found', 'Supplier not found', 'path.supplierId');
	supplier.isArchived = body.isArchived;
	supplier.updatedAt = ctx.sim.clock.iso();
	return singleBody(ctx, supplier);
}
