import { MAX_WAIT_SECONDS, readMaxWaitSeconds } from '../sharedParams';
import { listOperation } from '../list';
import { payableFilterProperties, readPayableFilters } from './filters';

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
			default: 300,
			description: 'How long to wait for Spendesk to build the snapshot before failing',
		},
	],
	request: (ctx, itemIndex) => ({
		body: readPayableFilters(ctx, itemIndex),
		snapshotMaxWaitMs: readMaxWaitSeconds(ctx, itemIndex, 'snapshot') * 1000,
	}),
});
