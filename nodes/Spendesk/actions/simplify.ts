/**
 * Simplify: the operations whose records carry many fields (payables: amounts, line items,
 * analytical properties…) can return a short version of each record instead, the fields most
 * workflows (and AI agents using the node as a tool) need. Off by default: each record as
 * Spendesk returns it.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { SingleOperation } from './types';

/** A field of the simplified record: its name and how it is read from the full record. */
type SimpleField = [name: string, read: (record: IDataObject) => unknown];

const field =
	(key: string) =>
	(record: IDataObject): unknown =>
		record[key];

/** The name of a nested party (`supplier`, `counterparty`): `{ name }`. */
const nameOf = (value: unknown): unknown =>
	value && typeof value === 'object' ? (value as IDataObject).name : undefined;

/** The simplified payable: what it is, how much, its state and what an update needs. */
const PAYABLE_FIELDS: SimpleField[] = [
	['id', field('id')],
	['description', field('description')],
	['payableType', field('payableType')],
	['status', field('status')],
	['bookkeepingStatus', field('bookkeepingStatus')],
	['amount', field('amount')],
	['currency', field('currency')],
	['supplierName', (r) => nameOf(r.supplier) ?? nameOf(r.counterparty)],
	['payableDate', field('payableDate')],
	['createdAt', field('createdAt')],
	['version', field('version')],
];

const FIELDS = { payable: PAYABLE_FIELDS };

/** Says in the editor what the simplified record keeps. */
const KEPT = {
	payable:
		'ID, description, type, status, bookkeeping status, amount, currency, supplier name, payable date, creation date and version',
};

export type SimplifiedRecord = keyof typeof FIELDS;

/** The Simplify switch of an operation returning `record`s. */
export function simplifyField(record: SimplifiedRecord): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: `Whether to return a simplified version of the response instead of the raw data. The simplified ${record} keeps: ${KEPT[record]}.`,
	};
}

/** The simplified version of one record: its fields of the list, those it has, in that order. */
export function simplified(record: SimplifiedRecord, item: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [name, read] of FIELDS[record]) {
		const value = read(item);
		if (value !== undefined) out[name] = value as IDataObject[string];
	}
	return out;
}

/**
 * The operation with Simplify: the switch added to its parameters (before Options, n8n's
 * place for it) and, when on, each record of its result simplified. For operations run item by
 * item (list and Get builders give them as SpendeskOperation: cast at the call).
 */
export function withSimplify(
	operation: SingleOperation,
	record: SimplifiedRecord,
): SingleOperation {
	const options = operation.properties.findIndex((p) => p.name === 'options');
	const at = options === -1 ? operation.properties.length : options;
	return {
		...operation,
		properties: [
			...operation.properties.slice(0, at),
			simplifyField(record),
			...operation.properties.slice(at),
		],
		prepare(this: IExecuteFunctions, itemIndex: number) {
			const run = operation.prepare.call(this, itemIndex);
			if (this.getNodeParameter('simplify', itemIndex, false) !== true) return run;
			const simplify = (items: IDataObject[]) => items.map((item) => simplified(record, item));
			return async (company, sink) => {
				const result = await run(company, (items) => sink(simplify(items)));
				return { ...result, items: simplify(result.items) };
			};
		},
	};
}
