/** A Get operation: one record by its ID; a 404 is the item's error, with All Companies an empty result. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { companyLabel } from '../companies/label';
import type { EndpointName } from '../transport/endpoints';
import { bodyItems } from '../transport/pagination/response';
import { callSpendesk } from '../transport/request';
import { apiError } from './errorItem';
import { recordLocator } from './recordId';
import { withOutput } from './output';
import type { OutputRecord } from './output';
import type { SingleOperation } from './types';
import { readRecordId } from './readers';

export function getByIdOperation(options: {
	endpoint: EndpointName;
	/** Parameter name, also the path placeholder (e.g. payableId). */
	param: string;
	label: string;
	searchListMethod: string;
	placeholder: string;
	/** Where the ID usually comes from, for the field's description. */
	source: string;
	output?: OutputRecord;
}): SingleOperation {
	const lower = options.label.toLowerCase();
	const operation: SingleOperation = {
		value: 'get',
		perCompany: true,
		properties: recordLocator({
			name: options.param,
			label: options.label,
			description: `The ${lower} to get: pick it from the list, or enter its ID (${options.source})`,
			allCompaniesDescription: `The ID of the ${lower} to get (${options.source}); the node looks for it in every company`,
			placeholder: options.placeholder,
			searchListMethod: options.searchListMethod,
		}),
		prepare(this: IExecuteFunctions, itemIndex: number) {
			const id = readRecordId(
				this,
				itemIndex,
				options.param,
				`'${options.label}'`,
				`Pick the ${lower} from the list, or enter its ID (${options.source}).`,
			);
			const oneCompany = this.getNodeParameter('companies', itemIndex, 'one') === 'one';
			return async (company) => {
				const response = await callSpendesk(this, options.endpoint, {
					company,
					itemIndex,
					pathParams: { [options.param]: id },
					allowNotFound: true,
				});
				if (response.status === 404) {
					if (oneCompany)
						throw apiError(
							this,
							options.endpoint,
							404,
							company,
							itemIndex,
							`${options.label} "${id}" was not found in ${companyLabel(company)}`,
							`Check the ID in '${options.label}' and the company: IDs belong to one company. To look in every company, choose All Companies in 'Companies'.`,
						);
					return { items: [] };
				}
				return { items: bodyItems(response.body) };
			};
		},
	};
	return options.output ? withOutput(operation, options.output) : operation;
}
