/**
 * Purchase Order → Create (docs/api.md#purchase-orders), in the body a public client sent to the
 * vendor's sandbox: amounts in minor units, entered as decimals. Never repeated after a 5xx.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import { fieldValueLocators, recordLocator } from '../recordId';
import { collection, readCollection, repeatedFields } from '../sharedParams';
import type { SingleOperation } from '../types';
import {
	entriesOf,
	fail,
	readChoices,
	readCurrency,
	readFieldValues,
	readMoney,
	readPeriod,
	readRecordId,
	readText,
	shown,
} from '../readers';
import { textField } from '../listFilters';
import { supplierLocator } from '../supplier/fields';

/** User, amounts, period, cost center and custom fields: checked before any request. */
function readRequired(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const userId = readRecordId(
		ctx,
		itemIndex,
		'userId',
		"'User'",
		'Pick the user from the list, or give the ID of a member of the company, e.g. {{ $json.userId }} (User → Get Many lists them).',
	);
	const currency = readCurrency(ctx, itemIndex, ctx.getNodeParameter('currency', itemIndex, ''));
	const given = (name: string) => ctx.getNodeParameter(name, itemIndex, 0) as number;
	const amount = readMoney(ctx, itemIndex, given('amount'), 'Amount', currency, true);
	const netAmount = readMoney(ctx, itemIndex, given('netAmount'), 'Net Amount', currency);
	if (netAmount.amount > amount.amount)
		fail(
			ctx,
			itemIndex,
			`'Net Amount' (${given('netAmount')}) is more than 'Amount' (${given('amount')})`,
			"Give 'Net Amount' without taxes: at most 'Amount'.",
		);
	const { start: startDate, end: endDate } = readPeriod(
		ctx,
		itemIndex,
		['startDate', 'Start Date'],
		['endDate', 'End Date'],
		{ advice: "Set 'Start Date' on or before 'End Date'." },
	);
	const costCenterId = readRecordId(
		ctx,
		itemIndex,
		'costCenterId',
		"'Cost Center'",
		'Pick the cost center from the list, or give the ID of a cost center of the company (Cost Center → Get Many lists them).',
	);
	const customFields = entriesOf(ctx.getNodeParameter('customFields.field', itemIndex, []));
	const customFieldAssociations = readFieldValues(ctx, itemIndex, customFields, {
		at: (n) => `'Custom Fields' ${n}`,
		field: 'Field',
		remove: "it from 'Custom Fields'",
	}).map(({ fieldId, valueId }) => ({ customFieldId: fieldId, customFieldValueId: valueId }));
	return { userId, amount, netAmount, costCenterId, startDate, endDate, customFieldAssociations };
}

/** Exactly one of supplierId (Existing Supplier) and supplierName (New Supplier). */
function readSupplier(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const mode = ctx.getNodeParameter('supplierMode', itemIndex, 'existing');
	if (readChoices(ctx, itemIndex, mode, 'Supplier', ['existing', 'new'])?.[0] === 'new') {
		const name = readText(
			ctx,
			itemIndex,
			ctx.getNodeParameter('supplierName', itemIndex, ''),
			'Supplier Name',
			200,
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
			itemIndex,
			'supplierId',
			"'Supplier'",
			'Pick the supplier from the list, or give the ID of a supplier of the company (Supplier → Get Many lists them), or choose New Supplier and give its name.',
		),
	};
}

/** One line item: its name, quantity, unit price (in the currency) and VAT rate (%). */
function readItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	entry: IDataObject,
	label: string,
	currency: string,
): IDataObject {
	const name = readText(ctx, itemIndex, entry.name, `${label}, 'Name'`, 200);
	if (!name)
		fail(
			ctx,
			itemIndex,
			`${label}, 'Name' is empty`,
			"Name each line item, or remove it from 'Items'.",
		);
	const quantity = Number(entry.quantity ?? 1);
	if (!Number.isFinite(quantity) || quantity <= 0)
		fail(
			ctx,
			itemIndex,
			`${label}, 'Quantity' must be a number above 0; got ${shown(entry.quantity)}`,
			'Give how many units the line orders, e.g. 1 or 2.5.',
		);
	const vatRate = Number(entry.vatRate ?? 0);
	if (!Number.isFinite(vatRate) || vatRate < 0 || vatRate > 100)
		fail(
			ctx,
			itemIndex,
			`${label}, 'VAT Rate (%)' must be a percentage from 0 to 100; got ${shown(entry.vatRate)}`,
			'Give the VAT rate in percent, e.g. 20 for 20%.',
		);
	const unitPrice = readMoney(ctx, itemIndex, entry.unitPrice, `${label}, 'Unit Price'`, currency);
	return { name, quantity, unitPrice: { ...unitPrice }, vatRate };
}

/** Description, line items and delivery notes, when given. */
function readAdditional(ctx: IExecuteFunctions, currency: string, itemIndex: number): IDataObject {
	const extra = readCollection(ctx, 'additionalFields', itemIndex);
	const body: IDataObject = {};
	const description = readText(ctx, itemIndex, extra.description, 'Description', 1000);
	if (description) body.description = description;
	const items = entriesOf((extra.items as IDataObject | undefined)?.item);
	if (items.length > 100)
		fail(
			ctx,
			itemIndex,
			`'Items' holds ${items.length} line items; at most 100`,
			'Give at most 100 line items per purchase order.',
		);
	if (items.length)
		body.items = items.map((entry, n) =>
			readItem(ctx, itemIndex, entry, `'Item' ${n + 1}`, currency),
		);
	if (typeof extra.deliveryNotesExpected === 'boolean')
		body.deliveryNotesExpected = extra.deliveryNotesExpected;
	return body;
}

/** Custom Fields: each an analytical field (from the list or by ID) and the ID of one of its values. */
const customFieldsField: INodeProperties = repeatedFields(
	{
		displayName: 'Custom Fields',
		name: 'customFields',
		placeholder: 'Add Custom Field',
		description:
			'Values of analytical fields for the purchase order, one per field; Spendesk lists them as required, so none given is sent as an empty list',
	},
	{ displayName: 'Field', name: 'field' },
	fieldValueLocators('Field', 'e.g. af_001_002', 'e.g. afv_001_002_00007'),
);

const itemsField: INodeProperties = repeatedFields(
	{
		displayName: 'Items',
		name: 'items',
		placeholder: 'Add Item',
		description: 'The line items of the purchase order',
	},
	{ displayName: 'Item', name: 'item' },
	[
		textField('Name', 'name', 'e.g. Posters A2', 'What the line orders'),
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
);

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
		{
			displayName: 'Amount',
			name: 'amount',
			type: 'number',
			required: true,
			typeOptions: { minValue: 0 },
			default: 0,
			placeholder: 'e.g. 1200.50',
			description:
				'Total amount, taxes included, as a decimal number in the Currency, e.g. 1200.50 (not in cents): the node sends it to Spendesk in minor units',
		},
		{
			displayName: 'Net Amount',
			name: 'netAmount',
			type: 'number',
			required: true,
			typeOptions: { minValue: 0 },
			default: 0,
			placeholder: 'e.g. 1000.42',
			description:
				'Amount without taxes, as a decimal number in the Currency, e.g. 1000.42 (not in cents); at most Amount',
		},
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
		...supplierLocator(
			'The supplier of the purchase order: pick it from the list, or enter its ID (e.g. from an expression after Supplier → Get Many)',
		).map((field) => ({ ...field, displayOptions: { show: { supplierMode: ['existing'] } } })),
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
		collection('additionalFields', [
			{
				displayName: 'Delivery Notes Expected',
				name: 'deliveryNotesExpected',
				type: 'boolean',
				default: false,
				description: 'Whether the supplier is expected to send delivery notes',
			},
			textField(
				'Description',
				'description',
				'e.g. Printing, spring campaign',
				'What the purchase order is for (at most 1,000 characters)',
			),
			itemsField,
		]),
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
