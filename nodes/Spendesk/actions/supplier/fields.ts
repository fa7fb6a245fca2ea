/** The supplier fields the write operations send (name, bank details, VAT number, external ID), read and checked before any request. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { readBic, readIban, readText } from '../writeFields';

/** The optional supplier fields, as options of a collection (Additional Fields, Update Fields). */
export const supplierFieldOptions: INodeProperties[] = [
	{
		displayName: 'BIC',
		name: 'bic',
		type: 'string',
		default: '',
		placeholder: 'e.g. BNPAFRPP',
		description: "BIC (SWIFT code) of the supplier's bank: 8 or 11 characters",
	},
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		default: '',
		description: "The supplier's ID in your accounting system (at most 128 characters)",
	},
	{
		displayName: 'IBAN',
		name: 'iban',
		type: 'string',
		default: '',
		placeholder: 'e.g. FR76 3000 6000 0112 3456 7890 189',
		description: "IBAN of the supplier's bank account (spaces allowed)",
	},
	{
		displayName: 'VAT Number',
		name: 'vatNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. FR40303265045',
		description: "The supplier's VAT number (at most 32 characters)",
	},
];

/** The optional fields of a collection, checked; `keepEmpty` gives a field left empty as null (cleared). */
export function readSupplierFields(
	ctx: IExecuteFunctions,
	fields: IDataObject,
	itemIndex: number,
	keepEmpty: boolean,
): IDataObject {
	const out: IDataObject = {};
	const checked: Record<string, (value: unknown) => string | undefined> = {
		iban: (v) => readIban(ctx, v, itemIndex),
		bic: (v) => readBic(ctx, v, itemIndex),
		vatNumber: (v) =>
			readText(ctx, v, 'VAT Number', 32, itemIndex)?.replace(/\s+/g, '').toUpperCase(),
		externalId: (v) => readText(ctx, v, 'External ID', 128, itemIndex),
	};
	for (const [name, read] of Object.entries(checked)) {
		if (!(name in fields)) continue;
		const value = read(fields[name]);
		if (value !== undefined) out[name] = value;
		else if (keepEmpty) out[name] = null;
	}
	return out;
}
