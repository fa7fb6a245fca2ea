import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	Icon,
	INodeProperties,
} from 'n8n-workflow';
import { oauth2PreAuthentication } from '../nodes/Spendesk/transport/oauth2';
import { accessLevelProperties, environmentProperties } from './common';
import { scopeProperties } from './scopes';

/** n8n's own OAuth2 callback address, as n8n shows it on its OAuth2 credentials: an address the user surely controls. */
const N8N_CALLBACK = 'https://<your n8n address>/rest/oauth2-credential/callback';

/**
 * Spendesk OAuth2 for a partner app (docs/api.md#oauth2). n8n's own OAuth2 cannot send Spendesk's
 * JSON token calls, so this credential does not extend it: the first run without a connection
 * fails with a link to Spendesk's approval page, the user pastes back the address Spendesk sends
 * them to, and `preAuthentication` exchanges the code on the next run and refreshes after a 401.
 */
export class SpendeskOAuth2Api implements ICredentialType {
	name = 'spendeskOAuth2Api';

	// n8n names a new credential after the display name without "API" and "OAuth2" ("Spendesk
	// Partner App account"), so that it never reads like the API key's ("Spendesk account").
	displayName = 'Spendesk Partner App OAuth2 API';

	icon: Icon = {
		light: 'file:../nodes/Spendesk/spendesk.svg',
		dark: 'file:../nodes/Spendesk/spendesk.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-spendesk/n8n-nodes-spendesk#oauth2-partner-apps';

	properties: INodeProperties[] = [
		// The only expirable field: n8n calls preAuthentication when it reads '', and after a 401.
		// preAuthentication saves it as an expression that reads '' while a paste waits (oauth2.ts).
		{
			displayName: 'Connection',
			name: 'connection',
			type: 'hidden',
			typeOptions: { expirable: true },
			default: '',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		{
			displayName: 'Refresh Token',
			name: 'refreshToken',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		{
			displayName:
				'Connecting takes one paste:<ul><li>Fill in the fields below and save.</li><li>Run a Spendesk node with this credential. Until the credential is connected, the run stops with "Connect the credential …" and a link to Spendesk\'s approval page.</li><li>Open the link and approve.</li><li>Copy the whole address your browser then shows, paste it into Authorization Response below and save. The next run connects.</li></ul>Once connected, runs renew access by themselves.',
			name: 'howToConnect',
			type: 'notice',
			default: '',
			displayOptions: { show: { authorizationResponse: [''] } },
		},
		{
			displayName:
				"Authorization Response pasted. Once it is saved and the Test on saving passes, the next run of a Spendesk node with this credential connects it, if it starts within 10 minutes of approving (Spendesk's approval codes expire; after that, run once more for a new link).",
			name: 'pasted',
			type: 'notice',
			default: '',
			displayOptions: { hide: { authorizationResponse: [''] } },
		},
		...environmentProperties,
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			required: true,
			default: '',
			description: 'Client ID of your partner app, as Spendesk gave it',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'Client secret of your partner app, as Spendesk gave it',
		},
		{
			displayName: 'Redirect URI',
			name: 'redirectUri',
			type: 'string',
			required: true,
			default: '',
			placeholder: `e.g. ${N8N_CALLBACK}`,
			description: `The redirect URI registered for your partner app with Spendesk, exactly. None yet? Register any address you control, such as n8n's own OAuth callback URL (${N8N_CALLBACK}): Spendesk sends you there after you approve, and you only copy the address from the browser's address bar (n8n's own page there does not recognise Spendesk's answer, which is expected: the address is what counts).`,
		},
		...scopeProperties,
		...accessLevelProperties('connection'),
		{
			displayName: 'Connect Again',
			name: 'connectAgain',
			type: 'boolean',
			default: false,
			description:
				'Whether to connect the credential again, for another company or after ticking more Experimental Features: turn on and save, and the next run stops with a new approval link. It turns off by itself once the new connection is made.',
		},
		{
			displayName: 'Authorization Response',
			name: 'authorizationResponse',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://example.com/callback?code=…&state=…',
			description:
				"The whole address your browser shows after you approve on Spendesk's approval page (…?code=…&state=…). A one-time answer: the next run exchanges it and empties this field.",
		},
	];

	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		// The token calls leave through the package's one door (nodes/Spendesk/transport/door.ts).
		return await oauth2PreAuthentication(this, credentials);
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.accessToken}}' } },
	};

	// No `test` here: the node-level `spendeskOAuth2Test` checks the settings and a pasted answer.
}
