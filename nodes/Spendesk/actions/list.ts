/** Builds a list operation: Return All + Limit over one catalogue endpoint through the paginator. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { EndpointName } from '../transport/endpoints';
import { collectList } from '../transport/paginate';
import type { ListRequest } from '../transport/paginate';
import { readLimit, returnAllOrLimit } from './sharedParams';
import type { SpendeskOperation } from './types';

export function listOperation(options: {
	value?: string;
	endpoint: EndpointName;
	perCompany?: boolean;
	/** Largest Limit accepted (bad input beyond it fails before any request). */
	maxLimit?: number;
	properties?: INodeProperties[];
	/** Parameters shown after Return All and Limit (n8n's order: filters, then options). */
	after?: INodeProperties[];
	/** Extra request parts read from the item's parameters (filters, path parameters, body). */
	request?: (ctx: IExecuteFunctions, itemIndex: number) => Partial<ListRequest>;
	/** Turns each item the API returned into the item the node outputs (e.g. a label under its usual name). */
	mapItem?: (item: IDataObject) => IDataObject;
}): SpendeskOperation {
	return {
		value: options.value ?? 'getAll',
		perCompany: options.perCompany ?? true,
		properties: [
			...(options.properties ?? []),
			...returnAllOrLimit(options.maxLimit),
			...(options.after ?? []),
		],
		prepare(this: IExecuteFunctions, itemIndex: number) {
			const extra = options.request?.(this, itemIndex) ?? {};
			const limit = readLimit(this, itemIndex, options.maxLimit);
			return async (company) => {
				const result = await collectList(this, options.endpoint, {
					...extra,
					company,
					itemIndex,
					limit,
				});
				return options.mapItem ? { ...result, items: result.items.map(options.mapItem) } : result;
			};
		},
	};
}
