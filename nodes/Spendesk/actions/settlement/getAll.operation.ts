/** Settlement → Get Many, filtered as Spendesk documents it (docs/api.md#filters). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { readDateFilter } from '../dates';
import { listOperation } from '../list';
import { dateFilter, textField, sortCollection, sortDirection } from '../listFilters';
import { filtersCollection, readCollection } from '../sharedParams';
import { readChoices, readIdList, readSortRule } from '../readers';

const PAID_FROM = ['externalAccount', 'spendeskAccount'];
const STATES = ['created', 'exported', 'failedToExport'];
/** The list's order by creation date (docs/api.md#filters): oldest first unless asked. */
const SORTS = { asc: '+createdAt', desc: '-createdAt' } as const;

/** The Sort rule's direction as the list's `sort`; none: Spendesk's order. */
const sortOf = (direction?: 'asc' | 'desc') => (direction ? SORTS[direction] : undefined);

function readSettlementFilters(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = readCollection(ctx, 'filters', itemIndex);
	return {
		exportedAfter: readDateFilter(ctx, itemIndex, filters.exportedAfter, 'Exported After'),
		// Several values as the parameter repeated (`state=exported&state=failedToExport`), as
		// Spendesk's settlements list reads them (docs/api.md#filters).
		paidFrom: readChoices(ctx, itemIndex, filters.paidFrom, 'Paid From', PAID_FROM),
		state: readChoices(ctx, itemIndex, filters.bookkeepingStatus, 'Bookkeeping Status', STATES),
		ids: readIdList(ctx, itemIndex, filters.ids, 'Settlement IDs'),
		sort: sortOf(readSortRule(ctx, itemIndex).direction),
	};
}

export const getAllSettlements = listOperation({
	endpoint: 'listSettlements',
	after: [
		filtersCollection([
			{
				displayName: 'Bookkeeping Status',
				name: 'bookkeepingStatus',
				type: 'multiOptions',
				options: [
					{ name: 'Created', value: 'created' },
					{ name: 'Exported', value: 'exported' },
					{ name: 'Failed to Export', value: 'failedToExport' },
				],
				default: [],
				description: 'Only settlements with these bookkeeping statuses',
			},
			dateFilter(
				'Exported After',
				'exportedAfter',
				'Only settlements first exported after this date',
			),
			{
				displayName: 'Paid From',
				name: 'paidFrom',
				type: 'multiOptions',
				options: [
					{ name: 'External Account', value: 'externalAccount' },
					{ name: 'Spendesk Account', value: 'spendeskAccount' },
				],
				default: [],
				description: 'Only settlements paid from these accounts',
			},
			textField(
				'Settlement IDs',
				'ids',
				'e.g. set_001_0001, set_001_0002',
				'Only these settlements: their IDs, separated by commas',
			),
		]),
		sortCollection(
			"The order of the settlements by creation date; without a rule, Spendesk's own order (oldest first)",
			[
				// One field only: settlements are sorted by creation date.
				sortDirection('settlements'),
			],
		),
	],
	request: (ctx, itemIndex) => ({ qs: readSettlementFilters(ctx, itemIndex) }),
	output: 'settlement',
});
