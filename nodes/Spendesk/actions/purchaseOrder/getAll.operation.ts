/** Purchase Order → Get Many (docs/api.md#purchase-orders). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { readDateFilter } from '../dates';
import { listOperation } from '../list';
import { dateFilter } from '../listFilters';
import { filtersCollection, optionsCollection, readCollection } from '../sharedParams';
import { fail } from '../readers';

const STATUSES = ['cancelled', 'closed', 'open'];

function readQuery(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = readCollection(ctx, 'filters', itemIndex);
	const options = readCollection(ctx, 'options', itemIndex);
	const createdFrom = readDateFilter(ctx, itemIndex, filters.createdFrom, 'Created From');
	const createdTo = readDateFilter(ctx, itemIndex, filters.createdTo, 'Created To');
	if (createdFrom && createdTo && createdFrom > createdTo)
		fail(
			ctx,
			itemIndex,
			`'Created From' (${createdFrom}) is after 'Created To' (${createdTo})`,
			"Set 'Created From' to a date on or before 'Created To', or leave one empty.",
		);
	const raw = filters.status ?? [];
	const status = (Array.isArray(raw) ? raw : [raw]).map((s) => String(s).trim().toLowerCase());
	const unknown = status.find((s) => !STATUSES.includes(s));
	if (unknown !== undefined)
		fail(
			ctx,
			itemIndex,
			`'Status': "${unknown.slice(0, 40)}" is not a purchase order status`,
			"Choose Open, Closed or Cancelled in 'Status' (an expression must give open, closed or cancelled).",
		);
	return {
		...(createdFrom ? { createdFrom } : {}),
		...(createdTo ? { createdTo } : {}),
		// Several statuses as one comma-separated value: the same whatever n8n's query encoding.
		...(status.length ? { status: status.join(',') } : {}),
		...(options.withItems === true ? { withItems: 'true' } : {}),
	};
}

export const getAllPurchaseOrders = listOperation({
	endpoint: 'listPurchaseOrders',
	after: [
		filtersCollection([
			dateFilter(
				'Created From',
				'createdFrom',
				'Only purchase orders created on or after this date',
			),
			dateFilter('Created To', 'createdTo', 'Only purchase orders created on or before this date'),
			{
				displayName: 'Status',
				name: 'status',
				type: 'multiOptions',
				options: [
					{ name: 'Cancelled', value: 'cancelled', description: 'Cancelled before use' },
					{ name: 'Closed', value: 'closed', description: 'Closed: no more spending against it' },
					{ name: 'Open', value: 'open', description: 'Open: spending can go against it' },
				],
				default: [],
				description: 'Only purchase orders in these statuses (every status when none is chosen)',
			},
		]),
		optionsCollection([
			{
				displayName: 'With Items',
				name: 'withItems',
				type: 'boolean',
				default: false,
				description: "Whether to include each purchase order's line items",
			},
		]),
	],
	request: (ctx, itemIndex) => ({ qs: readQuery(ctx, itemIndex) }),
	output: 'purchaseOrder',
});
