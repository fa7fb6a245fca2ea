/**
 * The OAuth2 credential against the simulator's documented contract (docs/api.md#oauth2), over
 * real HTTP through the n8n request helpers' stand-in: a run without a connection fails with
 * "Connect the credential …" and the approval link, the user approves and pastes, the next run
 * exchanges the code; refreshes after expiry, one refresh for concurrent callers, a paste or
 * Connect Again while connected, revocation and a failing token endpoint.
 */
import type { ICredentialDataDecryptedObject, IDataObject, NodeApiError } from 'n8n-workflow';
import { SpendeskOAuth2Api } from '../../credentials/SpendeskOAuth2Api.credentials';
import { CONNECTED } from '../../nodes/Spendesk/transport/oauth2';
import { callSpendesk } from '../../nodes/Spendesk/transport/request';
import type { SpendeskSimulator } from '../simulator';
import { failure, resetTransport, simulatorPerSuite } from '../support/fixtures';
import { CredentialStore, createContext, httpRequest } from '../support/n8n-context';
import type { N8nVersion } from '../support/n8n-context';
import { testCredentialLikeN8n } from '../support/n8n-credentials';

const TYPE = 'spendeskOAuth2Api';
/** The credential's name in the node, as the stand-in's node holds it. */
const NAME = 'Spendesk OAuth2';
const REDIRECT = 'https://example.com/spendesk/callback';

describe('OAuth2 credential, documented contract', () => {
	let sim: SpendeskSimulator;
	let fields: IDataObject;
	simulatorPerSuite({ profile: 'documented', seed: { companies: 3 } }, (started) => {
		sim = started;
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
	beforeEach(() => {
		sim.clearLog();
	});

	const ctxOf = (store: CredentialStore, n8nVersion: N8nVersion = '2.8') =>
		createContext({ store, n8nVersion, parameters: { authentication: 'oAuth2' } }).context as never;

	const storeOf = (data: IDataObject): CredentialStore => {
		const store = new CredentialStore();
		store.set(TYPE, data as ICredentialDataDecryptedObject);
		return store;
	};

	/** A run that fails for want of a connection: its error, and the approval link it gives. */
	async function connectError(store: CredentialStore, company = 'cmp_001') {
		const error = (await failure(
			callSpendesk(ctxOf(store), 'walletSummary', { company }),
		)) as NodeApiError;
		const description = String(error.description);
		const href = /<a href="([^"]+)" target="_blank">Spendesk's approval page<\/a>/.exec(
			description,
		)?.[1];
		return {
			error,
			description,
			link: href ? new URL(href.replace(/&amp;/g, '&')) : undefined,
		};
	}

	/** The user opens the link and approves: the address Spendesk sends them to. */
	async function approve(link: URL): Promise<string> {
		const res = await fetch(link, { redirect: 'manual' });
		expect(res.status).toBe(302);
		return res.headers.get('location')!;
	}

	/** The user pastes the address into Authorization Response and saves (n8n's editor keeps the other fields). */
	function paste(store: CredentialStore, landed: string): void {
		store.update(TYPE, { ...store.stored(TYPE), authorizationResponse: landed });
	}

	/** A credential connected as a user connects it: run, approve, paste, run. */
	async function connectedStore(): Promise<CredentialStore> {
		const store = storeOf(fields);
		const { link } = await connectError(store);
		paste(store, await approve(link!));
		expect((await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' })).status).toBe(
			200,
		);
		return store;
	}

	const secretsOf = (store: CredentialStore): string[] => {
		const data = store.get(TYPE);
		return [String(fields.clientSecret), String(data.accessToken), String(data.refreshToken)];
	};

	test('not connected: the run names the credential and gives the approval link (S256, the scopes, the Redirect URI), calling nothing', async () => {
		const { error, description, link } = await connectError(storeOf(fields));
		expect(error.message).toBe(
			`Connect the credential "${NAME}" to Spendesk: approve at the link below, then paste the address you land on into the credential and save`,
		);
		expect(error.message).not.toMatch(/sign|network|reach/i);
		expect(description).toContain(
			`paste it into 'Authorization Response' in the credential and save. The next run connects`,
		);
		expect(link!.origin + link!.pathname).toBe(`${sim.baseUrl}/v1/oauth2/authorize`);
		expect(link!.searchParams.get('response_type')).toBe('code');
		expect(link!.searchParams.get('client_id')).toBe(fields.clientId);
		expect(link!.searchParams.get('redirect_uri')).toBe(REDIRECT);
		expect(link!.searchParams.get('code_challenge_method')).toBe('S256');
		expect(link!.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(link!.searchParams.get('scope')!.split(' ')).toContain('wallet-summary:read');
		expect(description).not.toContain(String(fields.clientSecret));
		expect(sim.log).toHaveLength(0);
		// The same in the n8n versions that honour `except` (the first exchange is the same).
		const later = await failure(
			callSpendesk(ctxOf(storeOf(fields), '2.9'), 'walletSummary', { company: 'cmp_001' }),
		);
		expect(later.message).toBe(error.message);
	});

	test('without a usable Redirect URI: no link, and the message says to check the fields', async () => {
		const { error, link } = await connectError(storeOf({ ...fields, redirectUri: 'callback' }));
		expect(link).toBeUndefined();
		expect(error.message).toBe(
			`Connect the credential "${NAME}" to Spendesk: open it, check its fields and save, then run again for an approval link`,
		);
	});

	test("the credential's Test: settings first, then the pasted answer, never spending the code", async () => {
		expect(await testCredentialLikeN8n(TYPE, fields)).toEqual({
			status: 'OK',
			message:
				'Settings complete. Not connected yet: the next run of a Spendesk node gives the approval link.',
		});
		const wrongRedirect = await testCredentialLikeN8n(TYPE, { ...fields, redirectUri: 'cb' });
		expect(wrongRedirect.status).toBe('Error');
		expect(wrongRedirect.message).toContain("'Redirect URI' must be a whole address");
		const { link } = await connectError(storeOf(fields));
		const landed = await approve(link!);
		sim.clearLog();
		expect(await testCredentialLikeN8n(TYPE, { ...fields, authorizationResponse: landed })).toEqual(
			{
				status: 'OK',
				message:
					"The pasted answer is this credential's: the next run of a Spendesk node connects (start it within 10 minutes of approving).",
			},
		);
		expect(sim.log).toHaveLength(0);
		const forged = landed.replace(/state=[^&]+/, 'state=abc.def');
		const refused = await testCredentialLikeN8n(TYPE, { ...fields, authorizationResponse: forged });
		expect(refused.status).toBe('Error');
		expect(refused.message).toContain('does not answer an approval link of this credential');
	});

	test('the first run after the paste exchanges the code (JSON, 201), saves the tokens and empties the paste', async () => {
		const store = storeOf(fields);
		const { link } = await connectError(store);
		paste(store, await approve(link!));
		sim.clearLog();
		const res = await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		expect(res.status).toBe(200);
		const [create] = sim.requestsTo('oauthTokenCreate');
		expect(create.status).toBe(201);
		expect(create.headers['content-type']).toMatch(/application\/json/);
		expect(create.headers).not.toHaveProperty('authorization');
		expect(create.body).toMatchObject({ grant_type: 'authorization_code', redirect_uri: REDIRECT });
		const saved = store.get(TYPE);
		expect(saved.accessToken).toBeTruthy();
		expect(saved.refreshToken).toBeTruthy();
		expect(saved.authorizationResponse).toBe('');
		expect(saved.connection).toBe('connected');
		expect(store.stored(TYPE).connection).toBe(CONNECTED);
		// A second run uses the saved token.
		await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_002' });
		expect(sim.requestsTo('oauthTokenCreate')).toHaveLength(1);
		expect(sim.requestsTo('oauthTokenRefresh')).toHaveLength(0);
		expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([200, 200]);
	});

	test('a paste while connected is exchanged by the next run, not after the token expires', async () => {
		const store = await connectedStore();
		const before = store.get(TYPE);
		// The user approves again (say after ticking an Experimental Feature) and pastes.
		const { link } = await connectError(storeOf(fields));
		paste(store, await approve(link!));
		sim.clearLog();
		const res = await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		expect(res.status).toBe(200);
		// The exchange first, then one call with the new token: no 401 was needed.
		expect(sim.log.map((r) => [r.route, r.status])).toEqual([
			['oauthTokenCreate', 201],
			['walletSummary', 200],
		]);
		const after = store.get(TYPE);
		expect(after.accessToken).not.toBe(before.accessToken);
		expect(after.authorizationResponse).toBe('');
	});

	test('Connect Again: the next run gives a new link instead of renewing, the paste connects and turns it off', async () => {
		const store = await connectedStore();
		store.update(TYPE, { ...store.stored(TYPE), connectAgain: true });
		sim.clearLog();
		const { error, link } = await connectError(store);
		expect(error.message).toMatch(new RegExp(`^Connect the credential "${NAME}" to Spendesk`));
		expect(String(error.description)).toContain('Connect Again is on');
		expect(sim.log).toHaveLength(0);
		paste(store, await approve(link!));
		expect((await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_002' })).status).toBe(
			200,
		);
		expect(store.get(TYPE).connectAgain).toBe(false);
		expect(store.get(TYPE).connection).toBe('connected');
	});

	test('left at its defaults (Access Level Company, no Company ID), the Test passes: the Company ID is optional', async () => {
		const defaults = { ...fields };
		delete defaults.accessLevel;
		expect(await testCredentialLikeN8n(TYPE, defaults)).toEqual({
			status: 'OK',
			message:
				'Settings complete. Not connected yet: the next run of a Spendesk node gives the approval link.',
		});
	});

	test('company-level consent with Access Level Company: no company header, the approved company answers', async () => {
		const companyFields = { ...fields, accessLevel: 'company', companyId: 'cmp_002' };
		const store = storeOf(companyFields);
		const { link } = await connectError(store, 'cmp_002');
		// On the approval page the user approves one company.
		link!.searchParams.set('consent', 'company');
		link!.searchParams.set('company', 'cmp_002');
		paste(store, await approve(link!));
		sim.clearLog();
		const res = await callSpendesk(ctxOf(store), 'walletSummary', {});
		expect(res.status).toBe(200);
		const [call] = sim.requestsTo('walletSummary');
		expect(call.headers).not.toHaveProperty('x-company-id');
		expect(call.companyId).toBe('cmp_002');
		// The wallet summary comes under `data`, with `meta` (docs/api.md#response-shapes).
		expect(res.body).toMatchObject({
			data: JSON.parse(JSON.stringify(sim.data('cmp_002').walletSummary)),
		});
	});

	test('organisation-level consent with Access Level Organisation: each call names its company', async () => {
		const store = await connectedStore();
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
		const store = await connectedStore();
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
		const store = await connectedStore();
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
		const store = await connectedStore();
		const held: ICredentialDataDecryptedObject = store.get(TYPE);
		const credential = new SpendeskOAuth2Api();
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

	test('revoked: "Reconnect the credential" with a new link, and no secret in it', async () => {
		const store = await connectedStore();
		const secrets = secretsOf(store);
		sim.revokeOAuth2(String(fields.clientId));
		const { error, description, link } = await connectError(store);
		expect(error.message).toBe(
			`Reconnect the credential "${NAME}" to Spendesk: approve at the link below, then paste the address you land on into the credential and save`,
		);
		expect(description).toContain('Spendesk refused to renew access');
		expect(link!.pathname).toBe('/v1/oauth2/authorize');
		const text = JSON.stringify({ m: error.message, d: description });
		for (const secret of secrets) expect(text).not.toContain(secret);
		expect(sim.requestsTo('oauthTokenRefresh').map((r) => r.status)).toEqual([400]);
	});

	test('a refused or unusable paste: the run says why and gives a new link', async () => {
		const store = storeOf(fields);
		const { link } = await connectError(store);
		const landed = await approve(link!);
		// Pasted twice: the code works once (a new process, so nothing remembered).
		paste(store, landed);
		await callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' });
		resetTransport();
		paste(store, landed);
		const used = await connectError(store);
		expect(used.error.message).toMatch(/^Connect the credential/);
		expect(used.description).toContain('Spendesk refused the pasted authorization');
		expect(used.link).toBeDefined();
		// Refused on the approval page: Spendesk's reason, quoted as text.
		paste(store, `${REDIRECT}?error=access_denied&error_description=%3Cb%3ENo%3C%2Fb%3E`);
		const denied = await connectError(store);
		expect(denied.description).toContain(
			'Spendesk did not grant access (access_denied: &lt;b&gt;No&lt;/b&gt;)',
		);
	});

	test('the code exchange answered byte by byte ends at the token time limit, as timed out', async () => {
		const store = storeOf(fields);
		const { link } = await connectError(store);
		paste(store, await approve(link!));
		sim.clearLog();
		resetTransport({ tokenTimeoutMs: 600, maxRetries: 0 });
		sim.injectFault({ route: 'oauthTokenCreate', kind: 'trickleBody', intervalMs: 100 });
		const started = Date.now();
		const error = (await failure(
			callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' }),
		)) as NodeApiError;
		expect(Date.now() - started).toBeLessThan(3000);
		expect(error.message).toBe(
			`Could not reach Spendesk at ${sim.baseUrl} for a call of the node "Spendesk" (timed out)`,
		);
		expect(sim.requestsTo('oauthTokenCreate')).toHaveLength(1);
	});

	test('a 5xx on the refresh is retried and does not ask to reconnect', async () => {
		const store = await connectedStore();
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
		expect(error.message).not.toMatch(/connect/i);
		const text = JSON.stringify({
			m: error.message,
			d: (error as { description?: unknown }).description,
		});
		for (const secret of secrets) expect(text).not.toContain(secret);
	});
});
