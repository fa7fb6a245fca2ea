/**
 * Fault matrix, security: what a hostile configuration, a hostile value or a hostile server
 * can make the package do with the credential. Each case is named after its point.
 */
import { NodeHelpers } from 'n8n-workflow';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { nodeCompanyProperties } from '../../nodes/Spendesk/companies/description';
import type { ResolvedCredential } from '../../nodes/Spendesk/transport/credential';
import { callName, nameCalls } from '../../nodes/Spendesk/transport/callName';
import { ENDPOINTS } from '../../nodes/Spendesk/transport/endpoints';
import type { Endpoint } from '../../nodes/Spendesk/transport/endpoints';
import { approvalAddress } from '../../nodes/Spendesk/transport/oauth2';
import { applyPlacement } from '../../nodes/Spendesk/transport/placement';
import type { SpendeskSimulator } from '../simulator';
import {
	apiKeyStore,
	expectRefusedBeforeAnyRequest,
	failure,
	startSimulator,
	storeFor,
	simulatorPerSuite,
} from '../support/fixtures';
import { CredentialStore } from '../support/n8n-context';
import { MOCK_NODE } from '../support/n8n-credentials';
import { apiRequests, prepareNode } from '../support/node';
import { locatorById, oneCompany } from '../support/values';

const SECRET = 's3cr&t/Zz+9';

/** The approval link the OAuth2 credential gives for a custom base URL (undefined: none). */
function approvalLink(baseUrl: string): string | undefined {
	return approvalAddress({
		environment: 'custom',
		baseUrl,
		clientId: 'app-1',
		clientSecret: SECRET,
		redirectUri: 'https://example.org/callback',
	});
}

// ---------------------------------------------------------------- the node

const walletSummary = (more: IDataObject = {}): IDataObject => ({
	resource: 'walletSummary',
	operation: 'get',
	...oneCompany('cmp_001'),
	...more,
});
const invoices = (company: string | IDataObject): IDataObject => ({
	resource: 'invoice',
	operation: 'getAll',
	companies: 'one',
	company,
	returnAll: true,
	filters: '{}',
});

describe('fault matrix: security', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({}, (started) => (sim = started));
	beforeEach(() => sim.clearLog());

	// ------------------------------------------------------------ 10

	test('a plain-HTTP or invalid custom base URL: the OAuth2 credential gives no approval link, and the node refuses it', async () => {
		for (const baseUrl of [
			'http://example.com',
			'HTTP://EXAMPLE.COM:80/api/',
			'http://localhost.example.com',
			'http://127.0.0.1.nip.io:8787',
			'http://localhost@example.com',
			'http://user:pw@example.com/?next=http://localhost',
			'',
			'example.com',
			'ftp://example.com',
			'https://exa mple.com',
			'https://example.com:99999',
			'http://example.com\\@localhost',
			'https://h.example/a/%2E%2e/b',
		])
			expect({ baseUrl, link: approvalLink(baseUrl) }).toEqual({ baseUrl, link: undefined });

		// The node refuses such a credential before any request.
		const store = await storeFor(sim, 'oauthOrg');
		store.set('spendeskOAuth2Api', {
			...store.get('spendeskOAuth2Api'),
			baseUrl: 'http://example.com',
		});
		const { execute } = await prepareNode(sim, 'oauthOrg', walletSummary(), { store });
		await expectRefusedBeforeAnyRequest(
			sim,
			execute(),
			'The custom base URL "http://example.com" must use HTTPS: plain HTTP is only accepted for a server on this machine (localhost, 127.0.0.1 or [::1])',
		);
	});

	test('the approval link uses the normalised base URL (no user info, query, fragment or trailing slash) and carries no secret', () => {
		// The password is long enough never to appear by chance in the link's random state.
		const link = approvalLink('https://user:userinfo-password@Api.Example.com/base//?x=1#frag')!;
		expect(link.split('?')[0]).toBe('https://api.example.com/base/v1/oauth2/authorize');
		for (const secret of [SECRET, encodeURIComponent(SECRET), 'userinfo-password'])
			expect(link).not.toContain(secret);
		expect(approvalLink(' http://LOCALHOST:8787/ ')!.split('?')[0]).toBe(
			'http://localhost:8787/v1/oauth2/authorize',
		);
		expect(approvalLink('http://[::1]:8787?x')!.split('?')[0]).toBe(
			'http://[::1]:8787/v1/oauth2/authorize',
		);
		// Production is untouched.
		const production = approvalAddress({
			environment: 'production',
			clientId: 'app-1',
			clientSecret: SECRET,
			redirectUri: 'https://example.org/callback',
		})!;
		expect(production.split('?')[0]).toBe('https://public-api.spendesk.com/v1/oauth2/authorize');
	});

	// ------------------------------------------------------------ 11

	test('"." and ".." (plain or URL-encoded) as a company ID are refused naming the field, before any request', async () => {
		for (const company of ['..', '.', '%2e%2e', '%2E.', '.%2e', '%2e']) {
			for (const params of [invoices(company), walletSummary({ company })]) {
				const { execute } = await prepareNode(sim, 'orgKey', params);
				await expectRefusedBeforeAnyRequest(
					sim,
					execute(),
					`"${company}" is not a valid company ID`,
				);
			}
		}
	});

	test('"." and ".." as an analytical field ID are refused naming the field, before any request', async () => {
		for (const fieldId of ['..', '.', '%2E%2E', '%2e']) {
			const { execute } = await prepareNode(sim, 'orgKey', {
				resource: 'analyticalField',
				operation: 'getValues',
				...oneCompany('cmp_001'),
				fieldId: locatorById(fieldId),
				returnAll: true,
			});
			await expectRefusedBeforeAnyRequest(
				sim,
				execute(),
				`'Analytical Field' holds "${fieldId}", which is not a valid ID`,
			);
		}
	});

	test.each([
		[
			'Payable',
			{ resource: 'payable', operation: 'update', lineItemsMode: 'changeSome' },
			'payableId',
		],
		['Payable', { resource: 'payable', operation: 'uploadReceipt' }, 'payableId'],
		['Purchase Order', { resource: 'purchaseOrder', operation: 'get' }, 'purchaseOrderId'],
		['Purchase Order', { resource: 'purchaseOrder', operation: 'cancel' }, 'purchaseOrderId'],
		['Purchase Order', { resource: 'purchaseOrder', operation: 'close' }, 'purchaseOrderId'],
		['Supplier', { resource: 'supplier', operation: 'archive' }, 'supplierId'],
		['Supplier', { resource: 'supplier', operation: 'update' }, 'supplierId'],
	] as const)(
		'"." and ".." (plain or URL-encoded) as the %s of %j are refused naming the field, before any request',
		async (label, operation, field) => {
			for (const id of ['..', '.', '%2e%2e', '%2E.']) {
				const { execute } = await prepareNode(sim, 'orgKey', {
					...oneCompany('cmp_001'),
					...operation,
					[field]: locatorById(id),
				});
				await expectRefusedBeforeAnyRequest(
					sim,
					execute(),
					`'${label}' holds "${id}", which is not a valid ID`,
				);
			}
		},
	);

	test('a Custom API Call path with dot segments, plain or URL-encoded, is refused before any request', async () => {
		const store = await storeFor(sim, 'oauthOrg');
		store.set('spendeskOAuth2Api', {
			...store.get('spendeskOAuth2Api'),
			baseUrl: `${sim.baseUrl}/api`,
		});
		for (const path of [
			'/v1/%2e%2e/%2e%2e/v1/wallet-summary',
			'/v1/.%2E/v2/companies',
			'/%2E/v1/wallet-summary',
			'/v1/./wallet-summary',
		]) {
			const params = {
				resource: 'customApiCall',
				operation: 'request',
				...oneCompany('cmp_001'),
				method: 'GET',
				path,
				companyPlacement: 'header',
				pagination: 'none',
				query: '{}',
			};
			const { execute } = await prepareNode(sim, 'oauthOrg', params, { store });
			await expectRefusedBeforeAnyRequest(
				sim,
				execute(),
				`'Path' holds "${path}", which is not a valid API path`,
			);
		}
	});

	test('a next-page link to another endpoint of the same host is not followed', async () => {
		// More invoices than one page holds, so the first page links to a second.
		const paged = await startSimulator({ seed: { sizes: { invoices: 150 } } });
		try {
			// With a cursor, the link is not read at all: the list goes on on its own path.
			paged.injectFault({ route: 'listInvoices', kind: 'reroutingNextUrl' });
			const read = await prepareNode(paged, 'orgKey', invoices('cmp_001'));
			expect((await read.execute())[0]).toHaveLength(150);
			expect(apiRequests(paged).map((r) => r.path)).toEqual([
				'/v2/companies/cmp_001/invoices',
				'/v2/companies/cmp_001/invoices',
			]);
			paged.clearLog();
			// The link is all there is: it is refused, and nothing is asked of the other endpoint.
			paged.injectFault({ route: 'listInvoices', kind: 'reroutingNextUrlOnly' });
			const { execute } = await prepareNode(paged, 'orgKey', invoices('cmp_001'));
			const error = await failure(execute());
			expect(error.message).toBe(
				'Refusing to follow a link of Invoice → Get Many to another path (/v1/accounts)',
			);
			expect(apiRequests(paged).map((r) => r.route)).toEqual(['listInvoices']);
		} finally {
			await paged.stop();
		}
	});

	test('the final URL stays under the base URL path: a snapshot key ".." and a link outside the base path are refused', () => {
		const credential: ResolvedCredential = {
			credentialType: 'spendeskApi',
			credentialName: 'key',
			key: 'spendeskApi:key',
			baseUrl: 'https://proxy.example.com/spendesk',
			origin: 'https://proxy.example.com',
			level: 'organisation',
		};
		const node = MOCK_NODE;
		// Named as the node's run names its calls (transport/callName.ts).
		const named = { getNode: () => node };
		nameCalls(named, 'Payable → Get Many as Snapshot');
		const scoped =
			(
				target: Parameters<typeof applyPlacement>[4],
				endpoint: Endpoint = ENDPOINTS.getPayablesSnapshot,
			) =>
			() =>
				applyPlacement(node, credential, endpoint, callName(named), target);
		expect(scoped({ company: 'cmp_001', pathParams: { key: 'snap_1' } })().url).toBe(
			'https://proxy.example.com/spendesk/v1/snapshots/payables/snap_1',
		);
		for (const key of ['..', '.', '%2e%2e']) {
			expect(scoped({ company: 'cmp_001', pathParams: { key } })).toThrow(
				`Payable → Get Many as Snapshot: the snapshot key "${key}" is not a valid ID`,
			);
		}
		const list = ENDPOINTS.listInvoices;
		expect(
			scoped(
				{
					company: 'cmp_001',
					url: 'https://proxy.example.com/spendesk/v2/companies/cmp_001/invoices?cursor=c',
				},
				list,
			)().url,
		).toBe('https://proxy.example.com/spendesk/v2/companies/cmp_001/invoices?cursor=c');
		expect(
			scoped(
				{
					company: 'cmp_001',
					url: 'https://proxy.example.com/v2/companies/cmp_001/invoices?cursor=c',
				},
				list,
			),
		).toThrow(
			'Refusing to follow a link of Payable → Get Many as Snapshot to another path (/v2/companies/cmp_001/invoices)',
		);
		expect(
			scoped(
				{
					company: 'cmp_001',
					url: 'https://proxy.example.com/spendesk/v2/companies/cmp_001/../cmp_002/invoices?cursor=c',
				},
				list,
			),
		).toThrow(
			'Refusing to follow a link of Payable → Get Many as Snapshot to another path (/spendesk/v2/companies/cmp_002/invoices)',
		);
	});

	// ------------------------------------------------------------ 12

	test('a 400 that echoes the request: no bearer token in the error or in the Continue On Fail item (API key and OAuth2)', async () => {
		for (const kind of ['orgKey', 'oauthOrg'] as const) {
			for (const fault of ['echoRequest', 'echoRequestText'] as const) {
				const store = await storeFor(sim, kind);
				sim.injectFault({ route: 'walletSummary', kind: fault, times: 2 });
				const thrown = await failure(
					(await prepareNode(sim, kind, walletSummary(), { store })).execute(),
				);
				const out = await (
					await prepareNode(sim, kind, walletSummary(), { store, continueOnFail: true })
				).execute();
				const item = out[0][0].json;
				const tokens = tokensOf(store, kind);
				expect(tokens.length).toBeGreaterThan(0);
				for (const text of [
					JSON.stringify(thrown),
					thrown.message,
					(thrown as { description?: string }).description ?? '',
					JSON.stringify(item),
				]) {
					for (const token of tokens) expect(text).not.toContain(token);
					expect(text).not.toMatch(/Bearer [A-Za-z0-9]/);
				}
				// What the server said is still there, minus the token.
				expect(String(item.description)).toContain('Bearer [redacted]');
				expect(String(item.description)).toContain('/v1/wallet-summary');
				expect(item.error).toBe(
					'Spendesk rejected Wallet Summary → Get for company "cmp_001" (400)',
				);
			}
		}
	});

	test("the credential's client secret and OAuth2 tokens quoted by the server are redacted", async () => {
		const apiKey = sim.credentials.orgKey;
		const basic = Buffer.from(`${apiKey.clientId}:${apiKey.clientSecret}`).toString('base64');
		sim.injectFault({
			route: 'walletSummary',
			kind: 'status',
			status: 400,
			detail: `bad client ${apiKey.clientId} secret ${apiKey.clientSecret} (${encodeURIComponent(apiKey.clientSecret)}); authorization: Basic ${basic}`,
		});
		const out = await (
			await prepareNode(sim, 'orgKey', walletSummary(), { continueOnFail: true })
		).execute();
		const text = JSON.stringify(out);
		expect(text).not.toContain(apiKey.clientSecret);
		expect(text).not.toContain(encodeURIComponent(apiKey.clientSecret));
		expect(text).not.toContain(basic);
		expect(text).toContain(`bad client ${apiKey.clientId} secret [redacted]`);

		const store = await storeFor(sim, 'oauthOrg');
		const held = store.get('spendeskOAuth2Api');
		const tokenData = {
			access_token: String(held.accessToken),
			refresh_token: String(held.refreshToken),
		};
		const client = sim.credentials.oauthClient;
		sim.injectFault({
			route: 'walletSummary',
			kind: 'status',
			status: 422,
			detail: `token ${tokenData.access_token} refreshed by ${tokenData.refresh_token} for client_secret=${client.clientSecret}; {"access_token":"opaque-value-1"}`,
		});
		const thrown = await failure(
			(await prepareNode(sim, 'oauthOrg', walletSummary(), { store })).execute(),
		);
		for (const text of [
			JSON.stringify(thrown),
			(thrown as { description?: string }).description ?? '',
		]) {
			for (const secret of [
				tokenData.access_token,
				tokenData.refresh_token,
				client.clientSecret,
				'opaque-value-1',
			])
				expect(text).not.toContain(secret);
		}
		expect((thrown as { description?: string }).description).toContain(
			'token [redacted] refreshed by [redacted]',
		);
	});

	test('a token quoted bare is redacted, also one n8n fetched or renewed during the run', async () => {
		// API key: the token n8n fetches for the first request of the run.
		const keyStore = apiKeyStore(sim.baseUrl, sim.credentials.orgKey);
		sim.injectFault({ route: 'walletSummary', kind: 'echoToken' });
		const fetched = await (
			await prepareNode(sim, 'orgKey', walletSummary(), { store: keyStore, continueOnFail: true })
		).execute();
		const sessionToken = String(keyStore.get('spendeskApi').sessionToken);
		expect(sessionToken).toMatch(/^sat_/);
		expect(JSON.stringify(fetched)).not.toContain(sessionToken);
		expect(fetched[0][0].json.description).toBe(
			'Spendesk said: The token [redacted] is not valid for /v1/wallet-summary',
		);

		// OAuth2: the access token n8n renews after a 401, then quoted by the retried call.
		const store = await storeFor(sim, 'oauthOrg');
		const before = String(store.get('spendeskOAuth2Api').accessToken);
		sim.expireTokens();
		// The first call and n8n's retry meet the expired token (401); the call after the refresh gets the fault.
		sim.injectFault({ route: 'walletSummary', kind: 'echoToken', after: 2 });
		const renewed = await (
			await prepareNode(sim, 'oauthOrg', walletSummary(), { store, continueOnFail: true })
		).execute();
		const after = String(store.get('spendeskOAuth2Api').accessToken);
		expect(after).not.toBe(before);
		expect(JSON.stringify(renewed)).not.toContain(after);
		expect(renewed[0][0].json.description).toBe(
			'Spendesk said: The token [redacted] is not valid for /v1/wallet-summary',
		);
	});

	test('"Choose a company" comes from the error source only, not from a detail that mentions the header', async () => {
		sim.injectFault({
			route: 'walletSummary',
			kind: 'status',
			status: 400,
			detail: 'X-Company-Id header value does not match the company of the wallet',
			source: 'body.walletId',
		});
		const error = await failure((await prepareNode(sim, 'orgKey', walletSummary())).execute());
		expect(error.message).toBe(
			'Spendesk rejected Wallet Summary → Get for company "cmp_001" (400)',
		);
		expect((error as { description?: string }).description).toBe(
			'Spendesk said: X-Company-Id header value does not match the company of the wallet (body.walletId)',
		);

		sim.injectFault({
			route: 'walletSummary',
			kind: 'status',
			status: 400,
			detail: 'Missing company',
			source: 'headers.x-company-id',
		});
		const bySource = await failure((await prepareNode(sim, 'orgKey', walletSummary())).execute());
		expect(bySource.message).toBe(
			'Choose a company: organisation-level credentials must name the company on this call',
		);
	});

	test('a refused base URL is echoed without its user info or query', async () => {
		for (const kind of ['orgKey', 'oauthOrg'] as const) {
			const store =
				kind === 'orgKey'
					? apiKeyStore(sim.baseUrl, sim.credentials.orgKey)
					: await storeFor(sim, kind);
			const type = kind === 'orgKey' ? 'spendeskApi' : 'spendeskOAuth2Api';
			for (const baseUrl of [
				'http://admin:hunter2@example.com/x?token=abc123#f',
				'not a url with hunter2@ in it?token=abc123',
			]) {
				store.set(type, { ...store.get(type), baseUrl });
				const error = await expectRefusedBeforeAnyRequest(
					sim,
					(await prepareNode(sim, kind, walletSummary(), { store })).execute(),
					/^The custom base URL "(http:\/\/example\.com\/x|… in it)" /,
				);
				for (const text of [error.message, JSON.stringify(error)]) {
					expect(text).not.toContain('hunter2');
					expect(text).not.toContain('abc123');
				}
			}
		}
	});

	// ------------------------------------------------------------ 14

	test('Company By ID left empty: no parameter issue in the editor, the company-level credential uses its own company', async () => {
		const company = nodeCompanyProperties.find((p) => p.name === 'company')!;
		const issues = (value: string) =>
			NodeHelpers.getParameterIssues(
				company,
				{ companies: 'one', company: { __rl: true, mode: 'id', value } } as INodeParameters,
				'',
				MOCK_NODE,
				null,
			).parameters?.company;
		expect(issues('')).toBeUndefined();
		expect(issues('cmp_001')).toBeUndefined();
		const message =
			'Enter one company ID (no spaces, slashes, "?" or "#", not "." or ".."), or leave it empty to use the company of a company-level credential';
		for (const bad of ['a b', 'a/b', '..', '.']) expect(issues(bad)).toEqual([message]);

		const emptyById = invoices({ __rl: true, mode: 'id', value: '' });
		const out = await (
			await prepareNode(sim, 'companyKey', { ...emptyById, returnAll: false, limit: 3 })
		).execute();
		expect(out[0]).toHaveLength(3);
		expect(apiRequests(sim).map((r) => r.path)).toEqual(['/v2/companies/cmp_001/invoices']);

		await expectRefusedBeforeAnyRequest(
			sim,
			(await prepareNode(sim, 'orgKey', emptyById)).execute(),
			'Choose a company: organisation-level credentials must name the company on this call',
		);
	});
});

/** The access token (and refresh token) the credential holds after the runs. */
function tokensOf(store: CredentialStore, kind: 'orgKey' | 'oauthOrg'): string[] {
	if (kind === 'orgKey') return [String(store.get('spendeskApi').sessionToken)].filter(Boolean);
	const data = store.get('spendeskOAuth2Api');
	return [String(data.accessToken), String(data.refreshToken)];
}
