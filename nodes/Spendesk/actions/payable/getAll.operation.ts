/**
 * Payable → Get Many (POST /v1/payables/search, docs/api.md#body-cursor-lists): the Fields mode
 * sends an AND of one equality subfilter per field; the JSON mode sends `filters` as it is.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { listOperation } from '../list';
import { textField } from '../listFilters';
import { filtersCollection, readCollection, readJsonObject } from '../sharedParams';
import {
	FILTER_MODE,
	PAYABLE_TYPE_FILTER,
	readChoiceFilter,
	SEARCH_BOOKKEEPING_FILTER,
} from './filters';
import { fail } from '../readers';

const CHOICES = new Map([SEARCH_BOOKKEEPING_FILTER, PAYABLE_TYPE_FILTER].map((p) => [p.name, p]));

const searchFilterProperties: INodeProperties[] = [
	FILTER_MODE,
	filtersCollection(
		[
			SEARCH_BOOKKEEPING_FILTER,
			textField(
				'Payable IDs',
				'id',
				'e.g. pay_001_000042, pay_001_000043',
				'One or more payable IDs, separated by commas',
			),
			PAYABLE_TYPE_FILTER,
			textField(
				'Payment IDs',
				'paymentId',
				'e.g. pmt_001_000007',
				'Only the payables of these card payments: their IDs, separated by commas',
			),
			textField(
				'Requester IDs',
				'requestor',
				'e.g. usr_001_00004',
				'Only the payables these users submitted: their user IDs (User → Get Many lists them), separated by commas',
			),
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
			'The search\'s "filters" object, sent to Spendesk as it is, e.g. {"operator": "and", "subfilters": [{"field": "bookkeepingStatus", "operator": "=", "value": ["toPrepare"]}]}. Amounts in filters are in major units (12.34), while the payables carry them in minor units (1234). Leave {} for no filter.',
		displayOptions: { show: { filterMode: ['json'] } },
	},
];

export function readSearchFilters(
	ctx: IExecuteFunctions,
	itemIndex: number,
): IDataObject | undefined {
	if (ctx.getNodeParameter('filterMode', itemIndex, 'fields') === 'json') {
		const filters = readJsonObject(ctx, 'filtersJson', 'Filters (JSON)', itemIndex);
		for (const reserved of ['limit', 'cursor']) {
			if (reserved in filters)
				fail(
					ctx,
					itemIndex,
					`'Filters (JSON)' must not set "${reserved}"`,
					`'Filters (JSON)' is the "filters" object of the search only; paging is handled by the node: use 'Return All' and 'Limit' instead.`,
				);
		}
		return Object.keys(filters).length ? filters : undefined;
	}
	const fields = readCollection(ctx, 'filters', itemIndex);
	const subfilters: IDataObject[] = [];
	for (const [field, raw] of Object.entries(fields)) {
		const choice = CHOICES.get(field);
		const values = choice
			? (readChoiceFilter(ctx, itemIndex, choice, raw) ?? [])
			: (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
					.map((v) => String(v).trim())
					.filter(Boolean);
		if (values.length) subfilters.push({ field, operator: '=', value: values });
	}
	return subfilters.length ? { operator: 'and', subfilters } : undefined;
}

export const getAllPayables = listOperation({
	endpoint: 'searchPayables',
	after: searchFilterProperties,
	request: (ctx, itemIndex) => {
		const filters = readSearchFilters(ctx, itemIndex);
		return { body: filters ? { filters } : {} };
	},
	output: 'payable',
});
