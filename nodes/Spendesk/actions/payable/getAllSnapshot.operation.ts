/**
 * Payable → Get Many as Snapshot (value `getAllSnapshot`): Spendesk builds a complete,
 * consistent copy of the matching payables, then the node reads its pages
 * (docs/api.md#snapshots).
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { readChoice } from '../listFilters';
import {
	MAX_WAIT_SECONDS,
	numberOf,
	optionsCollection,
	readCollection,
	readMaxWaitSeconds,
} from '../sharedParams';
import { listOperation } from '../list';
import { withSimplify } from '../simplify';
import type { SingleOperation } from '../types';
import { payableFilterProperties, readPayableFilters } from './filters';

/** Default Max Wait: ten status checks at Spendesk's pace of one a minute. */
const SNAPSHOT_MAX_WAIT_SECONDS = 600;

/**
 * Max Wait (Seconds), in Options. Earlier versions had it as a top-level parameter `maxWait`:
 * n8n drops saved values of parameters the node no longer describes, so `maxWait` stays, hidden,
 * and is read when Options has no Max Wait (a saved workflow keeps its wait).
 */
function readSnapshotMaxWait(ctx: IExecuteFunctions, itemIndex: number): number {
	const options = readCollection(ctx, 'options', itemIndex);
	const raw = options.maxWait as unknown;
	if (raw === undefined || raw === null || raw === '')
		return readMaxWaitSeconds(ctx, itemIndex, 'snapshot', SNAPSHOT_MAX_WAIT_SECONDS);
	const seconds = numberOf(raw);
	if (!Number.isFinite(seconds) || seconds < 1 || seconds > MAX_WAIT_SECONDS) {
		const got = typeof raw === 'string' ? `"${raw}"` : String(raw);
		throw new NodeOperationError(
			ctx.getNode(),
			`Max Wait (Seconds) must be a number of seconds from 1 to ${MAX_WAIT_SECONDS}; got ${got}`,
			{
				description: `Enter how long to wait for Spendesk to build the snapshot, e.g. ${SNAPSHOT_MAX_WAIT_SECONDS}. An expression must give a number.`,
				itemIndex,
			},
		);
	}
	return seconds;
}

/** Sort By and Sort Order of Options, as the snapshot's `sortBy` and `sortOrder` (docs/api.md#filters). */
function readSort(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const options = readCollection(ctx, 'options', itemIndex);
	const sortBy = readChoice(ctx, itemIndex, options.sortBy, 'Sort By', [
		'createdAt',
		'payableDate',
	]);
	const sortOrder = readChoice(ctx, itemIndex, options.sortOrder, 'Sort Order', ['asc', 'desc']);
	return { ...(sortBy ? { sortBy } : {}), ...(sortOrder ? { sortOrder } : {}) };
}

export const getAllPayablesSnapshot = withSimplify(
	listOperation({
		value: 'getAllSnapshot',
		endpoint: 'getPayablesSnapshot',
		after: [
			...payableFilterProperties,
			optionsCollection([
				{
					displayName: 'Max Wait (Seconds)',
					name: 'maxWait',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: MAX_WAIT_SECONDS },
					default: SNAPSHOT_MAX_WAIT_SECONDS,
					description:
						'How long to wait for Spendesk to build the snapshot before stopping. Spendesk allows one status check a minute, so allow several minutes.',
				},
				{
					displayName: 'Sort By',
					name: 'sortBy',
					type: 'options',
					options: [
						{ name: 'Created At', value: 'createdAt' },
						{ name: 'Payable Date', value: 'payableDate' },
					],
					default: 'createdAt',
					description: 'The date the payables are listed by',
				},
				{
					displayName: 'Sort Order',
					name: 'sortOrder',
					type: 'options',
					options: [
						{ name: 'Ascending', value: 'asc', description: 'Oldest first' },
						{ name: 'Descending', value: 'desc', description: 'Newest first' },
					],
					default: 'asc',
					description: 'Whether the oldest or the newest payables come first',
				},
			]),
			{
				displayName: 'Max Wait (Seconds)',
				name: 'maxWait',
				type: 'hidden',
				default: SNAPSHOT_MAX_WAIT_SECONDS,
			},
		],
		request: (ctx, itemIndex) => ({
			body: { ...readPayableFilters(ctx, itemIndex), ...readSort(ctx, itemIndex) },
			snapshotMaxWaitMs: readSnapshotMaxWait(ctx, itemIndex) * 1000,
		}),
	}) as SingleOperation,
	'payable',
);
