import { listOperation } from '../list';
import { payableFilterProperties, readPayableFilters } from './filters';

export const getAllPayablesSnapshot = listOperation({
	value: 'getAllSnapshot',
	option: {
		name: 'Get Many (Snapshot)',
		action: 'Get many payables via a snapshot',
		description: 'Build a payables snapshot, wait until it is complete, and return its pages (POST then GET /v1/snapshots/payables)',
	},
	endpoint: 'getPayablesSnapshot',
	properties: [
		...payableFilterProperties,
		{
			displayName: 'Max Wait (Seconds)',
			name: 'maxWait',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 3600 },
			default: 300,
			description: 'How long to wait for Spendesk to build the snapshot before failing',
		},
	],
	request: (ctx, itemIndex) => ({
		body: readPayableFilters(ctx, itemIndex),
		snapshotMaxWaitMs: (ctx.getNodeParameter('maxWait', itemIndex, 300) as number) * 1000,
	}),
});
