import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';
import {
	accessLevelProperties,
	baseUrlExpression,
	environmentProperties,
	OAUTH2_PATHS,
	tokenUrlExpression,
} from './common';
import { scopeProperties } from './scopes';

/**
 * Spendesk OAuth2 (authorization code with PKCE), for partners. On the consent screen the
 * customer approves one company or the whole organisation; set Access Level to match. The
 * scopes asked for are computed from the Experimental Features choice (docs/api.md#scopes).
 */
export class SpendeskOAuth2Api implements ICredentialType {
	name = 'spendeskOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Spendesk OAuth2 API';

	icon: Icon = {
		light: 'file:../nodes/Spendesk/spendesk.svg',
		dark: 'file:../nodes/Spendesk/spendesk.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-spendesk/n8n-nodes-spendesk#credentials';

	properties: INodeProperties[] = [
		{ displayName: 'Grant Type', name: 'grantType', type: 'hidden', default: 'pkce' },
		...environmentProperties,
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: baseUrlExpression(OAUTH2_PATHS.consentPage),
			required: true,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: tokenUrlExpression,
			required: true,
		},
		// The documented read scopes, plus those of the Experimental Features ticked (scopes.ts).
		...scopeProperties,
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{ displayName: 'Authentication', name: 'authentication', type: 'hidden', default: 'header' },
		...accessLevelProperties('connection'),
	];
}
