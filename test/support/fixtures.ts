/** Shared set-up for integration tests: a simulator plus credential stores pointing at it. */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { SpendeskTrigger } from '../../nodes/Spendesk/SpendeskTrigger.node';
import { flowControl } from '../../nodes/Spendesk/transport/limiter';
import { transportSettings } from '../../nodes/Spendesk/transport/request';
import type { SpendeskContext } from '../../nodes/Spendesk/transport/request';
import { SpendeskSimulator } from '../simulator';
import type { ApiKeyCredential, SimulatorOptions } from '../simulator';
import { CredentialStore, createContext } from './n8n-context';
import type { ContextOptions } from './n8n-context';

export type CredentialKind = 'orgKey' | 'companyKey' | 'oauthOrg' | 'oauthCompany';

const DEFAULT_SETTINGS = { ...transportSettings };

/** Fresh transport state and fast retries for a test. */
export function resetTransport(overrides: Partial<typeof transportSettings> = {}): void {
	flowControl.reset();
	Object.assign(
		transportSettings,
		DEFAULT_SETTINGS,
		{ backoffBaseMs: 5, maxBackoffMs: 20, snapshotPollIntervalMs: 200 },
		overrides,
	);
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<SpendeskSimulator> {
	const sim = new SpendeskSimulator(options);
	await sim.start();
	return sim;
}

/**
 * The simulator of a describe block: started before its tests (and handed to `started`),
 * stopped after them, with the transport reset and the faults cleared before each test.
 */
export function simulatorPerSuite(
	options: SimulatorOptions,
	started: (sim: SpendeskSimulator) => void,
): void {
	let running: SpendeskSimulator | undefined;
	beforeAll(async () => {
		running = await startSimulator(options);
		started(running);
	});
	afterAll(async () => running?.stop());
	beforeEach(() => {
		resetTransport();
		running?.clearFaults();
	});
}

/** Runs the OAuth2 PKCE flow against the simulator, as n8n's editor does, and returns the token data. */
export async function oauthTokens(
	sim: SpendeskSimulator,
	consent: 'organisation' | 'company',
	user = 'u_owner',
	company?: string,
) {
	const { createHash, randomBytes } = await import('node:crypto');
	const verifier = randomBytes(32).toString('base64url');
	const challenge = createHash('sha256').update(verifier).digest('base64url');
	const redirect = 'http://127.0.0.1:5678/rest/oauth2-credential/callback';
	const authorize = new URL('/oauth2/authorize', sim.baseUrl);
	const client = sim.credentials.oauthClient;
	authorize.search = new URLSearchParams({
		response_type: 'code',
		client_id: client.clientId,
		redirect_uri: redirect,
		state: 'st',
		code_challenge: challenge,
		code_challenge_method: 'S256',
		consent,
		user,
		...(company ? { company } : {}),
	}).toString();
	const res = await fetch(authorize, { redirect: 'manual' });
	const code = new URL(res.headers.get('location')!).searchParams.get('code');
	if (!code) throw new Error(`authorize refused: ${res.headers.get('location')}`);
	const token = await fetch(new URL('/oauth2/token', sim.baseUrl), {
		method: 'POST',
		headers: {
			'content-type': 'application/x-www-form-urlencoded',
			authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
		},
		body: new URLSearchParams({
			grant_type: 'authorization_code',
			code,
			redirect_uri: redirect,
			code_verifier: verifier,
		}),
	});
	return (await token.json()) as { access_token: string; refresh_token: string };
}

/** n8n's credentials database holding one API-key credential pointing at a simulator. */
export function apiKeyStore(baseUrl: string, key: ApiKeyCredential): CredentialStore {
	const store = new CredentialStore();
	store.set('spendeskApi', {
		environment: 'custom',
		baseUrl,
		clientId: key.clientId,
		clientSecret: key.clientSecret,
		accessLevel: key.level,
		companyId: key.companyId ?? '',
	});
	return store;
}

/** A credential store holding one credential of the given kind against the simulator. */
export async function storeFor(
	sim: SpendeskSimulator,
	kind: CredentialKind,
): Promise<CredentialStore> {
	if (kind === 'orgKey' || kind === 'companyKey')
		return apiKeyStore(sim.baseUrl, sim.credentials[kind]);
	const level = kind === 'oauthOrg' ? 'organisation' : 'company';
	const client = sim.credentials.oauthClient;
	const store = new CredentialStore();
	store.set('spendeskOAuth2Api', {
		environment: 'custom',
		baseUrl: sim.baseUrl,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		accessLevel: level,
		companyId: level === 'company' ? 'cmp_001' : '',
		oauthTokenData: await oauthTokens(sim, level),
	});
	return store;
}

export function authenticationOf(kind: CredentialKind): 'apiKey' | 'oAuth2' {
	return kind === 'orgKey' || kind === 'companyKey' ? 'apiKey' : 'oAuth2';
}

/** An execution context using the given credential kind. */
export async function contextFor(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	extra: Partial<ContextOptions> = {},
) {
	const store = extra.store ?? (await storeFor(sim, kind));
	return createContext({
		...extra,
		store,
		parameters: { authentication: authenticationOf(kind), ...extra.parameters },
	});
}

/** An execution context of the given credential kind, typed as the transport's context. */
export async function ctxFor(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	extra: Partial<ContextOptions> = {},
): Promise<SpendeskContext> {
	const { context } = await contextFor(sim, kind, extra);
	return context as unknown as SpendeskContext;
}

/** The error a promise rejects with; fails the test if it resolves. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
	try {
		await promise;
	} catch (error) {
		return error as Error;
	}
	throw new Error('expected a failure, but the call succeeded');
}

/** The NodeApiError a promise rejects with; fails the test if it resolves or fails otherwise. */
export async function apiFailure(promise: Promise<unknown>): Promise<NodeApiError> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(NodeApiError);
		return error as NodeApiError;
	}
	throw new Error('expected the call to fail');
}

export type TriggerEvent = 'newInvoice' | 'newOrUpdatedInvoice';
export type PollResult = INodeExecutionData[][] | null;

/** The JSON of the items a poll emitted ([] when it returned null). */
export function pollItems(result: PollResult): IDataObject[] {
	return result ? result.flat().map((item) => item.json) : [];
}

/**
 * A Spendesk Trigger on one execution context, as n8n keeps it for an active workflow (the
 * static data lives on between polls): `raw()` is what poll() returns, `poll()` its items.
 */
export async function triggerFor(
	sim: SpendeskSimulator,
	parameters: IDataObject,
	{
		staticData = {},
		mode = 'trigger',
		kind = 'orgKey',
		workflowId,
		nodeName,
	}: {
		staticData?: IDataObject;
		mode?: 'manual' | 'trigger';
		kind?: CredentialKind;
		workflowId?: string;
		/** The trigger's name in the workflow (n8n's default for a first one: "Spendesk Trigger"). */
		nodeName?: string;
	} = {},
) {
	const trigger = new SpendeskTrigger();
	// The parameters as n8n resolves them before it runs the trigger (createContext's description).
	const { context, logs } = await contextFor(sim, kind, {
		mode,
		staticData,
		parameters,
		workflowId,
		nodeName,
		description: trigger.description,
		nodeType: 'n8n-nodes-spendesk.spendeskTrigger',
	});
	const raw = async () => (await trigger.poll.call(context as never)) as PollResult;
	return { staticData, logs, context, raw, poll: async () => pollItems(await raw()) };
}
