/** The supplier fields, in Spendesk's documented nested shape (docs/api.md#bulk-writes): it refuses any other. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { readBic, readCountry, readEmail, readIban, readText } from '../readers';
import { textField } from '../listFilters';
import { recordLocator } from '../recordId';

export const ID_HINT =
	'Pick the supplier from the list, or give its ID, usually from an expression such as {{ $json.id }}.';

/** The Supplier field of a write, From List or By ID. */
export const supplierLocator = (description: string): INodeProperties[] =>
	recordLocator({
		name: 'supplierId',
		label: 'Supplier',
		description,
		placeholder: 'e.g. sup_001_00042',
		searchListMethod: 'searchSuppliers',
	});

/** The optional supplier fields, as options of a collection (Additional Fields, Update Fields). */
export const supplierFieldOptions: INodeProperties[] = [
	textField(
		'Address',
		'address',
		'e.g. 1 rue de la Paix',
		'Street address of the supplier (at most 300 characters)',
	),
	textField(
		'Bank Country',
		'bankCountry',
		'e.g. FR',
		"Country of the supplier's bank, as a two-letter code (ISO 3166)",
	),
	textField(
		'BIC',
		'bic',
		'e.g. BNPAFRPP',
		"BIC (SWIFT code) of the supplier's bank: 8 or 11 characters",
	),
	textField('City', 'city', 'e.g. Paris', 'City of the supplier (at most 100 characters)'),
	textField(
		'Country',
		'country',
		'e.g. FR',
		'Country of the supplier, as a two-letter code (ISO 3166)',
	),
	{
		displayName: 'Email',
		name: 'primaryEmail',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: "The supplier's main email address",
	},
	textField(
		'IBAN',
		'iban',
		'e.g. FR76 3000 6000 0112 3456 7890 189',
		"IBAN of the supplier's bank account (spaces allowed)",
	),
	textField(
		'Legal Name',
		'legalName',
		'e.g. Office Depot France SAS',
		"The supplier's registered company name (at most 200 characters)",
	),
	textField(
		'Registration Number',
		'registrationNumber',
		'e.g. 303265045',
		"The supplier's company registration number, e.g. SIREN (at most 64 characters)",
	),
	textField(
		'VAT Number',
		'vatNumber',
		'e.g. FR40303265045',
		"The supplier's VAT number (at most 32 characters)",
	),
	textField(
		'Zip Code',
		'zipcode',
		'e.g. 75002',
		'Postal code of the supplier (at most 20 characters)',
	),
];

type Reader = (ctx: IExecuteFunctions, itemIndex: number, value: unknown) => string | undefined;
const text =
	(label: string, max: number): Reader =>
	(ctx, itemIndex, value) =>
		readText(ctx, itemIndex, value, label, max);

/** Where each field goes in the nested shape, and how it is read. */
const FIELDS: Record<string, { at: 'top' | 'supplierDetails' | 'bankInfo'; read: Reader }> = {
	primaryEmail: { at: 'top', read: readEmail },
	legalName: { at: 'supplierDetails', read: text('Legal Name', 200) },
	vatNumber: {
		at: 'supplierDetails',
		read: (ctx, i, v) => readText(ctx, i, v, 'VAT Number', 32)?.replace(/\s+/g, '').toUpperCase(),
	},
	country: { at: 'supplierDetails', read: (ctx, i, v) => readCountry(ctx, i, v, 'Country') },
	city: { at: 'supplierDetails', read: text('City', 100) },
	zipcode: { at: 'supplierDetails', read: text('Zip Code', 20) },
	address: { at: 'supplierDetails', read: text('Address', 300) },
	registrationNumber: { at: 'supplierDetails', read: text('Registration Number', 64) },
	iban: { at: 'bankInfo', read: readIban },
	bic: { at: 'bankInfo', read: readBic },
	bankCountry: { at: 'bankInfo', read: (ctx, i, v) => readCountry(ctx, i, v, 'Bank Country') },
};

/** The optional fields in the nested shape; `keepEmpty` gives a field left empty as null. */
export function readSupplierFields(
	ctx: IExecuteFunctions,
	fields: IDataObject,
	itemIndex: number,
	keepEmpty: boolean,
): IDataObject {
	const out: IDataObject = {};
	const nested: Record<'supplierDetails' | 'bankInfo', IDataObject> = {
		supplierDetails: {},
		bankInfo: {},
	};
	for (const [name, { at, read }] of Object.entries(FIELDS)) {
		if (!(name in fields)) continue;
		const value = read(ctx, itemIndex, fields[name]);
		const target = at === 'top' ? out : nested[at];
		if (value !== undefined) target[name] = value;
		else if (keepEmpty) target[name] = null;
	}
	for (const key of ['supplierDetails', 'bankInfo'] as const)
		if (Object.keys(nested[key]).length) out[key] = nested[key];
	return out;
}
