/**
 * The API key credential's test (the editor's "Test" button): the function n8n finds for the
 * credential type on the Spendesk nodes, called as n8n calls it (defaults applied), over real
 * HTTP to the simulator (docs/api.md#testing-an-api-key). A company key with only Environment,
 * Client ID and Client Secret passes, whichever scopes it holds; the OK message says what the
 * key reads from its token's scopes; Organisation checks organisation access; one message per
 * failure, in the panel's words; never a secret in a message.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';
import { COMPANY_PROBES, spendeskApiTest } from '../../nodes/Spendesk/methods/credentialTest';
import { spendeskOAuth2Test } from '../../nodes/Spendesk/methods/oauth2Test';
import { ENDPOINTS } from '../../nodes/Spendesk/transport/endpoints';
import type { Endpoint } from '../../nodes/Spendesk/transport/endpoints';
import { DOCUMENTED_SCOPES } from '../simulator';
import type { ApiKeyCredential, SimulatorOptions, SpendeskSimulator } from '../simulator';
import { resetTransport, startSimulator, simulatorPerSuite } from '../support/fixtures';
import {
	findCredentialTest,
	NODE_CLASSES,
	testCredentialLikeN8n,
} from '../support/n8n-credentials';

/** What a new credential holds when the user fills in only Environment, Client ID and Client Secret. */
function minimal(
	sim: SpendeskSimulator,
	key: ApiKeyCredential,
	more: IDataObject = {},
): IDataObject {
	return {
		environment: 'custom',
		baseUrl: sim.baseUrl,
		clientId: key.clientId,
		clientSecret: key.clientSecret,
		...more,
	};
}

/** The message of the simulator's documented company key (the documented read scopes, nothing experimental). */
const GA_COMPANY_KEY_MESSAGE =
	'The key works for its company. It reads settlements, payables, payable attachments, suppliers, users, cost centers, expense categories, analytical fields, bank fees, wallet loads and the wallet summary; experimental features: none.';

const test$ = (data: IDataObject) => testCredentialLikeN8n('spendeskApi', data);

function suite(options: SimulatorOptions, body: (get: () => SpendeskSimulator) => void): void {
	let sim: SpendeskSimulator;
	simulatorPerSuite({ seed: { companies: 3 }, ...options }, (started) => (sim = started));
	beforeEach(() => sim.clearLog());
	body(() => sim);
}

const routesOf = (sim: SpendeskSimulator) => sim.log.map((r) => `${r.route} ${r.status}`);

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

test('every read the test may choose is a documented v1 page list, never the wallet summary', () => {
	for (const name of COMPANY_PROBES) {
		const probe: Endpoint = ENDPOINTS[name];
		expect(probe.path).toMatch(/^\/v1\//);
		expect(probe.method).toBe('GET');
		expect(probe.pagination).toBe('page');
		expect(DOCUMENTED_SCOPES).toContain(probe.scope);
	}
	expect(COMPANY_PROBES).not.toContain('walletSummary');
});

describe('documented profile: the keys ordinary customers hold', () => {
	suite({ profile: 'documented' }, (get) => {
		test('a company key with only Environment, Client ID and Client Secret passes, saying what it reads', async () => {
			const sim = get();
			const result = await test$(minimal(sim, sim.credentials.companyKey));
			expect(result).toEqual({ status: 'OK', message: GA_COMPANY_KEY_MESSAGE });
			expect(routesOf(sim)).toEqual(['token 200', 'listSettlements 200']);
			const [token, probe] = sim.log;
			// The token request as preAuthentication makes it.
			expect([token.method, token.path, token.body]).toEqual([
				ENDPOINTS.token.method,
				ENDPOINTS.token.path,
				{ grant_type: 'client_credentials' },
			]);
			expect(token.headers.authorization).toBe('Basic <redacted>');
			// One documented v1 read, one item, no company header, nothing on /v2.
			expect([probe.method, probe.path, probe.query]).toEqual([
				'GET',
				'/v1/settlements',
				{ pageSize: '1' },
			]);
			expect(probe.headers['x-company-id']).toBeUndefined();
			expect(sim.log.some((r) => r.path.startsWith('/v2/'))).toBe(false);
		});

		test('every company key of the documented profile passes with the same message', async () => {
			const sim = get();
			const active = new Set(
				sim
					.companies()
					.filter((c) => c.active)
					.map((c) => c.id),
			);
			const keys = Object.values(sim.credentials.companyKeys);
			expect(keys.filter((k) => active.has(k.companyId!))).toHaveLength(2);
			for (const key of keys.filter((k) => active.has(k.companyId!))) {
				sim.clearLog();
				expect(await test$(minimal(sim, key))).toEqual({
					status: 'OK',
					message: GA_COMPANY_KEY_MESSAGE,
				});
				// The read was answered for the key's own company.
				expect([sim.log[1].route, sim.log[1].clientId, sim.log[1].companyId]).toEqual([
					'listSettlements',
					key.clientId,
					key.companyId,
				]);
			}
		});

		test('the key of a deactivated company: the key is valid, its company refused, ask the Spendesk contact', async () => {
			const sim = get();
			const result = await test$(minimal(sim, sim.credentials.companyKeys.cmp_003));
			expect(result).toEqual({
				status: 'Error',
				message:
					"Spendesk accepted 'Client ID' and 'Client Secret', but refused the key's company (HTTP 403 to the test's read of settlements): check in Spendesk (Settings → Integrations → API access management) that the key is still active, and ask your Spendesk contact if its company was deactivated. Spendesk said: \"FORBIDDEN_ERROR: Company is deactivated\".",
			});
		});

		test('a Company ID, when given, names the company in the message and changes no request', async () => {
			const sim = get();
			const result = await test$(
				minimal(sim, sim.credentials.companyKey, {
					accessLevel: 'company',
					companyId: ' cmp_001 ',
				}),
			);
			expect(result).toEqual({
				status: 'OK',
				message: GA_COMPANY_KEY_MESSAGE.replace(
					'The key works for its company.',
					`The key works for its company ('Company ID' "cmp_001").`,
				),
			});
			expect(routesOf(sim)).toEqual(['token 200', 'listSettlements 200']);
			expect(sim.log[1].headers['x-company-id']).toBeUndefined();
		});

		test('a Company ID that cannot be an ID: correct it or leave it empty, before any request', async () => {
			const sim = get();
			const result = await test$(
				minimal(sim, sim.credentials.companyKey, { companyId: 'cmp 001/x' }),
			);
			expect(result).toEqual({
				status: 'Error',
				message:
					'"cmp 001/x" is not a company ID: a Spendesk company ID is one word without spaces or slashes. Correct \'Company ID\', or leave it empty (it is optional).',
			});
			expect(sim.log).toEqual([]);
		});

		test('Organisation chosen for a company key: switch Access Level to Company, or ask the Spendesk contact', async () => {
			const sim = get();
			const result = await test$(
				minimal(sim, sim.credentials.companyKey, { accessLevel: 'organisation' }),
			);
			expect(result.status).toBe('Error');
			expect(result.message).toBe(
				"Spendesk accepted 'Client ID' and 'Client Secret', but this key has no organisation-level access (HTTP 403 to the test's read of the company list): set 'Access Level' to \"Company\" (most keys are company keys), or ask your Spendesk contact to enable organisation-level access for this key (scope experimental:company:read). Spendesk said: \"FORBIDDEN_ERROR: Missing scope: experimental:company:read\".",
			);
			expect(routesOf(sim)).toEqual(['token 200', 'getCompanies 403']);
			expect(sim.log[1].path).toBe('/v2/companies');
		});

		test('the organisation key with the documented scopes only, chosen as Organisation: the same advice', async () => {
			const sim = get();
			const result = await test$(
				minimal(sim, sim.credentials.orgKey, { accessLevel: 'organisation' }),
			);
			expect(result.message).toMatch(
				/^Spendesk accepted 'Client ID' and 'Client Secret', but this key has no organisation-level access .*: set 'Access Level' to "Company" \(most keys are company keys\), or ask your Spendesk contact/,
			);
		});

		test('a wrong Client Secret: Spendesk refused the Client ID or Client Secret, without the secret in the message', async () => {
			const sim = get();
			const wrong = 'wrong-s3cret-typed-by-hand';
			const result = await test$(minimal(sim, sim.credentials.companyKey, { clientSecret: wrong }));
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/^Spendesk refused 'Client ID' or 'Client Secret': check both fields \(copy them again from Spendesk: Settings → Integrations → API access management\), that the key has not expired, and that 'Environment' is the one the key was created in \(Production or Demo\)\./,
			);
			expect(result.message).not.toContain(wrong);
			expect(routesOf(sim)).toEqual(['token 401']);
		});

		test('a wrong Client ID gives the same answer', async () => {
			const sim = get();
			const result = await test$(minimal(sim, sim.credentials.companyKey, { clientId: 'nobody' }));
			expect(result.message).toMatch(/^Spendesk refused 'Client ID' or 'Client Secret'/);
		});

		test('Client ID or Client Secret empty: enter both, before any request', async () => {
			const sim = get();
			const result = await test$(minimal(sim, sim.credentials.companyKey, { clientSecret: '' }));
			expect(result).toEqual({
				status: 'Error',
				message:
					"Enter both 'Client ID' and 'Client Secret' of the API key (from Spendesk: Settings → Integrations → API access management).",
			});
			expect(sim.log).toEqual([]);
		});
	});
});

describe('documented profile: keys with other scopes', () => {
	const onlyPayables: ApiKeyCredential = {
		clientId: 'only-payables-client',
		clientSecret: 'only-payables-s3cret',
		level: 'company',
		companyId: 'cmp_002',
		scopes: ['payable:read'],
	};
	const suppliersFirst: ApiKeyCredential = {
		clientId: 'suppliers-users-client',
		clientSecret: 'suppliers-users-s3cret',
		level: 'company',
		companyId: 'cmp_002',
		scopes: ['user:read', 'supplier:read'],
	};
	const experimental: ApiKeyCredential = {
		clientId: 'experimental-client',
		clientSecret: 'experimental-s3cret',
		level: 'company',
		companyId: 'cmp_001',
		scopes: [
			'settlement:read',
			'payable:read',
			'experimental:payable-search:read',
			'experimental:purchase-order:read',
			'experimental:webhooks:read',
			'experimental:webhooks:write',
			'some-future:read',
		],
	};
	suite({ profile: 'documented' }, (get) => {
		beforeAll(() => {
			for (const key of [onlyPayables, suppliersFirst, experimental]) get().addApiKey(key);
		});

		test('the read is chosen from the token scopes: the first documented list the key may read', async () => {
			const sim = get();
			const result = await test$(minimal(sim, suppliersFirst));
			expect(result).toEqual({
				status: 'OK',
				message:
					'The key works for its company. It reads suppliers and users; experimental features: none.',
			});
			expect(routesOf(sim)).toEqual(['token 200', 'listSuppliers 200']);
			expect(sim.log[1].query).toEqual({ pageSize: '1' });
		});

		test('a key holding none of the lists the test reads still passes: the 403 names a scope', async () => {
			const sim = get();
			const result = await test$(minimal(sim, onlyPayables));
			expect(result).toEqual({
				status: 'OK',
				message: 'The key works for its company. It reads payables; experimental features: none.',
			});
			expect(routesOf(sim)).toEqual(['token 200', 'listSettlements 403']);
			expect(sim.log[1].errorCode).toBe('FORBIDDEN_ERROR');
		});

		test('the OK message names the experimental features, partly held ones too, and scopes it has no word for', async () => {
			const sim = get();
			const result = await test$(minimal(sim, experimental));
			expect(result).toEqual({
				status: 'OK',
				message:
					'The key works for its company. It reads settlements and payables; experimental features: Webhooks, Payables Search, Purchase Orders (partly); other scopes: some-future:read.',
			});
		});

		test('a token restricted by Spendesk lists what it holds', async () => {
			const sim = get();
			const answer = await fetch(`${sim.baseUrl}/v1/auth/token`, {
				method: 'POST',
				headers: {
					authorization: `Basic ${Buffer.from(`${suppliersFirst.clientId}:${suppliersFirst.clientSecret}`).toString('base64')}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({ grant_type: 'client_credentials', scope: 'user:read payable:read' }),
			});
			expect(await answer.json()).toMatchObject({ token_type: 'Bearer', scope: 'user:read' });
		});
	});
});

describe('documented profile: a token answer without scope', () => {
	const noSettlements: ApiKeyCredential = {
		clientId: 'no-settlements-client',
		clientSecret: 'no-settlements-s3cret',
		level: 'company',
		companyId: 'cmp_001',
		scopes: DOCUMENTED_SCOPES.filter((s) => s !== 'settlement:read'),
	};
	suite({ profile: 'documented', tokenAnswerScope: false }, (get) => {
		beforeAll(() => get().addApiKey(noSettlements));

		test('the test reads settlements and says it could not list the scopes', async () => {
			const sim = get();
			const result = await test$(minimal(sim, sim.credentials.companyKey));
			expect(result).toEqual({
				status: 'OK',
				message:
					"The key works for its company. Spendesk did not list the key's scopes: it reads settlements at least; each operation needs its own scope (see the operations table).",
			});
			expect(routesOf(sim)).toEqual(['token 200', 'listSettlements 200']);
		});

		test('a key without the read the test makes still passes: the 403 names the scope', async () => {
			const sim = get();
			const result = await test$(minimal(sim, noSettlements));
			expect(result).toEqual({
				status: 'OK',
				message:
					"The key works for its company. Spendesk did not list the key's scopes: it does not read settlements (scope settlement:read); each operation needs its own scope (see the operations table).",
			});
			expect(routesOf(sim)).toEqual(['token 200', 'listSettlements 403']);
		});
	});
});

describe('specification profile: organisation-level keys', () => {
	suite({}, (get) => {
		test('Organisation with an organisation key: organisation access checked, companies counted, reads listed', async () => {
			const sim = get();
			const result = await test$(
				minimal(sim, sim.credentials.orgKey, { accessLevel: 'organisation' }),
			);
			expect(result.status).toBe('OK');
			expect(result.message).toMatch(
				/^The key works at organisation level: it reaches 2 companies\. It reads settlements, payables, .* and accounts; experimental features: Organisation-Level Access, Invoices and Intakes, /,
			);
			expect(routesOf(sim)).toEqual(['token 200', 'getCompanies 200']);
			expect(sim.requestsTo('getCompanies')[0].query).toEqual({ pageSize: '1' });
		});

		test('Organisation with a company key: the same clear advice as in the documented profile', async () => {
			const sim = get();
			const result = await test$(
				minimal(sim, sim.credentials.companyKey, { accessLevel: 'organisation' }),
			);
			expect(result.message).toBe(
				"Spendesk accepted 'Client ID' and 'Client Secret', but this key has no organisation-level access (HTTP 403 to the test's read of the company list): set 'Access Level' to \"Company\" (most keys are company keys), or ask your Spendesk contact to enable organisation-level access for this key (scope experimental:company:read). Spendesk said: \"forbidden: This endpoint requires an organisation-level token\".",
			);
		});

		test('Organisation with an organisation key lacking experimental access: the same advice', async () => {
			const sim = get();
			const result = await test$(
				minimal(sim, sim.credentials.orgKeyNoExperimental, { accessLevel: 'organisation' }),
			);
			expect(result.message).toMatch(
				/^Spendesk accepted 'Client ID' and 'Client Secret', but this key has no organisation-level access/,
			);
			expect(routesOf(sim)).toEqual(['token 200', 'getCompanies 403']);
		});

		test('an organisation key left at Company: set Access Level to Organisation', async () => {
			const sim = get();
			const result = await test$(minimal(sim, sim.credentials.orgKey));
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/^'Client ID' and 'Client Secret' are valid, but the key is organisation-level: Spendesk asks which company each call is for\. Set 'Access Level' to "Organisation"\./,
			);
			expect(routesOf(sim)).toEqual(['token 200', 'listSettlements 400']);
		});

		test('the company key of the specification profile passes at Company, with every scope listed', async () => {
			const sim = get();
			const result = await test$(minimal(sim, sim.credentials.companyKey));
			expect(result.status).toBe('OK');
			expect(result.message).toMatch(/^The key works for its company\. It reads settlements, /);
			expect(result.message).toContain('experimental features: Organisation-Level Access');
		});

		test('Spendesk failing (5xx) on the token or on the read: Spendesk could not be reached', async () => {
			const sim = get();
			sim.injectFault({ route: 'token', kind: 'status', status: 503 });
			const onToken = await test$(minimal(sim, sim.credentials.companyKey));
			expect(onToken.message).toMatch(
				/^Spendesk could not answer the test's token request at http:\/\/127\.0\.0\.1:\d+ \(HTTP 503\)\. The problem is on Spendesk's side: test again in a few minutes\./,
			);
			sim.injectFault({ route: 'listSettlements', kind: 'status', status: 500 });
			const onRead = await test$(minimal(sim, sim.credentials.companyKey));
			expect(onRead.message).toMatch(
				/^Spendesk could not answer the test's read of settlements at http:\/\/127\.0\.0\.1:\d+ \(HTTP 500\)/,
			);
		});

		test('429 on the read: wait a minute', async () => {
			const sim = get();
			sim.injectFault({ route: 'listSettlements', kind: 'status', status: 429 });
			const result = await test$(minimal(sim, sim.credentials.companyKey));
			expect(result).toEqual({
				status: 'Error',
				message:
					"Spendesk is limiting the requests of this key right now (HTTP 429 to the test's read of settlements): wait a minute, then test again.",
			});
		});

		test('a 403 that names no scope: the key is valid, its company refused', async () => {
			const sim = get();
			sim.injectFault({ route: 'listSettlements', kind: 'status', status: 403 });
			const result = await test$(minimal(sim, sim.credentials.companyKey));
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/^Spendesk accepted 'Client ID' and 'Client Secret', but refused the key's company \(HTTP 403 to the test's read of settlements\): check in Spendesk \(Settings → Integrations → API access management\) that the key is still active/,
			);
		});

		test('the server down: Spendesk could not be reached, check the environment', async () => {
			const sim = get();
			const down = await startSimulator();
			const baseUrl = down.baseUrl;
			await down.stop();
			const result = await test$(minimal(sim, sim.credentials.companyKey, { baseUrl }));
			expect(result).toEqual({
				status: 'Error',
				message: `Spendesk could not be reached at ${baseUrl} (connection refused, ECONNREFUSED): check 'Environment' (or 'Base URL') in the credential and the network of your n8n instance, then test again.`,
			});
		});

		test('a server echoing the request or the token: neither the secret nor a token reaches the message', async () => {
			const sim = get();
			const key = sim.credentials.companyKey;
			sim.injectFault({ route: 'token', kind: 'echoRequest', status: 401 });
			const refused = await test$(minimal(sim, key));
			const basic = Buffer.from(`${key.clientId}:${key.clientSecret}`).toString('base64');
			expect(refused.message).toMatch(/^Spendesk refused 'Client ID' or 'Client Secret'/);
			expect(refused.message).not.toContain(key.clientSecret);
			expect(refused.message).not.toContain(basic);

			sim.injectFault({ route: 'listSettlements', kind: 'echoToken', status: 500 });
			const echoed = await test$(minimal(sim, key));
			expect(echoed.message).toContain('[redacted]');
			expect(echoed.message).not.toMatch(/sat_[0-9a-f]{8}/);
		});
	});
});

/**
 * A token endpoint or a read that trickles its answer, one byte a second: n8n's legacy helper
 * (the only one a credential test gets) takes no abort signal, and its `timeout` only limits
 * silence, so without a deadline of its own the Test would wait for the last byte. Each call
 * of the Test ends at the token time limit (here lowered to 2 s) with a clear message, and the
 * connection is closed, not left trickling.
 */
describe('a token endpoint or a read that trickles its answer', () => {
	const TOKEN_ANSWER = JSON.stringify({ access_token: 'tok-trickle-1', token_type: 'Bearer' });
	const LIST_ANSWER = JSON.stringify({ data: [], meta: { pagination: { total: 0 } } });
	let server: http.Server;
	let baseUrl = '';
	/** What each path does: trickle its answer, stay silent, or answer at once. */
	let behaviour: Record<string, 'trickle' | 'silent' | 'answer'> = {};
	/** The paths whose trickling answer the client cut before its end, in order. */
	let cut: string[] = [];
	let onCut = () => {};
	const timers = new Set<NodeJS.Timeout>();

	beforeAll(async () => {
		server = http.createServer((req, res) => {
			req.resume();
			const path = (req.url ?? '').split('?')[0];
			const body = path === '/v1/auth/token' ? TOKEN_ANSWER : LIST_ANSWER;
			const how = behaviour[path] ?? 'answer';
			if (how === 'silent') return;
			res.writeHead(200, { 'content-type': 'application/json' });
			if (how === 'answer') {
				res.end(body);
				return;
			}
			// Headers at once, then one byte a second: never silent, done only after the whole body.
			let sent = 0;
			const timer = setInterval(() => {
				res.write(body[sent++]);
				if (sent === body.length) {
					clearInterval(timer);
					res.end();
				}
			}, 1000);
			timers.add(timer);
			res.on('close', () => {
				clearInterval(timer);
				if (sent < body.length) {
					cut.push(path);
					onCut();
				}
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		for (const timer of timers) clearInterval(timer);
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});
	beforeEach(() => {
		resetTransport({ tokenTimeoutMs: 2000 });
		cut = [];
	});

	/** The paths cut so far, once `path` is among them (or after a second without it). */
	const cutBy = async (path: string) => {
		const waited = Date.now();
		while (!cut.includes(path) && Date.now() - waited < 1000)
			await new Promise<void>((resolve) => {
				onCut = resolve;
				setTimeout(resolve, 100);
			});
		return cut;
	};
	afterEach(() => resetTransport());

	const credential = {
		environment: 'custom',
		clientId: 'client-trickle',
		clientSecret: 'secret-trickle-9f3',
	};
	const timed = async () => {
		const started = Date.now();
		const result = await test$({ ...credential, baseUrl });
		return { result, seconds: (Date.now() - started) / 1000 };
	};
	const message = (step: string) =>
		`Spendesk did not answer ${step} at ${baseUrl} within 2 s (it sent too little, or nothing, in that time): check 'Environment' (or 'Base URL') in the credential and the network of your n8n instance, then test again.`;

	test('the token answer trickles: the Test ends at the time limit, saying so, and drops the connection', async () => {
		behaviour = { '/v1/auth/token': 'trickle' };
		const { result, seconds } = await timed();
		expect(result).toEqual({ status: 'Error', message: message("the test's token request") });
		expect(seconds).toBeLessThan(20);
		// The client closed the connection: the trickle did not go on to its end.
		expect(await cutBy('/v1/auth/token')).toEqual(['/v1/auth/token']);
	}, 60_000);

	test("the read's answer trickles: the Test ends at the time limit of that call, saying so", async () => {
		behaviour = { '/v1/settlements': 'trickle' };
		const { result, seconds } = await timed();
		expect(result).toEqual({ status: 'Error', message: message("the test's read of settlements") });
		expect(seconds).toBeLessThan(20);
		expect(await cutBy('/v1/settlements')).toEqual(['/v1/settlements']);
	}, 60_000);

	test('a token endpoint that says nothing at all: the same message at the time limit', async () => {
		behaviour = { '/v1/auth/token': 'silent' };
		const { result, seconds } = await timed();
		expect(result).toEqual({ status: 'Error', message: message("the test's token request") });
		expect(seconds).toBeLessThan(20);
	}, 60_000);

	test('answered at once, the same server passes the Test', async () => {
		behaviour = {};
		const { result } = await timed();
		expect(result.status).toBe('OK');
	});
});
