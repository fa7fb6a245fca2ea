/**
 * The documented v1 reference lists (docs/api.md#the-documented-profile), served in both
 * profiles: analytical fields, their values and expense categories. Page lists (`page`,
 * `pageSize` ≤ 30, a later page past the end is a 404), the company in the X-Company-Id header
 * for organisation tokens. Archived fields and values are left out unless `includeArchived=true`.
 * The values list serves a `pageSize` above 30 as 30 instead of refusing it, as the API does
 * (public client code). The documented profile answers the values list as a bare array
 * (profile.ts; docs/api.md#page-lists).
 */
import { pageOf, SimError } from './paging';
import type { PageFault } from './paging';
import type { RouteDef } from './routes';
import type { HandlerResult, RequestContext } from './server';

const ok = (body: unknown): HandlerResult => ({ status: 200, body });

function pageFaults(ctx: RequestContext): PageFault {
	return {
		ignorePage: ctx.fault === 'ignorePosition',
		total: ctx.fault === 'understatedTotal' ? (ctx.faultSpec?.total ?? 30) : undefined,
		cap: ctx.fault === 'cappedPages' ? (ctx.faultSpec?.pageCap ?? 20) : undefined,
		repeatLast: ctx.fault === 'repeatLastPage',
	};
}

/** `includeArchived`: "true" or "false" (default false); anything else is a 400. */
function includeArchived(ctx: RequestContext): boolean {
	const raw = ctx.query.includeArchived;
	if (raw === undefined || raw === '' || raw === 'false') return false;
	if (raw === 'true') return true;
	throw new SimError(
		400,
		'invalid_parameter',
		'includeArchived must be true or false',
		'query.includeArchived',
	);
}

export const REFERENCE_ROUTES: RouteDef[] = [
	{
		id: 'listAnalyticalFieldsV1',
		method: 'GET',
		pattern: /^\/v1\/analytical-fields$/,
		placement: 'header',
		scope: 'analytical-field:read',
		handler: (ctx) => {
			const archived = includeArchived(ctx);
			const fields = ctx.sim
				.data(ctx.companyId!)
				.analyticalFields.filter((f) => archived || !f.isArchived)
				.map(({ id, name, isArchived }) => ({ id, name, isArchived: isArchived ?? false }));
			return ok(pageOf(fields, ctx.query, pageFaults(ctx)));
		},
	},
	{
		id: 'listAnalyticalFieldValuesV1',
		method: 'GET',
		pattern: /^\/v1\/analytical-fields\/(?<fieldId>[^/]+)\/values$/,
		placement: 'header',
		scope: 'analytical-field:read',
		handler: (ctx) => {
			const archived = includeArchived(ctx);
			const field = ctx.sim
				.data(ctx.companyId!)
				.analyticalFields.find((f) => f.id === ctx.params.fieldId);
			if (!field)
				throw new SimError(404, 'not_found', 'Analytical field not found', 'path.fieldId');
			// The documented items carry the label as `value`.
			const values = field.values
				.filter((v) => archived || !v.isArchived)
				.map(({ id, name, isArchived }) => ({ id, value: name, isArchived: isArchived ?? false }));
			// A pageSize above 30 is served as 30, not refused (public client code).
			return ok(pageOf(values, ctx.query, { ...pageFaults(ctx), capPageSize: true }));
		},
	},
	{
		id: 'listExpenseCategoriesV1',
		method: 'GET',
		pattern: /^\/v1\/expense-categories$/,
		placement: 'header',
		scope: 'expense-category:read',
		handler: (ctx) =>
			ok(
				pageOf(
					ctx.sim
						.data(ctx.companyId!)
						.expenseCategories.map(({ id, name, costCenters }) => ({ id, name, costCenters })),
					ctx.query,
					pageFaults(ctx),
				),
			),
	},
];
