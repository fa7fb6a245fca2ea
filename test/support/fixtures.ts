/** Shared set-up for integration tests: a simulator plus credential stores pointing at it. */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';
import { EXPERIMENTAL_FEATURES } from '../../nodes/Spendesk/transport/endpoints';
import { SpendeskTrigger } from '../../nodes/Spendesk/SpendeskTrigger.node';
import { approvalAddress, oauth2PreAuthentication } from '../../nodes/Spendesk/transport/oauth2';
import type { SpendeskContext } from '../../nodes/Spendesk/transport/request';
import { SpendeskSimulator } from '../simulator';
import type { ApiKeyCredential, SimulatorOptions } from '../simulator';
import { CredentialStore, createContext, httpRequest } from './n8n-context';
import type { ContextOptions } from './n8n-context';
import { transportSeam } from './seam';
import type { TransportSettings } from '../../nodes/Spendesk/transport/settings';

export type CredentialKind = 'orgKey' | 'companyKey' | 'oauthOrg' | 'oauthCompany';

/** Fresh transport state and fast retries for a test (test/support/seam.ts). */
export function resetTransport(overrides: Partial<TransportSettings> = {}): void {
	transportSeam.reset({
		backoffBaseMs: 5,
		maxBackoffMs: 20,
		snapshotPollIntervalMs: 200,
		...overrides,
	});
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

/** The Redirect URI of the OAuth2 credentials the tests connect (n8n's own callback, as the README suggests). */
export const OAUTH_REDIRECT = 'http://127.0.0.1:5678/rest/oauth2-credential/callback';

/**
 * Connects an OAuth2 credential against the simulator as a user does: the approval link the
 * credential gives, approved as `user` (organisation or company consent), and the code
 * exchanged by the credential's own preAuthentication. Returns the fields n8n saves.
 */
export async function oauthTokens(
	sim: SpendeskSimulator,
	fields: IDataObject,
	consent: 'organisation' | 'company',
	user = 'u_owner',
	company?: string,
): Promise<IDataObject> {
	const link = new URL(approvalAddress(fields)!);
	link.searchParams.set('consent', consent);
	link.searchParams.set('user', user);
	if (company) link.searchParams.set('company', company);
	const res = await fetch(link, { redirect: 'manual' });
	const landed = res.headers.get('location') ?? '';
	if (!new URL(landed).searchParams.get('code')) throw new Error(`approval refused: ${landed}`);
	const saved = await oauth2PreAuthentication(
		{ helpers: { httpRequest: async (options) => await httpRequest(options) } },
		{ ...fields, authorizationResponse: landed } as ICredentialDataDecryptedObject,
	);
	return { ...fields, ...saved };
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
	const fields: IDataObject = {
		environment: 'custom',
		baseUrl: sim.baseUrl,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		redirectUri: OAUTH_REDIRECT,
		accessLevel: level,
		companyId: level === 'company' ? 'cmp_001' : '',
		// A partner app with every experimental feature enabled: its tokens hold every scope.
		experimentalFeatures: EXPERIMENTAL_FEATURES.map((f) => f.value),
	};
	const store = new CredentialStore();
	store.set(
		'spendeskOAuth2Api',
		(await oauthTokens(sim, fields, level)) as ICredentialDataDecryptedObject,
	);
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

/**
 * Refused before sending anything: `run` fails with a NodeOperationError whose message is
 * `message` (or matches it), and the simulator received no request at all, not even for a
 * token. Returns the error for further checks.
 */
export async function expectRefusedBeforeAnyRequest(
	sim: SpendeskSimulator,
	run: Promise<unknown>,
	message: string | RegExp,
): Promise<NodeOperationError> {
	const error = await failure(run);
	expect(error).toBeInstanceOf(NodeOperationError);
	if (typeof message === 'string') expect(error.message).toBe(message);
	else expect(error.message).toMatch(message);
	expect(sim.log).toEqual([]);
	return error as NodeOperationError;
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
