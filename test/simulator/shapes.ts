/**
 * Answer shapes shared by the simulator's routes (docs/api.md#variations): single objects,
 * wrapped in `data` as decided here or bare as the vendor's payable answers them, and
 * amounts in minor units.
 */
import type { HandlerResult, RequestContext } from './server';

/** One object as the answer: `{ data: object }`, or the object bare under the `bareObject` fault. */
export function singleBody(ctx: RequestContext, object: unknown, status = 200): HandlerResult {
	return { status, body: ctx.fault === 'bareObject' ? object : { data: object } };
}

/** An amount in major units (12.34) in minor units (1234), as the documented payable answers carry them. */
export const minorUnits = (major: number): number => Math.round(major * 100);
