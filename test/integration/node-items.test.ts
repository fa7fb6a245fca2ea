/**
 * Node, per input item: every input item runs the operation and its output is paired with
 * it; errors of one item become error items (continueOnFail) or propagate with the
 * transport's message; and the Limit hint appears only when a Limit cut the results.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INodeExecutionData } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { expectRefusedBeforeAnyRequest, failure, simulatorPerSuite } from '../support/fixtures';
import { apiRequests, prepareNode, runNode } from '../support/node';
import { oneCompany, plain } from '../support/values';

const TWO_ITEMS: INodeExecutionData[] = [{ json: { n: 0 } }, { json: { n: 1 } }];

const CHOOSE_COMPANY =
	'Choose a company: organisation-level credentials must name the company on this call';

describe('node: input items, errors and hints', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{ seed: { sizes: { invoices: 40, settlements: 35 } } },
		(started) => (sim = started),
	);

	describe('every input item runs the operation and is paired with its output', () => {
		test.each([
			['orgKey', 'cmp_002', 'cmp_002'],
			['oauthOrg', 'cmp_003', 'cmp_003'],
			['companyKey', '', 'cmp_001'],
			['oauthCompany', '', 'cmp_001'],
		] as const)(
			'%s: invoices Limit 3 with 2 input items give 2 × 3 items paired with item 0 and item 1',
			async (kind, company, target) => {
				const { out } = await runNode(
					sim,
					kind,
					{
						resource: 'invoice',
						operation: 'getAll',
						...oneCompany(company),
						returnAll: false,
						limit: 3,
						filters: '{}',
					},
					{ items: TWO_ITEMS },
				);
				const top3 = plain(sim.invoicesSorted(target, 'updatedAt', 'desc').slice(0, 3));
				expect(out.map((o) => o.json)).toEqual([...top3, ...top3]);
				expect(out.map((o) => o.pairedItem)).toEqual([
					{ item: 0 },
					{ item: 0 },
					{ item: 0 },
					{ item: 1 },
					{ item: 1 },
					{ item: 1 },
				]);
				expect(apiRequests(sim).filter((r) => r.route === 'listInvoices')).toHaveLength(2);
			},
		);

		test('wallet summary with 2 input items gives one summary per item', async () => {
			const { out } = await runNode(
				sim,
				'orgKey',
				{ resource: 'walletSummary', operation: 'get', ...oneCompany('cmp_004') },
				{ items: TWO_ITEMS },
			);
			const summary = plain(sim.data('cmp_004').walletSummary);
			expect(out).toEqual([
				{ json: summary, pairedItem: { item: 0 } },
				{ json: summary, pairedItem: { item: 1 } },
			]);
		});

		test('intake create with 2 input items creates two intakes', async () => {
			const before = sim.data('cmp_002').intakes.length;
			const { out } = await runNode(
				sim,
				'orgKey',
				{
					resource: 'intake',
					operation: 'create',
					...oneCompany('cmp_002'),
					intake: '{"supplierName":"Per item","amount":1,"currency":"EUR"}',
				},
				{ items: TWO_ITEMS },
			);
			expect(out).toHaveLength(2);
			expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			const stored = sim.data('cmp_002').intakes;
			expect(stored).toHaveLength(before + 2);
			expect(plain(stored.slice(before))).toEqual(out.map((o) => o.json));
			expect(out[0].json.id).not.toBe(out[1].json.id);
		});

		test('All Companies with 2 input items: the union twice, companies listed once per execution', async () => {
			const { out } = await runNode(
				sim,
				'orgKey',
				{
					resource: 'settlement',
					operation: 'getAll',
					companies: 'all',
					returnAll: false,
					limit: 2,
				},
				{ items: TWO_ITEMS },
			);
			const active = sim.companies().filter((c) => c.active);
			const once = active.flatMap((c) =>
				plain(sim.data(c.id).settlements.slice(0, 2)).map((s) => ({
					...s,
					companyId: c.id,
					companyName: c.name,
				})),
			);
			expect(out.map((o) => o.json)).toEqual([...once, ...once]);
			expect(out.map((o) => o.pairedItem)).toEqual([
				...once.map(() => ({ item: 0 })),
				...once.map(() => ({ item: 1 })),
			]);
			expect(sim.requestsTo('getCompanies')).toHaveLength(1);
		});
	});

	describe('an error of one company (continueOnFail and not)', () => {
		test.each([
			['invoice', 'getAll', { filters: '{}', returnAll: true }],
			['walletSummary', 'get', {}],
			['settlement', 'getAll', { returnAll: true }],
		] as const)(
			'organisation key without a company (%s %s): the error propagates with the transport message',
			async (resource, operation, more) => {
				const { execute } = await prepareNode(sim, 'orgKey', {
					resource,
					operation,
					...oneCompany(),
					...more,
				});
				await expectRefusedBeforeAnyRequest(sim, execute(), CHOOSE_COMPANY);
			},
		);

		test('organisation key without a company, continueOnFail: one error item paired with the input item', async () => {
			const { out } = await runNode(
				sim,
				'orgKey',
				{
					resource: 'invoice',
					operation: 'getAll',
					...oneCompany(),
					returnAll: true,
					filters: '{}',
				},
				{ continueOnFail: true },
			);
			expect(out).toHaveLength(1);
			expect(out[0].pairedItem).toEqual({ item: 0 });
			expect(out[0].json.error).toBe(CHOOSE_COMPANY);
			expect(out[0].json).not.toHaveProperty('companyId');
			expect(sim.log).toHaveLength(0);
		});

		test('OAuth2 organisation credential without a company, continueOnFail and 2 items: one error item per item', async () => {
			const { out } = await runNode(
				sim,
				'oauthOrg',
				{ resource: 'walletSummary', operation: 'get', ...oneCompany() },
				{ continueOnFail: true, items: TWO_ITEMS },
			);
			expect(out.map((o) => o.json.error)).toEqual([CHOOSE_COMPANY, CHOOSE_COMPANY]);
			expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		});

		test('a company outside the organisation (403): NodeApiError naming the company, or an error item with companyId', async () => {
			const params = {
				resource: 'settlement',
				operation: 'getAll',
				...oneCompany('cmp_999'),
				returnAll: true,
			};
			const { execute } = await prepareNode(sim, 'orgKey', params);
			const error = await failure(execute());
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe('Company "cmp_999" does not belong to your organisation');
			expect((error as NodeApiError).httpCode).toBe('403');

			const { out } = await runNode(sim, 'orgKey', params, { continueOnFail: true });
			expect(out).toHaveLength(1);
			expect(out[0].pairedItem).toEqual({ item: 0 });
			expect(out[0].json).toMatchObject({
				error: 'Company "cmp_999" does not belong to your organisation',
				companyId: 'cmp_999',
			});
			expect(apiRequests(sim).map((r) => [r.route, r.status])).toEqual([['listSettlements', 403]]);
		});

		test('a deactivated company (403): the message says it is deactivated', async () => {
			const deactivated = sim.companies().find((c) => !c.active)!.id;
			const { out } = await runNode(
				sim,
				'oauthOrg',
				{ resource: 'walletSummary', operation: 'get', ...oneCompany(deactivated) },
				{ continueOnFail: true },
			);
			expect(out).toHaveLength(1);
			expect(out[0].pairedItem).toEqual({ item: 0 });
			expect(out[0].json).toMatchObject({
				error: `Company "${deactivated}" is deactivated`,
				companyId: deactivated,
			});
		});

		test('continueOnFail with 2 items where the first call fails: error item for item 0, data for item 1', async () => {
			sim.injectFault({ route: 'walletSummary', kind: 'status', status: 404, times: 1 });
			const { out } = await runNode(
				sim,
				'orgKey',
				{ resource: 'walletSummary', operation: 'get', ...oneCompany('cmp_002') },
				{ continueOnFail: true, items: TWO_ITEMS },
			);
			expect(out).toHaveLength(2);
			expect(out[0].pairedItem).toEqual({ item: 0 });
			expect(out[0].json).toMatchObject({
				error: 'Spendesk found nothing for Wallet Summary → Get in company "cmp_002" (404)',
				companyId: 'cmp_002',
			});
			expect(out[1]).toEqual({
				json: plain(sim.data('cmp_002').walletSummary),
				pairedItem: { item: 1 },
			});
		});

		test('On Error "Continue (using error output)": the error item carries n8n\'s own error (what routes it to the error output); successes carry none', async () => {
			sim.injectFault({ route: 'walletSummary', kind: 'status', status: 404, times: 1 });
			const { out } = await runNode(
				sim,
				'orgKey',
				{ resource: 'walletSummary', operation: 'get', ...oneCompany('cmp_002') },
				{ onError: 'continueErrorOutput', items: TWO_ITEMS },
			);
			const message = 'Spendesk found nothing for Wallet Summary → Get in company "cmp_002" (404)';
			expect(out[0].error).toBeInstanceOf(NodeOperationError);
			expect(out[0].error?.message).toBe(message);
			expect(out[0].error?.description).toEqual(expect.any(String));
			expect(out[0].json).toEqual({ error: message });
			expect(out[0].pairedItem).toEqual({ item: 0 });
			expect(out[1]).not.toHaveProperty('error');
		});

		test('On Error "Continue": the error item keeps its fields on the main output, without n8n\'s error field', async () => {
			sim.injectFault({ route: 'walletSummary', kind: 'status', status: 404, times: 1 });
			const { out } = await runNode(
				sim,
				'orgKey',
				{ resource: 'walletSummary', operation: 'get', ...oneCompany('cmp_002') },
				{ onError: 'continueRegularOutput' },
			);
			expect(out[0]).not.toHaveProperty('error');
			expect(out[0].json).toEqual({
				error: 'Spendesk found nothing for Wallet Summary → Get in company "cmp_002" (404)',
				description: expect.any(String),
				companyId: 'cmp_002',
			});
		});

		test('without continueOnFail, a failing first item stops the node with the API error', async () => {
			sim.injectFault({ route: 'walletSummary', kind: 'status', status: 404, times: 1 });
			const { execute } = await prepareNode(
				sim,
				'orgKey',
				{ resource: 'walletSummary', operation: 'get', ...oneCompany('cmp_002') },
				{ items: TWO_ITEMS },
			);
			const error = await failure(execute());
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(
				'Spendesk found nothing for Wallet Summary → Get in company "cmp_002" (404)',
			);
			// The second item never ran.
			expect(sim.requestsTo('walletSummary')).toHaveLength(1);
		});
	});

	describe('the Limit hint', () => {
		const invoices = {
			resource: 'invoice',
			operation: 'getAll',
			...oneCompany('cmp_001'),
			filters: '{}',
		};

		test('a Limit that cuts the results of one company adds no hint: n8n shows its own', async () => {
			const { out, hints } = await runNode(sim, 'orgKey', {
				...invoices,
				returnAll: false,
				limit: 5,
			});
			expect(out).toHaveLength(5);
			expect(hints).toEqual([]);
		});

		test('with All Companies, a Limit that cuts the results adds a hint that it applies to each company', async () => {
			const { out, hints } = await runNode(sim, 'orgKey', {
				...invoices,
				companies: 'all',
				returnAll: false,
				limit: 5,
			});
			expect(out.length).toBeGreaterThan(5);
			expect(hints.map((h) => h.message)).toEqual([
				"With All Companies, 'Limit' counts for each company, and some companies have more results than the node returned. Turn on 'Return All' to get every result.",
			]);
		});

		test('a Limit that cuts on a page-based list of one company adds no hint either (company-level OAuth2)', async () => {
			const { out, hints } = await runNode(sim, 'oauthCompany', {
				resource: 'settlement',
				operation: 'getAll',
				...oneCompany(),
				returnAll: false,
				limit: 12,
			});
			expect(out.map((o) => o.json)).toEqual(plain(sim.data('cmp_001').settlements.slice(0, 12)));
			expect(hints).toEqual([]);
		});

		test('Return All adds no hint', async () => {
			const { out, hints } = await runNode(sim, 'orgKey', { ...invoices, returnAll: true });
			expect(out).toHaveLength(sim.data('cmp_001').invoices.length);
			expect(hints).toEqual([]);
		});

		test('a Limit above the number of results cuts nothing and adds no hint', async () => {
			const paid = sim
				.invoicesSorted('cmp_001', 'updatedAt', 'desc')
				.filter((i) => i.status === 'paid');
			expect(paid.length).toBeLessThan(100);
			const { out, hints } = await runNode(sim, 'companyKey', {
				...invoices,
				company: '',
				filters: '{"status":"paid"}',
				returnAll: false,
				limit: 100,
			});
			expect(out.map((o) => o.json)).toEqual(plain(paid));
			expect(hints).toEqual([]);
		});

		test('a Limit equal to the number of results cuts nothing and adds no hint', async () => {
			const fields = sim.data('cmp_002').analyticalFields;
			const { out, hints } = await runNode(sim, 'orgKey', {
				resource: 'analyticalField',
				operation: 'getAll',
				...oneCompany('cmp_002'),
				returnAll: false,
				limit: fields.length,
			});
			expect(out.map((o) => o.json.id)).toEqual(fields.map((f) => f.id));
			expect(hints).toEqual([]);
		});

		test('with All Companies, a Limit equal to one full page of a longer list adds the hint (the API said there is more)', async () => {
			const { out, hints } = await runNode(sim, 'orgKey', {
				resource: 'settlement',
				operation: 'getAll',
				companies: 'all',
				returnAll: false,
				limit: 30,
			});
			expect(out.filter((o) => o.json.companyId === 'cmp_002')).toHaveLength(30);
			expect(sim.data('cmp_002').settlements.length).toBeGreaterThan(30);
			expect(hints).toHaveLength(1);
		});

		test('All Companies with a Limit that cuts adds one hint', async () => {
			const { out, hints } = await runNode(sim, 'oauthOrg', {
				...invoices,
				companies: 'all',
				returnAll: false,
				limit: 2,
			});
			expect(out).toHaveLength(2 * sim.companies().filter((c) => c.active).length);
			expect(hints).toHaveLength(1);
		});

		test('All Companies with Return All adds no hint', async () => {
			const { hints } = await runNode(sim, 'orgKey', {
				resource: 'walletSummary',
				operation: 'get',
				companies: 'all',
			});
			expect(hints).toEqual([]);
		});
	});
});
