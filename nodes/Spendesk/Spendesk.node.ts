import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { route } from './actions/router';
import { SPENDESK_DESCRIPTION } from './appDescription';
import { nodeSubtitle, versionProperties } from './actions/versionDescription';
import { authenticationProperty, credentialTest, shownFor } from './authentication';
import {
	searchAnalyticalFields,
	searchAnalyticalFieldValues,
	searchCompanies,
} from './methods/listSearch';
import {
	searchCostCenters,
	searchIntakeRecords,
	searchJournalTemplates,
	searchPayables,
	searchPurchaseOrders,
	searchSettlements,
	searchSuppliers,
	searchUsers,
} from './methods/recordSearch';

export class Spendesk implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Spendesk',
		name: 'spendesk',
		icon: { light: 'file:spendesk.svg', dark: 'file:spendesk.dark.svg' },
		group: ['transform'],
		// An array on purpose: n8n adds its own Custom API Call to the lists of a node whose
		// `version` equals its `defaultVersion`; the node has its own, and `[1]` is not `1`
		// (test/unit/node-description.test.ts; CONTRIBUTING.md, "node versions").
		version: [1],
		defaultVersion: 1,
		subtitle: nodeSubtitle(),
		description: SPENDESK_DESCRIPTION,
		defaults: { name: 'Spendesk' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'spendeskApi', testedBy: 'spendeskApiTest', ...shownFor.apiKey },
			{ name: 'spendeskOAuth2Api', testedBy: 'spendeskOAuth2Test', ...shownFor.oAuth2 },
		],
		properties: [authenticationProperty, ...versionProperties],
	};

	methods = {
		credentialTest,
		listSearch: {
			searchCompanies,
			searchAnalyticalFields,
			searchAnalyticalFieldValues,
			searchPayables,
			searchSuppliers,
			searchUsers,
			searchSettlements,
			searchIntakeRecords,
			searchPurchaseOrders,
			searchCostCenters,
			searchJournalTemplates,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
