/**
 * The Partner OAuth2 credential against the simulator's documented contract
 * (docs/api.md#oauth2), over real HTTP through the n8n 2.8 request helpers' stand-in: the
 * authorization address from the Test, the code exchange on first use, refreshes after
 * expiry, one refresh for concurrent callers, revocation and a failing token endpoint.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { SpendeskPartnerOAuth2Api } from '../../credentials/SpendeskPartnerOAuth2Api.credentials';
import { resetPartnerOAuth2 } from '../../nodes/Spendesk/transport/partnerOAuth2';
import { callSpendesk } from '../../nodes/Spendesk/transport/request';
import type { SpendeskSimulator } from '../simulator';
import { failure, resetTransport, startSimulator } from '../support/fixtures';
import { CredentialStore, createContext, httpRequest } from '../support/n8n-context';
import { testCredentialLikeN8n } from '../support/n8n-credentials';

const TYPE = 'spendeskPartnerOAuth2Api';
const REDIRECT = 'https://example.com/spendesk/callback';

describe('Partner OAuth2 credential, documented contract', () => {
	let sim: SpendeskSimulator;
	let fields: IDataObject;
	beforeAll(async () => {
		sim = await startSimulator({ profile: 'documented', seed: { companies: 3 } });
		const c = sim.credentials.oauthClient;
		fields = {
			environment: 'custom',
			baseUrl: sim.baseUrl,
			clientId: c.clientId,
			clientSecret: c.clientSecret,
			redirectUri: REDIRECT,
			accessLevel: 'organisation',
		};
	});
	afterAll(async () => sim.stop());
	beforeEach(() => {
		resetTransport();
		resetPartnerOAuth2();
		sim.clearFaults();
		sim.clearLog();
	});

	/** The Test's message when nothing is pasted: the authorization address it holds. */
	async function addressFromTest(data: IDataObject = fields): Promise<URL> {
		const result = await testCredentialLikeN8n(TYPE, data);
		expect(result.status).toBe('Error');
		expect(result.message).toContain('Open this address, approve, then paste the address');
		return new URL(/(https?:\/\/\S+)$/.exec(result.message)![1]);
	}

	/** The user opens the address and approves: the address Spendesk sends them to. */
	async function approve(address: URL): Promise<string> {
		const res = await fetch(address, { redirect: 'manual' });
		expect(res.status).toBe(302);
		return res.headers.get('location')!;
	}

	/** A credential connected by paste, in n8n's credentials database. */
	async function pastedStore(): Promise<CredentialStore> {
		const store = new CredentialStore();
		store.set(TYPE, { ...fields, authorizationResponse: await approve(await addressFromTest()) });
		return store;
	}

	const ctxOf = (store: CredentialStore) =>
		createContext({ store, parameters: { authentication: 'partnerOAuth2' } }).context as never;

	const secretsOf = (store: CredentialStore): string[] => {
		const data = store.get(TYPE);
		return [String(fields.clientSecret), String(data.accessToken), String(data.refreshToken)];
	};

	test('the Test gives an authorization address with an S256 challenge and the required scope', async () => {
		const url = await addressFromTest();
		expect(url.pathname).toBe('/v1/oauth2/authorize');
		expect(url.searchParams.get('code_challenge_method')).toBe('S256');
		expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(url.searchParams.get('scope')).toContain('wallet-summary:read');
		expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
		expect(url.toString()).not.toContain(String(fields.clientSecret));
		const pasted = await approve(url);
		expect(new URL(pasted).searchParams.get('code')).toBeTruthy();
		// The paste is checked, not exchanged.
		sim.clearLog();
		const checked = await testCredentialLikeN8n(TYPE, { ...fields, authorizationResponse: pasted });
		expect(checked).toEqual({ status: 'OK', message: expect.stringContaining('next execution') });
		expect(sim.log).toHaveLength(0);
		// A state this credential did not sign: a new address instead.
		const forged = pasted.replace(/state=[^&]+/, 'state=abc.def');
		const refused = await testCredentialLikeN8n(TYPE, { ...fields, authorizationResponse: forged });
		expect(refused.status).toBe('Error');
		expect(refused.message).toContain('does not come from an authorization address');
	});

	test('first execution exchanges the code (JSON, 201), saves the tokens and clears the paste', async () => {
		const store = await pastedStore();
		sim.clearLog();
		const res = await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		expect(res.status).toBe(200);
		const [create] = sim.requestsTo('oauthTokenCreate');
		expect(create.status).toBe(201);
		expect(create.headers['content-type']).toMatch(/application\/json/);
		expect(create.headers).not.toHaveProperty('authorization');
		const saved = store.get(TYPE);
		expect(saved.accessToken).toBeTruthy();
		expect(saved.refreshToken).toBeTruthy();
		expect(saved.authorizationResponse).toBe('');
		// A second execution uses the saved token.
		await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_002' });
		expect(sim.requestsTo('oauthTokenCreate')).toHaveLength(1);
		expect(sim.requestsTo('oauthTokenRefresh')).toHaveLength(0);
	});

	test('company-level consent with Access Level Company: no company header, the approved company answers', async () => {
		const companyFields = { ...fields, accessLevel: 'company', companyId: 'cmp_002' };
		const address = await addressFromTest(companyFields);
		// On the consent screen the user approves one company.
		address.searchParams.set('consent', 'company');
		address.searchParams.set('company', 'cmp_002');
		const store = new CredentialStore();
		store.set(TYPE, { ...companyFields, authorizationResponse: await approve(address) });
		sim.clearLog();
		const res = await callSpendesk(ctxOf(store), 'walletSummary', {});
		expect(res.status).toBe(200);
		const [call] = sim.requestsTo('walletSummary');
		expect(call.headers).not.toHaveProperty('x-company-id');
		expect(call.companyId).toBe('cmp_002');
		expect(res.body).toEqual(JSON.parse(JSON.stringify(sim.data('cmp_002').walletSummary)));
	});

	test('organisation-level consent with Access Level Organisation: each call names its company', async () => {
		const store = await pastedStore();
		sim.clearLog();
		for (const company of ['cmp_001', 'cmp_002'])
			expect((await callSpendesk(ctxOf(store), 'walletSummary', { company })).status).toBe(200);
		expect(
			sim.requestsTo('walletSummary').map((r) => [r.headers['x-company-id'], r.status]),
		).toEqual([
			['cmp_001', 200],
			['cmp_002', 200],
		]);
	});

	test('three expiries → three JSON refreshes with the client in the query, each old token dead', async () => {
		const store = await pastedStore();
		await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		const spent: string[] = [];
		for (let i = 0; i < 3; i++) {
			spent.push(String(store.get(TYPE).refreshToken));
			sim.expireTokens();
			const res = await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
			expect(res.status).toBe(200);
		}
		const refreshes = sim.requestsTo('oauthTokenRefresh');
		expect(refreshes.map((r) => r.status)).toEqual([200, 200, 200]);
		for (const r of refreshes) {
			expect(Object.keys(r.query).sort()).toEqual(['client_id', 'client_secret']);
			expect(r.headers['content-type']).toMatch(/application\/json/);
		}
		expect(new Set([...spent, store.get(TYPE).refreshToken]).size).toBe(4);
		for (const old of spent) {
			const again = (await httpRequest({
				method: 'POST',
				url: `${sim.baseUrl}/v1/oauth2/token/refresh`,
				qs: { client_id: fields.clientId, client_secret: fields.clientSecret },
				body: { grant_type: 'refresh_token', refresh_token: old },
				json: true,
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
			})) as { statusCode: number; body: IDataObject };
			expect(again.statusCode).toBe(400);
			expect(again.body.error).toBe('invalid_grant');
		}
	});

	test('two concurrent executions across an expiry: one refresh, both succeed', async () => {
		const store = await pastedStore();
		await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		sim.expireTokens();
		sim.clearLog();
		const results = await Promise.all([
			callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' }),
			callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_002' }),
		]);
		expect(results.map((r) => r.status)).toEqual([200, 200]);
		expect(sim.requestsTo('oauthTokenRefresh')).toHaveLength(1);
	});

	test('preAuthentication: concurrent callers share one refresh; a late caller with the spent token gets the new pair', async () => {
		const store = await pastedStore();
		await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		const held: ICredentialDataDecryptedObject = store.get(TYPE);
		const credential = new SpendeskPartnerOAuth2Api();
		const helper = { helpers: { httpRequest: async (o: never) => await httpRequest(o) } } as never;
		sim.clearLog();
		const [a, b] = await Promise.all([
			credential.preAuthentication.call(helper, { ...held }),
			credential.preAuthentication.call(helper, { ...held }),
		]);
		expect(a).toEqual(b);
		const late = await credential.preAuthentication.call(helper, { ...held });
		expect(late).toEqual(a);
		expect(sim.requestsTo('oauthTokenRefresh')).toHaveLength(1);
		expect(a.refreshToken).not.toBe(held.refreshToken);
	});

	test('revoked: the reconnect message, with no secret in it', async () => {
		const store = await pastedStore();
		await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		const secrets = secretsOf(store);
		sim.revokeOAuth2(String(fields.clientId));
		const error = await failure(
			callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' }),
		);
		expect(error.message).toBe(
			'Reconnect the credential "Spendesk Partner": open it, click Test for a new authorization address, approve, paste the address you land on into Authorization Response and save',
		);
		const text = JSON.stringify({
			m: error.message,
			d: (error as { description?: unknown }).description,
		});
		for (const secret of secrets) expect(text).not.toContain(secret);
		expect(sim.requestsTo('oauthTokenRefresh').map((r) => r.status)).toEqual([400]);
	});

	test('not connected: the connect message', async () => {
		const store = new CredentialStore();
		store.set(TYPE, { ...fields } as ICredentialDataDecryptedObject);
		const error = await failure(
			callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' }),
		);
		expect(error.message).toMatch(
			/^Connect the credential "Spendesk Partner": open it, click Test/,
		);
		expect(sim.log).toHaveLength(0);
	});

	test('a 5xx on the refresh is retried and does not ask to reconnect', async () => {
		const store = await pastedStore();
		await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		const secrets = secretsOf(store);
		sim.expireTokens();
		sim.clearLog();
		sim.injectFault({ route: 'oauthTokenRefresh', kind: 'status', status: 503 });
		const res = await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		expect(res.status).toBe(200);
		expect(sim.requestsTo('oauthTokenRefresh').map((r) => r.status)).toEqual([503, 200]);
		// Failing every time: Spendesk's failure, not a reconnect, and no secret quoted.
		sim.expireTokens();
		sim.injectFault({ route: 'oauthTokenRefresh', kind: 'status', status: 503, times: 20 });
		const error = await failure(
			callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' }),
		);
		expect(error.message).not.toMatch(/reconnect/i);
		const text = JSON.stringify({
			m: error.message,
			d: (error as { description?: unknown }).description,
		});
		for (const secret of secrets) expect(text).not.toContain(secret);
	});
});
