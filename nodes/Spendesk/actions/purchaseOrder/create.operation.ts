/**
 * Purchase Order → Create: one purchase order per input item (docs/api.md#purchase-orders),
 * for a user of the company, an amount and a net amount, a period, a cost center, custom fields,
 * and an existing supplier (by ID) or a new one (by name). The body is the one a public client
 * sent to the vendor's sandbox (createBody.ts). Checked before any request; never repeated after
 * a 5xx or a dropped connection (the catalogue entry is not idempotent), since a replay would
 * create a second one.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import { readRecordId, recordLocator } from '../recordId';
import { readChoice } from '../listFilters';
import { readCollection } from '../sharedParams';
import type { SingleOperation } from '../types';
import { fail, readText } from '../writeFields';
import { readCurrency, readCustomFields, readDateTime, readItems, readMoney } from './createBody';

/** Start Date and End Date as ISO date-times, the start not after the end. */
function readPeriod(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const date = (name: string, label: string) =>
		readDateTime(ctx, ctx.getNodeParameter(name, itemIndex, ''), label, itemIndex);
	const startDate = date('startDate', 'Start Date');
	const endDate = date('endDate', 'End Date');
	if (startDate > endDate)
		fail(
			ctx,
			itemIndex,
			`'Start Date' (${startDate}) is after 'End Date' (${endDate})`,
			"Set 'Start Date' on or before 'End Date'.",
		);
	return { startDate, endDate };
}

/** User, amounts, period, cost center and custom fields: checked before any request. */
function readRequired(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const userId = readRecordId(
		ctx,
		'userId',
		"'User'",
		itemIndex,
		'Pick the user from the list, or give the ID of a member of the company, e.g. {{ $json.userId }} (User → Get Many lists them).',
	);
	const currency = readCurrency(ctx, itemIndex);
	const amount = readMoney(
		ctx,
		ctx.getNodeParameter('amount', itemIndex, 0),
		'Amount',
		currency,
		true,
		itemIndex,
	);
	const netAmount = readMoney(
		ctx,
		ctx.getNodeParameter('netAmount', itemIndex, 0),
		'Net Amount',
		currency,
		false,
		itemIndex,
	);
	if (netAmount.amount > amount.amount)
		fail(
			ctx,
			itemIndex,
			`'Net Amount' (${ctx.getNodeParameter('netAmount', itemIndex, 0) as number}) is more than 'Amount' (${ctx.getNodeParameter('amount', itemIndex, 0) as number})`,
			"Give 'Net Amount' without taxes: at most 'Amount'.",
		);
	const { startDate, endDate } = readPeriod(ctx, itemIndex);
	const costCenterId = readRecordId(
		ctx,
		'costCenterId',
		"'Cost Center'",
		itemIndex,
		'Pick the cost center from the list, or give the ID of a cost center of the company (Cost Center → Get Many lists them).',
	);
	const customFieldAssociations = readCustomFields(ctx, itemIndex);
	return { userId, amount, netAmount, costCenterId, startDate, endDate, customFieldAssociations };
}

/** Exactly one of supplierId (Existing Supplier) and supplierName (New Supplier). */
function readSupplier(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const mode = readChoice(
		ctx,
		itemIndex,
		ctx.getNodeParameter('supplierMode', itemIndex, 'existing'),
		'Supplier',
		['existing', 'new'],
	);
	if (mode === 'new') {
		const name = readText(
			ctx,
			ctx.getNodeParameter('supplierName', itemIndex, ''),
			'Supplier Name',
			200,
			itemIndex,
		);
		if (!name)
			fail(
				ctx,
				itemIndex,
				"'Supplier Name' is empty",
				"Give the new supplier's name, or choose Existing Supplier and give its ID.",
			);
		return { supplierName: name };
	}
	return {
		supplierId: readRecordId(
			ctx,
			'supplierId',
			"'Supplier'",
			itemIndex,
			'Pick the supplier from the list, or give the ID of a supplier of the company (Supplier → Get Many lists them), or choose New Supplier and give its name.',
		),
	};
}

/** Description, line items and delivery notes, when given. */
function readAdditional(ctx: IExecuteFunctions, currency: string, itemIndex: number): IDataObject {
	const extra = readCollection(ctx, 'additionalFields', itemIndex);
	const body: IDataObject = {};
	const description = readText(ctx, extra.description, 'Description', 1000, itemIndex);
	if (description) body.description = description;
	const items = readItems(ctx, extra.items, currency, itemIndex);
	if (items) body.items = items;
	if (typeof extra.deliveryNotesExpected === 'boolean')
		body.deliveryNotesExpected = extra.deliveryNotesExpected;
	return body;
}

/** A decimal amount of the panel, in the currency. */
function amountField(
	name: string,
	label: string,
	description: string,
	placeholder: string,
): INodeProperties {
	return {
		displayName: label,
		name,
		type: 'number',
		required: true,
		typeOptions: { minValue: 0 },
		default: 0,
		placeholder,
		description,
	};
}

/** Custom Fields: each an analytical field (from the list or by ID) and the ID of one of its values. */
const customFieldsField: INodeProperties = {
	displayName: 'Custom Fields',
	name: 'customFields',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Custom Field',
	default: {},
	description:
		'Values of analytical fields for the purchase order, one per field; Spendesk lists them as required, so none given is sent as an empty list',
	options: [
		{
			displayName: 'Field',
			name: 'field',
			values: [
				recordLocator({
					name: 'fieldId',
					label: 'Field',
					description: 'The analytical field; pick it from the list, or enter its ID',
					placeholder: 'e.g. af_001_002',
					searchListMethod: 'searchAnalyticalFields',
				})[0],
				recordLocator({
					name: 'valueId',
					label: 'Value',
					description:
						'One of the values of the field chosen above: pick it from the list, or enter its ID',
					placeholder: 'e.g. afv_001_002_00007',
					searchListMethod: 'searchAnalyticalFieldValues',
				})[0],
			],
		},
	],
};

/** Additional Fields → Items: the line items of the purchase order. */
const itemsField: INodeProperties = {
	displayName: 'Items',
	name: 'items',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Item',
	default: {},
	description: 'The line items of the purchase order',
	options: [
		{
			displayName: 'Item',
			name: 'item',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: 'e.g. Posters A2',
					description: 'What the line orders',
				},
				{
					displayName: 'Quantity',
					name: 'quantity',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 1,
					description: 'How many units the line orders',
				},
				{
					displayName: 'Unit Price',
					name: 'unitPrice',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 0,
					placeholder: 'e.g. 25.90',
					description:
						'Price of one unit without taxes, as a decimal number in the Currency, e.g. 25.90 (not in cents)',
				},
				{
					displayName: 'VAT Rate (%)',
					name: 'vatRate',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: 100 },
					default: 0,
					placeholder: 'e.g. 20',
					description: 'VAT rate of the line in percent, e.g. 20 for 20%',
				},
			],
		},
	],
};

export const createPurchaseOrder: SingleOperation = {
	value: 'create',
	perCompany: true,
	write: true,
	properties: [
		...recordLocator({
			name: 'userId',
			label: 'User',
			description:
				'The company member the purchase order is for: pick them from the list, or enter their ID (e.g. from an expression after User → Get Many)',
			placeholder: 'e.g. usr_001_00012',
			searchListMethod: 'searchUsers',
		}),
		{
			displayName: 'Currency',
			name: 'currency',
			type: 'string',
			required: true,
			default: 'EUR',
			placeholder: 'e.g. EUR',
			description:
				"Currency of the amounts, as its three-letter code (ISO 4217), usually the company's currency",
		},
		amountField(
			'amount',
			'Amount',
			'Total amount, taxes included, as a decimal number in the Currency, e.g. 1200.50 (not in cents): the node sends it to Spendesk in minor units',
			'e.g. 1200.50',
		),
		amountField(
			'netAmount',
			'Net Amount',
			'Amount without taxes, as a decimal number in the Currency, e.g. 1000.42 (not in cents); at most Amount',
			'e.g. 1000.42',
		),
		{
			displayName: 'Start Date',
			name: 'startDate',
			type: 'dateTime',
			required: true,
			default: '',
			description:
				"When the period the purchase order covers starts (a date without a time is midnight in the workflow's time zone)",
		},
		{
			displayName: 'End Date',
			name: 'endDate',
			type: 'dateTime',
			required: true,
			default: '',
			description: 'When the period the purchase order covers ends',
		},
		{
			displayName: 'Supplier',
			name: 'supplierMode',
			type: 'options',
			options: [
				{
					name: 'Existing Supplier',
					value: 'existing',
					description: 'A supplier Spendesk already knows, from the list or by its ID',
				},
				{
					name: 'New Supplier',
					value: 'new',
					description: 'A supplier not in Spendesk yet, by its name',
				},
			],
			default: 'existing',
			description:
				'Whether the supplier is already in Spendesk (from the list or by ID) or new (by name)',
		},
		...recordLocator({
			name: 'supplierId',
			label: 'Supplier',
			description:
				'The supplier of the purchase order: pick it from the list, or enter its ID (e.g. from an expression after Supplier → Get Many)',
			placeholder: 'e.g. sup_001_00042',
			searchListMethod: 'searchSuppliers',
		}).map((field) => ({ ...field, displayOptions: { show: { supplierMode: ['existing'] } } })),
		{
			displayName: 'Supplier Name',
			name: 'supplierName',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Northwind Printing',
			description: 'Name of the new supplier',
			displayOptions: { show: { supplierMode: ['new'] } },
		},
		...recordLocator({
			name: 'costCenterId',
			label: 'Cost Center',
			description:
				'The cost center to charge: pick it from the list, or enter its ID (Cost Center → Get Many lists them)',
			placeholder: 'e.g. cc_001_0003',
			searchListMethod: 'searchCostCenters',
		}),
		customFieldsField,
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Delivery Notes Expected',
					name: 'deliveryNotesExpected',
					type: 'boolean',
					default: false,
					description: 'Whether the supplier is expected to send delivery notes',
				},
				{
					displayName: 'Description',
					name: 'description',
					type: 'string',
					default: '',
					placeholder: 'e.g. Printing, spring campaign',
					description: 'What the purchase order is for (at most 1,000 characters)',
				},
				itemsField,
			],
		},
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const required = readRequired(this, itemIndex);
		const { currency } = required.amount as { currency: string };
		const body = {
			...required,
			...readSupplier(this, itemIndex),
			...readAdditional(this, currency, itemIndex),
		};
		return async (company) => {
			const { body: answer } = await callSpendesk<IDataObject>(this, 'createPurchaseOrder', {
				company,
				itemIndex,
				body,
			});
			return { items: bodyItems(answer) };
		};
	},
};
