/** Payable → Get Many as Snapshot: Spendesk builds a consistent copy, then the node reads its pages (docs/api.md#snapshots). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { sortCollection, sortDirection } from '../listFilters';
import { maxWaitOption, optionsCollection, readMaxWaitMs } from '../sharedParams';
import { listOperation } from '../list';
import { payableFilterProperties, readPayableFilters } from './filters';
import { readSortRule } from '../readers';

/** Default Max Wait: ten status checks at Spendesk's pace of one a minute. */
const SNAPSHOT_MAX_WAIT_SECONDS = 600;

/** The Sort rule, as the snapshot's `sortBy` and `sortOrder` (docs/api.md#filters); none: Spendesk's order. */
function readSort(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const { field, direction } = readSortRule(ctx, itemIndex, ['createdAt', 'payableDate']);
	return { ...(field ? { sortBy: field } : {}), ...(direction ? { sortOrder: direction } : {}) };
}

export const getAllPayablesSnapshot = listOperation({
	value: 'getAllSnapshot',
	endpoint: 'getPayablesSnapshot',
	after: [
		...payableFilterProperties,
		optionsCollection([
			maxWaitOption(
				SNAPSHOT_MAX_WAIT_SECONDS,
				'How long to wait for Spendesk to build the snapshot before stopping. Spendesk allows one status check a minute: the node checks at once, then every minute, the last check at the first minute that reaches this wait (below 60, after one minute). Allow several minutes.',
			),
		]),
		sortCollection("The order of the payables; without a rule, Spendesk's own order", [
			{
				displayName: 'Field',
				name: 'field',
				type: 'options',
				options: [
					{ name: 'Creation Date', value: 'createdAt' },
					{ name: 'Payable Date', value: 'payableDate' },
				],
				default: 'createdAt',
				description: 'The date the payables are listed by',
			},
			sortDirection('payables'),
		]),
	],
	request: (ctx, itemIndex) => ({
		body: { ...readPayableFilters(ctx, itemIndex), ...readSort(ctx, itemIndex) },
		snapshotMaxWaitMs: readMaxWaitMs(ctx, itemIndex, 'snapshot', SNAPSHOT_MAX_WAIT_SECONDS),
	}),
	output: 'payable',
});
