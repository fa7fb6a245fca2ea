/**
 * A company-level API key as an ordinary customer saves it: only Environment, Client ID and
 * Client Secret (Access Level left at its default, Company; no Company ID). Over real HTTP to
 * the simulator:
 * - in the documented profile, the credential test passes and every generally available
 *   operation runs on the documented v1 endpoints, for the key's own company;
 * - the Company ID, when given, only labels items; without it, the calls that carry the
 *   company in their path (invoices, intakes, the polling trigger) look it up in one of the
 *   company's payables (docs/api.md#the-companys-own-id), or fail saying what to do.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { SpendeskTrigger } from '../../nodes/Spendesk/SpendeskTrigger.node';
import type { ApiKeyCredential, SimulatorOptions, SpendeskSimulator } from '../simulator';
import { contextFor, failure, resetTransport, startSimulator } from '../support/fixtures';
import { C, DOCUMENTED, DOCUMENTED_SIZES } from '../support/documented';
import { CredentialStore } from '../support/n8n-context';
import type { ContextOptions } from '../support/n8n-context';
import { testCredentialLikeN8n } from '../support/n8n-credentials';
import { eventually, sleep } from '../support/time';
import { apiRequests, runNode } from '../support/node';
import { locatorById, oneCompany, plain } from '../support/values';

/** The credential a user saves with only Environment, Client ID and Client Secret filled in. */
function minimalData(sim: SpendeskSimulator, key: ApiKeyCredential, more: IDataObject = {}) {
	return {
		environment: 'custom',
		baseUrl: sim.baseUrl,
		clientId: key.clientId,
		clientSecret: key.clientSecret,
		...more,
	};
}

function minimalStore(sim: SpendeskSimulator, key: ApiKeyCredential, more: IDataObject = {}) {
	const store = new CredentialStore();
	store.set('spendeskApi', minimalData(sim, key, more));
	return store;
}

async function documentedWorld(options: SimulatorOptions = {}): Promise<SpendeskSimulator> {
	return await startSimulator({
		profile: 'documented',
		snapshotPendingPolls: 1,
		seed: { companies: 3, sizes: DOCUMENTED_SIZES },
		...options,
	});
}

const one = oneCompany();
const paths = (sim: SpendeskSimulator) => apiRequests(sim).map((r) => `${r.method} ${r.path}`);
const invoices = { resource: 'invoice', operation: 'getAll', returnAll: true };

/** The next answer of each route carries no `companyId` (the search's first payable, or the payable). */
function hideCompany(sim: SpendeskSimulator, routes: Array<'searchPayables' | 'getPayable'>): void {
	for (const route of routes)
		sim.injectFault({
			route,
			kind: 'setFields',
			set:
				route === 'searchPayables'
					? { 'payables.0.companyId': undefined }
					: { companyId: undefined },
		});
}

describe('documented profile: a company key with only Environment, Client ID and Client Secret', () => {
	let sim: SpendeskSimulator;
	let store: CredentialStore;
	beforeAll(async () => {
		sim = await documentedWorld();
		store = minimalStore(sim, sim.credentials.companyKey);
	});
	afterAll(async () => sim.stop());
	beforeEach(() => {
		resetTransport();
		sim.clearLog();
	});

	test('the credential holds Access Level Company and no Company ID, and its test passes', async () => {
		expect(store.get('spendeskApi')).toMatchObject({ accessLevel: 'company', companyId: '' });
		const result = await testCredentialLikeN8n(
			'spendeskApi',
			minimalData(sim, sim.credentials.companyKey),
		);
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/^The key works for its company\. It reads settlements, /);
	});

	test.each(DOCUMENTED)(
		'$name runs for the key’s company on the documented v1 endpoints',
		async (c) => {
			const { out } = await runNode(sim, 'companyKey', { ...one, ...c.params(sim) }, { store });
			expect(out.map((o) => o.json)).toEqual(plain(c.expected(sim)));
			const requests = apiRequests(sim);
			expect(requests.length).toBeGreaterThan(0);
			for (const request of requests) {
				expect(`${request.method} ${request.path}`).toMatch(c.path);
				expect(request.status).toBeLessThan(300);
				expect(request.companyId).toBe(C);
				expect(request.headers).not.toHaveProperty('x-company-id');
			}
		},
	);

	test('Payable → Get Attachments and Custom API Call run too', async () => {
		const payableId = sim.data(C).payables[1].id;
		const attachments = await runNode(
			sim,
			'companyKey',
			{
				...one,
				resource: 'payable',
				operation: 'getAttachments',
				payableId: locatorById(payableId),
			},
			{ store },
		);
		expect(attachments.out.length).toBe(sim.files.attachmentsOf(payableId).length);
		expect(attachments.out.length).toBeGreaterThan(0);
		sim.clearLog();
		const custom = await runNode(
			sim,
			'companyKey',
			{
				...one,
				resource: 'customApiCall',
				operation: 'request',
				method: 'GET',
				path: '/v1/cost-centers',
			},
			{ store },
		);
		expect(custom.out.length).toBeGreaterThan(0);
		expect(paths(sim)).toEqual(['GET /v1/cost-centers']);
	});

	test('All Companies: the items carry companyId null without a Company ID, the Company ID when given', async () => {
		const params = {
			companies: 'all',
			resource: 'costCenter',
			operation: 'getAll',
			returnAll: true,
		};
		const unnamed = await runNode(sim, 'companyKey', params, { store });
		expect(unnamed.out.map((o) => [o.json.companyId, o.json.companyName])).toEqual(
			sim.data(C).costCenters.map(() => [null, null]),
		);
		const named = await runNode(sim, 'companyKey', params, {
			store: minimalStore(sim, sim.credentials.companyKey, { companyId: C }),
		});
		expect(named.out.map((o) => o.json.companyId)).toEqual(sim.data(C).costCenters.map(() => C));
	});

	test('Invoice → Get Many without experimental access: the error says to enter the Company ID, and that invoices are experimental', async () => {
		const error = await failure(runNode(sim, 'companyKey', { ...one, ...invoices }, { store }));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			'Invoice → Get Many needs the ID of the company of the credential "Spendesk API key", and Spendesk did not give it',
		);
		expect((error as NodeOperationError).description).toBe(
			"Enter the company's ID in 'Company ID' in the credential (the address bar of the Spendesk app shows it). Without it, the node reads it from one of the company's payables, but Spendesk refused the payables search (HTTP 403; it needs the scope experimental:payable-search:read). Invoice → Get Many also uses Spendesk's experimental API: Ask your Spendesk contact to enable experimental access for this key (scope \"experimental:invoice:read\"), then add the scope to the API key in Spendesk (or to the OAuth2 credential's scopes and reconnect); or use an operation of Spendesk's generally available API, which needs no experimental access.",
		);
		expect(apiRequests(sim).map((r) => [r.path, r.status])).toEqual([['/v1/payables/search', 403]]);
	});

	test('Invoice → Get Many with a Company ID: no look-up, the experimental-access error for that company', async () => {
		const error = await failure(
			runNode(
				sim,
				'companyKey',
				{ ...one, ...invoices },
				{
					store: minimalStore(sim, sim.credentials.companyKey, { companyId: C }),
				},
			),
		);
		expect(error.message).toBe(
			`Invoice → Get Many uses Spendesk's experimental API, and the credential "Spendesk API key" has no access to it for company "${C}"`,
		);
		expect(apiRequests(sim).map((r) => [r.path, r.status])).toEqual([
			[`/v2/companies/${C}/invoices`, 403],
		]);
	});
});

describe('documented profile: experimental access granted, no Company ID', () => {
	let sim: SpendeskSimulator;
	const invoiceOnly = 'sim-company-cmp_002-client';
	beforeEach(async () => {
		resetTransport();
		sim = await documentedWorld({
			grantScopes: {
				'sim-company-client': ['experimental:invoice:read', 'experimental:payable-search:read'],
				[invoiceOnly]: ['experimental:invoice:read'],
			},
		});
	});
	afterEach(async () => sim.stop());

	const run = (
		parameters: IDataObject,
		extra: { store: CredentialStore } & Partial<ContextOptions>,
	) => runNode(sim, 'companyKey', { ...one, ...parameters }, extra);

	test("Invoice → Get Many reads the company from one payable, then calls the company's path", async () => {
		const { out } = await run(invoices, { store: minimalStore(sim, sim.credentials.companyKey) });
		expect(out.map((o) => o.json.id).sort()).toEqual(
			sim
				.data(C)
				.invoices.map((i) => i.id)
				.sort(),
		);
		expect(paths(sim)).toEqual(['POST /v1/payables/search', `GET /v2/companies/${C}/invoices`]);
		expect(apiRequests(sim)[0].body).toEqual({ limit: 1 });
	});

	test('the look-up is made once per execution, whatever the number of items', async () => {
		const items = [{ json: {} }, { json: {} }, { json: {} }];
		const { out } = await run(invoices, {
			store: minimalStore(sim, sim.credentials.companyKey),
			items,
		});
		expect(out.length).toBe(3 * sim.data(C).invoices.length);
		expect(sim.requestsTo('searchPayables')).toHaveLength(1);
		expect(sim.requestsTo('listInvoices')).toHaveLength(3);
	});

	test('the company found is remembered for the next executions of the same key, not of another', async () => {
		await run(invoices, { store: minimalStore(sim, sim.credentials.companyKey) });
		expect(paths(sim)).toEqual(['POST /v1/payables/search', `GET /v2/companies/${C}/invoices`]);
		// A new execution (a new context, the credential read again): no look-up.
		const { out } = await run(invoices, { store: minimalStore(sim, sim.credentials.companyKey) });
		expect(out.length).toBe(sim.data(C).invoices.length);
		expect(paths(sim)).toEqual([`GET /v2/companies/${C}/invoices`]);
		// Another key (here one without the payables search) is looked up on its own.
		await failure(run(invoices, { store: minimalStore(sim, sim.credentials.companyKeys.cmp_002) }));
		expect(paths(sim)).toEqual(['POST /v1/payables/search']);
	});

	test('a look-up that found no company is made again by the next execution', async () => {
		// Once (the faults' default), no answer names the company.
		hideCompany(sim, ['searchPayables', 'getPayable']);
		await failure(run(invoices, { store: minimalStore(sim, sim.credentials.companyKey) }));
		expect(sim.requestsTo('listInvoices')).toEqual([]);
		const { out } = await run(invoices, { store: minimalStore(sim, sim.credentials.companyKey) });
		expect(out.length).toBe(sim.data(C).invoices.length);
		expect(paths(sim)).toEqual(['POST /v1/payables/search', `GET /v2/companies/${C}/invoices`]);
	});

	test('an execution cancelled during the shared look-up: another one waiting on it looks up for itself', async () => {
		sim.injectFault({ route: 'searchPayables', kind: 'latency', latencyMs: 1_000 });
		const cancel = new AbortController();
		const first = failure(
			run(invoices, {
				store: minimalStore(sim, sim.credentials.companyKey),
				cancelSignal: cancel.signal,
				executionId: 'first',
			}),
		);
		// The first execution has its token: its payables search (held 1 s) is on its way.
		expect(await eventually(() => sim.requestsTo('token').length > 0)).toBe(true);
		await sleep(100);
		const second = run(invoices, {
			store: minimalStore(sim, sim.credentials.companyKey),
			executionId: 'second',
		});
		await sleep(100);
		cancel.abort();
		expect((await first).message).toBe(
			"The execution was cancelled while Invoice → Get Many (looking up the credential's company) waited for Spendesk",
		);
		const { out } = await second;
		expect(out.length).toBe(sim.data(C).invoices.length);
		expect(sim.requestsTo('listInvoices')).toHaveLength(1);
	});

	test('a Company ID given: no look-up', async () => {
		await run(invoices, { store: minimalStore(sim, sim.credentials.companyKey, { companyId: C }) });
		expect(paths(sim)).toEqual([`GET /v2/companies/${C}/invoices`]);
	});

	test("the search's payable without its company: the payable in full gives it", async () => {
		hideCompany(sim, ['searchPayables']);
		const { out } = await run(invoices, { store: minimalStore(sim, sim.credentials.companyKey) });
		expect(out.length).toBe(sim.data(C).invoices.length);
		const first = sim.data(C).payables[0].id;
		expect(paths(sim)).toEqual([
			'POST /v1/payables/search',
			`GET /v1/payables/${first}`,
			`GET /v2/companies/${C}/invoices`,
		]);
	});

	test('no answer names the company: the error says so, and to enter the Company ID', async () => {
		hideCompany(sim, ['searchPayables', 'getPayable']);
		const error = await failure(
			run(invoices, { store: minimalStore(sim, sim.credentials.companyKey) }),
		);
		expect(error.message).toBe(
			'Invoice → Get Many needs the ID of the company of the credential "Spendesk API key", and Spendesk did not give it',
		);
		expect((error as NodeOperationError).description).toContain(
			"Without it, the node reads it from one of the company's payables, but Spendesk's payable answers did not carry the company.",
		);
		expect(sim.requestsTo('listInvoices')).toEqual([]);
	});

	test('a key without the payables search: the error says to enter the Company ID', async () => {
		const key = sim.credentials.companyKeys.cmp_002;
		expect(key.clientId).toBe(invoiceOnly);
		const error = await failure(run(invoices, { store: minimalStore(sim, key) }));
		expect((error as NodeOperationError).description).toMatch(
			/^Enter the company's ID in 'Company ID' in the credential .* but Spendesk refused the payables search \(HTTP 403; it needs the scope experimental:payable-search:read\)\./,
		);
		// With the Company ID, the same key reads its invoices.
		sim.clearLog();
		const { out } = await run(invoices, {
			store: minimalStore(sim, key, { companyId: 'cmp_002' }),
		});
		expect(out.length).toBe(sim.data('cmp_002').invoices.length);
	});
});

describe('specification profile: a company key without Company ID', () => {
	let sim: SpendeskSimulator;
	beforeEach(async () => {
		resetTransport();
		sim = await startSimulator({ seed: { companies: 3, sizes: { invoices: 6, payables: 3 } } });
	});
	afterEach(async () => sim.stop());

	test('the Spendesk Trigger (Fetch Test Event) looks the company up and reads its newest invoice', async () => {
		const trigger = new SpendeskTrigger();
		const { context } = await contextFor(sim, 'companyKey', {
			store: minimalStore(sim, sim.credentials.companyKey),
			mode: 'manual',
			parameters: { event: 'newInvoice', startFrom: 'now', options: {} },
			description: trigger.description,
			nodeType: 'n8n-nodes-spendesk.spendeskTrigger',
		});
		sim.clearLog();
		const out = await trigger.poll.call(context as unknown as IPollFunctions);
		const newest = sim.invoicesSorted(C, 'updatedAt', 'desc')[0];
		expect(out?.flat().map((i) => i.json.id)).toEqual([newest.id]);
		expect(paths(sim)).toEqual(['POST /v1/payables/search', `GET /v2/companies/${C}/invoices`]);
		// The next poll knows the company: one request.
		sim.clearLog();
		await trigger.poll.call(context as unknown as IPollFunctions);
		expect(paths(sim)).toEqual([`GET /v2/companies/${C}/invoices`]);
	});

	test('a company without payables: the error says to enter the Company ID', async () => {
		sim.data(C).payables.length = 0;
		const error = await failure(
			runNode(
				sim,
				'companyKey',
				{ ...one, ...invoices },
				{ store: minimalStore(sim, sim.credentials.companyKey) },
			),
		);
		expect((error as NodeOperationError).description).toContain(
			"Without it, the node reads it from one of the company's payables, but the company has no payable yet.",
		);
	});
});
