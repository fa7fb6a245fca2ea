/**
 * Node, All Companies: the operation runs on every active company the credential reaches
 * (seed of 6 companies, cmp_006 deactivated → 5 active), concurrently but within the
 * in-flight cap, items tagged with companyId/companyName (or not, with Add Company Fields
 * off), and one failing company does not lose the others.
 */
import { NodeApiError } from 'n8n-workflow';
import type { INodeExecutionData } from 'n8n-workflow';
import type { Company, SpendeskSimulator } from '../simulator';
import { startSimulator, failure, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { apiRequests, prepareNode, runNode } from '../support/node';
import { plain } from '../support/values';

const SEED = {
	companies: 6,
	sizes: { invoices: 25, settlements: 35, accounts: 12, payables: 10, intakes: 3 },
};

const tagged = (c: Company, items: unknown[]) =>
	plain(items).map((i) => ({ ...i, companyId: c.id, companyName: c.name }));

describe('node: All Companies fan-out', () => {
	let sim: SpendeskSimulator;
	let active: Company[];
	simulatorPerSuite({ seed: SEED }, (started) => {
		sim = started;
		active = sim.companies().filter((c) => c.active);
	});

	test('the seed has 5 active companies and cmp_006 deactivated', () => {
		expect(active.map((c) => c.id)).toEqual([
			'cmp_001',
			'cmp_002',
			'cmp_003',
			'cmp_004',
			'cmp_005',
		]);
		expect(sim.companies().find((c) => c.id === 'cmp_006')?.active).toBe(false);
	});

	describe.each(['orgKey', 'oauthOrg'] as const)('%s', (kind) => {
		test('invoices, Return All: the union of every active company, tagged with companyId and companyName', async () => {
			const { out } = await runNode(sim, kind, {
				resource: 'invoice',
				operation: 'getAll',
				companies: 'all',
				returnAll: true,
				filters: '{}',
			});
			expect(out.map((o) => o.json)).toEqual(
				active.flatMap((c) => tagged(c, sim.invoicesSorted(c.id, 'updatedAt', 'desc'))),
			);
			expect(out.every((o) => (o.pairedItem as { item: number }).item === 0)).toBe(true);
			const requests = apiRequests(sim);
			expect(requests.filter((r) => r.route === 'getCompanies')).toHaveLength(1);
			const invoiceCalls = requests.filter((r) => r.route === 'listInvoices');
			expect(invoiceCalls.map((r) => r.companyId).sort()).toEqual(active.map((c) => c.id));
			for (const r of invoiceCalls) expect(r.path).toBe(`/v2/companies/${r.companyId}/invoices`);
			expect(requests.some((r) => r.companyId === 'cmp_006')).toBe(false);
		});

		test('invoices, Limit 4: the Limit applies to each company', async () => {
			const { out } = await runNode(sim, kind, {
				resource: 'invoice',
				operation: 'getAll',
				companies: 'all',
				returnAll: false,
				limit: 4,
				sort: { rule: { field: 'createdAt', direction: 'asc' } },
				filters: '{"status":"to_review"}',
			});
			expect(out.map((o) => o.json)).toEqual(
				active.flatMap((c) =>
					tagged(
						c,
						sim
							.invoicesSorted(c.id, 'createdAt', 'asc')
							.filter((i) => i.status === 'to_review')
							.slice(0, 4),
					),
				),
			);
		});

		test('settlements (company in the header, page list): union tagged; each company named in x-company-id', async () => {
			const { out } = await runNode(sim, kind, {
				resource: 'settlement',
				operation: 'getAll',
				companies: 'all',
				returnAll: true,
			});
			expect(out.map((o) => o.json)).toEqual(
				active.flatMap((c) => tagged(c, sim.data(c.id).settlements)),
			);
			for (const r of apiRequests(sim).filter((x) => x.route === 'listSettlements'))
				expect(r.headers['x-company-id']).toBe(r.companyId);
		});

		test('Add Company Fields off: the union without companyId/companyName', async () => {
			const { out } = await runNode(sim, kind, {
				resource: 'settlement',
				operation: 'getAll',
				companies: 'all',
				addCompanyFields: false,
				returnAll: true,
			});
			expect(out.map((o) => o.json)).toEqual(
				active.flatMap((c) => plain(sim.data(c.id).settlements)),
			);
			for (const o of out) {
				expect(o.json).not.toHaveProperty('companyId');
				expect(o.json).not.toHaveProperty('companyName');
			}
		});

		test('wallet summary: one tagged summary per active company', async () => {
			const { out } = await runNode(sim, kind, {
				resource: 'walletSummary',
				operation: 'get',
				companies: 'all',
			});
			expect(out.map((o) => o.json)).toEqual(
				active.flatMap((c) => tagged(c, [sim.data(c.id).walletSummary])),
			);
		});

		test('custom API call GET /v1/accounts (offset): union tagged', async () => {
			const { out } = await runNode(sim, kind, {
				resource: 'customApiCall',
				operation: 'request',
				companies: 'all',
				method: 'GET',
				path: '/v1/accounts',
				companyPlacement: 'header',
				pagination: 'offset',
				query: '{}',
				returnAll: true,
			});
			expect(out.map((o) => o.json)).toEqual(
				active.flatMap((c) => tagged(c, sim.data(c.id).accounts)),
			);
		});

		test('companies run concurrently without exceeding the in-flight cap (latency 40 ms, server cap 5)', async () => {
			sim.configure({ latencyMs: 40, maxInFlight: 5 });
			try {
				const { execute } = await prepareNode(sim, kind, {
					resource: 'settlement',
					operation: 'getAll',
					companies: 'all',
					returnAll: true,
				});
				sim.resetStats();
				const [out] = await execute();
				expect(out.map((o) => o.json)).toEqual(
					active.flatMap((c) => tagged(c, sim.data(c.id).settlements)),
				);
				expect(sim.log.filter((r) => r.status === 429)).toEqual([]);
				expect(sim.stats.peakInFlight).toBeGreaterThan(1);
				expect(sim.stats.peakInFlight).toBeLessThanOrEqual(5);
			} finally {
				sim.configure({ latencyMs: 0, maxInFlight: undefined });
			}
		});
	});

	test.each(['companyKey', 'oauthCompany'] as const)(
		"%s: All Companies runs on the credential's own company only",
		async (kind) => {
			const { out } = await runNode(sim, kind, {
				resource: 'settlement',
				operation: 'getAll',
				companies: 'all',
				returnAll: true,
			});
			const own = plain(sim.data('cmp_001').settlements);
			expect(out).toHaveLength(own.length);
			out.forEach((o, i) => expect(o.json).toMatchObject({ ...own[i], companyId: 'cmp_001' }));
			expect(sim.requestsTo('getCompanies')).toHaveLength(0);
		},
	);

	describe('one company failing', () => {
		let failSim: SpendeskSimulator;
		beforeEach(async () => {
			failSim = await startSimulator({ seed: SEED });
		});
		afterEach(async () => failSim.stop());

		const settlementsAll = {
			resource: 'settlement',
			operation: 'getAll',
			companies: 'all',
			returnAll: true,
		};

		/** Lists the companies once so the Get Companies cache (20 min) holds the list from before the change. */
		async function primeCompanyList(kind: CredentialKind): Promise<void> {
			const { out } = await runNode(failSim, kind, {
				resource: 'company',
				operation: 'getAll',
				returnAll: true,
			});
			expect(out).toHaveLength(5);
		}

		function expectOthersPlusOneError(
			out: INodeExecutionData[],
			failing: string,
			detail: RegExp,
		): void {
			const companies = failSim.companies().filter((c) => c.id !== 'cmp_006');
			const errors = out.filter((o) => 'error' in o.json);
			expect(errors).toHaveLength(1);
			const [error] = errors;
			expect(error.pairedItem).toEqual({ item: 0 });
			expect(error.json.companyId).toBe(failing);
			expect(error.json.companyName).toBe(companies.find((c) => c.id === failing)!.name);
			expect(String(error.json.error)).toContain(failing);
			expect(String(error.json.error)).toMatch(detail);
			// The others' items, exactly, in company order, with the error item in the failing company's place.
			expect(out.map((o) => o.json)).toEqual(
				companies.flatMap((c) =>
					c.id === failing ? [error.json] : tagged(c, failSim.data(c.id).settlements),
				),
			);
			for (const o of out) expect(o.pairedItem).toEqual({ item: 0 });
		}

		test('OAuth2 organisation credential whose user left cmp_003 (403 User does not belong): continueOnFail gives the others plus one error item', async () => {
			await primeCompanyList('oauthOrg');
			failSim.removeUserFromCompany('u_owner', 'cmp_003');
			const { out } = await runNode(failSim, 'oauthOrg', settlementsAll, { continueOnFail: true });
			expectOthersPlusOneError(out, 'cmp_003', /not a member/);
			const refused = apiRequests(failSim).filter((r) => r.status === 403);
			// The simulator logs companyId only for calls it accepted: the refused one is named by its header.
			expect(refused.map((r) => [r.route, r.headers['x-company-id']])).toEqual([
				['listSettlements', 'cmp_003'],
			]);
		});

		test('API key, one company failing, On Error "Continue (using error output)": its item alone carries n8n\'s error, naming the company', async () => {
			await primeCompanyList('orgKey');
			failSim.deactivateCompany('cmp_004');
			const { out } = await runNode(failSim, 'orgKey', settlementsAll, {
				onError: 'continueErrorOutput',
			});
			const routed = out.filter((o) => o.error);
			expect(routed).toHaveLength(1);
			expect(routed[0].json).toEqual({ error: routed[0].error?.message });
			expect(String(routed[0].json.error)).toMatch(/cmp_004.*deactivated/);
			expect(out.filter((o) => 'error' in o.json)).toEqual(routed);
		});

		test('OAuth2 organisation credential whose user left cmp_003: without continueOnFail the node throws naming the company', async () => {
			await primeCompanyList('oauthOrg');
			failSim.removeUserFromCompany('u_owner', 'cmp_003');
			const { execute } = await prepareNode(failSim, 'oauthOrg', settlementsAll);
			const error = await failure(execute());
			expect(error.message).toContain('cmp_003');
			expect(error.message).toMatch(/not a member/);
		});

		test('API key, cmp_004 deactivated after the company list was cached (403 Company is deactivated): continueOnFail gives the others plus one error item', async () => {
			await primeCompanyList('orgKey');
			failSim.deactivateCompany('cmp_004');
			const { out } = await runNode(failSim, 'orgKey', settlementsAll, { continueOnFail: true });
			expectOthersPlusOneError(out, 'cmp_004', /deactivated/);
		});

		test('API key, cmp_004 deactivated after the company list was cached: without continueOnFail the node throws naming the company', async () => {
			await primeCompanyList('orgKey');
			failSim.deactivateCompany('cmp_004');
			const { execute } = await prepareNode(failSim, 'orgKey', settlementsAll);
			const error = await failure(execute());
			expect(error.message).toContain('cmp_004');
			expect(error.message).toMatch(/deactivated/);
		});

		test('the error of one company among all keeps what the API said (endpoint, status, API code, detail) and names the company', async () => {
			await primeCompanyList('orgKey');
			failSim.deactivateCompany('cmp_004');
			const { execute } = await prepareNode(failSim, 'orgKey', settlementsAll);
			const error = (await failure(execute())) as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toMatch(
				/^Company "[^"]+" \(cmp_004\): Company "cmp_004" is deactivated$/,
			);
			expect(error.httpCode).toBe('403');
			expect(error.context.itemIndex).toBe(0);
			expect(error.errorResponse).toMatchObject({
				status: 403,
				endpoint: 'GET /v1/settlements',
				companyId: 'cmp_004',
			});
			expect(typeof error.errorResponse?.detail).toBe('string');
			expect(String(error.errorResponse?.detail)).toMatch(/deactivated/i);
			expect(error.errorResponse).toHaveProperty('apiCode');
		});
	});
});
