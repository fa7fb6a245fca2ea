/**
 * PATCH /v1/payables/{payableId} (docs/api.md#payable-accounting): a payable's accounting
 * before export. Body `{version, lineItems: [{grossAmount, expenseAccountId, taxAccountId,
 * costCenterId, analyticalFieldValues: [{fieldId, valueId}]}]}`; the line items replace the
 * payable's whole list; answer `{item: {version}}` with the version moved on by one.
 *
 * Decided here where the sources are silent: `grossAmount` is in minor units like the payable's
 * `amount`, and the lines must add up to it; a cost center and analytical values must be the
 * company's; account IDs are taken as given (no documented list to check them against); a stale
 * version or a payable already exported is a 409; 1 to 100 lines. Get a payable then answers
 * the lines in the documented shape (`expenseAccount`, `vatAccount`, `financial`), not as written.
 */
import { SimError } from './paging';
import { objectBody, onlyKeys } from './params';
import { payableDetail } from './routes-reads';
import { expenseAccountRef, payableLine, vatAccountRef } from './seed';
import type { HandlerResult, RequestContext } from './server';
import type { PayableLineItem } from './types';
import type { BookkeptPayable } from './writes';

const MAX_LINES = 100;
const LINE_KEYS = [
	'grossAmount',
	'expenseAccountId',
	'taxAccountId',
	'costCenterId',
	'analyticalFieldValues',
];

const invalid = (detail: string, source: string) =>
	new SimError(400, 'invalid_body', detail, source);

function optionalId(value: unknown, source: string): string | null {
	if (value === undefined || value === null) return null;
	if (typeof value !== 'string' || !value.trim())
		throw invalid('must be a non-empty string', source);
	return value;
}

export function updatePayable(ctx: RequestContext): HandlerResult {
	const body = objectBody(ctx);
	onlyKeys(body, ['version', 'lineItems'], 'body');
	const data = ctx.sim.data(ctx.companyId!);
	const payable = data.payables.find((p) => p.id === ctx.params.payableId) as
		| BookkeptPayable
		| undefined;
	if (typeof body.version !== 'number' || !Number.isInteger(body.version) || body.version < 1)
		throw invalid('version must be a whole number (the payable’s current version)', 'body.version');
	if (
		!Array.isArray(body.lineItems) ||
		body.lineItems.length < 1 ||
		body.lineItems.length > MAX_LINES
	)
		throw invalid(`lineItems must be a list of 1 to ${MAX_LINES} lines`, 'body.lineItems');
	const lines: PayableLineItem[] = body.lineItems.map((entry: unknown, i) => {
		const at = `body.lineItems[${i}]`;
		if (!entry || typeof entry !== 'object' || Array.isArray(entry))
			throw invalid('must be object', at);
		const line = entry as Record<string, unknown>;
		onlyKeys(line, LINE_KEYS, at);
		const gross = line.grossAmount;
		if (typeof gross !== 'number' || !Number.isInteger(gross))
			throw invalid('grossAmount must be a whole number of minor units', `${at}.grossAmount`);
		const costCenterId = optionalId(line.costCenterId, `${at}.costCenterId`);
		if (costCenterId && !data.costCenters.some((c) => c.id === costCenterId))
			throw invalid(`No cost center ${costCenterId} in this company`, `${at}.costCenterId`);
		const values = line.analyticalFieldValues ?? [];
		if (!Array.isArray(values))
			throw invalid('analyticalFieldValues must be a list', `${at}.analyticalFieldValues`);
		const analyticalProperties = values.map((value: unknown, j) => {
			const vat = `${at}.analyticalFieldValues[${j}]`;
			if (!value || typeof value !== 'object' || Array.isArray(value))
				throw invalid('must be object', vat);
			const pair = value as Record<string, unknown>;
			onlyKeys(pair, ['fieldId', 'valueId'], vat);
			const field = data.analyticalFields.find((f) => f.id === pair.fieldId);
			if (!field) throw invalid(`No analytical field ${String(pair.fieldId)}`, `${vat}.fieldId`);
			if (!field.values.some((v) => v.id === pair.valueId))
				throw invalid(`No value ${String(pair.valueId)} in field ${field.id}`, `${vat}.valueId`);
			return { fieldId: field.id, valueId: pair.valueId as string };
		});
		// Stored, and read back by Get a payable, in the documented line shape
		// (docs/api.md#payables): the accounts as objects, the VAT at the VAT account's rate.
		const expenseAccountId = optionalId(line.expenseAccountId, `${at}.expenseAccountId`);
		const taxAccountId = optionalId(line.taxAccountId, `${at}.taxAccountId`);
		return payableLine(
			gross,
			{
				expenseAccount: expenseAccountId ? expenseAccountRef(expenseAccountId) : null,
				vatAccount: taxAccountId ? vatAccountRef(taxAccountId) : null,
			},
			costCenterId,
			analyticalProperties,
		);
	});
	if (!payable) throw new SimError(404, 'not_found', 'Payable not found', 'path.payableId');
	const detail = payableDetail(payable);
	const total = lines.reduce((sum, line) => sum + line.financial.grossAmount, 0);
	if (total !== detail.amount)
		throw invalid(
			`The line items add up to ${total}, not to the payable's amount ${detail.amount} (minor units)`,
			'body.lineItems',
		);
	if (detail.bookkeepingStatus === 'exported')
		throw new SimError(
			409,
			'payable_exported',
			'The payable is already exported: its accounting can no longer change',
			'path.payableId',
		);
	if (body.version !== detail.version)
		throw new SimError(
			409,
			'version_conflict',
			`The payable is at version ${detail.version}, not ${body.version}: read it again`,
			'body.version',
		);
	payable.lineItems = lines;
	// The payable's own cost center: the one every line shares, else none.
	payable.costCenterId = lines.every((l) => l.costCenterId === lines[0].costCenterId)
		? lines[0].costCenterId
		: null;
	payable.version = detail.version + 1;
	payable.updatedAt = ctx.sim.clock.iso();
	return { status: 200, body: { item: { version: payable.version } } };
}
