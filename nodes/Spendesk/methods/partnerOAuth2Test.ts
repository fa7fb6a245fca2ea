/**
 * The Partner OAuth2 credential's test (the editor's "Test" button, and the check n8n runs on
 * Save), node-level like the API key's (`testedBy: 'spendeskPartnerOAuth2Test'`). It never
 * exchanges the code: a test cannot save tokens, and a code works once. docs/api.md#oauth2.
 *
 * - Nothing pasted and nothing connected: an error whose message is the authorization address.
 * - A pasted answer: its state (signature, at most 10 minutes old) and code are checked, and
 *   the next execution connects.
 * - Connected (tokens saved, nothing pasted): the address too, to connect again.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { resolveBaseUrl } from '../transport/environment';
import {
	AUTHORIZATION_MAX_AGE_MS,
	authorizeUrl,
	clientOf,
	readAuthorizationResponse,
} from '../transport/partnerOAuth2';

const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The address to open, as the message of a failed test (the only place n8n shows text). */
function openThis(data: IDataObject, baseUrl: string, lead: string): INodeCredentialTestResult {
	const url = authorizeUrl(baseUrl, clientOf(data), text(data.redirectUri), text(data.scope));
	return failed(
		`${lead}Open this address, approve, then paste the address you land on into Authorization Response and save: ${url}`,
	);
}

/** The test n8n runs for the Spendesk Partner OAuth2 credential. */
export async function spendeskPartnerOAuth2Test(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	let baseUrl: string;
	try {
		baseUrl = resolveBaseUrl(data);
	} catch (error) {
		return failed(
			`${(error as Error).message}. Choose Production or Demo as Environment, or fix the Base URL.`,
		);
	}
	const client = clientOf(data);
	if (!client.clientId || !client.clientSecret)
		return failed('Enter the Client ID and the Client Secret of your Spendesk partner app.');
	if (!text(data.redirectUri))
		return failed('Enter the Redirect URI registered for your partner app with Spendesk.');
	if (data.accessLevel === 'company' && !text(data.companyId))
		return failed(
			'Enter the Company ID of the company you will approve, or set Access Level to Organisation.',
		);
	const pasted = text(data.authorizationResponse);
	if (!pasted) {
		// Connected or not, the address is given: a test cannot check a rotating refresh token
		// without spending it, and reconnecting starts here.
		return openThis(
			data,
			baseUrl,
			text(data.refreshToken)
				? 'This credential holds a connection (executions renew it). To connect again: '
				: 'Not connected yet. ',
		);
	}
	const answer = readAuthorizationResponse(client, pasted);
	if (answer.kind === 'problem') return openThis(data, baseUrl, `${answer.message}. `);
	if (Date.now() - answer.issuedAt > AUTHORIZATION_MAX_AGE_MS)
		return openThis(
			data,
			baseUrl,
			'The pasted Authorization Response is more than 10 minutes old: Spendesk no longer accepts its code. ',
		);
	return {
		status: 'OK',
		message:
			'The authorization answer is valid. The next execution of a Spendesk node connects (within 10 minutes of approving).',
	};
}
