/** The credential the node is set to (API key or OAuth2), read once per execution context (and once per poll). */
import { NodeOperationError } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { resolveBaseUrl } from './environment';

export type SpendeskContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| IWebhookFunctions;

export interface ResolvedCredential {
	credentialType: string;
	credentialName: string;
	/** Identifies the credential for rate budgets and in-flight slots. */
	key: string;
	baseUrl: string;
	origin: string;
	level: 'organisation' | 'company';
	/** A company-level credential's own company, when its Company ID names it (docs/api.md#the-companys-own-id). */
	ownCompanyId?: string;
	/** A company-level API key without Company ID: what its company, once looked up, is remembered by (its origin and Client ID). */
	keyIdentity?: string;
}

const resolved = new WeakMap<object, Promise<ResolvedCredential>>();

export async function resolveCredential(ctx: SpendeskContext): Promise<ResolvedCredential> {
	let credential = resolved.get(ctx);
	if (!credential) {
		credential = loadCredential(ctx);
		resolved.set(ctx, credential);
		credential.catch(() => resolved.delete(ctx));
	}
	return await credential;
}

/** Forgets the credential resolved for this context (a poll context lives for a whole activation). */
export function forgetCredential(ctx: SpendeskContext): void {
	resolved.delete(ctx);
}

async function loadCredential(ctx: SpendeskContext): Promise<ResolvedCredential> {
	const node = ctx.getNode();
	const credentialType =
		node.parameters.authentication === 'oAuth2' ? 'spendeskOAuth2Api' : 'spendeskApi';
	const credentials = await ctx.getCredentials(credentialType);
	let baseUrl: string;
	try {
		baseUrl = resolveBaseUrl(credentials);
	} catch (error) {
		throw new NodeOperationError(node, (error as Error).message, {
			description:
				'Edit the credential: choose Production or Demo, or a Custom base URL that uses HTTPS.',
		});
	}
	const reference = node.credentials?.[credentialType];
	// Company unless Organisation is chosen: the level Spendesk's documented keys have.
	const level = credentials.accessLevel === 'organisation' ? 'organisation' : 'company';
	const companyId = typeof credentials.companyId === 'string' ? credentials.companyId.trim() : '';
	const credential: ResolvedCredential = {
		credentialType,
		credentialName: reference?.name ?? credentialType,
		key: `${credentialType}:${reference?.id ?? reference?.name ?? String(credentials.clientId ?? '')}`,
		baseUrl,
		origin: new URL(baseUrl).origin,
		level,
		ownCompanyId: (level === 'company' && companyId) || undefined,
	};
	// A key belongs to one company for good; an OAuth2 app's Client ID serves many companies.
	if (level === 'company' && !companyId && credentialType === 'spendeskApi')
		credential.keyIdentity = `${credential.origin} ${String(credentials.clientId ?? '')}`;
	secrets.set(credential, new Set());
	noteSecrets(credential, credentials);
	return credential;
}

/** What must never be quoted back, per resolved credential: kept apart from the credential object. */
const secrets = new WeakMap<ResolvedCredential, Set<string>>();

/** The client secret and the tokens the credential held (in the forms they travel in), to redact from quoted text. */
export function credentialSecrets(credential: ResolvedCredential): string[] {
	return [...(secrets.get(credential) ?? [])];
}

function noteSecrets(
	credential: ResolvedCredential,
	credentials: ICredentialDataDecryptedObject,
): void {
	const known = secrets.get(credential);
	if (!known) return;
	const tokens = (credentials.oauthTokenData ?? {}) as Record<string, unknown>;
	const clientSecret = typeof credentials.clientSecret === 'string' ? credentials.clientSecret : '';
	// A pasted authorization answer (Partner OAuth2), its code and its state.
	const pasted =
		typeof credentials.authorizationResponse === 'string'
			? credentials.authorizationResponse.trim()
			: '';
	const query = new URLSearchParams(pasted.replace(/^[^?]*\?/, ''));
	const values = [
		clientSecret,
		credentials.sessionToken,
		credentials.accessToken,
		credentials.refreshToken,
		pasted,
		...(pasted ? [query.get('code'), query.get('state')] : []),
		tokens.access_token,
		tokens.refresh_token,
		tokens.id_token,
	];
	if (clientSecret) {
		// As it travels: URL-encoded in the token URL, inside HTTP Basic with the client ID.
		const basic = new TextEncoder().encode(`${String(credentials.clientId ?? '')}:${clientSecret}`);
		values.push(encodeURIComponent(clientSecret), btoa(String.fromCharCode(...basic)));
	}
	for (const value of values) if (typeof value === 'string' && value.length >= 4) known.add(value);
}

export async function readCredentialAgain(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
): Promise<ICredentialDataDecryptedObject | undefined> {
	try {
		return (await ctx.getCredentials(credential.credentialType)) as ICredentialDataDecryptedObject;
	} catch {
		return undefined;
	}
}

/** Reads the credential again and remembers its tokens (a token n8n fetched or renewed since it was resolved). */
export async function rememberSecrets(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
): Promise<void> {
	const data = await readCredentialAgain(ctx, credential);
	if (data) noteSecrets(credential, data);
}
