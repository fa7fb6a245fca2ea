import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	Icon,
	INodeProperties,
} from 'n8n-workflow';
import { partnerPreAuthentication } from '../nodes/Spendesk/transport/partnerOAuth2';
import { accessLevelProperties, environmentProperties } from './common';
import { scopeProperties } from './scopes';

/**
 * Spendesk OAuth2 for partners, as Spendesk documents it (docs/api.md#oauth2): JSON token
 * calls, the code exchange and the refresh at two addresses, rotating refresh tokens. n8n's
 * own OAuth2 cannot send that, so this credential does not extend it: the Test gives the
 * authorization address, the user pastes the address Spendesk sends them to, and
 * `preAuthentication` exchanges the code on first use and refreshes after a 401.
 */
export class SpendeskPartnerOAuth2Api implements ICredentialType {
	name = 'spendeskPartnerOAuth2Api';

	displayName = 'Spendesk Partner OAuth2 API';

	icon: Icon = {
		light: 'file:../nodes/Spendesk/spendesk.svg',
		dark: 'file:../nodes/Spendesk/spendesk.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-spendesk/n8n-nodes-spendesk#credentials';

	properties: INodeProperties[] = [
		// The only expirable field: n8n calls preAuthentication when it is empty, and after a 401.
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			displayName: 'Refresh Token',
			name: 'refreshToken',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		...environmentProperties,
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			required: true,
			default: '',
			description: 'Client ID of your Spendesk partner app',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
		},
		{
			displayName: 'Redirect URI',
			name: 'redirectUri',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://example.com/spendesk/callback',
			description: 'The redirect URI registered for your partner app with Spendesk, exactly',
		},
		...scopeProperties.map((property) =>
			property.name === 'experimentalFeatures'
				? {
						...property,
						description:
							'Spendesk features outside its documented API, each asking for its own scopes. Tick one only once your Spendesk contact has enabled it for your partner app, then click Test for a new authorization address. The documented read scopes are always asked for.',
					}
				: property,
		),
		...accessLevelProperties('connection'),
		{
			displayName: 'Authorization Response',
			name: 'authorizationResponse',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Save, click Test and open the address it gives; once you approve, paste here the whole address Spendesk sends you to (…?code=…&state=…) and save. The next execution connects.',
		},
	];

	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		return await partnerPreAuthentication(
			async (options) => await this.helpers.httpRequest(options),
			credentials,
		);
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: { Authorization: '=Bearer {{$credentials.accessToken}}' },
		},
	};

	// No `test` here: the node-level `spendeskPartnerOAuth2Test` gives the authorization address.
}
