/** Supplier → Get Many, with the documented filters (docs/api.md#filters). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { readDateFilter } from '../dates';
import { dateFilter, textField } from '../listFilters';
import { listOperation } from '../list';
import { filtersCollection, readCollection } from '../sharedParams';
import { readIdList as idList, readText } from '../readers';

/** The filters as query parameters: dates as ISO date-times, Archived as isArchived true/false, texts as given. */
function readSupplierFilters(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = readCollection(ctx, 'filters', itemIndex);
	const archived = filters.archived;
	const date = (name: string, label: string) =>
		readDateFilter(ctx, itemIndex, filters[name], label);
	const text = (name: string, label: string, max: number) =>
		readText(ctx, itemIndex, filters[name], label, max);
	return {
		updatedAfter: date('updatedAfter', 'Updated After'),
		updatedBefore: date('updatedBefore', 'Updated Before'),
		createdAfter: date('createdAfter', 'Created After'),
		createdBefore: date('createdBefore', 'Created Before'),
		isArchived: archived === 'archived' ? 'true' : archived === 'active' ? 'false' : undefined,
		ids: idList(ctx, itemIndex, filters.ids, 'Supplier IDs')?.join(','),
		bankCountry: text('bankCountry', 'Bank Country', 2)?.toUpperCase(),
		iban: text('iban', 'IBAN', 60)?.replace(/\s+/g, '').toUpperCase(),
		vatNumber: text('vatNumber', 'VAT Number', 32)?.replace(/\s+/g, '').toUpperCase(),
	};
}

export const getAllSuppliers = listOperation({
	endpoint: 'listSuppliers',
	after: [
		filtersCollection([
			{
				displayName: 'Archived',
				name: 'archived',
				type: 'options',
				options: [
					{
						name: 'Active Only',
						value: 'active',
						description: 'Suppliers that are not archived',
					},
					{ name: 'Archived Only', value: 'archived', description: 'Archived suppliers' },
				],
				default: 'active',
				description:
					'Whether to list archived or active suppliers (both when this filter is not added)',
			},
			textField(
				'Bank Country',
				'bankCountry',
				'e.g. FR',
				"Only suppliers whose bank is in this country (two-letter code); without a recorded bank country, the IBAN's counts",
			),
			dateFilter('Created After', 'createdAfter', 'Only suppliers created after this date'),
			dateFilter('Created Before', 'createdBefore', 'Only suppliers created before this date'),
			textField(
				'IBAN',
				'iban',
				'e.g. FR76 3000 6000 0112 3456 7890 189',
				'Only the supplier with this IBAN (spaces allowed)',
			),
			textField(
				'Supplier IDs',
				'ids',
				'e.g. sup_001_0001, sup_001_0002',
				'Only these suppliers: their IDs, separated by commas',
			),
			dateFilter('Updated After', 'updatedAfter', 'Only suppliers changed after this date'),
			dateFilter('Updated Before', 'updatedBefore', 'Only suppliers changed before this date'),
			textField(
				'VAT Number',
				'vatNumber',
				'e.g. FR40303265045',
				'Only the suppliers with this VAT number',
			),
		]),
	],
	request: (ctx, itemIndex) => ({ qs: readSupplierFilters(ctx, itemIndex) }),
	output: 'supplier',
});
