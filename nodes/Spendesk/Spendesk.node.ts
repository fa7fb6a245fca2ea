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
		// Node versions as n8n's own nodes declare them: CONTRIBUTING.md, "Changing behaviour after
		// 1.0.0: node versions". An array also on purpose: n8n adds its own "Custom API Call" entry
		// (__CUSTOM_API_CALL__) to every Resource and Operation list of a node whose `version`
		// equals its `defaultVersion`. The node has a Custom API Call of its own (company placement
		// and pagination included), so the injected one must not appear, and `[1]` is not equal
		// to `1`. Pinned by test/unit/node-description.test.ts.
		version: [1],
		defaultVersion: 1,
		subtitle: nodeSubtitle(),
		description: SPENDESK_DESCRIPTION,
		defaults: { name: 'Spendesk' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'spendeskApi',
				required: true,
				testedBy: 'spendeskApiTest',
				displayOptions: shownFor.apiKey,
			},
			{
				name: 'spendeskOAuth2Api',
				required: true,
				testedBy: 'spendeskOAuth2Test',
				displayOptions: shownFor.oAuth2,
			},
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
