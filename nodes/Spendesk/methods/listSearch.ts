import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { reachableCompanies } from '../companies/select';
import { isOneIdSegment } from '../transport/placement';
import { nameCalls } from '../transport/callName';
import { recordSearch, searchRecords } from './recordSearch';
import type { RecordList, RecordSearchMethod } from './recordSearch';

/** How messages name the company list of the editor (transport/callName.ts). */
export const COMPANY_LIST = 'the list of companies';

/** Company selector: every company of every page of Get Companies, filtered by name or ID. */
export async function searchCompanies(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	nameCalls(this, COMPANY_LIST);
	const companies = await reachableCompanies(this);
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = companies
		.filter((c) => c.id !== undefined)
		.filter(
			(c) =>
				!needle ||
				c.id!.toLowerCase().includes(needle) ||
				(c.name ?? '').toLowerCase().includes(needle),
		)
		.map((c) => ({ name: c.name ? `${c.name} (${c.id})` : `Own company (${c.id})`, value: c.id! }));
	return { results };
}

/** A record's label: its `name`, or (as some answers carry it) its `value` (docs/api.md#response-shapes). */
export function labelOf(record: IDataObject): string {
	for (const key of ['name', 'value']) {
		const value = record[key];
		if (typeof value === 'string' && value) return value;
	}
	return '';
}

/**
 * Analytical field selector: the fields of the company chosen in the node (or of a
 * company-level credential's own company), filtered by name or ID. Fields belong to one
 * company, so with All Companies there is no list: enter the ID.
 */
export const searchAnalyticalFields = recordSearch({
	endpoint: 'listAnalyticalFields',
	what: 'Analytical fields',
	label: labelOf,
});

/**
 * The analytical field chosen beside the Value being picked (`&fieldId`: the same row of
 * Custom Fields or Analytical Values, as n8n reads a field of the same row), From List or By ID.
 */
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

/** The values of an analytical field, labelled as the fields are (labelOf). */
const FIELD_VALUES: RecordList = {
	endpoint: 'listAnalyticalFieldValues',
	what: 'Analytical field values',
	label: labelOf,
};

/**
 * Value selector of an analytical field (Purchase Order → Create's Custom Fields, Payable →
 * Update's Analytical Values): the values of the field chosen in the same row, in the company
 * chosen in the node (or a company-level credential's own), filtered by name or ID.
 */
export const searchAnalyticalFieldValues: RecordSearchMethod = Object.assign(
	async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const list = { ...FIELD_VALUES, pathParams: { fieldId: fieldOfRow(this) } };
		return await searchRecords(this, list, filter, paginationToken);
	},
	{ list: FIELD_VALUES },
);
