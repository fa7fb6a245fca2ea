import { MAX_WAIT_SECONDS, readMaxWaitSeconds } from '../sharedParams';
import { listOperation } from '../list';
import { payableFilterProperties, readPayableFilters } from './filters';

/** Default Max Wait: ten status checks at Spendesk's pace of one a minute. */
const SNAPSHOT_MAX_WAIT_SECONDS = 600;

export const getAllPayablesSnapshot = listOperation({
	value: 'getAllSnapshot',
	endpoint: 'getPayablesSnapshot',
	properties: [
		...payableFilterProperties,
		{
			displayName: 'Max Wait (Seconds)',
			name: 'maxWait',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_WAIT_SECONDS },
			default: SNAPSHOT_MAX_WAIT_SECONDS,
			description:
				'How long to wait for Spendesk to build the snapshot before failing. Spendesk allows one status check a minute, so allow several minutes.',
		},
	],
	request: (ctx, itemIndex) => ({
		body: readPayableFilters(ctx, itemIndex),
		snapshotMaxWaitMs:
			readMaxWaitSeconds(ctx, itemIndex, 'snapshot', SNAPSHOT_MAX_WAIT_SECONDS) * 1000,
	}),
});
