import { NodeConnectionTypes } from 'n8n-workflow';
import { authenticationProperty, credentialDescriptions } from './descriptions';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { operationProperties, route } from './actions/router';
import { searchCompanies } from './methods/listSearch';

export class Spendesk implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Spendesk',
		name: 'spendesk',
		icon: { light: 'file:spendesk.svg', dark: 'file:spendesk.dark.svg' },
		group: ['transform'],
		version: [1],
		defaultVersion: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Read and create Spendesk data (companies, invoices, payables, settlements, accounts, analytical fields, expense categories, intakes) for one company or every company of an organisation',
		defaults: { name: 'Spendesk' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialDescriptions,
		properties: [
			authenticationProperty,
			...operationProperties(),
		],
	};

	methods = { listSearch: { searchCompanies } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
