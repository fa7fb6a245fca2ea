import type { ICredentialsDisplayOptions, INodeProperties } from 'n8n-workflow';
import { spendeskApiTest } from './methods/credentialTest';
import { spendeskPartnerOAuth2Test } from './methods/partnerOAuth2Test';

/**
 * The Authentication parameter's choice each credential belongs to. Every Spendesk node lists
 * the three credentials literally, the API key one with `testedBy: 'spendeskApiTest'` and the
 * partner OAuth2 one with `testedBy: 'spendeskPartnerOAuth2Test'` (n8n's
 * lint reads the list from the node file), and has `credentialTest` among its methods.
 */
export const shownFor: Record<'apiKey' | 'oAuth2' | 'partnerOAuth2', ICredentialsDisplayOptions> = {
	apiKey: { show: { authentication: ['apiKey'] } },
	oAuth2: { show: { authentication: ['oAuth2'] } },
	partnerOAuth2: { show: { authentication: ['partnerOAuth2'] } },
};

/**
 * The node-level credential tests (`methods.credentialTest`): n8n finds the API key's test
 * by credential type on whichever Spendesk node declares it, so every node carries it.
 */
export const credentialTest = { spendeskApiTest, spendeskPartnerOAuth2Test };

export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key', value: 'apiKey' },
		{ name: 'OAuth2', value: 'oAuth2' },
		{ name: 'Partner OAuth2', value: 'partnerOAuth2' },
	],
	default: 'apiKey',
};
