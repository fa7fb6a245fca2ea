import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

/** The two credentials of the Spendesk node and trigger, chosen by the Authentication parameter. */
export const credentialDescriptions: INodeCredentialDescription[] = [
	{ name: 'spendeskApi', required: true, displayOptions: { show: { authentication: ['apiKey'] } } },
	{
		name: 'spendeskOAuth2Api',
		required: true,
		displayOptions: { show: { authentication: ['oAuth2'] } },
	},
];

export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key', value: 'apiKey' },
		{ name: 'OAuth2', value: 'oAuth2' },
	],
	default: 'apiKey',
};
