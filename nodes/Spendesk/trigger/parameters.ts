/** The trigger's parameters, checked before any request: an expression may give any value. */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { expressionDate, numberOf } from '../values/expression';
import { time } from './cursorState';
import type { TriggerEvent } from './cursorState';

export interface TriggerParameters {
	event: TriggerEvent;
	overlapMs: number;
}

export const DEFAULT_OVERLAP_MINUTES = 5;
export const MAX_OVERLAP_MINUTES = 1_440;
/** The smallest overlap (0 included): an invoice visible late on the cursor's own `updatedAt` is re-read only by an overlap. */
export const MIN_OVERLAP_MS = 1_000;

/** A parameter value as a message may show it: short, and never more than the user typed. */
function shown(value: unknown): string {
	if (typeof value === 'string')
		return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : typeof value;
}

function overlapMinutes(ctx: IPollFunctions): number {
	const options = ctx.getNodeParameter('options', {}) as unknown;
	const raw =
		options && typeof options === 'object' ? (options as IDataObject).overlapMinutes : undefined;
	if (raw === undefined || raw === null) return DEFAULT_OVERLAP_MINUTES;
	const value = numberOf(raw);
	if (!Number.isFinite(value) || value < 0 || value > MAX_OVERLAP_MINUTES) {
		throw new NodeOperationError(
			ctx.getNode(),
			`'Overlap Window (Minutes)' must be a number of minutes from 0 to ${MAX_OVERLAP_MINUTES}; got ${shown(raw)}`,
			{
				description: `Enter a number such as ${DEFAULT_OVERLAP_MINUTES} (an expression must return a number, without a unit).`,
			},
		);
	}
	return value;
}

export function readTriggerParameters(ctx: IPollFunctions): TriggerParameters {
	const event = ctx.getNodeParameter('event', 'newInvoice') as unknown;
	if (event !== 'newInvoice' && event !== 'newOrUpdatedInvoice') {
		throw new NodeOperationError(
			ctx.getNode(),
			`'Trigger On' must be "New Invoice" or "New or Updated Invoice"; got ${shown(event)}`,
			{
				description:
					"Choose the event in 'Trigger On'; an expression must return newInvoice or newOrUpdatedInvoice.",
			},
		);
	}
	return { event, overlapMs: Math.max(overlapMinutes(ctx) * 60_000, MIN_OVERLAP_MS) };
}

/** Where the first poll of each company starts, before activation: the Since date, or now. */
export function firstPollStart(
	ctx: IPollFunctions,
	initialized: boolean,
): { start: number; fromDate: boolean } {
	const startFrom = initialized ? 'now' : (ctx.getNodeParameter('startFrom', 'now') as unknown);
	if (startFrom !== 'now' && startFrom !== 'date') {
		throw new NodeOperationError(
			ctx.getNode(),
			`'Start From' must be "Now" or "A Date"; got ${shown(startFrom)}`,
			{ description: "Choose 'Start From' from the list; an expression must return now or date." },
		);
	}
	if (startFrom === 'now') return { start: Date.now(), fromDate: false };
	// A Date or a Luxon DateTime from an expression too, as the node's date fields take them.
	const start = time(expressionDate(ctx.getNodeParameter('since', '') as unknown));
	if (start === undefined) {
		throw new NodeOperationError(ctx.getNode(), "'Since' is not a valid date", {
			description: 'Enter the date from which invoices are emitted.',
		});
	}
	if (start > Date.now()) {
		throw new NodeOperationError(
			ctx.getNode(),
			`'Since' lies in the future (${new Date(start).toISOString()})`,
			{
				description:
					"Enter a date in the past. To emit only the invoices that appear after activation, set 'Start From' to Now.",
			},
		);
	}
	return { start, fromDate: true };
}
