import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	Icon,
	INodeProperties,
} from 'n8n-workflow';
import { redirectRefusal, sendPlain } from '../nodes/Spendesk/transport/door';
import { ENDPOINTS } from '../nodes/Spendesk/transport/endpoints';
import { REDIRECT_HELP, resolveBaseUrl } from '../nodes/Spendesk/transport/environment';
import { transportSettings } from '../nodes/Spendesk/transport/settings';
import { accessLevelProperties, environmentProperties } from './common';

/**
 * Spendesk API key (client ID + secret). The bearer token comes from POST /v1/auth/token in
 * `preAuthentication`; n8n keeps it in the hidden expirable `sessionToken` field and asks
 * for a new one only after a 401, so there is one token per lifetime.
 */
export class SpendeskApi implements ICredentialType {
	name = 'spendeskApi';

	displayName = 'Spendesk API';

	icon: Icon = {
		light: 'file:../nodes/Spendesk/spendesk.svg',
		dark: 'file:../nodes/Spendesk/spendesk.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-spendesk/n8n-nodes-spendesk#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		...environmentProperties,
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			required: true,
			default: '',
			description:
				'Client ID of the API key, from Spendesk: Settings → Integrations → API access management',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
		},
		...accessLevelProperties('API key'),
	];

	/** The bearer token, within `tokenTimeoutMs` whatever the endpoint does (n8n's `timeout` only limits silence). */
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		const url = resolveBaseUrl(credentials) + ENDPOINTS.token.path;
		const timeoutMs = transportSettings.tokenTimeoutMs;
		const deadline = AbortSignal.timeout(timeoutMs);
		let response: { access_token?: unknown };
		try {
			// Through the one door: a redirect is never followed (the client secret would go with it).
			response = (await sendPlain(
				this,
				{
					method: 'POST',
					url,
					auth: {
						username: String(credentials.clientId ?? ''),
						password: String(credentials.clientSecret ?? ''),
					},
					headers: { 'content-type': 'application/json', accept: 'application/json' },
					body: { grant_type: 'client_credentials' },
					json: true,
					timeout: timeoutMs,
					abortSignal: deadline,
				},
				{ what: "Spendesk's token endpoint", description: REDIRECT_HELP },
			)) as { access_token?: unknown };
		} catch (error) {
			if (redirectRefusal(error) || !deadline.aborted) throw error;
			// A network timeout for the retry rules and the "Could not reach Spendesk" error.
			throw Object.assign(
				new Error(
					`Spendesk's token endpoint at ${url} did not answer within ${Math.ceil(timeoutMs / 1000)} s`,
				),
				{ code: 'ETIMEDOUT' },
			);
		}
		if (typeof response?.access_token !== 'string' || !response.access_token) {
			throw new Error(`Spendesk answered the token request at ${url} without an access token`);
		}
		return { sessionToken: response.access_token };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { Authorization: '=Bearer {{$credentials.sessionToken}}' } },
	};

	// No `test` here: the test is node-level (`testedBy` on each Spendesk node), as it needs two
	// steps and one message per outcome (nodes/Spendesk/methods/credentialTest.ts).
}
