/** Builds a list operation: Return All + Limit over one catalogue endpoint through the paginator. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { EndpointName } from '../transport/endpoints';
import { eachPage } from '../transport/paginate';
import type { ListRequest } from '../transport/paginate';
import { readLimit, returnAllOrLimit } from './sharedParams';
import { withOutput } from './output';
import type { OutputRecord } from './output';
import type { SingleOperation } from './types';

export function listOperation(options: {
	value?: string;
	endpoint: EndpointName;
	perCompany?: boolean;
	/** Largest Limit accepted (bad input beyond it fails before any request). */
	maxLimit?: number;
	properties?: INodeProperties[];
	/** Parameters shown after Return All and Limit (n8n's order: filters, then options). */
	after?: INodeProperties[];
	request?: (ctx: IExecuteFunctions, itemIndex: number) => Partial<ListRequest>;
	mapItem?: (item: IDataObject) => IDataObject;
	output?: OutputRecord;
}): SingleOperation {
	const operation: SingleOperation = {
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
			const { mapItem } = options;
			// Pages go to the router as they come: the list is never held twice.
			return async (company, sink) => {
				const { truncated } = await eachPage(
					this,
					options.endpoint,
					{ ...extra, company, itemIndex, limit },
					mapItem ? (page) => sink(page.map(mapItem)) : sink,
				);
				return { items: [], truncated };
			};
		},
	};
	return options.output ? withOutput(operation, options.output) : operation;
}
