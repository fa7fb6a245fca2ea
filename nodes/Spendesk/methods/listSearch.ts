import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';
import { reachableCompanies } from '../companies/select';
import { isOneIdSegment } from '../transport/placement';
import { nameCalls } from '../transport/callName';
import { recordSearch } from './recordSearch';

/** Every company of every page of Get Companies, as the editor's company lists show them. */
async function companyEntries(ctx: ILoadOptionsFunctions) {
	nameCalls(ctx, 'the list of companies');
	const companies = await reachableCompanies(ctx);
	return companies.flatMap(({ id, name }) => (id === undefined ? [] : [{ id, name }]));
}

/** Company selector, filtered by name or ID. */
export async function searchCompanies(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = (await companyEntries(this))
		.filter(
			(c) =>
				!needle ||
				c.id.toLowerCase().includes(needle) ||
				(c.name ?? '').toLowerCase().includes(needle),
		)
		.map((c) => ({ name: c.name ? `${c.name} (${c.id})` : `Own company (${c.id})`, value: c.id }));
	return { results };
}

/** Companies for multi-select fields. */
export async function getCompanies(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await companyEntries(this)).map((c) => ({
		name: c.name ? `${c.name} (${c.id})` : c.id,
		value: c.id,
	}));
}

/** A record's label: its `name`, or (as some answers carry it) its `value` (docs/api.md#response-shapes). */
export function labelOf(record: IDataObject): string {
	for (const key of ['name', 'value']) {
		const value = record[key];
		if (typeof value === 'string' && value) return value;
	}
	return '';
}

export const searchAnalyticalFields = recordSearch({
	endpoint: 'listAnalyticalFields',
	what: 'Analytical fields',
	label: labelOf,
});

/** The analytical field of the row whose Value is being picked (`&fieldId`), From List or By ID. */
function fieldOfRow(ctx: ILoadOptionsFunctions): string {
	const raw = ctx.getCurrentNodeParameter('&fieldId') as unknown;
	const value =
		raw !== null && typeof raw === 'object' ? (raw as IDataObject).value : (raw ?? undefined);
	const id = typeof value === 'string' ? value.trim() : '';
	if (!id || id.startsWith('=') || !isOneIdSegment(id)) {
		throw new NodeOperationError(
			ctx.getNode(),
			id.startsWith('=')
				? 'The analytical field of this row comes from an expression, so its values cannot be listed here'
				: 'Pick the analytical field of this row first: its values are listed here',
			{
				description: id.startsWith('=')
					? "Enter the value's ID instead (By ID), e.g. from an expression; Analytical Field → Get Many Values lists the values of a field."
					: "Choose the field in 'Analytical Field' (or 'Field') above, then open this list again; or enter the value's ID (By ID).",
			},
		);
	}
	return id;
}

/** The values of the analytical field chosen in the same row (Custom Fields, Analytical Values). */
export const searchAnalyticalFieldValues = recordSearch({
	endpoint: 'listAnalyticalFieldValues',
	what: 'Analytical field values',
	label: labelOf,
	pathParams: (ctx) => ({ fieldId: fieldOfRow(ctx) }),
});
