/**
 * Node, reads over real HTTP to the simulator (docs/api.md#endpoints): Payable → Get,
 * Supplier → Get / Get Many, User → Get / Get Many, Cost Center, Bank Fee and Wallet Load →
 * Get Many; their validation before any request, their errors with and without Continue On
 * Fail, Get by ID with All Companies, and the From List searches of the Get operations.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';
import {
	searchPayables,
	searchSuppliers,
	searchUsers,
} from '../../nodes/Spendesk/methods/recordSearch';
import type { LoggedRequest, SpendeskSimulator } from '../simulator';
import { payableDetail } from '../simulator/routes-reads';
import {
	contextFor,
	expectRefusedBeforeAnyRequest,
	failure,
	simulatorPerSuite,
} from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { apiRequests, prepareNode, runNode } from '../support/node';
import { locatorById, locatorFromList, oneCompany, plain } from '../support/values';
import { FIELDS_READ } from '../schemas/fields-read';

const KINDS = [
	{ kind: 'orgKey' as const, company: 'cmp_002', target: 'cmp_002' },
	{ kind: 'oauthOrg' as const, company: 'cmp_003', target: 'cmp_003' },
	{ kind: 'companyKey' as const, company: '', target: 'cmp_001' },
];

interface Case {
	name: string;
	params: (sim: SpendeskSimulator, target: string) => IDataObject;
	expected: (sim: SpendeskSimulator, target: string) => unknown[];
	log?: (log: LoggedRequest[], sim: SpendeskSimulator, target: string) => void;
}

const CASES: Case[] = [
	{
		name: 'payable get: By ID gives the payable in full, one GET /v1/payables/{payableId}',
		params: (sim, t) => ({
			resource: 'payable',
			operation: 'get',
			payableId: locatorById(` ${sim.data(t).payables[7].id} `),
		}),
		expected: (sim, t) => [payableDetail(sim.data(t).payables[7])],
		log: (log, sim, t) =>
			expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([
				`GET /v1/payables/${sim.data(t).payables[7].id}`,
			]),
	},
	{
		name: 'payable get: From List value (as the editor stores it)',
		params: (sim, t) => ({
			resource: 'payable',
			operation: 'get',
			payableId: { __rl: true, mode: 'list', value: sim.data(t).payables[0].id },
		}),
		expected: (sim, t) => [payableDetail(sim.data(t).payables[0])],
	},
	{
		name: 'supplier getAll: Return All (page-based, 2 pages)',
		params: () => ({ resource: 'supplier', operation: 'getAll', returnAll: true }),
		expected: (sim, t) => sim.data(t).suppliers,
		log: (log) =>
			expect(log.map((r) => [r.query.page, r.query.pageSize])).toEqual([
				['1', '30'],
				['2', '30'],
			]),
	},
	{
		name: 'supplier getAll: Updated After (date field) and Archived: Active Only become updatedAfter and isArchived=false',
		params: () => ({
			resource: 'supplier',
			operation: 'getAll',
			returnAll: true,
			filters: { updatedAfter: '2026-01-20T00:00:00', archived: 'active' },
		}),
		expected: (sim, t) =>
			sim
				.data(t)
				.suppliers.filter((s) => s.updatedAt > '2026-01-20T00:00:00.000Z' && !s.isArchived),
		log: (log) => {
			for (const entry of log)
				expect(entry.query).toMatchObject({
					updatedAfter: '2026-01-20T00:00:00.000Z',
					isArchived: 'false',
				});
		},
	},
	{
		name: 'supplier getAll: Archived Only, Limit 3',
		params: () => ({
			resource: 'supplier',
			operation: 'getAll',
			returnAll: false,
			limit: 3,
			filters: { archived: 'archived' },
		}),
		expected: (sim, t) =>
			sim
				.data(t)
				.suppliers.filter((s) => s.isArchived)
				.slice(0, 3),
		log: (log) =>
			expect(log.map((r) => r.query)).toEqual([{ page: '1', pageSize: '3', isArchived: 'true' }]),
	},
	{
		name: 'supplier get: By ID',
		params: (sim, t) => ({
			resource: 'supplier',
			operation: 'get',
			supplierId: locatorById(sim.data(t).suppliers[12].id),
		}),
		expected: (sim, t) => [sim.data(t).suppliers[12]],
	},
	{
		name: 'user getAll: Return All (2 pages)',
		params: () => ({ resource: 'user', operation: 'getAll', returnAll: true }),
		expected: (sim, t) => sim.data(t).users,
	},
	{
		name: 'user getAll: Limit 5',
		params: () => ({ resource: 'user', operation: 'getAll', returnAll: false, limit: 5 }),
		expected: (sim, t) => sim.data(t).users.slice(0, 5),
	},
	{
		name: 'user get: By ID',
		params: (sim, t) => ({
			resource: 'user',
			operation: 'get',
			userId: locatorById(sim.data(t).users[31].id),
		}),
		expected: (sim, t) => [sim.data(t).users[31]],
		log: (log, sim, t) => expect(log[0].path).toBe(`/v1/users/${sim.data(t).users[31].id}`),
	},
	{
		name: 'costCenter getAll: Return All',
		params: () => ({ resource: 'costCenter', operation: 'getAll', returnAll: true }),
		expected: (sim, t) => sim.data(t).costCenters,
	},
	{
		name: 'bankFee getAll: From and To (date fields) become from and to in UTC',
		params: () => ({
			resource: 'bankFee',
			operation: 'getAll',
			returnAll: true,
			filters: { from: '2026-01-03T00:00:00', to: '2026-01-09T12:00:00' },
		}),
		expected: (sim, t) =>
			sim
				.data(t)
				.bankFees.filter(
					(f) =>
						f.createdAt >= '2026-01-03T00:00:00.000Z' && f.createdAt <= '2026-01-09T12:00:00.000Z',
				),
		log: (log) =>
			expect(log[0].query).toMatchObject({
				from: '2026-01-03T00:00:00.000Z',
				to: '2026-01-09T12:00:00.000Z',
			}),
	},
	{
		name: 'bankFee getAll: Return All without filters (2 pages)',
		params: () => ({ resource: 'bankFee', operation: 'getAll', returnAll: true }),
		expected: (sim, t) => sim.data(t).bankFees,
	},
	{
		name: 'walletLoad getAll: From only, with a time zone offset in the value',
		params: () => ({
			resource: 'walletLoad',
			operation: 'getAll',
			returnAll: true,
			filters: { from: '2026-01-16T01:00:00+01:00' },
		}),
		expected: (sim, t) =>
			sim.data(t).walletLoads.filter((l) => l.createdAt >= '2026-01-16T00:00:00.000Z'),
		log: (log) => expect(log[0].query.from).toBe('2026-01-16T00:00:00.000Z'),
	},
];

describe('node: reads of payables, suppliers, users, cost centers, bank fees, wallet loads', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			seed: { sizes: { invoices: 3, accounts: 2, settlements: 2, payables: 20 } },
		},
		(started) => (sim = started),
	);

	describe.each(KINDS)('$kind (company parameter "$company")', ({ kind, company, target }) => {
		test.each(CASES)('$name', async ({ params, expected, log }) => {
			const { out } = await runNode(sim, kind, {
				...oneCompany(company),
				...params(sim, target),
			});
			const want = plain(expected(sim, target));
			expect(want.length).toBeGreaterThan(0);
			expect(out.map((o) => o.json)).toEqual(want);
			for (const item of out) expect(item.pairedItem).toEqual({ item: 0 });
			const requests = apiRequests(sim);
			for (const entry of requests) {
				expect(entry.status).toBe(200);
				expect(entry.companyId).toBe(target);
			}
			log?.(requests, sim, target);
		});
	});

	describe('Payable → Get: Output', () => {
		test('Simplified keeps the main fields of the payable, with All Companies tagged as usual', async () => {
			const payable = payableDetail(sim.data('cmp_003').payables[4]);
			const { out } = await runNode(sim, 'orgKey', {
				resource: 'payable',
				operation: 'get',
				companies: 'all',
				payableId: locatorById(payable.id),
				output: 'simple',
			});
			expect(out.map((o) => o.json)).toEqual([
				{
					id: payable.id,
					description: payable.description,
					type: payable.type,
					bookkeepingStatus: payable.bookkeepingStatus,
					amount: payable.amount,
					currency: payable.currency,
					counterparty: payable.counterparty,
					costCenterId: payable.costCenterId,
					payableDate: payable.payableDate,
					version: payable.version,
					companyId: 'cmp_003',
					companyName: sim.companies().find((c) => c.id === 'cmp_003')?.name,
				},
			]);
		});

		test('Raw (the default): the payable as Spendesk gives it', async () => {
			const payable = sim.data('cmp_001').payables[1];
			const { out } = await runNode(sim, 'orgKey', {
				resource: 'payable',
				operation: 'get',
				...oneCompany('cmp_001'),
				payableId: locatorById(payable.id),
			});
			expect(out.map((o) => o.json)).toEqual([plain(payableDetail(payable))]);
			expect(Object.keys(out[0].json).length).toBeGreaterThan(10);
		});
	});

	describe('Output: Raw, Simplified, Selected Fields on suppliers, purchase orders and settlements', () => {
		/** Simplified: the fields the inventory declares for it (test/schemas/fields-read.ts), those the record has. */
		const simpleFields = (resource: string): string[] => {
			const words = resource.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
			const entry = FIELDS_READ.find((r) => r.reader === `actions/output.ts Simplified ${words}`);
			if (!entry) throw new Error(`no Simplified inventory entry for ${resource}`);
			return [...entry.fields];
		};
		const SIMPLE: Record<string, string[]> = Object.fromEntries(
			['supplier', 'purchaseOrder', 'settlement'].map((r) => [r, simpleFields(r)]),
		);
		const pick = (record: IDataObject, fields: string[]) =>
			Object.fromEntries(fields.filter((f) => record[f] !== undefined).map((f) => [f, record[f]]));

		const READS: Array<[string, string, IDataObject]> = [
			['supplier', 'getAll', { returnAll: false, limit: 3 }],
			['purchaseOrder', 'getAll', { returnAll: false, limit: 3 }],
			['settlement', 'getAll', { returnAll: true }],
		];

		test.each(READS)(
			'%s → %s: Simplified and Selected Fields shape what Raw gives',
			async (resource, operation, extra) => {
				const base = { resource, operation, ...oneCompany('cmp_002'), ...extra };
				const raw = (await runNode(sim, 'orgKey', base)).out.map((o) => o.json);
				expect(raw.length).toBeGreaterThan(0);
				expect(Object.keys(raw[0]).length).toBeGreaterThan(SIMPLE[resource].length);
				const simple = await runNode(sim, 'orgKey', { ...base, output: 'simple' });
				expect(simple.out.map((o) => o.json)).toEqual(raw.map((r) => pick(r, SIMPLE[resource])));
				for (const item of simple.out)
					expect(Object.keys(item.json).length).toBeLessThanOrEqual(10);
				// Selected Fields: the ID first, then the fields chosen, in the order chosen.
				const chosen = [SIMPLE[resource][2], SIMPLE[resource][1]];
				const selected = await runNode(sim, 'orgKey', {
					...base,
					output: 'selectedFields',
					fields: chosen,
				});
				expect(selected.out.map((o) => o.json)).toEqual(raw.map((r) => pick(r, ['id', ...chosen])));
				expect(Object.keys(selected.out[0].json)).toEqual(
					['id', ...chosen].filter((f) => raw[0][f] !== undefined),
				);
				expect(selected.out.map((o) => o.pairedItem)).toEqual(raw.map(() => ({ item: 0 })));
			},
		);

		test('Supplier → Get with All Companies: the chosen fields, then the company tags', async () => {
			const supplier = sim.data('cmp_003').suppliers[0];
			const { out } = await runNode(sim, 'orgKey', {
				resource: 'supplier',
				operation: 'get',
				companies: 'all',
				supplierId: locatorById(supplier.id),
				output: 'selectedFields',
				fields: ['name'],
			});
			expect(out.map((o) => o.json)).toEqual([
				{
					id: supplier.id,
					name: supplier.name,
					companyId: 'cmp_003',
					companyName: sim.companies().find((c) => c.id === 'cmp_003')?.name,
				},
			]);
		});

		test('a field the record does not have (from an expression) is refused before any request, naming the field', async () => {
			await expectRefusedBeforeAnyRequest(
				sim,
				runNode(sim, 'orgKey', {
					resource: 'settlement',
					operation: 'getAll',
					...oneCompany('cmp_001'),
					output: 'selectedFields',
					fields: '={{ ["amount", "settledAt"] }}',
				}),
				`'Fields': "settledAt" is not one of the values Spendesk knows`,
			);
		});
	});

	describe('Get by ID: not found', () => {
		test('One Company: an unknown payable is a 404 error naming the payable and the company', async () => {
			const { execute } = await prepareNode(sim, 'orgKey', {
				resource: 'payable',
				operation: 'get',
				...oneCompany('cmp_002'),
				payableId: locatorById('pay_unknown'),
			});
			const error = await failure(execute());
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe('Payable "pay_unknown" was not found in company "cmp_002"');
			expect((error as NodeApiError).description).toMatch(/choose All Companies/);
			expect((error as NodeApiError).httpCode).toBe('404');
		});

		test("company-level credential: the message names the credential's company", async () => {
			const { execute } = await prepareNode(sim, 'companyKey', {
				resource: 'supplier',
				operation: 'get',
				...oneCompany(),
				supplierId: locatorById('sup_unknown'),
			});
			const error = await failure(execute());
			expect(error.message).toBe(
				'Supplier "sup_unknown" was not found in the credential\'s own company',
			);
		});

		test('Continue On Fail: the unknown user is an error item paired with its input item, the known one is returned', async () => {
			const known = sim.data('cmp_002').users[2];
			const { out } = await runNode(
				sim,
				'orgKey',
				{
					resource: 'user',
					operation: 'get',
					...oneCompany('cmp_002'),
					userId: locatorById(known.id),
				},
				{
					continueOnFail: true,
					items: [{ json: {} }, { json: {} }],
					itemParameters: [{}, { userId: locatorById('usr_unknown') }],
				},
			);
			expect(out).toHaveLength(2);
			expect(out[0]).toEqual({ json: plain([known])[0], pairedItem: { item: 0 } });
			expect(out[1].pairedItem).toEqual({ item: 1 });
			expect(out[1].json.error).toBe('User "usr_unknown" was not found in company "cmp_002"');
		});

		test("All Companies: the payable comes from the company that holds it (tagged), the other companies' 404s are empty results", async () => {
			const payable = sim.data('cmp_003').payables[4];
			const { out } = await runNode(sim, 'orgKey', {
				resource: 'payable',
				operation: 'get',
				companies: 'all',
				payableId: locatorById(payable.id),
			});
			expect(out).toHaveLength(1);
			expect(out[0].json).toMatchObject({
				...plain([payableDetail(payable)])[0],
				companyId: 'cmp_003',
			});
			expect(out[0].pairedItem).toEqual({ item: 0 });
			const gets = sim.requestsTo('getPayable');
			expect(gets.map((r) => r.companyId).sort()).toEqual([
				'cmp_001',
				'cmp_002',
				'cmp_003',
				'cmp_004',
			]);
			expect(gets.filter((r) => r.status === 404)).toHaveLength(3);
		});

		test('All Companies: a payable no company holds gives no item and no error', async () => {
			const { out } = await runNode(sim, 'orgKey', {
				resource: 'payable',
				operation: 'get',
				companies: 'all',
				payableId: locatorById('pay_nowhere'),
			});
			expect(out).toEqual([]);
		});
	});

	describe('validation before any request', () => {
		test.each([
			['an empty ID', '', "'Payable' is empty"],
			['spaces only', '   ', "'Payable' is empty"],
			['".."', '..', `'Payable' holds "..", which is not a valid ID`],
			['"%2e%2e"', '%2e%2e', `'Payable' holds "%2e%2e", which is not a valid ID`],
			[
				'a slash',
				'pay/../../v1/accounts',
				`'Payable' holds "pay/../../v1/accounts", which is not a valid ID`,
			],
			['a space inside', 'pay 1', `'Payable' holds "pay 1", which is not a valid ID`],
		])(
			'payable get with %s fails naming the field, nothing is sent',
			async (_what, value, message) => {
				const { execute } = await prepareNode(sim, 'orgKey', {
					resource: 'payable',
					operation: 'get',
					...oneCompany('cmp_002'),
					payableId: locatorById(value),
				});
				await expectRefusedBeforeAnyRequest(sim, execute(), message);
			},
		);

		test('an ID from an expression that is not text (an object) is refused as empty', async () => {
			const { execute } = await prepareNode(sim, 'orgKey', {
				resource: 'supplier',
				operation: 'get',
				...oneCompany('cmp_002'),
				supplierId: { __rl: true, mode: 'id', value: { id: 1 } },
			});
			await expectRefusedBeforeAnyRequest(
				sim,
				execute(),
				"'Supplier' must be an ID (text); got object",
			);
		});

		test.each([
			['bankFee', { from: 'yesterday' }, `'From' is not a date: got "yesterday"`],
			['walletLoad', { to: '2026-13-45' }, "'Until' is not a real date: there is no month 13"],
			[
				'walletLoad',
				{ from: '2026-02-01T00:00:00', to: '2026-01-01T00:00:00' },
				"'From' (2026-02-01T00:00:00.000Z) is after 'Until' (2026-01-01T23:59:59.999Z)",
			],
			['supplier', { updatedAfter: 'last week' }, `'Updated After' is not a date: got "last week"`],
		])('%s getAll with filters %j fails before any request', async (resource, filters, message) => {
			const { execute } = await prepareNode(sim, 'orgKey', {
				resource,
				operation: 'getAll',
				...oneCompany('cmp_002'),
				returnAll: true,
				filters,
			});
			await expectRefusedBeforeAnyRequest(sim, execute(), message);
		});

		// Workflow JSON written by hand or by n8n's API may hold `"filters": null`.
		test.each([
			['bankFee', 'getAll', { filters: null }],
			['walletLoad', 'getAll', { filters: null }],
			['settlement', 'getAll', { filters: null }],
			['supplier', 'getAll', { filters: null }],
			['purchaseOrder', 'getAll', { filters: null, options: null }],
			['analyticalField', 'getAll', { filters: null }],
			['payable', 'getAll', { filterMode: 'fields', filters: null }],
			['payable', 'getAllSnapshot', { options: null }],
		])('%s %s with %j reads as with none set', async (resource, operation, params) => {
			const { out } = await runNode(sim, 'orgKey', {
				resource,
				operation,
				...oneCompany('cmp_002'),
				returnAll: true,
				...params,
			});
			expect(out.length).toBeGreaterThan(0);
			expect(out.every((item) => item.json.error === undefined)).toBe(true);
		});

		test('Continue On Fail: a bad date on item 1 is its error item; item 0 still runs', async () => {
			const { out } = await runNode(
				sim,
				'orgKey',
				{
					resource: 'walletLoad',
					operation: 'getAll',
					...oneCompany('cmp_002'),
					returnAll: true,
					filters: {},
				},
				{
					continueOnFail: true,
					items: [{ json: {} }, { json: {} }],
					itemParameters: [{}, { filters: { from: 'soon' } }],
				},
			);
			const loads = plain(sim.data('cmp_002').walletLoads);
			expect(out.slice(0, loads.length).map((o) => o.json)).toEqual(loads);
			expect(
				out.slice(0, loads.length).every((o) => (o.pairedItem as { item: number }).item === 0),
			).toBe(true);
			expect(out[loads.length]).toEqual({
				json: { error: `'From' is not a date: got "soon"`, description: expect.any(String) },
				pairedItem: { item: 1 },
			});
		});
	});

	describe("dates: a value without a time zone is read in the workflow's time zone", () => {
		test('Europe/Paris: Updated After 2026-01-15T00:00:00 is sent as 2026-01-14T23:00:00.000Z', async () => {
			await runNode(
				sim,
				'orgKey',
				{
					resource: 'supplier',
					operation: 'getAll',
					...oneCompany('cmp_002'),
					returnAll: false,
					limit: 1,
					filters: { updatedAfter: '2026-01-15T00:00:00' },
				},
				{ timezone: 'Europe/Paris' },
			);
			expect(apiRequests(sim)[0].query.updatedAfter).toBe('2026-01-14T23:00:00.000Z');
		});

		test('America/New_York in summer time: From 2026-07-01 is sent as 2026-07-01T04:00:00.000Z; a Date object is taken as it is', async () => {
			await runNode(
				sim,
				'orgKey',
				{
					resource: 'bankFee',
					operation: 'getAll',
					...oneCompany('cmp_002'),
					returnAll: false,
					limit: 1,
					filters: { from: '2026-07-01', to: new Date(Date.UTC(2026, 7, 1)) as unknown as string },
				},
				{ timezone: 'America/New_York' },
			);
			expect(apiRequests(sim)[0].query).toMatchObject({
				from: '2026-07-01T04:00:00.000Z',
				to: '2026-08-01T00:00:00.000Z',
			});
		});
	});

	describe('From List of the Get operations', () => {
		async function search(kind: CredentialKind, parameters: IDataObject) {
			const { context } = await contextFor(sim, kind, { parameters });
			return context as unknown as ILoadOptionsFunctions;
		}

		test('suppliers of the chosen company, filtered by name', async () => {
			const ctx = await search('orgKey', oneCompany(locatorFromList('cmp_002')));
			const { results } = await searchSuppliers.call(ctx, 'slack');
			const want = sim
				.data('cmp_002')
				.suppliers.filter((s) => s.name.toLowerCase().includes('slack'));
			// Labelled with the fields Spendesk reads back (docs/api.md#suppliers-as-read).
			const label = (s: (typeof want)[number]) =>
				[s.name, s.address.city, s.vatNo].filter(Boolean).join(', ');
			expect(results).toEqual(want.map((s) => ({ name: `${label(s)} (${s.id})`, value: s.id })));
		});

		test("users of a company-level credential's own company, by name and email; payables by description", async () => {
			const ctx = await search('companyKey', oneCompany());
			const users = (await searchUsers.call(ctx)).results;
			expect(users).toHaveLength(35);
			const first = sim.data('cmp_001').users[0];
			expect(users[0]).toEqual({
				name: `${first.firstName} ${first.lastName}, ${first.email} (${first.id})`,
				value: first.id,
			});
			const payables = (await searchPayables.call(ctx, sim.data('cmp_001').payables[3].id)).results;
			expect(payables.map((p) => p.value)).toEqual([sim.data('cmp_001').payables[3].id]);
		});

		test('with All Companies there is no list: a clear error says to enter the ID', async () => {
			const ctx = await search('orgKey', { companies: 'all' });
			const error = await failure(searchSuppliers.call(ctx));
			expect(error.message).toBe(
				'Suppliers belong to one company: choose One Company to pick from the list',
			);
		});
	});
});
