import type { ICredentialsDisplayOptions, INodeProperties } from 'n8n-workflow';
import { spendeskApiTest } from './methods/credentialTest';
import { spendeskOAuth2Test } from './methods/oauth2Test';

/** The rest of each credential entry: nodes keep `name` and `testedBy` literal (n8n's lint reads them there). */
export const shownFor: Record<
	'apiKey' | 'oAuth2',
	{ required: true; displayOptions: ICredentialsDisplayOptions }
> = {
	apiKey: { required: true, displayOptions: { show: { authentication: ['apiKey'] } } },
	oAuth2: { required: true, displayOptions: { show: { authentication: ['oAuth2'] } } },
};

/** The credential tests: n8n finds one by credential type on whichever node declares it, so every node carries both. */
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
