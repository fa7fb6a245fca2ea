/**
 * Node, bad input: a NodeOperationError that names the field, raised before any request
 * reaches the API (the simulator's log stays empty).
 */
import type { IDataObject } from 'n8n-workflow';
import type { RouteId, SpendeskSimulator } from '../simulator';
import { expectRefusedBeforeAnyRequest, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { prepareNode } from '../support/node';
import { locatorById, oneCompany } from '../support/values';

const invoices = (more: IDataObject): IDataObject => ({
	resource: 'invoice',
	operation: 'getAll',
	...oneCompany('cmp_002'),
	returnAll: false,
	limit: 10,
	filters: '{}',
	...more,
});
const custom = (more: IDataObject): IDataObject => ({
	resource: 'customApiCall',
	operation: 'request',
	...oneCompany('cmp_002'),
	method: 'GET',
	companyPlacement: 'header',
	pagination: 'none',
	query: '{}',
	...more,
});
const payables = (more: IDataObject): IDataObject => ({
	resource: 'payable',
	operation: 'getAll',
	...oneCompany('cmp_002'),
	returnAll: true,
	filterMode: 'json',
	...more,
});
const intake = (json: string): IDataObject => ({
	resource: 'intake',
	operation: 'create',
	...oneCompany('cmp_002'),
	intake: json,
});
const values = (fieldId: string): IDataObject => ({
	resource: 'analyticalField',
	operation: 'getValues',
	...oneCompany('cmp_002'),
	fieldId: locatorById(fieldId),
	returnAll: true,
});

interface BadInput {
	name: string;
	kind: CredentialKind;
	params: IDataObject;
	message: string;
	/** The API route the operation would have called. */
	route: RouteId;
}

const CASES: BadInput[] = [
	{
		name: 'invoices Limit 0',
		kind: 'orgKey',
		params: invoices({ limit: 0 }),
		message: "'Limit' must be a whole number of 1 or more; got 0",
		route: 'listInvoices',
	},
	{
		name: 'invoices Limit -5 (OAuth2 company-level)',
		kind: 'oauthCompany',
		params: invoices({ company: '', limit: -5 }),
		message: "'Limit' must be a whole number of 1 or more; got -5",
		route: 'listInvoices',
	},
	{
		name: 'invoices Limit 2.5',
		kind: 'companyKey',
		params: invoices({ company: '', limit: 2.5 }),
		message: "'Limit' must be a whole number of 1 or more; got 2.5",
		route: 'listInvoices',
	},
	{
		name: 'settlements Limit 0',
		kind: 'oauthOrg',
		params: {
			resource: 'settlement',
			operation: 'getAll',
			...oneCompany('cmp_002'),
			returnAll: false,
			limit: 0,
		},
		message: "'Limit' must be a whole number of 1 or more; got 0",
		route: 'listSettlements',
	},
	{
		name: 'company id "cmp 1" (path route)',
		kind: 'orgKey',
		params: invoices({ company: 'cmp 1' }),
		message: '"cmp 1" is not a valid company ID',
		route: 'listInvoices',
	},
	{
		name: 'company id "a/b" (path route)',
		kind: 'oauthOrg',
		params: invoices({ company: 'a/b' }),
		message: '"a/b" is not a valid company ID',
		route: 'listInvoices',
	},
	{
		name: 'company id "a/b" (header route)',
		kind: 'orgKey',
		params: { resource: 'walletSummary', operation: 'get', companies: 'one', company: 'a/b' },
		message: '"a/b" is not a valid company ID',
		route: 'walletSummary',
	},
	{
		name: 'company id "cmp 1" with a company-level key',
		kind: 'companyKey',
		params: { resource: 'walletSummary', operation: 'get', companies: 'one', company: 'cmp 1' },
		message: '"cmp 1" is not a valid company ID',
		route: 'walletSummary',
	},
	{
		name: 'company id "cmp?1" (intake create)',
		kind: 'orgKey',
		params: { ...intake('{"supplierName":"x"}'), company: 'cmp?1' },
		message: '"cmp?1" is not a valid company ID',
		route: 'createIntake',
	},
	{
		name: 'custom path with ".."',
		kind: 'orgKey',
		params: custom({ path: '/v1/../v2/companies' }),
		message: `'Path' holds "/v1/../v2/companies", which is not a valid API path`,
		route: 'getCompanies',
	},
	{
		name: 'custom Pagination from an expression that is no choice',
		kind: 'orgKey',
		params: custom({ path: '/v1/settlements', pagination: 'pages' }),
		message:
			'\'Pagination\' must be one of none, page, cursor, offset, bodyCursor, snapshot; got "pages"',
		route: 'listSettlements',
	},
	{
		name: 'custom Company Placement from an expression that is no choice',
		kind: 'orgKey',
		params: custom({ path: '/v1/settlements', companyPlacement: 'Header' }),
		message: '\'Company Placement\' must be one of path, none, header; got "Header"',
		route: 'listSettlements',
	},
	{
		name: 'custom POST with Snapshot (it would POST again at every poll)',
		kind: 'orgKey',
		params: custom({
			method: 'POST',
			path: '/v1/snapshots/payables',
			pagination: 'snapshot',
			body: '{}',
		}),
		message: `'Pagination' "Snapshot" reads a snapshot with GET, not POST`,
		route: 'createPayablesSnapshot',
	},
	{
		name: 'custom Body from an expression that is a number',
		kind: 'orgKey',
		params: custom({ method: 'POST', path: '/v1/suppliers', body: 42 }),
		message: "'Body (JSON)' must be a JSON object or list; got number",
		route: 'createSuppliers',
	},
	{
		name: 'custom Body that is a list, with a Pagination that pages it',
		kind: 'orgKey',
		params: custom({
			method: 'POST',
			path: '/v1/payables/search',
			pagination: 'bodyCursor',
			body: [{ limit: 10 }],
		}),
		message: "'Body (JSON)' must be a JSON object; got a list",
		route: 'searchPayables',
	},
	{
		name: 'custom path with "//"',
		kind: 'orgKey',
		params: custom({ path: '//evil.example/v1/settlements' }),
		message: `'Path' holds "//evil.example/v1/settlements", which is not a valid API path`,
		route: 'listSettlements',
	},
	{
		name: 'custom path with "//" inside',
		kind: 'oauthOrg',
		params: custom({ path: '/v1//settlements' }),
		message: `'Path' holds "/v1//settlements", which is not a valid API path`,
		route: 'listSettlements',
	},
	{
		name: 'custom path "http://…"',
		kind: 'orgKey',
		params: custom({ path: 'http://evil.example/v1/settlements' }),
		message: `'Path' holds "http://evil.example/v1/settlements", which is not a valid API path`,
		route: 'listSettlements',
	},
	{
		name: 'custom path without a leading slash',
		kind: 'companyKey',
		params: custom({ company: '', path: 'v1/settlements' }),
		message: `'Path' holds "v1/settlements", which is not a valid API path`,
		route: 'listSettlements',
	},
	{
		name: 'custom path with a query string',
		kind: 'orgKey',
		params: custom({ path: '/v1/settlements?page=2' }),
		message: `'Path' holds "/v1/settlements?page=2", which is not a valid API path`,
		route: 'listSettlements',
	},
	{
		name: 'custom path with {companyId} but header placement',
		kind: 'orgKey',
		params: custom({ path: '/v2/companies/{companyId}/invoices' }),
		message: `The path contains {companyId} but 'Company Placement' is not "Company in Path"`,
		route: 'listInvoices',
	},
	{
		name: 'custom path placement "path" without {companyId}',
		kind: 'orgKey',
		params: custom({ path: '/v1/settlements', companyPlacement: 'path' }),
		message: `'Company Placement' is "Company in Path" but the path has no {companyId}`,
		route: 'listSettlements',
	},
	{
		name: 'custom query not JSON',
		kind: 'orgKey',
		params: custom({ path: '/v1/settlements', query: '{page: 2' }),
		message: "'Query Parameters (JSON)' is not valid JSON",
		route: 'listSettlements',
	},
	{
		name: 'custom body not JSON',
		kind: 'orgKey',
		params: custom({
			method: 'POST',
			path: '/v1/payables/search',
			pagination: 'bodyCursor',
			returnAll: true,
			body: '{"status": settled}',
		}),
		message: "'Body (JSON)' is not valid JSON",
		route: 'searchPayables',
	},
	{
		name: 'invoice filters not JSON',
		kind: 'orgKey',
		params: invoices({ filters: '{"status": "paid"' }),
		message: "'Filters (JSON)' is not valid JSON",
		route: 'listInvoices',
	},
	{
		name: 'invoice filters a JSON array',
		kind: 'oauthCompany',
		params: invoices({ company: '', filters: '["paid"]' }),
		message: "'Filters (JSON)' must be a JSON object",
		route: 'listInvoices',
	},
	{
		name: 'invoice filters setting "cursor"',
		kind: 'orgKey',
		params: invoices({ filters: '{"cursor":"abc"}' }),
		message: `'Filters (JSON)' must not set "cursor"`,
		route: 'listInvoices',
	},
	{
		name: 'payable filters not JSON',
		kind: 'orgKey',
		params: payables({ filtersJson: 'status=settled' }),
		message: "'Filters (JSON)' is not valid JSON",
		route: 'searchPayables',
	},
	{
		name: 'payable filters setting "limit"',
		kind: 'companyKey',
		params: payables({ company: '', filtersJson: '{"limit":5}' }),
		message: `'Filters (JSON)' must not set "limit"`,
		route: 'searchPayables',
	},
	{
		name: 'intake JSON {}',
		kind: 'orgKey',
		params: intake('{}'),
		message: "'Intake (JSON)' is empty",
		route: 'createIntake',
	},
	{
		name: 'intake JSON blank',
		kind: 'oauthOrg',
		params: intake('   '),
		message: "'Intake (JSON)' is empty",
		route: 'createIntake',
	},
	{
		name: 'intake JSON not JSON',
		kind: 'companyKey',
		params: { ...intake('supplier: x'), company: '' },
		message: "'Intake (JSON)' is not valid JSON",
		route: 'createIntake',
	},
	{
		name: 'analytical field id empty',
		kind: 'orgKey',
		params: values(''),
		message: "'Analytical Field' is empty",
		route: 'listAnalyticalFieldValues',
	},
	{
		name: 'analytical field id as a bare text, not From List or By ID (workflow JSON written by hand)',
		kind: 'orgKey',
		params: { ...values(''), fieldId: 'af_002_001' },
		message: `'Analytical Field' must be picked From List or entered By ID; the node got the text "af_002_001"`,
		route: 'listAnalyticalFieldValues',
	},
	{
		name: 'analytical field id in a mode the field does not have',
		kind: 'orgKey',
		params: { ...values(''), fieldId: { __rl: true, mode: 'url', value: 'af_002_001' } },
		message: `'Analytical Field' must be picked From List or entered By ID; the node got the mode "url"`,
		route: 'listAnalyticalFieldValues',
	},
	{
		name: 'invoices Sort Field from an expression that is no choice',
		kind: 'orgKey',
		params: invoices({ sort: { rule: { field: 'amount', direction: 'asc' } } }),
		message: `'Field': "amount" is not one of the values Spendesk knows`,
		route: 'listInvoices',
	},
	{
		name: 'invoices Sort Direction from an expression that is no choice',
		kind: 'orgKey',
		params: invoices({ sort: { rule: { field: 'createdAt', direction: 'newest' } } }),
		message: `'Direction': "newest" is not one of the values Spendesk knows`,
		route: 'listInvoices',
	},
	{
		name: 'analytical field id blank (OAuth2 company-level)',
		kind: 'oauthCompany',
		params: { ...values('   '), company: '' },
		message: "'Analytical Field' is empty",
		route: 'listAnalyticalFieldValues',
	},
];

describe('node: bad input fails before any request', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({ seed: { sizes: { invoices: 10 } } }, (started) => (sim = started));

	test.each(CASES)('$name ($kind)', async ({ kind, params, message, route }) => {
		const { execute } = await prepareNode(sim, kind, params);
		await expectRefusedBeforeAnyRequest(sim, execute(), message);
		expect(sim.requestsTo(route)).toHaveLength(0);
	});

	test.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
		'Custom API Call %s with All Companies is refused before any request, even with Continue On Fail',
		async (method) => {
			for (const continueOnFail of [false, true]) {
				// The first item is a read that could run; the refusal of the second stops both.
				const { execute } = await prepareNode(
					sim,
					'orgKey',
					custom({
						companies: 'all',
						method: `={{ $json.method }}`,
						path: '/v1/payables/search',
						body: '{}',
					}),
					{ continueOnFail, items: [{ json: { method: 'GET' } }, { json: { method } }] },
				);
				// Not even the company list is read.
				const error = await expectRefusedBeforeAnyRequest(
					sim,
					execute(),
					`Custom API Call with method ${method} writes to one company at a time: All Companies is not allowed`,
				);
				expect(error.description).toContain("Set 'Companies' to One Company and pick the company");
			}
		},
	);

	test('Custom API Call GET with All Companies still runs on every company', async () => {
		const { execute } = await prepareNode(
			sim,
			'orgKey',
			custom({ companies: 'all', path: '/v1/wallet-summary' }),
		);
		const [out] = await execute();
		expect(out.length).toBeGreaterThan(1);
		expect(sim.requestsTo('walletSummary').length).toBe(out.length);
	});

	test('a company-level credential naming another company fails before any request', async () => {
		const { execute } = await prepareNode(sim, 'companyKey', {
			resource: 'walletSummary',
			operation: 'get',
			...oneCompany('cmp_002'),
		});
		await expectRefusedBeforeAnyRequest(
			sim,
			execute(),
			'The company-level credential "Spendesk API key" cannot reach company "cmp_002"',
		);
	});

	test('with continueOnFail, bad input gives an error item paired with its input item, still without any request', async () => {
		const { execute } = await prepareNode(sim, 'orgKey', invoices({ limit: 0 }), {
			continueOnFail: true,
			items: [{ json: {} }, { json: {} }],
		});
		const [out] = await execute();
		expect(out.map((o) => o.json.error)).toEqual([
			"'Limit' must be a whole number of 1 or more; got 0",
			"'Limit' must be a whole number of 1 or more; got 0",
		]);
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(sim.log).toHaveLength(0);
	});

	test('All Companies with Limit 0: the error names the field and no request is made at all', async () => {
		const { execute } = await prepareNode(sim, 'orgKey', invoices({ companies: 'all', limit: 0 }));
		// Checked before the company list is fetched: not even a token request goes out.
		await expectRefusedBeforeAnyRequest(
			sim,
			execute(),
			"'Limit' must be a whole number of 1 or more; got 0",
		);
	});
});

describe('node: input as expressions give it', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({ seed: { sizes: { invoices: 40 } } }, (started) => (sim = started));
	beforeEach(() => sim.clearLog());

	test('a Custom API Call Body an expression gives as a list is sent as that list (POST /v1/suppliers takes one)', async () => {
		const before = sim.data('cmp_002').suppliers.length;
		const suppliers = [{ name: 'ACME Listed' }, { name: 'Globex Listed' }];
		const { execute } = await prepareNode(
			sim,
			'orgKey',
			custom({ method: 'POST', path: '/v1/suppliers', body: suppliers }),
		);
		const [out] = await execute();
		const posted = sim.requestsTo('createSuppliers');
		expect(posted.map((r) => r.body)).toEqual([suppliers]);
		expect(
			sim
				.data('cmp_002')
				.suppliers.slice(before)
				.map((x) => x.name),
		).toEqual(['ACME Listed', 'Globex Listed']);
		// Pagination None: Spendesk's answer as it is, one item.
		expect(out).toHaveLength(1);
		expect(out[0].json.error).toBeUndefined();
	});

	test('a Limit given as numeric text ("25") is read like a number', async () => {
		const { execute } = await prepareNode(sim, 'orgKey', invoices({ limit: '25' }));
		const [out] = await execute();
		expect(out).toHaveLength(25);
		expect(sim.requestsTo('listInvoices').length).toBeGreaterThan(0);
	});

	test('a Limit given as text that is no number is refused, quoting it', async () => {
		const { execute } = await prepareNode(sim, 'orgKey', invoices({ limit: 'ten' }));
		await expectRefusedBeforeAnyRequest(
			sim,
			execute(),
			`'Limit' must be a whole number of 1 or more; got "ten"`,
		);
	});

	test('a company ID with a zero-width space is refused, never sent (One Company)', async () => {
		const { execute } = await prepareNode(sim, 'orgKey', invoices({ company: 'cmp_\u200b002' }));
		const error = await expectRefusedBeforeAnyRequest(
			sim,
			execute(),
			`'Company' contains an invisible character (U+200B, a zero-width space): "cmp_<U+200B>002"`,
		);
		expect(error.message).not.toContain('\u200b');
	});

	test.each([
		[
			'walletLoad',
			{ from: '2026-02-30' },
			"'From' is not a real date: 2026-02-30 does not exist (February 2026 has 28 days)",
		],
		[
			'bankFee',
			{ to: '2026-04-31T10:00:00Z' },
			"'Until' is not a real date: 2026-04-31 does not exist (April 2026 has 30 days)",
		],
		[
			'walletLoad',
			{ from: '2026-01-15T25:00:00' },
			"'From' is not a real date: 25:00:00 is not a time of day (use 00:00 to 23:59)",
		],
	])(
		'%s getAll with the impossible date %j is refused, not rolled over',
		async (resource, filters, message) => {
			const { execute } = await prepareNode(sim, 'orgKey', {
				resource,
				operation: 'getAll',
				...oneCompany('cmp_002'),
				returnAll: true,
				filters,
			});
			await expectRefusedBeforeAnyRequest(sim, execute(), message);
		},
	);

	test('a leap day that exists (2028-02-29) is accepted', async () => {
		const { execute } = await prepareNode(sim, 'orgKey', {
			resource: 'walletLoad',
			operation: 'getAll',
			...oneCompany('cmp_002'),
			returnAll: true,
			filters: { from: '2028-02-29' },
		});
		await execute();
		expect(sim.log.length).toBeGreaterThan(0);
	});
});
