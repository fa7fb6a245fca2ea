/**
 * Query parameters of the documented filters (docs/api.md#filters): lists given as repeats
 * (`state=a&state=b`), with brackets (`state[]=a`) or comma-separated (`ids=a,b`), dates and
 * booleans. Anything malformed is a 400 naming the parameter.
 */
import { SimError } from './paging';
import type { RequestContext } from './server';

/** The values of a list parameter, whichever way they were written; undefined when absent. */
export function listParam(ctx: RequestContext, name: string): string[] | undefined {
	const raw = [...ctx.searchParams.getAll(name), ...ctx.searchParams.getAll(`${name}[]`)];
	const values = raw
		.flatMap((v) => v.split(','))
		.map((v) => v.trim())
		.filter(Boolean);
	return values.length > 0 ? values : undefined;
}

/** A list parameter whose values must be among `allowed`. */
export function enumListParam(
	ctx: RequestContext,
	name: string,
	allowed: readonly string[],
): string[] | undefined {
	const values = listParam(ctx, name);
	const wrong = values?.find((v) => !allowed.includes(v));
	if (wrong !== undefined)
		throw new SimError(
			400,
			'invalid_parameter',
			`${name} must be among ${allowed.join(', ')} (got ${wrong})`,
			`query.${name}`,
		);
	return values;
}

/** An ISO 8601 date or date-time as ms since epoch; absent gives undefined, anything else is a 400. */
export function dateValue(raw: unknown, name: string, source: string): number | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	const at =
		typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN;
	if (Number.isNaN(at))
		throw new SimError(
			400,
			'invalid_parameter',
			`${name} must be an ISO 8601 date or date-time`,
			`${source}.${name}`,
		);
	return at;
}

/** A date query parameter (see dateValue). */
export function dateQuery(ctx: RequestContext, name: string): number | undefined {
	return dateValue(ctx.query[name], name, 'query');
}

/** A boolean query parameter: "true" or "false"; absent gives undefined, anything else is a 400. */
export function booleanQuery(ctx: RequestContext, name: string): boolean | undefined {
	const raw = ctx.query[name];
	if (raw === undefined || raw === '') return undefined;
	if (raw !== 'true' && raw !== 'false')
		throw new SimError(400, 'invalid_parameter', `${name} must be true or false`, `query.${name}`);
	return raw === 'true';
}

/** A 400 as the vendor answers a property its schema has no place for. */
export function additionalProperty(source: string): SimError {
	return new SimError(400, 'invalid_body', 'must NOT have additional properties', source);
}

/** Refuses any key of `object` outside `allowed` (the vendor's strict schemas). */
export function onlyKeys(
	object: Record<string, unknown>,
	allowed: readonly string[],
	source: string,
): void {
	for (const key of Object.keys(object))
		if (!allowed.includes(key)) throw additionalProperty(`${source}.${key}`);
}

/** A JSON object body, or a 400. */
export function objectBody(ctx: RequestContext): Record<string, unknown> {
	if (!ctx.body || typeof ctx.body !== 'object' || Array.isArray(ctx.body))
		throw new SimError(400, 'invalid_body', 'The request body must be a JSON object', 'body');
	return ctx.body as Record<string, unknown>;
}
