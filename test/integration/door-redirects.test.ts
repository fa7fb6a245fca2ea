/**
 * One door out (nodes/Spendesk/transport/door.ts, docs/errors.md, fault matrix row 10): no
 * request of the package follows a redirect, over real HTTP through the n8n helpers' stand-in,
 * which follows redirects as n8n's do unless told not to (the legacy `request` of a credential
 * test as n8n's parseRequestObject does: a GET follows unless `followRedirect: false`).
 * Each request the package makes is answered a 307 or 308 to another loopback server that
 * records whatever reaches it: the OAuth2 code exchange and refresh, the API key credential's
 * Test (its token request and its read), an attachment download, a receipt upload and an
 * intake file upload. Nothing reaches the other server, the error names its origin only
 * (scheme, host and port: never the path or query, which may hold secrets), and no secret is
 * quoted. (The API calls and the API-key token call: transport-auth.test.ts.)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';
import { approvalAddress } from '../../nodes/Spendesk/transport/oauth2';
import { callSpendesk } from '../../nodes/Spendesk/transport/request';
import type { SpendeskSimulator } from '../simulator';
import {
	failure,
	OAUTH_REDIRECT,
	oauthTokens,
	resetTransport,
	startSimulator,
} from '../support/fixtures';
import { CredentialStore, createContext } from '../support/n8n-context';
import { testCredentialLikeN8n } from '../support/n8n-credentials';
import { runNode } from '../support/node';
import { locatorById, oneCompany, PDF_ITEM } from '../support/values';

const TYPE = 'spendeskOAuth2Api';
const QUERY_SECRET = 'query-secret-4be0';

describe('one door: no request follows a redirect', () => {
	let sim: SpendeskSimulator;
	/** The other origin: records every request that reaches it, and answers as a thief would. */
	let other: http.Server;
	let otherOrigin = '';
	const received: Array<{ method?: string; url?: string; headers: IDataObject; body: string }> = [];
	let fields: IDataObject;

	beforeAll(async () => {
		sim = await startSimulator({ seed: { companies: 3, sizes: { invoices: 2, payables: 8 } } });
		other = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				received.push({
					method: req.method,
					url: req.url,
					headers: req.headers as IDataObject,
					body: Buffer.concat(chunks).toString('utf8'),
				});
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(
					JSON.stringify({
						access_token: 'stolen-access',
						refresh_token: 'stolen-refresh',
						data: {},
					}),
				);
			});
		});
		await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
		otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
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
	afterAll(async () => {
		await sim.stop();
		await new Promise<void>((resolve) => other.close(() => resolve()));
	});
	beforeEach(() => {
		resetTransport();
		sim.clearFaults();
		sim.clearLog();
		received.length = 0;
	});

	const redirectTo = (
		route: Parameters<SpendeskSimulator['injectFault']>[0]['route'],
		status = 307,
	) =>
		sim.injectFault({
			route,
			kind: 'redirect',
			status,
			location: `${otherOrigin}/collect/${route}?sig=${QUERY_SECRET}`,
		});

	/** The error names the other origin, and neither its path and query nor any of `secrets`. */
	const expectNamedByOrigin = (text: string, secrets: string[]) => {
		expect(text).toContain(otherOrigin);
		expect(text).toMatch(/redirect \(30[78]\)/);
		expect(text).not.toContain('/collect');
		for (const secret of [QUERY_SECRET, ...secrets]) expect(text).not.toContain(secret);
	};
	const textOf = (error: Error) =>
		`${error.message} ${(error as { description?: string }).description ?? ''} ${JSON.stringify(error)}`;

	/** An OAuth2 credential holding the address the user landed on after approving. */
	async function pastedStore(): Promise<{ store: CredentialStore; landed: string }> {
		const res = await fetch(approvalAddress(fields)!, { redirect: 'manual' });
		const landed = res.headers.get('location')!;
		const store = new CredentialStore();
		store.set(TYPE, { ...fields, authorizationResponse: landed } as ICredentialDataDecryptedObject);
		return { store, landed };
	}
	const ctxOf = (store: CredentialStore) =>
		createContext({ store, parameters: { authentication: 'oAuth2' } }).context as never;

	test.each([307, 308])(
		'OAuth2 code exchange answered %i: the client secret, code and verifier reach no other origin, no token is saved',
		async (status) => {
			const { store, landed } = await pastedStore();
			redirectTo('oauthTokenCreate', status);
			const error = await failure(
				callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' }),
			);
			expect(received).toEqual([]);
			const code = new URL(landed).searchParams.get('code')!;
			expectNamedByOrigin(textOf(error), [String(fields.clientSecret), code]);
			expect(error.message).toMatch(/^Spendesk's OAuth2 token endpoint answered with a redirect/);
			expect((error as { description?: string }).description).toMatch(/never redirects/);
			expect(sim.requestsTo('oauthTokenCreate').map((r) => r.status)).toEqual([status]);
			expect(sim.requestsTo('walletSummary')).toEqual([]);
			expect(store.stored(TYPE).accessToken ?? '').toBe('');
			expect(store.stored(TYPE).authorizationResponse).toBe(landed);
		},
	);

	test.each([307, 308])(
		'OAuth2 refresh answered %i: the refresh token and client secret reach no other origin, the connection is kept',
		async (status) => {
			const store = new CredentialStore();
			store.set(TYPE, (await oauthTokens(sim, fields, 'organisation')) as never);
			const held = store.stored(TYPE);
			sim.expireTokens();
			sim.clearLog();
			redirectTo('oauthTokenRefresh', status);
			const error = await failure(
				callSpendesk(ctxOf(store), 'walletSummary', { company: 'cmp_001' }),
			);
			expect(received).toEqual([]);
			expectNamedByOrigin(textOf(error), [
				String(fields.clientSecret),
				String(held.refreshToken),
				String(held.accessToken),
			]);
			expect(error.message).toMatch(/^Spendesk's OAuth2 token endpoint answered with a redirect/);
			expect(sim.requestsTo('oauthTokenRefresh').map((r) => r.status)).toEqual([status]);
			// Nothing the other origin could have answered is saved: the connection stays as it was.
			expect(store.stored(TYPE).refreshToken).toBe(held.refreshToken);
			expect(JSON.stringify(store.stored(TYPE))).not.toContain('stolen');
		},
	);

	const apiKey = (more: IDataObject = {}) => ({
		environment: 'custom',
		baseUrl: sim.baseUrl,
		clientId: sim.credentials.orgKey.clientId,
		clientSecret: sim.credentials.orgKey.clientSecret,
		...more,
	});

	test("API key credential Test, token request answered 307: fails naming the redirect's origin, the secret goes nowhere", async () => {
		redirectTo('token');
		const result = await testCredentialLikeN8n('spendeskApi', apiKey());
		expect(result.status).toBe('Error');
		expect(received).toEqual([]);
		expectNamedByOrigin(result.message, [sim.credentials.orgKey.clientSecret]);
		expect(result.message).toContain("check 'Environment' (or 'Base URL') in the credential");
	});

	test.each([
		['Company', 'listSettlements', {}],
		['Organisation', 'getCompanies', { accessLevel: 'organisation' }],
	] as const)(
		'API key credential Test at %s, its read (a GET with the token) answered 307: the token goes nowhere',
		async (_level, route, more) => {
			redirectTo(route);
			const result = await testCredentialLikeN8n('spendeskApi', apiKey(more));
			expect(received).toEqual([]);
			expect(result.status).toBe('Error');
			expectNamedByOrigin(result.message, [sim.credentials.orgKey.clientSecret]);
		},
	);

	test('attachment download answered 307: nothing reaches the other origin, the error names it by origin', async () => {
		redirectTo('fileDownload');
		const error = await failure(
			runNode(sim, 'orgKey', {
				resource: 'payable',
				operation: 'getAttachments',
				...oneCompany('cmp_001'),
				payableId: locatorById('pay_001_000002'),
			}),
		);
		expect(received).toEqual([]);
		expectNamedByOrigin(textOf(error), []);
		expect(error.message).toMatch(
			/^The file host http:\/\/127\.0\.0\.1:\d+ answered with a redirect/,
		);
	});

	test('receipt upload (pre-signed form) answered 307: the file and the form fields reach no other origin', async () => {
		redirectTo('receiptUpload');
		const error = await failure(
			runNode(
				sim,
				'orgKey',
				{
					resource: 'payable',
					operation: 'uploadReceipt',
					company: 'cmp_001',
					payableId: locatorById('pay_001_000005'),
					binaryPropertyName: 'data',
				},
				{ items: [PDF_ITEM] },
			),
		);
		expect(received).toEqual([]);
		expectNamedByOrigin(textOf(error), []);
	});

	test('intake file upload (pre-signed PUT) answered 307: the file reaches no other origin', async () => {
		redirectTo('fileUpload');
		const intake = 'int_001_000003';
		const error = await failure(
			runNode(
				sim,
				'orgKey',
				{
					resource: 'intake',
					operation: 'uploadFile',
					company: 'cmp_001',
					intakeId: locatorById(intake),
					binaryPropertyName: 'data',
				},
				{ items: [PDF_ITEM] },
			),
		);
		expect(received).toEqual([]);
		expectNamedByOrigin(textOf(error), []);
	});
});
