/** Supplier → Create: each input item one supplier, in bulk calls of up to 100. */
import { NodeApiError } from 'n8n-workflow';
import { ENDPOINTS } from '../../transport/endpoints';
import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { callSpendesk } from '../../transport/request';
import type { BatchEntry, BatchedOperation, EntryResult } from '../types';
import { answeredItems, answeredSupplier } from './bulk';
import { readSupplierFields, supplierFieldOptions } from './fields';
import { collection, readCollection } from '../sharedParams';
import { isObject } from '../../transport/pagination/response';
import { fail, readText } from '../readers';

function prepareEntry(this: IExecuteFunctions, itemIndex: number): BatchEntry {
	const name = readText(this, itemIndex, this.getNodeParameter('name', itemIndex, ''), 'Name', 200);
	if (!name)
		fail(
			this,
			itemIndex,
			"'Name' is empty",
			"Give the supplier's name, e.g. Office Depot, or map it from the input item, e.g. {{ $json.supplierName }}.",
		);
	const fields = readCollection(this, 'additionalFields', itemIndex);
	return {
		itemIndex,
		body: { name, ...readSupplierFields(this, fields, itemIndex, false) },
		label: `supplier "${name}"`,
	};
}

/** A call's answer that cannot be paired with the items sent: an error of the whole call. */
function unpaired(
	ctx: IExecuteFunctions,
	entries: BatchEntry[],
	answered: number,
	why: string,
): NodeApiError {
	return new NodeApiError(
		ctx.getNode(),
		{
			endpoint: `${ENDPOINTS.createSuppliers.method} ${ENDPOINTS.createSuppliers.path}`,
			sent: entries.length,
			answered,
		},
		{
			message: `${why}, so the node cannot tell which input item each supplier belongs to`,
			description:
				'Some or all suppliers may have been created: check the suppliers in Spendesk before running again.',
			httpCode: '500',
			itemIndex: entries[0].itemIndex,
		},
	);
}

function answeredName(raw: unknown): string | undefined {
	const supplier = answeredSupplier(raw);
	return typeof supplier.name === 'string' ? comparable(supplier.name) : undefined;
}

/** A name as compared between what was sent and what was answered: case and spacing aside. */
function comparable(name: string): string {
	return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The results in the order of `entries` (docs/api.md#bulk-writes): in another order, paired by
 * supplier name; a name missing or unknown cannot be paired: an error of the call.
 */
function pairedByName(ctx: IExecuteFunctions, list: unknown[], entries: BatchEntry[]): unknown[] {
	const sentName = (entry: BatchEntry) => comparable(String(entry.body.name));
	const inOrder = (raw: unknown, i: number) => {
		const name = answeredName(raw);
		return name === undefined || name === sentName(entries[i]);
	};
	if (list.every(inOrder)) return list;
	const byName = new Map<string, unknown[]>();
	for (const raw of list) {
		const name = answeredName(raw);
		if (name === undefined)
			throw unpaired(
				ctx,
				entries,
				list.length,
				'Spendesk answered the suppliers in another order than sent, and one result gives no supplier name',
			);
		byName.set(name, [...(byName.get(name) ?? []), raw]);
	}
	return entries.map((entry) => {
		const raw = byName.get(sentName(entry))?.shift();
		if (raw === undefined)
			throw unpaired(
				ctx,
				entries,
				list.length,
				`Spendesk answered suppliers whose names do not match the ones sent (none for ${entry.label})`,
			);
		return raw;
	});
}

/** The result of each entry; an outcome other than `created` is its own error. */
function resultsOf(
	ctx: IExecuteFunctions,
	body: IDataObject | undefined,
	entries: BatchEntry[],
): EntryResult[] {
	const list = answeredItems(body);
	if (!list)
		throw unpaired(ctx, entries, 0, 'Spendesk answered without the list of created suppliers');
	if (list.length !== entries.length)
		throw unpaired(
			ctx,
			entries,
			list.length,
			`Spendesk answered ${list.length} suppliers for the ${entries.length} sent`,
		);
	return pairedByName(ctx, list, entries).map((raw, i): EntryResult => {
		const result = isObject(raw) ? raw : {};
		const supplier = answeredSupplier(result);
		const outcome = result.outcome;
		if (outcome === undefined || outcome === 'created') return { ok: true, json: supplier };
		return {
			ok: false,
			error: new NodeApiError(ctx.getNode(), result as JsonObject, {
				message: `Spendesk did not create ${entries[i].label} (outcome "${String(outcome).slice(0, 40)}")`,
				description:
					'Check the supplier in Spendesk: it may exist already. Fix the fields of this item and run it again.',
				httpCode: '400',
				itemIndex: entries[i].itemIndex,
			}),
		};
	});
}

async function send(
	this: IExecuteFunctions,
	company: string | undefined,
	entries: BatchEntry[],
): Promise<EntryResult[]> {
	// The body is a JSON array of suppliers (docs/api.md#bulk-writes).
	const { body } = await callSpendesk<IDataObject>(this, 'createSuppliers', {
		company,
		body: entries.map((entry) => entry.body),
		itemIndex: entries[0].itemIndex,
	});
	return resultsOf(this, body, entries);
}

export const createSupplier: BatchedOperation = {
	value: 'create',
	perCompany: true,
	write: true,
	properties: [
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Office Depot',
			description: 'Name of the supplier to create. Each input item creates one supplier.',
		},
		collection('additionalFields', supplierFieldOptions),
	],
	batch: {
		size: 100,
		prepareEntry,
		send,
		replayAdvice: (items) =>
			`Do not run ${items} again as they are, which may create the same suppliers twice: first search Spendesk for those suppliers by name (Supplier → Get Many), and run again only the ones it does not have.`,
	},
};
