/**
 * The answers of the supplier bulk changes (archive, unarchive, update several): Spendesk answers
 * `{ items: [{ outcome, supplier }] }`, one per supplier in the order sent, `outcome` `updated`
 * (the supplier as it now is) or `notFound` (`supplier: { id }` only, nothing changed)
 * (docs/api.md#supplier-management). Each result is paired with its entry by the supplier's ID.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { ENDPOINTS } from '../../transport/endpoints';
import type { EndpointName } from '../../transport/endpoints';
import type { BatchEntry, EntryResult } from '../types';

const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/** The supplier a result of a bulk answer names: its `supplier`, or the result itself. */
export function answeredSupplier(raw: unknown): IDataObject {
	const result = isObject(raw) ? raw : {};
	return isObject(result.supplier) ? result.supplier : result;
}

/** The results of a bulk answer, one per supplier sent (`items`, or one `item`); undefined without them. */
export function answeredItems(body: IDataObject | undefined): unknown[] | undefined {
	if (Array.isArray(body?.items)) return body.items as unknown[];
	return isObject(body?.item) ? [body.item] : undefined;
}

/** A bulk change of suppliers: which call, and how its messages name what it does. */
export interface SupplierBulk {
	endpoint: EndpointName;
	/** What the call did to a supplier, e.g. "archive", "update". */
	verb: string;
	company: string | undefined;
}

/** An answer that cannot be paired with the suppliers sent: an error of the whole call. */
function unpaired(
	ctx: IExecuteFunctions,
	bulk: SupplierBulk,
	entries: BatchEntry[],
	why: string,
): NodeApiError {
	const endpoint = ENDPOINTS[bulk.endpoint];
	return new NodeApiError(
		ctx.getNode(),
		{ endpoint: `${endpoint.method} ${endpoint.path}`, sent: entries.length },
		{
			message: `${why}, so the node cannot tell which input item each supplier belongs to`,
			description: `Spendesk may have applied the change to some or all of these suppliers. Check them in Spendesk (Supplier → Get Many with the IDs filter); running the same items again is harmless, as it sets the same values again.`,
			httpCode: '500',
			itemIndex: entries[0].itemIndex,
		},
	);
}

/** The ID of the supplier an answer's result names. */
function answeredId(raw: unknown): string | undefined {
	const supplier = answeredSupplier(raw);
	return typeof supplier.id === 'string' || typeof supplier.id === 'number'
		? String(supplier.id)
		: undefined;
}

/** The result of one entry: the supplier as it now is, or its own error (not found, or refused). */
function entryResult(
	ctx: IExecuteFunctions,
	bulk: SupplierBulk,
	entry: BatchEntry,
	raw: IDataObject,
): EntryResult {
	const supplier = answeredSupplier(raw);
	const outcome = raw.outcome;
	if (outcome === undefined || outcome === 'updated') return { ok: true, json: supplier };
	const where = bulk.company ? ` in company "${bulk.company}"` : '';
	const notFound = outcome === 'notFound';
	return {
		ok: false,
		error: new NodeApiError(ctx.getNode(), raw as JsonObject, {
			message: notFound
				? `Spendesk has no ${entry.label}${where}, so it was not changed`
				: `Spendesk did not ${bulk.verb} ${entry.label}${where} (outcome "${String(outcome).slice(0, 40)}")`,
			description: notFound
				? 'Check the supplier ID of this item (Supplier → Get Many lists them), or pick the supplier from the list.'
				: 'Check the supplier in Spendesk and the fields of this item, then run it again.',
			httpCode: notFound ? '404' : '400',
			itemIndex: entry.itemIndex,
		}),
	};
}

/**
 * The result of each entry, in the order of `entries`, paired by supplier ID (the same ID sent
 * twice takes its results in order). Another number of results, or a result naming no supplier
 * sent, cannot be paired: an error of the whole call.
 */
export function supplierResults(
	ctx: IExecuteFunctions,
	bulk: SupplierBulk,
	body: IDataObject | undefined,
	entries: BatchEntry[],
	idOf: (entry: BatchEntry) => string,
): EntryResult[] {
	const list = answeredItems(body);
	if (!list) throw unpaired(ctx, bulk, entries, 'Spendesk answered without the list of suppliers');
	if (list.length !== entries.length)
		throw unpaired(
			ctx,
			bulk,
			entries,
			`Spendesk answered ${list.length} suppliers for the ${entries.length} sent`,
		);
	const byId = new Map<string, IDataObject[]>();
	list.forEach((raw, i) => {
		// A result without an ID keeps its position.
		const id = answeredId(raw) ?? idOf(entries[i]);
		byId.set(id, [...(byId.get(id) ?? []), isObject(raw) ? raw : {}]);
	});
	return entries.map((entry) => {
		const raw = byId.get(idOf(entry))?.shift();
		if (raw === undefined)
			throw unpaired(
				ctx,
				bulk,
				entries,
				`Spendesk answered suppliers that were not sent (none for ${entry.label})`,
			);
		return entryResult(ctx, bulk, entry, raw);
	});
}
