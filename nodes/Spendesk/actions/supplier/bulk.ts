/**
 * The answers of the supplier bulk changes (docs/api.md#supplier-management), decided here and
 * read defensively: paired by supplier ID; an entry the answer does not name was accepted all
 * the same, since the call succeeded, and gets what was sent with a note.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import type { EndpointName } from '../../transport/endpoints';
import type { BatchEntry, EntryResult } from '../types';
import { isObject } from '../../transport/pagination/response';

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
	/** The operation as the editor names it, e.g. "Supplier → Archive". */
	operation: string;
	/** What the call did to a supplier, e.g. "archive", "update". */
	verb: string;
	company: string | undefined;
}

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

export function acceptedNote(status: number): string {
	return `Spendesk accepted the change (HTTP ${status}) but did not list this supplier in its answer, so this item shows what was sent, not the supplier as it now is. Supplier → Get shows it; running the item again is harmless.`;
}

/** Says once, in the editor, that some items carry only what was sent. */
export function hintUnlisted(
	ctx: IExecuteFunctions,
	operation: string,
	status: number,
	unlisted: number,
	sent: number,
): void {
	ctx.addExecutionHints({
		message: `${operation}: Spendesk accepted the call (HTTP ${status}) but its answer did not list ${unlisted === sent ? `the ${sent} suppliers` : `${unlisted} of the ${sent} suppliers`} sent one by one. Their items show what was sent, with a note.`,
		location: 'outputPane',
	});
}

/** The result of each entry: the answer's result for its supplier ID, else what was sent with a note. */
export function supplierResults(
	ctx: IExecuteFunctions,
	bulk: SupplierBulk,
	answer: { status: number; body: IDataObject | undefined },
	entries: BatchEntry[],
	sent: (entry: BatchEntry) => IDataObject,
): EntryResult[] {
	const list = answeredItems(isObject(answer.body) ? answer.body : undefined) ?? [];
	const byPosition = list.length === entries.length;
	const byId = new Map<string, IDataObject[]>();
	list.forEach((raw, i) => {
		const id = answeredId(raw) ?? (byPosition ? String(entries[i].body.id) : undefined);
		if (id !== undefined && isObject(raw)) byId.set(id, [...(byId.get(id) ?? []), raw]);
	});
	let unlisted = 0;
	const results = entries.map((entry): EntryResult => {
		const raw = byId.get(String(entry.body.id))?.shift();
		if (raw !== undefined) return entryResult(ctx, bulk, entry, raw);
		unlisted++;
		return { ok: true, json: { ...sent(entry), note: acceptedNote(answer.status) } };
	});
	if (unlisted) hintUnlisted(ctx, bulk.operation, answer.status, unlisted, entries.length);
	return results;
}
