/**
 * Builds a Get operation: one record by its ID (a resource locator, From List or By ID) from
 * one catalogue endpoint with the ID in its path.
 *
 * Companies: with One Company, a 404 is the item's error naming the ID and the company. With
 * All Companies the record lives in one of them, so a 404 is that company's empty
 * result: the item returns the record from the company that holds it (tagged with it), and
 * no item when none does.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { companyLabel } from '../companies/naming';
import type { EndpointName } from '../transport/endpoints';
import { ENDPOINTS } from '../transport/endpoints';
import { bodyItems } from '../transport/pagination/response';
import { callSpendesk } from '../transport/request';
import { readRecordId, recordLocator } from './recordId';
import type { SpendeskOperation } from './types';

export interface GetByIdOptions {
	endpoint: EndpointName;
	/** Parameter name, also the path placeholder (e.g. payableId). */
	param: string;
	/** What the record is called in the editor and in messages (e.g. Payable). */
	label: string;
	/** listSearch method of the From List mode. */
	searchListMethod: string;
	placeholder: string;
	/** Where the ID usually comes from, for the field's description. */
	source: string;
}

/** The ID field of a Get: From List or By ID; with All Companies, By ID only (recordLocator). */
export function idLocator(options: Omit<GetByIdOptions, 'endpoint'>): INodeProperties[] {
	const lower = options.label.toLowerCase();
	return recordLocator({
		name: options.param,
		label: options.label,
		description: `The ${lower} to get: pick it from the list, or enter its ID (${options.source})`,
		allCompaniesDescription: `The ID of the ${lower} to get (${options.source}); the node looks for it in every company`,
		placeholder: options.placeholder,
		searchListMethod: options.searchListMethod,
	});
}

function notFound(
	ctx: IExecuteFunctions,
	options: GetByIdOptions,
	id: string,
	company: string | undefined,
	itemIndex: number,
): NodeApiError {
	const endpoint = ENDPOINTS[options.endpoint];
	return new NodeApiError(
		ctx.getNode(),
		{
			status: 404,
			endpoint: `${endpoint.method} ${endpoint.path}`,
			...(company ? { companyId: company } : {}),
		} as JsonObject,
		{
			message: `${options.label} "${id}" was not found in ${companyLabel(company)}`,
			description: `Check the ID in '${options.label}' and the company: IDs belong to one company. To look in every company, choose All Companies in 'Companies'.`,
			httpCode: '404',
			itemIndex,
		},
	);
}

export function getByIdOperation(options: GetByIdOptions): SpendeskOperation {
	return {
		value: 'get',
		perCompany: true,
		properties: idLocator(options),
		prepare(this: IExecuteFunctions, itemIndex: number) {
			const id = readRecordId(
				this,
				options.param,
				`'${options.label}'`,
				itemIndex,
				`Pick the ${options.label.toLowerCase()} from the list, or enter its ID (${options.source}).`,
			);
			const oneCompany = this.getNodeParameter('companyScope', itemIndex, 'one') === 'one';
			return async (company) => {
				const response = await callSpendesk(this, options.endpoint, {
					company,
					itemIndex,
					pathParams: { [options.param]: id },
					allowNotFound: true,
				});
				if (response.status === 404) {
					if (oneCompany) throw notFound(this, options, id, company, itemIndex);
					return { items: [] };
				}
				return { items: bodyItems(response.body) };
			};
		},
	};
}
