/**
 * Transport core, company placement (docs/api.md#levels-and-company-placement): `x-company-id`
 * on header routes only, the company in the (URL-encoded) path on path routes, company-level
 * credentials, and the calls refused before any request.
 */
import type { IDataObject } from 'n8n-workflow';
import { collect } from '../../nodes/Spendesk/transport/paginate';
import { callSpendesk } from '../../nodes/Spendesk/transport/request';
import type { SpendeskContext } from '../../nodes/Spendesk/transport/request';
import { ENDPOINTS } from '../../nodes/Spendesk/transport/endpoints';
import type { Endpoint, EndpointName } from '../../nodes/Spendesk/transport/endpoints';
import type { RouteId, SpendeskSimulator } from '../simulator';
import { ctxFor, expectRefusedBeforeAnyRequest, simulatorPerSuite } from '../support/fixtures';
import { apiRequests } from '../support/node';

const HEADER_ROUTES: EndpointName[] = [
	'walletSummary',
	'listSettlements',
	'getAccounts',
	'searchPayables',
	'listAnalyticalFields',
	'listExpenseCategories',
];

describe('transport: company placement (docs/api.md#levels-and-company-placement)', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({}, (started) => (sim = started));
	beforeEach(() => sim.clearLog());

	describe('organisation-level credential', () => {
		let org: SpendeskContext;
		beforeEach(async () => {
			org = await ctxFor(sim, 'orgKey');
			// Warm up the token so the log holds only the calls under test.
			await callSpendesk(org, 'walletSummary', { company: 'cmp_001' });
			sim.clearLog();
		});

		test.each(HEADER_ROUTES)('%s sends x-company-id', async (name) => {
			const res = await callSpendesk(org, name, { company: 'cmp_002' });
			expect(res.status).toBe(200);
			const log = sim.requestsTo(name as RouteId);
			expect(log).toHaveLength(1);
			expect(log[0].status).toBe(200);
			expect(log[0].headers['x-company-id']).toBe('cmp_002');
			expect(log[0].companyId).toBe('cmp_002');
		});

		test.each(['listInvoices', 'listIntakes'] as const)(
			'%s puts the company in the path and never sends x-company-id',
			async (name) => {
				const res = await callSpendesk(org, name, { company: 'cmp_003' });
				expect(res.status).toBe(200);
				const log = sim.requestsTo(name);
				expect(log).toHaveLength(1);
				expect(log[0].path).toBe(
					`/v2/companies/cmp_003/${name === 'listInvoices' ? 'invoices' : 'intakes'}`,
				);
				expect(log[0].headers).not.toHaveProperty('x-company-id');
				expect(log[0].companyId).toBe('cmp_003');
			},
		);

		test('a drain of a path route never sends x-company-id on any page', async () => {
			const items = await collect(org, 'listInvoices', { company: 'cmp_003', pageSize: 20 });
			expect(items.map((i) => i.id)).toEqual(sim.invoicesSorted('cmp_003').map((i) => i.id));
			const log = sim.requestsTo('listInvoices');
			expect(log).toHaveLength(3);
			for (const entry of log) {
				expect(entry.path).toBe('/v2/companies/cmp_003/invoices');
				expect(entry.headers).not.toHaveProperty('x-company-id');
			}
		});

		test('getCompanies never sends x-company-id (and needs no company)', async () => {
			const companies = await collect(org, 'getCompanies');
			expect(companies.map((c) => c.id)).toEqual(['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004']);
			const log = sim.requestsTo('getCompanies');
			expect(log).toHaveLength(1);
			expect(log[0].headers).not.toHaveProperty('x-company-id');
		});

		test('getCompanies ignores a company given by mistake and still sends no x-company-id', async () => {
			await callSpendesk(org, 'getCompanies', { company: 'cmp_002' });
			const log = sim.requestsTo('getCompanies');
			expect(log).toHaveLength(1);
			expect(log[0].headers).not.toHaveProperty('x-company-id');
		});

		test.each(['walletSummary', 'listInvoices', 'searchPayables'] as const)(
			'%s without a company fails with a NodeOperationError before any request',
			async (name) => {
				await expectRefusedBeforeAnyRequest(
					sim,
					callSpendesk(org, name, {}),
					'Choose a company: organisation-level credentials must name the company on this call',
				);
			},
		);

		test.each(['cmp 1/x', 'cmp/1', 'cmp 1', 'cmp?1', 'cmp#1'])(
			'the company id %j is refused before any request',
			async (company) => {
				for (const name of ['listInvoices', 'walletSummary'] as const) {
					await expectRefusedBeforeAnyRequest(
						sim,
						callSpendesk(org, name, { company }),
						`"${company}" is not a valid company ID`,
					);
				}
			},
		);
	});

	describe('company-level credential', () => {
		let company: SpendeskContext;
		beforeEach(async () => {
			company = await ctxFor(sim, 'companyKey');
			await callSpendesk(company, 'walletSummary');
			sim.clearLog();
		});

		/** The route a company-level call reaches: the documented v1 entry where the catalogue names one. */
		const calledRoute = (name: EndpointName) =>
			((ENDPOINTS[name] as Endpoint).companyLevel ?? name) as RouteId;

		test.each(HEADER_ROUTES)('%s needs no company and never sends x-company-id', async (name) => {
			const res = await callSpendesk(company, name);
			expect(res.status).toBe(200);
			const log = sim.requestsTo(calledRoute(name));
			expect(log).toHaveLength(1);
			expect(log[0].headers).not.toHaveProperty('x-company-id');
			expect(log[0].companyId).toBe('cmp_001');
		});

		test.each(HEADER_ROUTES)(
			'%s naming its own company still sends no x-company-id',
			async (name) => {
				await callSpendesk(company, name, { company: 'cmp_001' });
				const log = sim.requestsTo(calledRoute(name));
				expect(log).toHaveLength(1);
				expect(log[0].headers).not.toHaveProperty('x-company-id');
			},
		);

		test.each(['listInvoices', 'listIntakes'] as const)(
			"%s uses the credential's own company in the path",
			async (name) => {
				const res = await callSpendesk(company, name);
				expect(res.status).toBe(200);
				const log = sim.requestsTo(name);
				expect(log).toHaveLength(1);
				expect(log[0].path).toBe(
					`/v2/companies/cmp_001/${name === 'listInvoices' ? 'invoices' : 'intakes'}`,
				);
				expect(log[0].headers).not.toHaveProperty('x-company-id');
			},
		);

		test.each(['walletSummary', 'listInvoices'] as const)(
			'%s naming another company fails before any request',
			async (name) => {
				await expectRefusedBeforeAnyRequest(
					sim,
					callSpendesk(company, name, { company: 'cmp_002' }),
					'The company-level credential "Spendesk API key" cannot reach company "cmp_002"',
				);
			},
		);

		test('getCompanies fails with a clear error before any request', async () => {
			await expectRefusedBeforeAnyRequest(
				sim,
				callSpendesk(company, 'getCompanies'),
				'a call of the node "Spendesk" needs an organisation-level credential; "Spendesk API key" is company-level',
			);
		});
	});

	test('an OAuth2 organisation credential places the company the same way (header route vs path route)', async () => {
		const ctx = await ctxFor(sim, 'oauthOrg');
		sim.clearLog();
		await callSpendesk(ctx, 'listSettlements', { company: 'cmp_002' });
		await callSpendesk(ctx, 'listInvoices', { company: 'cmp_002' });
		const [settlements, invoices] = apiRequests(sim);
		expect(settlements.route).toBe('listSettlements');
		expect(settlements.headers['x-company-id']).toBe('cmp_002');
		expect(invoices.route).toBe('listInvoices');
		expect(invoices.path).toBe('/v2/companies/cmp_002/invoices');
		expect(invoices.headers).not.toHaveProperty('x-company-id');
	});
});

describe('transport: path ids are URL-encoded', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({ seed: { sizes: { invoices: 7 } } }, (started) => {
		sim = started;
		sim.createCompany({ id: 'cmp_é' });
	});
	beforeEach(() => {
		sim.clearLog();
	});

	test('a company id with a non-ASCII character is percent-encoded in the path', async () => {
		const ctx = await ctxFor(sim, 'orgKey');
		sim.clearLog();
		const items = await collect(ctx, 'listInvoices', { company: 'cmp_é' });
		expect(items.map((i: IDataObject) => i.id)).toEqual(
			sim.invoicesSorted('cmp_é').map((i) => i.id),
		);
		const log = sim.requestsTo('listInvoices');
		expect(log).toHaveLength(1);
		expect(log[0].path).toBe('/v2/companies/cmp_%C3%A9/invoices');
		expect(log[0].status).toBe(200);
		expect(log[0].companyId).toBe('cmp_é');
	});
});
