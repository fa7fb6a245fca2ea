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
 * - Supplier create is all or nothing; the answer lists the suppliers in the order sent. An
 *   `externalId` already used in the company (or twice in the call) is a 400 naming the entry.
 */
import { SimError } from './paging';
import type { HandlerResult, RequestContext } from './server';
import type { Payable, Settlement, Supplier } from './types';

/** What the bookkeeping-status write keeps on a payable. */
export type BookkeptPayable = Payable & {
	version?: number;
	bookkeepingStatus?: string;
	failureReason?: string;
	updatedAt?: string;
};

const BULK_MAX = 100;
const STATES = ['exported', 'failedExport'];

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
			'bookkeepingStatus must be exported or failedExport',
			at('bookkeepingStatus'),
		);
	}
	if (entry.failureReason !== undefined) {
		if (entry.bookkeepingStatus !== 'failedExport')
			throw new SimError(
				400,
				'invalid_body',
				'failureReason is only for failedExport',
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
	if (!STATES.includes(body.state as string))
		throw new SimError(400, 'invalid_body', 'state must be exported or failedExport', 'body.state');
	const settlement = ctx.sim
		.data(ctx.companyId!)
		.settlements.find((s) => s.id === ctx.params.settlementId) as
		| (Settlement & { state?: string })
		| undefined;
	if (!settlement)
		throw new SimError(404, 'not_found', 'Settlement not found', 'path.settlementId');
	settlement.state = body.state as string;
	return { status: 200, body: { data: settlement } };
}

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;
const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const OPTIONAL_TEXT: Record<string, { max: number; pattern?: RegExp }> = {
	iban: { max: 34, pattern: IBAN },
	bic: { max: 11, pattern: BIC },
	vatNumber: { max: 32 },
	externalId: { max: 128 },
};

/** Checks the supplier fields of `entry`; `source` names where they are in the body. */
function checkSupplierFields(
	entry: Record<string, unknown>,
	source: string,
	nameRequired: boolean,
): void {
	for (const key of Object.keys(entry)) {
		if (key !== 'name' && key !== 'isArchived' && !(key in OPTIONAL_TEXT))
			throw new SimError(400, 'invalid_body', `Unknown field ${key}`, `${source}.${key}`);
	}
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
	if ('isArchived' in entry && typeof entry.isArchived !== 'boolean')
		throw new SimError(400, 'invalid_body', 'isArchived must be a boolean', `${source}.isArchived`);
	for (const [key, rule] of Object.entries(OPTIONAL_TEXT)) {
		const value = entry[key];
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

function checkExternalIds(
	suppliers: Supplier[],
	entries: Array<Record<string, unknown>>,
	source: (i: number) => string,
	exceptId?: string,
): void {
	const used = new Set(
		suppliers.filter((s) => s.id !== exceptId && s.externalId).map((s) => s.externalId),
	);
	entries.forEach((entry, i) => {
		if (typeof entry.externalId !== 'string') return;
		if (used.has(entry.externalId))
			throw new SimError(
				400,
				'duplicate_external_id',
				`externalId ${entry.externalId} is already used`,
				source(i),
			);
		used.add(entry.externalId);
	});
}

/** POST /v1/suppliers */
export function createSuppliers(ctx: RequestContext): HandlerResult {
	const entries = bulkList(bodyOf(ctx), 'suppliers');
	entries.forEach((entry, i) => checkSupplierFields(entry, `body.suppliers[${i}]`, true));
	const suppliers = ctx.sim.data(ctx.companyId!).suppliers;
	checkExternalIds(suppliers, entries, (i) => `body.suppliers[${i}].externalId`);
	const suffix = ctx.companyId!.slice(4);
	const now = ctx.sim.clock.iso();
	const created = entries.map((entry): Supplier => {
		const supplier: Supplier = {
			id: `sup_${suffix}_${String(suppliers.length + 1).padStart(4, '0')}`,
			name: (entry.name as string).trim(),
			iban: (entry.iban as string | undefined) ?? null,
			bic: (entry.bic as string | undefined) ?? null,
			vatNumber: (entry.vatNumber as string | undefined) ?? null,
			externalId: (entry.externalId as string | undefined) ?? null,
			isArchived: false,
			createdAt: now,
			updatedAt: now,
		};
		suppliers.push(supplier);
		return supplier;
	});
	return { status: 201, body: { data: created } };
}

/** PATCH /v1/suppliers/{supplierId} */
export function updateSupplier(ctx: RequestContext): HandlerResult {
	const body = bodyOf(ctx);
	if (Object.keys(body).length === 0)
		throw new SimError(400, 'invalid_body', 'Give at least one field to change', 'body');
	checkSupplierFields(body, 'body', false);
	const suppliers = ctx.sim.data(ctx.companyId!).suppliers;
	const supplier = suppliers.find((s) => s.id === ctx.params.supplierId);
	if (!supplier) throw new SimError(404, 'not_found', 'Supplier not found', 'path.supplierId');
	checkExternalIds(suppliers, [body], () => 'body.externalId', supplier.id);
	Object.assign(supplier, body, { updatedAt: ctx.sim.clock.iso() });
	if (typeof body.name === 'string') supplier.name = body.name.trim();
	return { status: 200, body: { data: supplier } };
}
