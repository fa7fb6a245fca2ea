/**
 * Payable → Get Many (value `getAll`; POST /v1/payables/search). Spendesk's filter grammar (docs/api.md#body-cursor-lists):
 * `filters: { operator: "and" | "or", subfilters: [{ field, operator: "=", value: [...] }] }`.
 * The Fields mode builds an AND of one equality subfilter per field filled in (its values a
 * list); the JSON mode sends the user's `filters` object as it is.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { listOperation } from '../list';
import { textFilter } from '../listFilters';
import { filtersCollection, readCollection, readJsonObject } from '../sharedParams';
import { withSimplify } from '../simplify';
import type { SingleOperation } from '../types';
import {
	BOOKKEEPING_STATUS_FILTER,
	FILTER_MODE,
	isChoiceFilter,
	PAYABLE_STATUS_FILTER,
	PAYABLE_TYPE_FILTER,
	readChoiceFilter,
} from './filters';

const searchFilterProperties: INodeProperties[] = [
	FILTER_MODE,
	filtersCollection(
		[
			BOOKKEEPING_STATUS_FILTER,
			textFilter(
				'Payable IDs',
				'id',
				'e.g. pay_001_000042, pay_001_000043',
				'One or more payable IDs, separated by commas',
			),
			PAYABLE_TYPE_FILTER,
			PAYABLE_STATUS_FILTER,
		],
		{
			description: 'A payable must match every filter added; within one filter, any of its values',
			displayOptions: { show: { filterMode: ['fields'] } },
		},
	),
	{
		displayName: 'Filters (JSON)',
		name: 'filtersJson',
		type: 'json',
		default: '{}',
		description:
			'The search\'s "filters" object, sent to Spendesk as it is, e.g. {"operator": "and", "subfilters": [{"field": "bookkeepingStatus", "operator": "=", "value": ["prepared"]}]}. Amounts in filters are in major units (12.34), while the payables carry them in minor units (1234). Leave {} for no filter.',
		displayOptions: { show: { filterMode: ['json'] } },
	},
];

/** The `filters` of the search body, or undefined for none. */
export function readSearchFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
): IDataObject | undefined {
	if (ctx.getNodeParameter('filterMode', itemIndex, 'fields') === 'json') {
		const filters = readJsonObject(ctx, 'filtersJson', 'Filters (JSON)', itemIndex);
		for (const reserved of ['limit', 'cursor']) {
			if (reserved in filters)
				throw new NodeOperationError(ctx.getNode(), `Filters (JSON) must not set "${reserved}"`, {
					description:
						'Filters (JSON) is the "filters" object of the search only; paging is handled by the node: use Return All and Limit instead.',
					itemIndex,
				});
		}
		return Object.keys(filters).length ? filters : undefined;
	}
	const fields = readCollection(ctx, 'filters', itemIndex);
	const subfilters: IDataObject[] = [];
	for (const [field, raw] of Object.entries(fields)) {
		const values = isChoiceFilter(field)
			? (readChoiceFilter(ctx, itemIndex, field, raw) ?? [])
			: (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
					.map((v) => String(v).trim())
					.filter(Boolean);
		if (values.length) subfilters.push({ field, operator: '=', value: values });
	}
	return subfilters.length ? { operator: 'and', subfilters } : undefined;
}

export const getAllPayables = withSimplify(
	listOperation({
		endpoint: 'searchPayables',
		after: searchFilterProperties,
		request: (ctx, itemIndex) => {
			const filters = readSearchFilters(ctx, itemIndex);
			return { body: filters ? { filters } : {} };
		},
	}) as SingleOperation,
	'payable',
);
