/**
 * The API key credential's test (the editor's "Test" button): the function n8n finds for the
 * credential type on the Spendesk nodes, called as n8n calls it, over real HTTP to the
 * simulator. One message per outcome (docs/api.md#authentication): client ID or secret
 * refused, organisation-level access not enabled, a company key that works, a scope missing,
 * Spendesk unreachable or failing; never a secret in a message.
 */
import type { IDataObject } from 'n8n-workflow';
import { spendeskApiTest } from '../../nodes/Spendesk/methods/credentialTest';
import { spendeskOAuth2Test } from '../../nodes/Spendesk/methods/oauth2Test';
import { ENDPOINTS } from '../../nodes/Spendesk/transport/endpoints';
import type { ApiKeyCredential, SpendeskSimulator } from '../simulator';
import { resetTransport, startSimulator } from '../support/fixtures';
import {
	findCredentialTest,
	NODE_CLASSES,
	testCredentialLikeN8n,
} from '../support/n8n-credentials';

/** The documented read scopes a company-level key holds (no experimental scope). */
const DOCUMENTED = [
	'payable:read',
	'payable-attachment:read',
	'settlement:read',
	'wallet-summary:read',
	'user:read',
	'supplier:read',
	'cost-center:read',
];

function saved(sim: SpendeskSimulator, key: ApiKeyCredential, more: IDataObject = {}): IDataObject {
	return {
		environment: 'custom',
		baseUrl: sim.baseUrl,
		clientId: key.clientId,
		clientSecret: key.clientSecret,
		accessLevel: key.level,
		companyId: key.companyId ?? '',
		...more,
	};
}

describe('API key credential test', () => {
	let sim: SpendeskSimulator;
	const companyKey: ApiKeyCredential = {
		clientId: 'doc-company-client',
		clientSecret: 'doc-company-s3cret-value',
		level: 'company',
		companyId: 'cmp_002',
		scopes: DOCUMENTED,
	};
	const noSummaryKey: ApiKeyCredential = {
		clientId: 'no-summary-client',
		clientSecret: 'no-summary-s3cret-value',
		level: 'company',
		companyId: 'cmp_001',
		scopes: DOCUMENTED.filter((s) => s !== 'wallet-summary:read'),
	};

	beforeAll(async () => {
		sim = await startSimulator({ seed: { companies: 3 } });
		sim.addApiKey(companyKey);
		sim.addApiKey(noSummaryKey);
	});
	afterAll(async () => sim.stop());
	beforeEach(() => {
		resetTransport();
		sim.clearFaults();
		sim.clearLog();
	});

	const test$ = (data: IDataObject) => testCredentialLikeN8n('spendeskApi', data);
	const routes = () => sim.log.map((r) => `${r.route} ${r.status}`);

	test('n8n finds the same node-level test from each Spendesk node, and the credential has no request test of its own', () => {
		for (const nodeType of Object.keys(NODE_CLASSES)) {
			const found = findCredentialTest('spendeskApi', { [nodeType]: NODE_CLASSES[nodeType] });
			expect(found).toMatchObject({ kind: 'function', fn: spendeskApiTest, nodeType });
		}
		// The OAuth2 credential has its own node-level test (docs/api.md#the-oauth2-credential).
		expect(findCredentialTest('spendeskOAuth2Api')).toMatchObject({
			kind: 'function',
			fn: spendeskOAuth2Test,
		});
	});

	test('a company-level key without experimental scopes is reported working (no /v2 call)', async () => {
		const result = await test$(saved(sim, companyKey));
		expect(result).toEqual({ status: 'OK', message: 'The key works for company "cmp_002".' });
		expect(routes()).toEqual(['token 200', 'walletSummary 200']);
		expect(sim.log.every((r) => !r.path.startsWith('/v2/'))).toBe(true);
	});

	test('an organisation-level key with organisation access is reported working', async () => {
		const result = await test$(saved(sim, sim.credentials.orgKey));
		expect(result).toEqual({ status: 'OK', message: 'The key works at organisation level.' });
		expect(routes()).toEqual(['token 200', 'getCompanies 200']);
		expect(sim.requestsTo('getCompanies')[0].query).toEqual({ pageSize: '1' });
	});

	test('a wrong client secret: Spendesk refused the client ID or secret, without the secret in the message', async () => {
		const wrong = 'wrong-s3cret-typed-by-hand';
		const result = await test$(saved(sim, companyKey, { clientSecret: wrong }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Spendesk refused the client ID or secret: check both fields \(copy them again from Spendesk: Settings → Integrations → API access management\)/,
		);
		expect(result.message).not.toContain(wrong);
		expect(routes()).toEqual(['token 401']);
	});

	test('a wrong client ID gives the same answer', async () => {
		const result = await test$(saved(sim, companyKey, { clientId: 'nobody' }));
		expect(result.message).toMatch(/^Spendesk refused the client ID or secret/);
	});

	test('a valid key without organisation-level access, set to Organisation: set Access Level to Company or ask Spendesk', async () => {
		for (const data of [
			// A company-level key chosen as Organisation.
			saved(sim, companyKey, { accessLevel: 'organisation' }),
			// An organisation key without the experimental scope of Get Companies.
			saved(sim, sim.credentials.orgKeyNoExperimental),
		]) {
			sim.clearLog();
			const result = await test$(data);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/^Spendesk accepted the client ID and secret, but organisation-level access is not enabled for this key: set Access Level to Company \(and enter the key's Company ID\), or ask your Spendesk contact to enable organisation-level access/,
			);
			expect(routes()).toEqual(['token 200', 'getCompanies 403']);
		}
	});

	test('a company key lacking the scope the test reads with: key valid, scope missing, add it in Spendesk', async () => {
		const result = await test$(saved(sim, noSummaryKey));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The key is valid for company "cmp_001", but it lacks the scope wallet-summary:read that the test reads with \(Wallet Summary → Get\): add it to the key in Spendesk/,
		);
		expect(routes()).toEqual(['token 200', 'walletSummary 403']);
	});

	test('a company key with another Company ID in the credential: the message names both companies', async () => {
		const result = await test$(saved(sim, companyKey, { companyId: 'cmp_001' }));
		expect(result).toEqual({
			status: 'Error',
			message:
				'The key is valid but belongs to company "cmp_002", not to company "cmp_001" given in the credential: set Company ID to cmp_002.',
		});
	});

	test('an organisation-level key set to Company: set Access Level to Organisation', async () => {
		const result = await test$(
			saved(sim, sim.credentials.orgKey, { accessLevel: 'company', companyId: 'cmp_001' }),
		);
		expect(result.message).toMatch(
			/^The client ID and secret are valid, but the key is organisation-level: .* Set Access Level to Organisation\./,
		);
	});

	test('Spendesk failing (5xx) on the token or on the check: Spendesk could not be reached', async () => {
		sim.injectFault({ route: 'token', kind: 'status', status: 503 });
		const onToken = await test$(saved(sim, companyKey));
		expect(onToken.message).toMatch(
			/^Spendesk could not be reached: it answered HTTP 503 to "Get access token" at http:\/\/127\.0\.0\.1:\d+\. The problem is on Spendesk's side: test again in a few minutes\./,
		);
		sim.injectFault({ route: 'walletSummary', kind: 'status', status: 500 });
		const onCheck = await test$(saved(sim, companyKey));
		expect(onCheck.message).toMatch(
			/^Spendesk could not be reached: it answered HTTP 500 to "Get wallet summary"/,
		);
	});

	test('the server down: Spendesk could not be reached, check the environment', async () => {
		const down = await startSimulator();
		const baseUrl = down.baseUrl;
		await down.stop();
		const result = await test$(saved(sim, companyKey, { baseUrl }));
		expect(result).toEqual({
			status: 'Error',
			message: `Spendesk could not be reached at ${baseUrl} (connection refused, ECONNREFUSED): check the credential's Environment (or Base URL) and the network of your n8n instance, then test again.`,
		});
	});

	test('a server echoing the request or the token: neither the secret nor a token reaches the message', async () => {
		sim.injectFault({ route: 'token', kind: 'echoRequest', status: 401 });
		const refused = await test$(saved(sim, companyKey));
		const basic = Buffer.from(`${companyKey.clientId}:${companyKey.clientSecret}`).toString(
			'base64',
		);
		expect(refused.message).toMatch(/^Spendesk refused the client ID or secret/);
		expect(refused.message).not.toContain(companyKey.clientSecret);
		expect(refused.message).not.toContain(basic);

		sim.injectFault({ route: 'walletSummary', kind: 'echoToken', status: 403 });
		const echoed = await test$(saved(sim, companyKey));
		expect(echoed.status).toBe('Error');
		expect(echoed.message).toContain('[redacted]');
		expect(echoed.message).not.toMatch(/sat_[0-9a-f]{8}/);
	});

	test('the check reads a documented v1 endpoint of the catalogue, the token request as preAuthentication makes it', async () => {
		await test$(saved(sim, companyKey));
		const [token, check] = sim.log;
		expect([token.method, token.path, token.body]).toEqual([
			ENDPOINTS.token.method,
			ENDPOINTS.token.path,
			{ grant_type: 'client_credentials' },
		]);
		expect(token.headers.authorization).toBe('Basic <redacted>');
		expect([check.method, check.path]).toEqual(['GET', ENDPOINTS.walletSummary.path]);
		expect(check.headers['x-company-id']).toBeUndefined();
	});
});
