import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';
import {
	accessLevelProperties,
	baseUrlExpression,
	DEFAULT_SCOPES,
	environmentProperties,
	OAUTH2_PATHS,
	tokenUrlExpression,
} from './common';

/**
 * Spendesk OAuth2 (authorization code with PKCE), for partners. On the consent screen the
 * customer approves one company or the whole organisation; set Access Level to match.
 */
export class SpendeskOAuth2Api implements ICredentialType {
	name = 'spendeskOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Spendesk OAuth2 API';

	icon: Icon = {
		light: 'file:../nodes/Spendesk/spendesk.svg',
		dark: 'file:../nodes/Spendesk/spendesk.dark.svg',
	};

	documentationUrl = 'https://developer.spendesk.com/docs/oauth2';

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
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'string',
			default: DEFAULT_SCOPES.join(' '),
			description:
				'Space-separated scopes. Scopes starting with "experimental:" must be enabled for your organisation by your Spendesk customer success contact first.',
		},
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
