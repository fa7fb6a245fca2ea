import type { ICredentialsDisplayOptions, INodeProperties } from 'n8n-workflow';
import { spendeskApiTest } from './methods/credentialTest';
import { spendeskOAuth2Test } from './methods/oauth2Test';

/**
 * The Authentication parameter's choice each credential belongs to. Every Spendesk node lists
 * the two credentials literally, with `testedBy: 'spendeskApiTest'` and
 * `testedBy: 'spendeskOAuth2Test'` (n8n's lint reads the list from the node file), and has
 * `credentialTest` among its methods.
 */
export const shownFor: Record<'apiKey' | 'oAuth2', ICredentialsDisplayOptions> = {
	apiKey: { show: { authentication: ['apiKey'] } },
	oAuth2: { show: { authentication: ['oAuth2'] } },
};

/**
 * The node-level credential tests (`methods.credentialTest`): n8n finds a credential's test
 * by credential type on whichever Spendesk node declares it, so every node carries both.
 */
export const credentialTest = { spendeskApiTest, spendeskOAuth2Test };

export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{
			name: 'API Key',
			value: 'apiKey',
			description:
				'A Spendesk customer: an API key created in Spendesk under Settings → Integrations → API access management',
		},
		{
			name: 'OAuth2',
			value: 'oAuth2',
			description:
				'A partner app built with Spendesk: its client ID and secret, and a Spendesk user who approves access',
		},
	],
	default: 'apiKey',
};
