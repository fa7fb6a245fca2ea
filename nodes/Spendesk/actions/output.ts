/**
 * Output (n8n's convention for nodes usable as AI tools): Raw, Simplified (at most ten fields)
 * or Selected Fields, for records of more than ten fields (docs/api.md#response-shapes).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { SingleOperation } from './types';
import { readChoices } from './readers';

/** A record's fields as Selected Fields offers them (value: the field's name in the record). */
type FieldOption = { name: string; value: string };

const field = (name: string, value: string): FieldOption => ({ name, value });

/** Fields several records share, under one label each. */
const ID = field('ID', 'id');
const AMOUNT = field('Amount', 'amount');
const CURRENCY = field('Currency', 'currency');
const CREATED = field('Creation Date', 'createdAt');
const UPDATED = field('Update Date', 'updatedAt');
const DESCRIPTION = field('Description', 'description');
const EXPORTED = field('Export Date', 'exportedAt');
const LINKS = field('Links', 'links');
const STATE = field('State', 'state');
const TYPE = field('Type', 'type');

/**
 * A record's Output: Simplified is the first ten of its top-level `fields`, in that order (`kept`
 * says them in words, for the editor); Selected Fields offers them all, by name.
 */
const output = (kept: string, fields: FieldOption[]) => ({
	simple: fields.slice(0, 10).map((f) => f.value),
	kept,
	fields: [...fields].sort((a, b) => a.name.localeCompare(b.name)),
});

const OUTPUTS = {
	payable: output(
		'ID, version, description, type, bookkeeping status, amount (in minor units: 12000 is 120.00), currency, counterparty (the supplier or the employee it is due to), cost center ID and payable date',
		[
			ID,
			field('Version', 'version'),
			DESCRIPTION,
			TYPE,
			field('Bookkeeping Status', 'bookkeepingStatus'),
			AMOUNT,
			CURRENCY,
			field('Counterparty', 'counterparty'),
			field('Cost Center ID', 'costCenterId'),
			field('Payable Date', 'payableDate'),
			field('User ID', 'userId'),
			field('Company ID', 'companyId'),
			STATE,
			field('Cost Center Name', 'costCenterName'),
			field('Team ID', 'teamId'),
			field('Team Name', 'teamName'),
			CREATED,
			UPDATED,
			field('Accounting Date', 'accountingDate'),
			field('Invoice Due Date', 'invoiceDueDate'),
			field('Functional Amount', 'functionalAmount'),
			field('Functional Currency', 'functionalCurrency'),
			field('Functional Exchange Rate', 'functionalExchangeRate'),
			field('Invoice Number', 'invoiceNumber'),
			field('Credit Note Number', 'creditNoteNumber'),
			field('Reference Invoice Number', 'referenceInvoiceNumber'),
			EXPORTED,
			field('Line Items', 'lineItems'),
			field('Analytical Properties', 'analyticalProperties'),
			field('Allocations', 'allocations'),
			field('Documentary Evidence', 'documentaryEvidence'),
			LINKS,
		],
	),
	purchaseOrder: output(
		'ID, status, description, supplier, amount, net amount, currency, start and end dates, and the ID of the member it is for',
		[
			ID,
			field('Status', 'status'),
			DESCRIPTION,
			field('Supplier', 'supplier'),
			AMOUNT,
			field('Net Amount', 'netAmount'),
			CURRENCY,
			field('Start Date', 'startDate'),
			field('End Date', 'endDate'),
			field('User ID', 'userId'),
			field('Cost Center ID', 'costCenterId'),
			field('Custom Fields', 'customFieldAssociations'),
			field('Items', 'items'),
			CREATED,
			UPDATED,
			field('Close Date', 'closedAt'),
			field('Cancellation Date', 'cancelledAt'),
			field('Delivery Notes Expected', 'deliveryNotesExpected'),
		],
	),
	supplier: output(
		'ID, name, legal name, VAT number, IBAN, BIC, bank country, address, email and whether it is archived',
		[
			ID,
			field('Name', 'name'),
			field('Legal Name', 'legalName'),
			field('VAT Number', 'vatNo'),
			field('IBAN', 'iban'),
			field('BIC', 'bic'),
			field('Bank Country', 'bankCountry'),
			field('Address', 'address'),
			field('Email', 'primaryEmail'),
			field('Archived', 'isArchived'),
			field('Registration Number', 'registrationNo'),
			field('Bank Info', 'bankInfo'),
			CREATED,
			UPDATED,
		],
	),
	settlement: output(
		'ID, type, medium, the account it was paid from, amount (in minor units), currency, bookkeeping status (state), creation, clearing and export dates',
		[
			ID,
			TYPE,
			field('Medium', 'medium'),
			field('Paid From', 'paidFrom'),
			AMOUNT,
			CURRENCY,
			STATE,
			CREATED,
			field('Clearing Date', 'clearedAt'),
			EXPORTED,
			field('Transaction Description', 'transactionDescription'),
			field('Billing Amount', 'billingAmount'),
			field('Billing Currency', 'billingCurrency'),
			field('Billing Exchange Rate', 'billingExchangeRate'),
			LINKS,
		],
	),
};

export type OutputRecord = keyof typeof OUTPUTS;

export function outputProperties(record: OutputRecord): INodeProperties[] {
	const { kept, fields } = OUTPUTS[record];
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			options: [
				{
					name: 'Raw',
					value: 'raw',
					description: 'Every field, as Spendesk returns it',
				},
				{
					name: 'Selected Fields',
					value: 'selectedFields',
					description: 'The ID and the fields chosen below',
				},
				{
					name: 'Simplified',
					value: 'simple',
					description: `At most ten fields: ${kept}`,
				},
			],
			default: 'raw',
			description: 'How much of each record to return: fewer fields suit AI agents and large lists',
		},
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'multiOptions',
			options: [...fields],
			default: [],
			description: 'The fields to return with the ID',
			displayOptions: { show: { output: ['selectedFields'] } },
		},
	];
}

/** The fields of `fields` a record has, in that order: those it lacks are left out. */
function pick(item: IDataObject, fields: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const name of fields) if (item[name] !== undefined) out[name] = item[name];
	return out;
}

export function simplified(record: OutputRecord, item: IDataObject): IDataObject {
	return pick(item, OUTPUTS[record].simple);
}

/** How an item's records are shaped, read before any request: undefined for Raw. */
function readOutput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	record: OutputRecord,
): ((item: IDataObject) => IDataObject) | undefined {
	const raw = ctx.getNodeParameter('output', itemIndex, 'raw');
	const output = readChoices(ctx, itemIndex, raw, 'Output', ['raw', 'selectedFields', 'simple']);
	if (output?.[0] === 'simple') return (item) => simplified(record, item);
	if (output?.[0] !== 'selectedFields') return undefined;
	const known = OUTPUTS[record].fields.map((f) => f.value);
	const chosen =
		readChoices(ctx, itemIndex, ctx.getNodeParameter('fields', itemIndex, []), 'Fields', known) ??
		[];
	const fields = ['id', ...chosen.filter((name) => name !== 'id')];
	return (item) => pick(item, fields);
}

/** The operation with Output and Fields (before Options and Sort), each record shaped as chosen. */
export function withOutput(operation: SingleOperation, record: OutputRecord): SingleOperation {
	const at = operation.properties.findIndex((p) => p.name === 'options' || p.name === 'sort');
	const before = at === -1 ? operation.properties.length : at;
	return {
		...operation,
		properties: [
			...operation.properties.slice(0, before),
			...outputProperties(record),
			...operation.properties.slice(before),
		],
		prepare(this: IExecuteFunctions, itemIndex: number) {
			const shape = readOutput(this, itemIndex, record);
			const run = operation.prepare.call(this, itemIndex);
			if (!shape) return run;
			const shaped = (items: IDataObject[]) => items.map(shape);
			return async (company, sink) => {
				const result = await run(company, (items) => sink(shaped(items)));
				return { ...result, items: shaped(result.items) };
			};
		},
	};
}
