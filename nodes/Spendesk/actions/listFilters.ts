/**
 * Filters of the lists (docs/api.md#filters): the usual fields of the Filters collection
 * (the collection itself: sharedParams.filtersCollection); the
 * filters that take one value or several (record IDs and choices), read and checked before any
 * request.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { isOneIdSegment } from '../transport/placement';
import { fail, fieldLabel } from './writeFields';

/** A date filter's field (empty: not filtered). */
export function dateFilter(
	displayName: string,
	name: string,
	description: string,
): INodeProperties {
	return { displayName, name, type: 'dateTime', default: '', description };
}

/** A text filter's field, e.g. record IDs separated by commas (empty: not filtered). */
export function textFilter(
	displayName: string,
	name: string,
	placeholder: string,
	description: string,
): INodeProperties {
	return { displayName, name, type: 'string', default: '', placeholder, description };
}

/** The one sort shape of the node: a Sort collection holding one rule (a field, then Direction). */
export function sortCollection(description: string, rule: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Sort',
		name: 'sort',
		type: 'fixedCollection',
		placeholder: 'Add Sort Rule',
		default: {},
		description,
		options: [{ displayName: 'Sort Rule', name: 'rule', values: rule }],
	};
}

/** A sort rule's Direction, oldest first unless the caller sets another default. */
export function sortDirection(records: string): INodeProperties {
	return {
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		options: [
			{ name: 'Ascending', value: 'asc', description: 'Oldest first' },
			{ name: 'Descending', value: 'desc', description: 'Newest first' },
		],
		default: 'asc',
		description: `Whether the oldest or the newest ${records} come first`,
	};
}

/** A list from a field: an array (from an expression), or text separated by commas or spaces. */
function valuesOf(value: unknown): unknown[] {
	if (value === undefined || value === null || value === '') return [];
	if (Array.isArray(value)) return value;
	if (typeof value === 'string') return value.split(/[\s,;]+/);
	return [value];
}

/** Record IDs given as text separated by commas (or a list from an expression); undefined when none. */
export function readIdList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
): string[] | undefined {
	const ids = valuesOf(value)
		.map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : v))
		.filter((v) => v !== '');
	for (const id of ids) {
		if (typeof id !== 'string' || !isOneIdSegment(id))
			fail(
				ctx,
				itemIndex,
				`${fieldLabel(label)}: ${typeof id === 'string' ? `"${id.slice(0, 60)}"` : typeof id} is not a valid ID`,
				`Enter the IDs separated by commas, e.g. id_1, id_2 (an expression may give a list). An ID has no spaces, slashes, "?" or "#".`,
			);
	}
	return ids.length ? (ids as string[]) : undefined;
}

/** Choices of a multi-select (or an expression's text or list), each one of `allowed`; undefined when none. */
export function readChoices(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
	allowed: readonly string[],
): string[] | undefined {
	const chosen = valuesOf(value)
		.map((v) => String(v).trim())
		.filter(Boolean);
	const unknown = chosen.find((v) => !allowed.includes(v));
	if (unknown !== undefined)
		fail(
			ctx,
			itemIndex,
			`${fieldLabel(label)}: "${unknown.slice(0, 40)}" is not one of the values Spendesk knows`,
			`Choose from the list in '${label}' (an expression must give ${allowed.join(', ')}).`,
		);
	return chosen.length ? chosen : undefined;
}

/** One choice of a single-select (or an expression's value), one of `allowed`; undefined when none. */
export function readChoice(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
	allowed: readonly string[],
): string | undefined {
	return readChoices(ctx, itemIndex, value, label, allowed)?.[0];
}

/** The Sort rule of a list (`sort` › `rule`): its field and direction, each checked. */
export interface SortRule {
	field?: string;
	direction?: 'asc' | 'desc';
}

/**
 * The Sort rule of a list as the editor saves it (`{ rule: { field, direction } }`); none
 * given (or an empty Sort) is `{}`. `fields`: the fields the list sorts by (none when the list
 * sorts by one date only, so the rule holds a Direction alone).
 */
export function readSortRule(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: readonly string[] = [],
): SortRule {
	const raw = ctx.getNodeParameter('sort', itemIndex, {}) as unknown;
	const rule =
		raw !== null && typeof raw === 'object' && !Array.isArray(raw)
			? ((raw as { rule?: unknown }).rule as Record<string, unknown> | undefined)
			: undefined;
	if (
		raw !== undefined &&
		raw !== null &&
		raw !== '' &&
		(typeof raw !== 'object' || Array.isArray(raw))
	)
		fail(
			ctx,
			itemIndex,
			`'Sort' must be a sort rule; got ${Array.isArray(raw) ? 'a list' : typeof raw}`,
			"Set 'Sort' in the node, or remove the value an expression or the workflow's JSON gives it.",
		);
	if (!rule || typeof rule !== 'object') return {};
	const field = fields.length ? readChoice(ctx, itemIndex, rule.field, 'Field', fields) : undefined;
	const direction = readChoice(ctx, itemIndex, rule.direction, 'Direction', ['asc', 'desc']) as
		| SortRule['direction']
		| undefined;
	return { ...(field ? { field } : {}), ...(direction ? { direction } : {}) };
}
