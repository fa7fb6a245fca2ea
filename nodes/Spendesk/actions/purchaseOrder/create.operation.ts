/**
 * Purchase Order → Create: one purchase order per input item (docs/api.md#purchase-orders),
 * for a user of the company, an amount, a period, and an existing supplier (by ID) or a new one
 * (by name). Checked before any request; never repeated after a 5xx or a dropped connection
 * (the catalogue entry is not idempotent), since a replay would create a second one.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/strategy';
import { callSpendesk } from '../../transport/request';
import { expressionDate, impossibleDate } from '../dates';
import { readRecordId, recordLocator } from '../recordId';
import type { SingleOperation } from '../types';
import { fail, readText } from '../writeFields';
import { readCollection } from '../sharedParams';
import { isoTime } from '../../transport/timeText';

/** An amount in the company's currency (major units): a number, or its digits as text. */
function readAmount(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	min: number,
	itemIndex: number,
): number {
	const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : raw;
	if (typeof value !== 'number' || !Number.isFinite(value) || value < min)
		fail(
			ctx,
			itemIndex,
			`${label} must be a number of at least ${min}; got ${typeof raw === 'string' ? `"${raw.slice(0, 40)}"` : String(raw)}`,
			`Enter '${label}' in the company's currency, e.g. 1200.50 (not in cents).`,
		);
	// Past this the amount in cents is no longer exact (and from 1.8e306 it would be sent as null).
	if (value * 100 > Number.MAX_SAFE_INTEGER)
		fail(
			ctx,
			itemIndex,
			`${label} is too large to send exactly; got ${String(raw).slice(0, 40)}`,
			`Enter '${label}' in the company's currency, at most ${Math.floor(Number.MAX_SAFE_INTEGER / 100)}.`,
		);
	return Math.round(value * 100) / 100;
}

/** A day (YYYY-MM-DD) from a date field: the calendar day as picked, whatever the time zone. */
function readDay(ctx: IExecuteFunctions, raw: unknown, label: string, itemIndex: number): string {
	// A Date as its UTC day (an invalid one as its text), a Luxon DateTime as its ISO text.
	const given = raw instanceof Date ? (isoTime(raw.getTime()) ?? String(raw)) : expressionDate(raw);
	const text = typeof given === 'string' ? given.trim() : '';
	const day = /^\d{4}-\d{2}-\d{2}/.exec(text)?.[0];
	const impossible = day ? impossibleDate(day) : undefined;
	if (!day || impossible)
		fail(
			ctx,
			itemIndex,
			`${label} is not a date${impossible ? `: ${impossible}` : text ? `: "${text.slice(0, 40)}"` : ''}`,
			`Pick a date in '${label}', or give one as YYYY-MM-DD, e.g. 2026-03-31.`,
		);
	return day;
}

/** User, amount and period: checked before any request. */
function readRequired(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const userId = readRecordId(
		ctx,
		'userId',
		'User ID',
		itemIndex,
		'Pick the user from the list, or give the ID of a member of the company, e.g. {{ $json.userId }} (User → Get Many lists them).',
	);
	const amount = readAmount(
		ctx,
		ctx.getNodeParameter('amount', itemIndex, 0),
		'Amount',
		0.01,
		itemIndex,
	);
	const startDate = readDay(
		ctx,
		ctx.getNodeParameter('startDate', itemIndex, ''),
		'Start Date',
		itemIndex,
	);
	const endDate = readDay(
		ctx,
		ctx.getNodeParameter('endDate', itemIndex, ''),
		'End Date',
		itemIndex,
	);
	if (startDate > endDate)
		fail(
			ctx,
			itemIndex,
			`Start Date (${startDate}) is after End Date (${endDate})`,
			"Set 'Start Date' on or before 'End Date'.",
		);
	return { userId, amount, startDate, endDate };
}

/** Exactly one of supplierId (Existing Supplier) and supplierName (New Supplier). */
function readSupplier(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const mode = ctx.getNodeParameter('supplierMode', itemIndex, 'id') as string;
	if (mode === 'name') {
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
				'Supplier Name is empty',
				"Give the new supplier's name, or choose Existing Supplier and give its ID.",
			);
		return { supplierName: name };
	}
	return {
		supplierId: readRecordId(
			ctx,
			'supplierId',
			'Supplier ID',
			itemIndex,
			'Pick the supplier from the list, or give the ID of a supplier of the company (Supplier → Get Many lists them), or choose New Supplier and give its name.',
		),
	};
}

/** Net amount, cost center and custom fields, when given. */
function readAdditional(ctx: IExecuteFunctions, amount: number, itemIndex: number): IDataObject {
	const extra = readCollection(ctx, 'additionalFields', itemIndex);
	const body: IDataObject = {};
	if (extra.netAmount !== undefined && extra.netAmount !== '') {
		const netAmount = readAmount(ctx, extra.netAmount, 'Net Amount', 0, itemIndex);
		if (netAmount > amount)
			fail(
				ctx,
				itemIndex,
				`Net Amount (${netAmount}) is more than Amount (${amount})`,
				"Give 'Net Amount' without taxes: at most 'Amount'.",
			);
		body.netAmount = netAmount;
	}
	const costCenterId = readText(ctx, extra.costCenterId, 'Cost Center ID', 128, itemIndex);
	if (costCenterId) body.costCenterId = costCenterId;
	const fields = ((extra.customFields as IDataObject | undefined)?.field ?? []) as IDataObject[];
	if (fields.length)
		body.customFieldAssociations = fields.map((pair, n) => {
			const label = `Custom Field ${n + 1}`;
			const fieldId = readText(ctx, pair.fieldId, `${label}: Field ID`, 128, itemIndex);
			const valueId = readText(ctx, pair.valueId, `${label}: Value ID`, 128, itemIndex);
			if (!fieldId || !valueId)
				fail(
					ctx,
					itemIndex,
					`${label} needs both a Field ID and a Value ID`,
					"Fill in both IDs of each custom field, or remove it from 'Custom Fields'.",
				);
			return { fieldId, valueId };
		});
	return body;
}

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
			displayName: 'Amount',
			name: 'amount',
			type: 'number',
			required: true,
			typeOptions: { minValue: 0.01, numberPrecision: 2 },
			default: 0,
			placeholder: 'e.g. 1200.50',
			description: "Total amount in the company's currency, taxes included (not in cents)",
		},
		{
			displayName: 'Start Date',
			name: 'startDate',
			type: 'dateTime',
			required: true,
			default: '',
			description: 'First day of the period the purchase order covers',
		},
		{
			displayName: 'End Date',
			name: 'endDate',
			type: 'dateTime',
			required: true,
			default: '',
			description: 'Last day of the period the purchase order covers',
		},
		{
			displayName: 'Supplier',
			name: 'supplierMode',
			type: 'options',
			options: [
				{
					name: 'Existing Supplier',
					value: 'id',
					description: 'A supplier Spendesk already knows, from the list or by its ID',
				},
				{
					name: 'New Supplier',
					value: 'name',
					description: 'A supplier not in Spendesk yet, by its name',
				},
			],
			default: 'id',
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
		}).map((field) => ({ ...field, displayOptions: { show: { supplierMode: ['id'] } } })),
		{
			displayName: 'Supplier Name',
			name: 'supplierName',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Northwind Printing',
			description: 'Name of the new supplier',
			displayOptions: { show: { supplierMode: ['name'] } },
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Cost Center ID',
					name: 'costCenterId',
					type: 'string',
					default: '',
					placeholder: 'e.g. cc_001_0003',
					description: 'ID of the cost center to charge (Cost Center → Get Many lists them)',
				},
				{
					displayName: 'Custom Fields',
					name: 'customFields',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					placeholder: 'Add Custom Field',
					default: {},
					description: 'Analytical field values to attach, one per field',
					options: [
						{
							displayName: 'Field',
							name: 'field',
							values: [
								{
									displayName: 'Field ID',
									name: 'fieldId',
									type: 'string',
									default: '',
									placeholder: 'e.g. af_001_002',
									description:
										'ID of the analytical field (Analytical Field → Get Many lists them)',
								},
								{
									displayName: 'Value ID',
									name: 'valueId',
									type: 'string',
									default: '',
									placeholder: 'e.g. afv_001_002_00007',
									description:
										'ID of one of its values (Analytical Field → Get Many Values lists them)',
								},
							],
						},
					],
				},
				{
					displayName: 'Net Amount',
					name: 'netAmount',
					type: 'number',
					typeOptions: { minValue: 0, numberPrecision: 2 },
					default: 0,
					placeholder: 'e.g. 1000.42',
					description:
						"Amount without taxes, in the company's currency; at most Amount (Spendesk takes Amount when it is not given)",
				},
			],
		},
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const body = {
			...readRequired(this, itemIndex),
			...readSupplier(this, itemIndex),
		};
		Object.assign(body, readAdditional(this, body.amount as number, itemIndex));
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
