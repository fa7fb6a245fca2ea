/**
 * Node, every resource and operation: `execute` over real HTTP against the simulator, with
 * both credential types (API key, OAuth2) and both access levels (organisation: the company
 * is named; company-level: the company is left empty and the credential's own company,
 * cmp_001, is used). Every case asserts the exact items against the simulator's data.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import type { LoggedRequest, SpendeskSimulator } from '../simulator';
import { expectRefusedBeforeAnyRequest, failure, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { apiRequests, prepareNode, runNode } from '../support/node';
import { locatorById, oneCompany, plain } from '../support/values';
import { payableDetail } from '../simulator/routes-reads';
import { searchRow } from '../simulator/routes';

/** Analytical field values as the node gives them: v1 items carry `value` (and `name` added from it). */
const values = (list: Array<{ id: string; name: string }>, level: Level) =>
	level === 'company'
		? list.map(({ id, name }) => ({ id, value: name, isArchived: false, name }))
		: list;

const byId = <T extends { id: string }>(list: T[]): T[] =>
	[...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

interface Kind {
	kind: CredentialKind;
	/** Value of the Company parameter: named for organisation level, empty for company level. */
	company: string;
	/** The company the calls must reach. */
	target: string;
}

const KINDS: Kind[] = [
	{ kind: 'orgKey', company: 'cmp_002', target: 'cmp_002' },
	{ kind: 'oauthOrg', company: 'cmp_003', target: 'cmp_003' },
	{ kind: 'companyKey', company: '', target: 'cmp_001' },
	{ kind: 'oauthCompany', company: '', target: 'cmp_001' },
];

/** A company-level credential calls the documented v1 entry where the catalogue names one. */
type Level = 'organisation' | 'company';

interface Case {
	name: string;
	params: (sim: SpendeskSimulator, target: string) => IDataObject;
	expected: (sim: SpendeskSimulator, target: string, level: Level) => unknown[];
	/** Extra checks on the request log (API routes only). */
	log?: (log: LoggedRequest[], sim: SpendeskSimulator, target: string, level: Level) => void;
}

/** Custom API Call on the settlements list, every page (its query given by each case). */
const SETTLEMENTS_CALL = {
	resource: 'customApiCall',
	operation: 'request',
	method: 'GET',
	path: '/v1/settlements',
	companyPlacement: 'header',
	pagination: 'page',
	returnAll: true,
};

const CASES: Case[] = [
	{
		name: 'invoice getAll: by default newest update first (sortBy updatedAt, sort desc), filters {"status":"paid"} passed through, Limit 10',
		params: () => ({
			resource: 'invoice',
			operation: 'getAll',
			returnAll: false,
			limit: 10,
			filters: '{"status":"paid"}',
		}),
		expected: (sim, t) =>
			sim
				.invoicesSorted(t, 'updatedAt', 'desc')
				.filter((i) => i.status === 'paid')
				.slice(0, 10),
		log: (log, _sim, t) => {
			expect(log).toHaveLength(1);
			expect(log[0].path).toBe(`/v2/companies/${t}/invoices`);
			expect(log[0].query).toEqual({
				status: 'paid',
				sortBy: 'updatedAt',
				sort: 'desc',
				limit: '10',
			});
		},
	},
	{
		name: 'invoice getAll: a Sort rule of Creation Date, Ascending, Return All (several cursor pages)',
		params: () => ({
			resource: 'invoice',
			operation: 'getAll',
			returnAll: true,
			sort: { rule: { field: 'createdAt', direction: 'asc' } },
			filters: '{}',
		}),
		expected: (sim, t) => sim.invoicesSorted(t, 'createdAt', 'asc'),
		log: (log) => {
			expect(log.length).toBeGreaterThanOrEqual(2);
			for (const entry of log)
				expect(entry.query).toMatchObject({ sortBy: 'createdAt', sort: 'asc' });
		},
	},
	{
		name: 'invoice getAll: default sort, filter to_pay, Return All',
		params: () => ({
			resource: 'invoice',
			operation: 'getAll',
			returnAll: true,
			filters: '{"status":"to_pay"}',
		}),
		expected: (sim, t) =>
			sim.invoicesSorted(t, 'updatedAt', 'desc').filter((i) => i.status === 'to_pay'),
	},
	{
		name: 'invoice getAll: a Sort rule (createdAt asc), Limit 125 pages on past 100',
		params: () => ({
			resource: 'invoice',
			operation: 'getAll',
			returnAll: false,
			limit: 125,
			sort: { rule: { field: 'createdAt', direction: 'asc' } },
			filters: '{}',
		}),
		expected: (sim, t) => sim.invoicesSorted(t, 'createdAt', 'asc').slice(0, 125),
		log: (log) => {
			expect(log.map((r) => r.query.limit)).toEqual(['100', '25']);
			for (const entry of log)
				expect(entry.query).toMatchObject({ sortBy: 'createdAt', sort: 'asc' });
		},
	},
	{
		name: 'account getAll: Return All (offset pages)',
		params: () => ({ resource: 'account', operation: 'getAll', returnAll: true }),
		expected: (sim, t) => sim.data(t).accounts,
		log: (log) => {
			expect(log.length).toBeGreaterThanOrEqual(2);
			expect(log[0].query.offset).toBe('0');
		},
	},
	{
		name: 'account getAll: Limit 7',
		params: () => ({ resource: 'account', operation: 'getAll', returnAll: false, limit: 7 }),
		expected: (sim, t) => sim.data(t).accounts.slice(0, 7),
	},
	{
		name: 'payable getAll (Get Many): fields mode (bookkeeping toPrepare, types invoice+credit note) sends the documented filter grammar, Return All',
		params: () => ({
			resource: 'payable',
			operation: 'getAll',
			filterMode: 'fields',
			filters: { bookkeepingStatus: ['toPrepare'], type: ['invoicePurchase', 'creditNote'] },
			returnAll: true,
		}),
		expected: (sim, t) =>
			sim
				.data(t)
				.payables.filter((p) => ['invoicePurchase', 'creditNote'].includes(p.type))
				.map(searchRow),
		log: (log) => {
			expect(log.length).toBeGreaterThanOrEqual(1);
			for (const entry of log) {
				const { cursor, ...body } = entry.body as IDataObject;
				expect(typeof (cursor ?? '')).toBe('string');
				expect(body).toEqual({
					limit: 100,
					filters: {
						operator: 'and',
						// In the order of the Filters fields, as n8n hands the collection to the node.
						subfilters: [
							{ field: 'bookkeepingStatus', operator: '=', value: ['toPrepare'] },
							{ field: 'type', operator: '=', value: ['invoicePurchase', 'creditNote'] },
						],
					},
				});
			}
		},
	},
	{
		name: 'payable getAll (Get Many): fields mode, payable IDs separated by commas become one list',
		params: (sim, t) => ({
			resource: 'payable',
			operation: 'getAll',
			filterMode: 'fields',
			filters: { id: ` ${sim.data(t).payables[2].id}, ${sim.data(t).payables[0].id} ` },
			returnAll: true,
		}),
		expected: (sim, t) => [sim.data(t).payables[0], sim.data(t).payables[2]].map(searchRow),
		log: (log, sim, t) => {
			expect(log).toHaveLength(1);
			expect((log[0].body as IDataObject).filters).toEqual({
				operator: 'and',
				subfilters: [
					{
						field: 'id',
						operator: '=',
						value: [sim.data(t).payables[2].id, sim.data(t).payables[0].id],
					},
				],
			});
		},
	},
	{
		name: 'payable getAll (Get Many): JSON mode passes the filters object through unchanged, Limit 5',
		params: () => ({
			resource: 'payable',
			operation: 'getAll',
			filterMode: 'json',
			filtersJson:
				'{"operator":"or","subfilters":[{"field":"type","operator":"=","value":["expenseClaim"]}]}',
			returnAll: false,
			limit: 5,
		}),
		expected: (sim, t) =>
			sim
				.data(t)
				.payables.filter((p) => p.type === 'expenseClaim')
				.slice(0, 5)
				.map(searchRow),
		log: (log) => {
			expect(log).toHaveLength(1);
			expect(log[0].body).toEqual({
				filters: {
					operator: 'or',
					subfilters: [{ field: 'type', operator: '=', value: ['expenseClaim'] }],
				},
				limit: 5,
			});
		},
	},
	{
		name: 'payable getAll (Get Many): JSON mode, Return All (body cursor pages)',
		params: () => ({
			resource: 'payable',
			operation: 'getAll',
			filterMode: 'json',
			filtersJson: '{}',
			returnAll: true,
		}),
		expected: (sim, t) => sim.data(t).payables.map(searchRow),
		log: (log) => {
			expect(log.length).toBeGreaterThanOrEqual(2);
			expect(log[0].body).toEqual({ limit: 100 });
			expect(log[1].body).toHaveProperty('cursor');
		},
	},
	{
		name: 'payable getAllSnapshot: waits for the snapshot (one PENDING poll) and returns every page, each payable as Get answers it',
		params: () => ({
			resource: 'payable',
			operation: 'getAllSnapshot',
			filterMode: 'fields',
			filters: { type: ['physicalCard', 'subscriptionCard', 'singlePurchaseCard'] },
			options: { maxWait: 10 },
			returnAll: true,
		}),
		expected: (sim, t) =>
			sim
				.data(t)
				.payables.filter((p) => p.type.endsWith('Card'))
				.map(payableDetail),
		log: (log) => {
			const created = log.filter((r) => r.route === 'createPayablesSnapshot');
			expect(created).toHaveLength(1);
			expect(created[0].body).toEqual({
				type: ['physicalCard', 'subscriptionCard', 'singlePurchaseCard'],
			});
			const polls = log.filter((r) => r.route === 'getPayablesSnapshot');
			expect(polls.length).toBeGreaterThanOrEqual(2);
		},
	},
	{
		name: 'payable getAll (Get Many): Output Simplified keeps the main fields of each payable, Limit 3',
		params: () => ({
			resource: 'payable',
			operation: 'getAll',
			filterMode: 'fields',
			filters: {},
			returnAll: false,
			limit: 3,
			output: 'simple',
		}),
		expected: (sim, t) =>
			sim
				.data(t)
				.payables.slice(0, 3)
				.map(payableDetail)
				.map((p) => ({
					id: p.id,
					description: p.description,
					type: p.type,
					bookkeepingStatus: p.bookkeepingStatus,
					amount: p.amount,
					currency: p.currency,
					counterparty: p.counterparty,
					costCenterId: p.costCenterId,
					payableDate: p.payableDate,
					version: p.version,
				})),
	},
	{
		name: 'payable getAllSnapshot: Max Wait in Options; Output Simplified keeps the fields the snapshot has',
		params: () => ({
			resource: 'payable',
			operation: 'getAllSnapshot',
			filterMode: 'fields',
			filters: {},
			options: { maxWait: 10 },
			returnAll: false,
			limit: 2,
			output: 'simple',
		}),
		expected: (sim, t) =>
			sim
				.data(t)
				.payables.slice(0, 2)
				.map(payableDetail)
				.map((p) => ({
					id: p.id,
					description: p.description,
					type: p.type,
					bookkeepingStatus: p.bookkeepingStatus,
					amount: p.amount,
					currency: p.currency,
					counterparty: p.counterparty,
					costCenterId: p.costCenterId,
					payableDate: p.payableDate,
					version: p.version,
				})),
	},
	{
		name: 'settlement getAll: Return All (page-based, 2 pages)',
		params: () => ({ resource: 'settlement', operation: 'getAll', returnAll: true }),
		expected: (sim, t) => sim.data(t).settlements,
		log: (log) => {
			expect(log.map((r) => r.query.page)).toEqual(['1', '2']);
		},
	},
	{
		name: 'settlement getAll: Limit 12',
		params: () => ({ resource: 'settlement', operation: 'getAll', returnAll: false, limit: 12 }),
		expected: (sim, t) => sim.data(t).settlements.slice(0, 12),
	},
	{
		name: 'walletSummary get',
		params: () => ({ resource: 'walletSummary', operation: 'get' }),
		expected: (sim, t) => [sim.data(t).walletSummary],
	},
	{
		name: 'analyticalField getAll',
		params: () => ({ resource: 'analyticalField', operation: 'getAll', returnAll: true }),
		expected: (sim, t, level) =>
			sim
				.data(t)
				.analyticalFields.map(({ id, name }) =>
					level === 'company' ? { id, name, isArchived: false } : { id, name },
				),
		log: (log, _sim, _t, level) => {
			expect(log[0].path).toBe(
				level === 'company' ? '/v1/analytical-fields' : '/v2/analytical-fields',
			);
		},
	},
	{
		name: 'analyticalField getValues (fieldId of the second field), Return All',
		params: (sim, t) => ({
			resource: 'analyticalField',
			operation: 'getValues',
			fieldId: locatorById(sim.data(t).analyticalFields[1].id),
			returnAll: true,
		}),
		expected: (sim, t, level) => values(sim.data(t).analyticalFields[1].values, level),
		log: (log, sim, t, level) => {
			expect(log[0].path).toBe(
				`/${level === 'company' ? 'v1' : 'v2'}/analytical-fields/${sim.data(t).analyticalFields[1].id}/values`,
			);
		},
	},
	{
		name: 'analyticalField getValues, Limit 4',
		params: (sim, t) => ({
			resource: 'analyticalField',
			operation: 'getValues',
			fieldId: locatorById(sim.data(t).analyticalFields[0].id),
			returnAll: false,
			limit: 4,
		}),
		expected: (sim, t, level) => values(sim.data(t).analyticalFields[0].values.slice(0, 4), level),
	},
	{
		name: 'expenseCategory getAll: Return All (several pages: cursor, or page-based at company level)',
		params: () => ({ resource: 'expenseCategory', operation: 'getAll', returnAll: true }),
		expected: (sim, t) => byId(sim.data(t).expenseCategories),
	},
	{
		name: 'intake getAll: Return All',
		params: () => ({ resource: 'intake', operation: 'getAll', returnAll: true }),
		expected: (sim, t) => byId(sim.data(t).intakes),
		log: (log, _sim, t) => {
			for (const entry of log) expect(entry.path).toBe(`/v2/companies/${t}/intakes`);
		},
	},
	{
		name: 'customApiCall GET /v1/settlements, placement header, pagination page, Return All',
		params: () => ({ ...SETTLEMENTS_CALL, query: '{}' }),
		expected: (sim, t) => sim.data(t).settlements,
		log: (log) => expect(log.map((r) => r.query.page)).toEqual(['1', '2']),
	},
	{
		name: 'customApiCall GET /v1/settlements, a list in Query Parameters: sent as the parameter repeated on every page',
		params: () => ({
			...SETTLEMENTS_CALL,
			query: '{"state":["created","exported","failedToExport"]}',
		}),
		expected: (sim, t) => sim.data(t).settlements,
		log: (log) => {
			expect(log.map((r) => r.query.page)).toEqual(['1', '2']);
			for (const entry of log)
				expect(entry.queryRepeated).toEqual({ state: ['created', 'exported', 'failedToExport'] });
		},
	},
	{
		name: 'customApiCall GET /v2/companies/{companyId}/invoices, placement path, pagination cursor, Return All',
		params: () => ({
			resource: 'customApiCall',
			operation: 'request',
			method: 'GET',
			path: '/v2/companies/{companyId}/invoices',
			companyPlacement: 'path',
			pagination: 'cursor',
			query: '{"sortBy":"updatedAt","sort":"desc"}',
			returnAll: true,
		}),
		expected: (sim, t) => sim.invoicesSorted(t, 'updatedAt', 'desc'),
		log: (log, _sim, t) => {
			expect(log.length).toBeGreaterThanOrEqual(2);
			for (const entry of log) {
				expect(entry.path).toBe(`/v2/companies/${t}/invoices`);
				expect(entry.headers).not.toHaveProperty('x-company-id');
			}
		},
	},
	{
		name: 'customApiCall POST /v1/payables/search, pagination bodyCursor, Return All',
		params: () => ({
			resource: 'customApiCall',
			operation: 'request',
			method: 'POST',
			path: '/v1/payables/search',
			companyPlacement: 'header',
			pagination: 'bodyCursor',
			query: '{}',
			body: '{"filters":{"operator":"and","subfilters":[{"field":"type","operator":"=","value":["invoicePurchase"]}]}}',
			returnAll: true,
		}),
		expected: (sim, t) =>
			sim
				.data(t)
				.payables.filter((p) => p.type === 'invoicePurchase')
				.map(searchRow),
		log: (log) => {
			for (const entry of log)
				expect((entry.body as IDataObject).filters).toMatchObject({ operator: 'and' });
		},
	},
	{
		name: 'customApiCall GET /v1/accounts, pagination offset, Return All',
		params: () => ({
			resource: 'customApiCall',
			operation: 'request',
			method: 'GET',
			path: '/v1/accounts',
			companyPlacement: 'header',
			pagination: 'offset',
			query: '{}',
			returnAll: true,
		}),
		expected: (sim, t) => sim.data(t).accounts,
		log: (log) => expect(log.length).toBeGreaterThanOrEqual(2),
	},
	{
		name: 'customApiCall GET /v1/wallet-summary, pagination none',
		params: () => ({
			resource: 'customApiCall',
			operation: 'request',
			method: 'GET',
			path: '/v1/wallet-summary',
			companyPlacement: 'header',
			pagination: 'none',
			query: '{}',
		}),
		expected: (sim, t) => [sim.data(t).walletSummary],
		log: (log) => expect(log).toHaveLength(1),
	},
];

describe('node: every operation with every credential kind', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			snapshotPendingPolls: 1,
			// Lists longer than one page of their maximum page size, so Return All pages.
			seed: {
				sizes: {
					invoices: 130,
					accounts: 110,
					payables: 120,
					settlements: 45,
					expenseCategories: 105,
					intakes: 7,
				},
			},
		},
		(started) => (sim = started),
	);

	describe.each(KINDS)('$kind (company parameter "$company")', ({ kind, company, target }) => {
		test.each(CASES)('$name', async ({ params, expected, log }) => {
			const { out } = await runNode(sim, kind, {
				...oneCompany(company),
				...params(sim, target),
			});
			const level: Level =
				kind === 'companyKey' || kind === 'oauthCompany' ? 'company' : 'organisation';
			const want = plain(expected(sim, target, level));
			expect(want.length).toBeGreaterThan(0);
			expect(out.map((o) => o.json)).toEqual(want);
			for (const item of out) expect(item.pairedItem).toEqual({ item: 0 });
			const requests = apiRequests(sim);
			expect(requests.length).toBeGreaterThan(0);
			for (const entry of requests) {
				expect(entry.status).toBeLessThan(300);
				expect(entry.companyId).toBe(target);
			}
			log?.(requests, sim, target, level);
		});

		test('intake create: the created intake is returned and stored in the company', async () => {
			const intake = {
				supplierName: `Supplier of ${kind}`,
				amount: 123.45,
				currency: 'EUR',
				description: 'integration test',
			};
			const before = sim.data(target).intakes.length;
			const { out } = await runNode(sim, kind, {
				resource: 'intake',
				operation: 'create',
				...oneCompany(company),
				intake: JSON.stringify(intake),
			});
			expect(out).toHaveLength(1);
			expect(out[0].pairedItem).toEqual({ item: 0 });
			const created = out[0].json;
			expect(created).toMatchObject(intake);
			expect(typeof created.id).toBe('string');
			const stored = sim.data(target).intakes;
			expect(stored).toHaveLength(before + 1);
			expect(plain([stored.find((i) => i.id === created.id)])).toEqual([created]);
			const requests = apiRequests(sim);
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({
				method: 'POST',
				path: `/v2/companies/${target}/intakes`,
				status: 201,
				body: intake,
			});
		});
	});

	describe('payable getAllSnapshot: Max Wait', () => {
		afterEach(() => sim.configure({ snapshotPendingPolls: 1 }));

		test('a snapshot still PENDING after Max Wait (1 s) fails with a clear error instead of waiting 300 s', async () => {
			sim.configure({ snapshotPendingPolls: 1000 });
			const { execute } = await prepareNode(sim, 'orgKey', {
				resource: 'payable',
				operation: 'getAllSnapshot',
				...oneCompany('cmp_004'),
				filterMode: 'json',
				filtersJson: '{"bookkeepingStatus":["exported"]}',
				options: { maxWait: 1 },
				returnAll: true,
			});
			const error = await failure(execute());
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe('The payables snapshot was not ready after 1 s');
			const polls = sim.requestsTo('getPayablesSnapshot');
			expect(polls.length).toBeGreaterThanOrEqual(2);
			for (const poll of polls) expect(poll.status).toBe(200);
		});
	});

	describe('company getAll', () => {
		test.each(['orgKey', 'oauthOrg'] as const)(
			'%s: Return All lists every active company',
			async (kind) => {
				const { out } = await runNode(sim, kind, {
					resource: 'company',
					operation: 'getAll',
					returnAll: true,
				});
				const active = sim.companies().filter((c) => c.active);
				expect(active).toHaveLength(4);
				expect(out.map((o) => o.json)).toEqual(active.map(({ id, name }) => ({ id, name })));
				expect(out.every((o) => (o.pairedItem as { item: number }).item === 0)).toBe(true);
				const requests = apiRequests(sim);
				expect(requests.map((r) => r.route)).toEqual(['getCompanies']);
				expect(requests[0].headers).not.toHaveProperty('x-company-id');
			},
		);

		test.each(['orgKey', 'oauthOrg'] as const)(
			'%s: Limit 2 returns the first two companies',
			async (kind) => {
				const { out } = await runNode(sim, kind, {
					resource: 'company',
					operation: 'getAll',
					returnAll: false,
					limit: 2,
				});
				const active = sim.companies().filter((c) => c.active);
				expect(out.map((o) => o.json)).toEqual(
					active.slice(0, 2).map(({ id, name }) => ({ id, name })),
				);
			},
		);

		test.each([
			['companyKey', 'Spendesk API key'],
			['oauthCompany', 'Spendesk OAuth2'],
		] as const)(
			'%s: a company-level credential gets a clear error and no request is sent',
			async (kind, credentialName) => {
				const { execute } = await prepareNode(sim, kind, {
					resource: 'company',
					operation: 'getAll',
					returnAll: true,
				});
				await expectRefusedBeforeAnyRequest(
					sim,
					execute(),
					`Company → Get Many needs an organisation-level credential; "${credentialName}" is company-level`,
				);
			},
		);
	});
});
