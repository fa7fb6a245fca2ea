/**
 * Queue mode, the OAuth2 code exchange (docs/errors.md#retries, docs/scaling.md): the user pastes
 * the approval answer once, and two n8n processes (workers) run with the credential as they read
 * it before either exchanged the code. The first exchange wins and saves the connection; the
 * other's exchange of the same code is refused (a code works once). That worker reads the
 * credential again, finds the connection the winner saved and runs with it, instead of failing
 * with "Connect the credential …". A paste refused for its own sake (no winner saved anything)
 * still fails, saying why. Over real HTTP to the simulator's documented OAuth2 contract.
 */
import type { ICredentialDataDecryptedObject, IDataObject, NodeApiError } from 'n8n-workflow';
import { approvalAddress } from '../../nodes/Spendesk/transport/oauth2';
import { callSpendesk } from '../../nodes/Spendesk/transport/request';
import type { SpendeskSimulator } from '../simulator';
import { failure, OAUTH_REDIRECT, resetTransport, simulatorPerSuite } from '../support/fixtures';
import { CredentialStore, createContext } from '../support/n8n-context';

const TYPE = 'spendeskOAuth2Api';

/**
 * The credentials database as a worker that lost the race sees it: the copy it read before the
 * winner saved (`before`) while `stale()` holds, then the database itself (`shared`), which the
 * winner wrote to.
 */
function racingStore(
	shared: CredentialStore,
	before: CredentialStore,
	stale: () => boolean,
): CredentialStore {
	const view = Object.create(CredentialStore.prototype) as CredentialStore;
	return Object.assign(view, {
		writes: shared.writes,
		get: (type: string) => (stale() ? before : shared).get(type),
		stored: (type: string) => shared.stored(type),
		set: (type: string, value: ICredentialDataDecryptedObject) => shared.set(type, value),
		update: (type: string, value: ICredentialDataDecryptedObject) => shared.update(type, value),
	});
}

describe('OAuth2: the worker that loses the race to exchange a pasted code', () => {
	let sim: SpendeskSimulator;
	let fields: IDataObject;
	simulatorPerSuite({ profile: 'documented', seed: { companies: 3 } }, (started) => {
		sim = started;
		const client = sim.credentials.oauthClient;
		fields = {
			environment: 'custom',
			baseUrl: sim.baseUrl,
			clientId: client.clientId,
			clientSecret: client.clientSecret,
			redirectUri: OAUTH_REDIRECT,
			accessLevel: 'organisation',
			companyId: '',
		};
	});
	beforeEach(() => {
		sim.clearLog();
	});

	const ctxOf = (store: CredentialStore) =>
		createContext({ store, parameters: { authentication: 'oAuth2' } }).context as never;

	/** The database after the user approved and pasted the address they landed on. */
	async function pasted(): Promise<CredentialStore> {
		const res = await fetch(approvalAddress(fields)!, { redirect: 'manual' });
		const store = new CredentialStore();
		store.set(TYPE, {
			...fields,
			authorizationResponse: res.headers.get('location')!,
		} as ICredentialDataDecryptedObject);
		return store;
	}
	const copyOf = (store: CredentialStore) => {
		const copy = new CredentialStore();
		copy.set(TYPE, store.stored(TYPE));
		return copy;
	};

	test('the loser reads the connection the winner saved and runs with it', async () => {
		const shared = await pasted();
		const before = copyOf(shared);
		// Worker A exchanges the code and saves the connection.
		const a = await callSpendesk(ctxOf(shared), 'walletSummary', { company: 'cmp_001' });
		expect(a.status).toBe(200);
		expect(shared.stored(TYPE).authorizationResponse).toBe('');
		// Worker B, another process, read the credential before A saved: its exchange of the
		// same code is refused; its later reads see what A saved.
		resetTransport(); // a new process: nothing remembered
		const exchanges = () => sim.requestsTo('oauthTokenCreate').length;
		const b = await callSpendesk(
			ctxOf(racingStore(shared, before, () => exchanges() < 2)),
			'walletSummary',
			{ company: 'cmp_002' },
		);
		expect(b.status).toBe(200);
		expect(sim.requestsTo('oauthTokenCreate').map((r) => r.status)).toEqual([201, 400]);
		expect(sim.requestsTo('walletSummary').map((r) => `${r.companyId} ${r.status}`)).toEqual([
			'cmp_001 200',
			'cmp_002 200',
		]);
		// Nothing more was spent: the winner's connection is the one in use.
		expect(sim.requestsTo('oauthTokenRefresh')).toEqual([]);
	});

	test('a 5xx on the code exchange is retried like any other call and connects (docs/errors.md#retries)', async () => {
		const store = await pasted();
		sim.injectFault({ route: 'oauthTokenCreate', kind: 'status', status: 503 });
		const res = await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		expect(res.status).toBe(200);
		expect(sim.requestsTo('oauthTokenCreate').map((r) => r.status)).toEqual([503, 201]);
		expect(store.stored(TYPE).authorizationResponse).toBe('');
	});

	test('a paste refused for its own sake (used before, nobody saved a connection) still fails, saying why', async () => {
		const store = await pasted();
		const used = copyOf(store);
		await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		resetTransport(); // a new process: nothing remembered
		// The same answer pasted again into a credential that holds no connection.
		const again = new CredentialStore();
		again.set(TYPE, { ...used.stored(TYPE) });
		const error = (await failure(
			callSpendesk(ctxOf(again), 'walletSummary', { company: 'cmp_001' }),
		)) as NodeApiError;
		expect(error.message).toMatch(/^Connect the credential "Spendesk OAuth2" to Spendesk/);
		expect(String(error.description)).toContain('Spendesk refused the pasted authorization');
		expect(sim.requestsTo('oauthTokenCreate').map((r) => r.status)).toEqual([201, 400]);
		expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([200]);
	});
});
