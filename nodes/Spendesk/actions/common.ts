/**
 * Parameters and helpers shared by the operations: company selection, Return All + Limit,
 * JSON parameters.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ENDPOINTS } from '../transport/endpoints';
import type { EndpointName } from '../transport/endpoints';

/** Company selection, shown for every company-scoped operation. */
export const companyProperties: INodeProperties[] = [
	{
		displayName: 'Companies',
		name: 'companyScope',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'One Company', value: 'one', description: 'Run on the company chosen below' },
			{
				name: 'All Companies',
				value: 'all',
				description: 'Run on every company the credential reaches and tag each item with companyId and companyName',
			},
		],
		default: 'one',
	},
	{
		displayName: 'Company',
		name: 'company',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description:
			'The Spendesk company (legal entity) to act on. Required with organisation-level credentials; leave empty with a company-level credential to use its own company.',
		displayOptions: { show: { companyScope: ['one'] } },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchCompanies', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 4f7d1c2e-…',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^[^\\s/\\\\?#]{1,128}$', errorMessage: 'A company ID is one word without spaces or slashes' },
					},
				],
			},
		],
	},
];

/** Return All + Limit for a list operation; the Limit maximum defaults to what users may ask. */
export function returnAllOrLimit(maxLimit?: number): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, ...(maxLimit ? { maxValue: maxLimit } : {}) },
			default: 50,
			description: 'Max number of results to return',
			hint: 'With All Companies, the limit applies to each company',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** Reads Return All + Limit; undefined means Return All. A Limit out of range fails before any request. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number, maxLimit?: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as number;
	const max = maxLimit ?? Number.MAX_SAFE_INTEGER;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > max) {
		throw new NodeOperationError(ctx.getNode(), `Limit must be a whole number from 1 to ${maxLimit ?? 'any size'}; got ${String(limit)}`, {
			description: maxLimit ? `Spendesk returns at most ${maxLimit} here per call. Use Return All to get everything.` : 'Use Return All to get everything.',
			itemIndex,
		});
	}
	return limit;
}

/** Parses a JSON parameter (object expected); names the field on error. */
export function readJsonObject(ctx: IExecuteFunctions, name: string, label: string, itemIndex: number): IDataObject {
	const raw = ctx.getNodeParameter(name, itemIndex, '{}') as unknown;
	if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as IDataObject;
	const text = typeof raw === 'string' ? raw.trim() : '';
	if (!text) return {};
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), `${label} is not valid JSON`, {
			description: `${(error as Error).message}. Enter a JSON object, e.g. {"status": "paid"}.`,
			itemIndex,
		});
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		throw new NodeOperationError(ctx.getNode(), `${label} must be a JSON object`, {
			description: 'Enter an object in curly braces, e.g. {"status": "paid"}.',
			itemIndex,
		});
	}
	return value as IDataObject;
}

/** The maximum page size of an endpoint (used for Limit maxima where the API imposes one). */
export function pageMax(name: EndpointName): number | undefined {
	return (ENDPOINTS[name] as { pageSize?: { max: number } }).pageSize?.max;
}

/** Filters given as JSON must leave paging to the node. */
export function rejectPagingKeys(ctx: IExecuteFunctions, filters: IDataObject, label: string, itemIndex: number): IDataObject {
	for (const reserved of ['limit', 'cursor']) {
		if (reserved in filters) {
			throw new NodeOperationError(ctx.getNode(), `${label} must not set "${reserved}"`, {
				description: 'Paging is handled by the node: use Return All and Limit instead.',
				itemIndex,
			});
		}
	}
	return filters;
}
