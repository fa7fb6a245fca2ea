import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';
import { listOperation } from '../list';
import { payableFilterProperties, readPayableFilters } from './filters';

const MAX_WAIT_SECONDS = 3600;

/**
 * Max Wait in seconds, checked: a number (or a numeric text, from an expression) from 1 to
 * 3600. Anything else fails naming the field, before any request.
 */
function readMaxWait(ctx: IExecuteFunctions, itemIndex: number): number {
	const raw = ctx.getNodeParameter('maxWait', itemIndex, 300) as unknown;
	const seconds = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
	if (!Number.isFinite(seconds) || seconds < 1 || seconds > MAX_WAIT_SECONDS) {
		const got = typeof raw === 'string' ? `"${raw}"` : String(raw);
		throw new NodeOperationError(ctx.getNode(), `Max Wait (Seconds) must be a number of seconds from 1 to ${MAX_WAIT_SECONDS}; got ${got}`, {
			description: 'Enter how long to wait for Spendesk to build the snapshot, e.g. 300. An expression must give a number.',
			itemIndex,
		});
	}
	return seconds;
}

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
		snapshotMaxWaitMs: readMaxWait(ctx, itemIndex) * 1000,
	}),
});
