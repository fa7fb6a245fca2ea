/**
 * The package in the documented world (docs/api.md#the-documented-profile): the simulator's
 * documented profile, with the keys Spendesk documents for ordinary customers. A company-level
 * key runs every documented operation (the v1 endpoints), and gets the experimental-access
 * error on the operations of the experimental API; an organisation-level key holding only the
 * documented scopes gets it on Get Companies and All Companies.
 */
import { NodeApiError } from 'n8n-workflow';
import { searchAnalyticalFields } from '../../nodes/Spendesk/methods/listSearch';
import { searchPayables } from '../../nodes/Spendesk/methods/recordSearch';
import type { SimulatorOptions, SpendeskSimulator } from '../simulator';
import {
	expectRefusedBeforeAnyRequest,
	failure,
	resetTransport,
	startSimulator,
} from '../support/fixtures';
import { C, DOCUMENTED, DOCUMENTED_SIZES } from '../support/documented';
import { apiRequests, listSearch, runNode } from '../support/node';
import { locatorById, oneCompany, plain } from '../support/values';

async function documentedWorld(options: SimulatorOptions = {}): Promise<SpendeskSimulator> {
	return await startSimulator({
		profile: 'documented',
		snapshotPendingPolls: 1,
		exportPendingPolls: 1,
		seed: { companies: 3, sizes: DOCUMENTED_SIZES },
		...options,
	});
}

const one = oneCompany();
const paths = (sim: SpendeskSimulator) => apiRequests(sim).map((r) => `${r.method} ${r.path}`);

describe('documented world: a company-level API key', () => {
	let sim: SpendeskSimulator;
	beforeEach(async () => {
		resetTransport();
		sim = await documentedWorld();
	});
	afterEach(async () => sim.stop());

	test.each(DOCUMENTED)('$name runs on the documented v1 endpoints', async (c) => {
		const { out } = await runNode(sim, 'companyKey', { ...one, ...c.params(sim) });
		expect(out.map((o) => o.json)).toEqual(plain(c.expected(sim)));
		const requests = apiRequests(sim);
		expect(requests.length).toBeGreaterThan(0);
		for (const request of requests) {
			expect(`${request.method} ${request.path}`).toMatch(c.path);
			expect(request.status).toBeLessThan(300);
			expect(request.companyId).toBe(C);
			expect(request.headers).not.toHaveProperty('x-company-id');
		}
	});

	test('Analytical Field → Get Many Values with a Limit asks for no more than needed, page-based', async () => {
		const field = sim.data(C).analyticalFields[0];
		const { out } = await runNode(sim, 'companyKey', {
			...one,
			resource: 'analyticalField',
			operation: 'getValues',
			fieldId: locatorById(field.id),
			returnAll: false,
			limit: 4,
		});
		expect(out.map((o) => o.json.id)).toEqual(field.values.slice(0, 4).map((v) => v.id));
		expect(apiRequests(sim).map((r) => r.query)).toEqual([{ page: '1', pageSize: '4' }]);
	});

	test('the Analytical Field selector lists the fields from GET /v1/analytical-fields', async () => {
		const { results } = await listSearch(sim, 'companyKey', searchAnalyticalFields, {
			parameters: one,
		});
		expect(results).toEqual(
			sim.data(C).analyticalFields.map((f) => ({ name: `${f.name} (${f.id})`, value: f.id })),
		);
		expect(paths(sim)).toEqual(['GET /v1/analytical-fields']);
	});

	test('the Payable picker (From List) says to enter the ID when the payables search is not granted', async () => {
		const error = await failure(listSearch(sim, 'companyKey', searchPayables, { parameters: one }));
		expect(error.message).toBe(
			`the list of payables uses Spendesk's experimental API, and the credential "Spendesk API key" has no access to it for company "cmp_001", so the payables cannot be listed here`,
		);
		expect((error as NodeApiError).description).toMatch(/^Enter the payable ID instead \(By ID\)/);
		expect(paths(sim)).toEqual(['POST /v1/payables/search']);
	});

	test('Payable → Get Attachments gives the files', async () => {
		const payableId = sim.data(C).payables[1].id;
		const { out } = await runNode(sim, 'companyKey', {
			...one,
			resource: 'payable',
			operation: 'getAttachments',
			payableId: locatorById(payableId),
		});
		expect(out.length).toBe(sim.files.attachmentsOf(payableId).length);
		expect(out.length).toBeGreaterThan(0);
		expect(paths(sim).filter((_, i) => apiRequests(sim)[i].host !== 'files')).toEqual([
			`GET /v1/payables/${payableId}/attachments`,
		]);
	});

	test('Account → Get Many: /v1/accounts needs account:read, which no documented key holds', async () => {
		const error = await failure(
			runNode(sim, 'companyKey', {
				...one,
				resource: 'account',
				operation: 'getAll',
				returnAll: true,
			}),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'The credential "Spendesk API key" lacks the scope "account:read" needed for Account → Get Many',
		);
		expect(apiRequests(sim).map((r) => [r.path, r.status, r.errorCode])).toEqual([
			['/v1/accounts', 403, 'FORBIDDEN_ERROR'],
		]);
	});

	test.each([
		[
			'Invoice → Get Many',
			{ resource: 'invoice', operation: 'getAll', returnAll: true },
			'experimental:invoice:read',
			'/v2/companies/cmp_001/invoices',
		],
		[
			'Intake → Get Many',
			{ resource: 'intake', operation: 'getAll', returnAll: true },
			'experimental:intake:read',
			'/v2/companies/cmp_001/intakes',
		],
		[
			'Intake → Create',
			{ resource: 'intake', operation: 'create', intake: '{"supplierName":"ACME"}' },
			'experimental:intake:write',
			'/v2/companies/cmp_001/intakes',
		],
		[
			'Payable → Update Bookkeeping Status',
			{
				resource: 'payable',
				operation: 'updateBookkeepingStatus',
				payableId: locatorById('pay_001_000001'),
				version: 1,
				bookkeepingStatus: 'exported',
			},
			'experimental:accounting:update',
			'/v1/payables/bookkeeping-status',
		],
	] as const)(
		'%s: the experimental-access error, naming the company and the scope to ask for',
		async (name, params, scope, path) => {
			const error = await failure(runNode(sim, 'companyKey', { ...one, ...params }));
			expect(error).toBeInstanceOf(NodeApiError);
			// A bulk write adds which items it concerned.
			expect(
				error.message.startsWith(
					`${name} uses Spendesk's experimental API, and the credential "Spendesk API key" has no access to it for company "cmp_001"`,
				),
			).toBe(true);
			expect(
				(error as NodeApiError).description?.startsWith(
					`Ask your Spendesk contact to enable experimental access for this key (scope "${scope}"), then add the scope to the API key in Spendesk (or to the OAuth2 credential's scopes and reconnect); or use an operation of Spendesk's generally available API, which needs no experimental access.`,
				),
			).toBe(true);
			expect((error as NodeApiError).httpCode).toBe('403');
			expect(apiRequests(sim).map((r) => [r.path, r.status])).toEqual([[path, 403]]);
		},
	);

	test('Company → Get Many: needs an organisation-level key with experimental access; no request', async () => {
		const error = await expectRefusedBeforeAnyRequest(
			sim,
			runNode(sim, 'companyKey', { resource: 'company', operation: 'getAll', returnAll: true }),
			'Company → Get Many needs an organisation-level credential; "Spendesk API key" is company-level',
		);
		expect(error.description).toContain("It belongs to Spendesk's experimental API");
		expect(error.description).toContain(
			'Ask your Spendesk contact to enable experimental access for this key (scope "experimental:company:read")',
		);
	});
});

describe('documented world: an experimental scope granted to the company-level key', () => {
	let sim: SpendeskSimulator;
	beforeEach(async () => {
		resetTransport();
		sim = await documentedWorld({
			grantScopes: {
				'sim-company-client': ['experimental:invoice:read', 'experimental:accounting-export:read'],
			},
		});
	});
	afterEach(async () => sim.stop());

	test('Invoice → Get Many then works on its v2 path', async () => {
		const { out } = await runNode(sim, 'companyKey', {
			...one,
			resource: 'invoice',
			operation: 'getAll',
			returnAll: true,
		});
		expect(out.map((o) => o.json.id).sort()).toEqual(
			sim
				.data(C)
				.invoices.map((i) => i.id)
				.sort(),
		);
		expect(new Set(paths(sim))).toEqual(new Set(['GET /v2/companies/cmp_001/invoices']));
	});

	test('Accounting Export → Create reads the export answered bare', async () => {
		const { out } = await runNode(sim, 'companyKey', {
			...one,
			resource: 'accountingExport',
			operation: 'create',
			from: '2026-01-01T00:00:00.000Z',
			to: '2026-01-01T02:00:00.000Z',
			options: { maxWait: 10 },
		});
		expect(out).toHaveLength(1);
		const gets = apiRequests(sim).filter((r) => r.route === 'getAccountingExport');
		expect(gets.length).toBeGreaterThanOrEqual(2);
		expect(gets.every((r) => r.status === 200)).toBe(true);
	});
});

describe('documented world: an organisation-level key with the documented scopes only', () => {
	let sim: SpendeskSimulator;
	beforeEach(async () => {
		resetTransport();
		sim = await documentedWorld();
	});
	afterEach(async () => sim.stop());

	test('Company → Get Many: the experimental-access error', async () => {
		const error = await failure(
			runNode(sim, 'orgKey', { resource: 'company', operation: 'getAll', returnAll: true }),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			`Company → Get Many uses Spendesk's experimental API, and the credential "Spendesk API key" has no access to it`,
		);
		expect((error as NodeApiError).description).toContain('(scope "experimental:company:read")');
		expect(apiRequests(sim).map((r) => [r.path, r.status, r.errorCode])).toEqual([
			['/v2/companies', 403, 'FORBIDDEN_ERROR'],
		]);
	});

	test('All Companies: the experimental-access error of listing the companies', async () => {
		const error = await failure(
			runNode(sim, 'orgKey', {
				resource: 'settlement',
				operation: 'getAll',
				companies: 'all',
				returnAll: true,
			}),
		);
		expect(error.message).toBe(
			`Settlement → Get Many (listing the companies for All Companies) uses Spendesk's experimental API, and the credential "Spendesk API key" has no access to it`,
		);
		expect(apiRequests(sim).map((r) => r.path)).toEqual(['/v2/companies']);
	});

	test('a named company still works on the documented v1 endpoints (X-Company-Id)', async () => {
		const { out } = await runNode(sim, 'orgKey', {
			...oneCompany('cmp_002'),
			resource: 'settlement',
			operation: 'getAll',
			returnAll: true,
		});
		expect(out.map((o) => o.json)).toEqual(plain(sim.data('cmp_002').settlements));
		expect(apiRequests(sim).map((r) => r.headers['x-company-id'])).toEqual(['cmp_002']);
	});
});
