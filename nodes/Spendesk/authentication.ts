import type { ICredentialsDisplayOptions, INodeProperties } from 'n8n-workflow';
import { spendeskApiTest } from './methods/credentialTest';

/**
 * The Authentication parameter's choice each credential belongs to. Every Spendesk node lists
 * the two credentials literally, the API key one with `testedBy: 'spendeskApiTest'` (n8n's
 * lint reads the list from the node file), and has `credentialTest` among its methods.
 */
export const shownFor: Record<'apiKey' | 'oAuth2', ICredentialsDisplayOptions> = {
	apiKey: { show: { authentication: ['apiKey'] } },
	oAuth2: { show: { authentication: ['oAuth2'] } },
};

/**
 * The node-level credential tests (`methods.credentialTest`): n8n finds the API key's test
 * by credential type on whichever Spendesk node declares it, so every node carries it.
 */
export const credentialTest = { spendeskApiTest };

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
