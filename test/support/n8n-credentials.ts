/**
 * n8n's side of a credential, as n8n 2.x does it (n8n-workflow's own expression engine where
 * n8n uses it; real HTTP to the simulator):
 * - `resolveLikeN8n`: CredentialsHelper.applyDefaultsAndOverwrites (defaults, then every
 *   `={{ … }}` evaluated with the data itself as `$self`);
 * - `findCredentialTest` and `testCredentialLikeN8n`: CredentialsTester (which test it picks
 *   for a credential type, and how it calls a node-level test with CredentialTestContext,
 *   whose only helper is the legacy `request`, proxied to axios).
 */
import { NodeHelpers, Workflow } from 'n8n-workflow';
import type {
	ICredentialTestFunction,
	ICredentialTestFunctions,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeCredentialTestResult,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
} from 'n8n-workflow';
import { SpendeskApi } from '../../credentials/SpendeskApi.credentials';
import { SpendeskOAuth2Api } from '../../credentials/SpendeskOAuth2Api.credentials';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { SpendeskTrigger } from '../../nodes/Spendesk/SpendeskTrigger.node';
import { SpendeskWebhookTrigger } from '../../nodes/Spendesk/SpendeskWebhookTrigger.node';
import { httpRequest } from './n8n-context';

export const MOCK_NODE: INode = {
	id: 'mock',
	name: 'mock',
	type: 'mock',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const NODE_TYPES = {
	getByName: () => ({ description: { properties: [] } }),
	getByNameAndVersion: () => ({ description: { properties: [] } }),
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

/** The credential types of the package, as n8n knows them by name. */
export const CREDENTIAL_TYPES: Record<string, ICredentialType> = {
	spendeskApi: new SpendeskApi(),
	spendeskOAuth2Api: new SpendeskOAuth2Api(),
};

/** The package's nodes, in the order package.json lists them (n8n's "supported nodes" of a credential). */
export const NODE_CLASSES: Record<string, INodeType> = {
	spendesk: new Spendesk(),
	spendeskTrigger: new SpendeskTrigger(),
	spendeskWebhookTrigger: new SpendeskWebhookTrigger(),
};

/**
 * The credential's data as n8n resolves it (CredentialsHelper.applyDefaultsAndOverwrites):
 * property defaults, then every `={{ … }}` evaluated by n8n-workflow's own expression engine
 * with the data itself as `$self`.
 */
export function resolveLikeN8n(
	credential: ICredentialType,
	data: IDataObject,
	extra: INodeProperties[] = [],
): IDataObject {
	const properties = [...credential.properties, ...extra];
	// n8n adds the properties of the type a credential extends (oAuth2Api: Client ID and Secret).
	for (const name of ['clientId', 'clientSecret']) {
		if (!properties.some((p) => p.name === name))
			properties.push({ displayName: name, name, type: 'string', default: '' });
	}
	const withDefaults = NodeHelpers.getNodeParameters(
		properties,
		data as INodeParameters,
		true,
		false,
		null,
		null,
	) as IDataObject;
	const workflow = new Workflow({
		nodes: [MOCK_NODE],
		connections: {},
		active: false,
		nodeTypes: NODE_TYPES,
	});
	return workflow.expression.getComplexParameterValue(
		MOCK_NODE,
		withDefaults as INodeParameters,
		'manual',
		{} as never,
		undefined,
		undefined,
		withDefaults as never,
	) as IDataObject;
}

export type FoundTest =
	| { kind: 'request'; nodeType?: string }
	| { kind: 'function'; fn: ICredentialTestFunction; nodeType: string }
	| { kind: 'oauth2TokenPresent'; nodeType: string }
	| { kind: 'none' };

/**
 * CredentialsTester.getCredentialTestFunction: the credential's own `test` first; otherwise
 * the first of `nodes` declaring the credential (an OAuth2 credential gets n8n's "has a token"
 * check; a `testedBy` string names a function of the node's `methods.credentialTest`, which
 * n8n reads without a check: a node without it fails the lookup).
 */
export function findCredentialTest(
	credentialType: string,
	nodes: Record<string, INodeType> = NODE_CLASSES,
): FoundTest {
	if (CREDENTIAL_TYPES[credentialType]?.test) return { kind: 'request' };
	const oauth2 = (CREDENTIAL_TYPES[credentialType]?.extends ?? []).includes('oAuth2Api');
	for (const [nodeType, node] of Object.entries(nodes)) {
		for (const { name, testedBy } of node.description.credentials ?? []) {
			if (name !== credentialType) continue;
			if (oauth2) return { kind: 'oauth2TokenPresent', nodeType };
			if (!testedBy) continue;
			if (typeof testedBy !== 'string') return { kind: 'request', nodeType };
			const fn = node.methods!.credentialTest![testedBy];
			return { kind: 'function', fn, nodeType };
		}
	}
	return { kind: 'none' };
}

/**
 * CredentialTestContext: its only helper is the legacy `request`, which n8n proxies to axios
 * (proxyRequestToAxios): `uri`, `auth: {user, pass}`, `qs`, `json`, `simple: false` (every
 * status is an answer), `resolveWithFullResponse`, `useStream`, `timeout` (which only limits
 * silence: no abort signal reaches the request), the redirect rules of
 * parseRequestObject (`followRedirect`, `followAllRedirects`, `maxRedirects`); a network
 * failure throws with its code.
 */
export function credentialTestContext(): ICredentialTestFunctions {
	const request = async (uriOrObject: string | object, options?: object) => {
		const o = (
			typeof uriOrObject === 'string' ? { uri: uriOrObject, ...options } : uriOrObject
		) as IDataObject & {
			auth?: { user?: string; username?: string; pass?: string; password?: string };
		};
		const method = (o.method as IHttpRequestOptions['method']) ?? 'GET';
		// parseRequestObject: a GET or HEAD follows redirects unless `followRedirect: false`, any
		// other method only with `followAllRedirects`; `maxRedirects: 0` follows none.
		const follows =
			o.maxRedirects !== 0 &&
			((o.followRedirect !== false && (method === 'GET' || method === 'HEAD')) ||
				o.followAllRedirects === true);
		const converted: IHttpRequestOptions = {
			url: String(o.uri ?? o.url),
			method,
			disableFollowRedirect: !follows,
			headers: o.headers as IDataObject | undefined,
			qs: o.qs as IDataObject | undefined,
			body: o.body as IDataObject | undefined,
			json: o.json === true,
			timeout: o.timeout as number | undefined,
			...(o.auth
				? {
						auth: {
							username: String(o.auth.user ?? o.auth.username ?? ''),
							password: String(o.auth.pass ?? o.auth.password ?? ''),
						},
					}
				: {}),
			// parseRequestObject: `useStream` is axios' responseType 'stream' (the body a stream).
			...(o.useStream === true ? { encoding: 'stream' as const } : {}),
			...(o.simple === false ? { ignoreHttpStatusErrors: true } : {}),
			...(o.resolveWithFullResponse ? { returnFullResponse: true } : {}),
		};
		return await httpRequest(converted);
	};
	return {
		logger: { debug() {}, info() {}, warn() {}, error() {} } as never,
		helpers: { request } as never,
	};
}

/**
 * CredentialsTester.testCredentials for a credential saved with `data`: the test n8n finds
 * for the type (through `nodes`), called with the data resolved as n8n resolves it.
 */
export async function testCredentialLikeN8n(
	credentialType: string,
	data: IDataObject,
	nodes: Record<string, INodeType> = NODE_CLASSES,
): Promise<INodeCredentialTestResult> {
	const found = findCredentialTest(credentialType, nodes);
	if (found.kind !== 'function')
		throw new Error(`n8n would not run a node-level test for ${credentialType} (${found.kind})`);
	const resolved = resolveLikeN8n(CREDENTIAL_TYPES[credentialType], data);
	return await found.fn.call(credentialTestContext(), {
		id: 'cred-1',
		name: 'Spendesk credential',
		type: credentialType,
		data: resolved as never,
	});
}
