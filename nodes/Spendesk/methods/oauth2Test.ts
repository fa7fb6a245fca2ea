/**
 * The OAuth2 credential's test: the settings and a pasted answer's state, never the code
 * exchange (a test cannot save tokens, a code works once: docs/api.md#the-oauth2-credential).
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { clientOf, readAuthorizationResponse } from '../transport/oauth2';
import { baseUrlOf, failed } from './credentialTest';

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

export async function spendeskOAuth2Test(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const baseUrl = baseUrlOf(data);
	if (typeof baseUrl !== 'string') return baseUrl;
	const client = clientOf(data);
	if (!client.clientId || !client.clientSecret)
		return failed("Enter 'Client ID' and 'Client Secret' of your Spendesk partner app.");
	const redirectUri = text(data.redirectUri);
	if (!/^https?:\/\//i.test(redirectUri) || !URL.canParse(redirectUri))
		return failed(
			`'Redirect URI' must be a whole address starting with https:// (or http://), exactly as registered for your partner app with Spendesk; "${redirectUri.slice(0, 100)}" is not one.`,
		);
	const pasted = text(data.authorizationResponse);
	if (pasted) {
		const answer = readAuthorizationResponse(client, pasted);
		if (answer.kind === 'problem')
			return failed(
				`${answer.message}. Run a Spendesk node with this credential for a new approval link.`,
			);
		return {
			status: 'OK',
			message:
				"The pasted answer is this credential's: the next run of a Spendesk node connects (start it within 10 minutes of approving).",
		};
	}
	if (data.connectAgain === true)
		return {
			status: 'OK',
			message: "Settings complete. 'Connect Again' is on: the next run gives a new approval link.",
		};
	return {
		status: 'OK',
		message: text(data.refreshToken)
			? 'Settings complete, and the credential holds a connection: runs renew access by themselves.'
			: 'Settings complete. Not connected yet: the next run of a Spendesk node gives the approval link.',
	};
}
