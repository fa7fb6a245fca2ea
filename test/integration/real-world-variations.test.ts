/**
 * The real-world variations (docs/api.md#variations), each through the node over real HTTP to
 * the simulator serving it (fault kinds and options):
 * - payables search answering `payables` instead of `data`;
 * - analytical labels under `value`, values pages capped at 30 whatever the limit;
 * - a payables snapshot 409 while another of the company is built: waited out and retried,
 *   and the snapshots of one company made one after the other;
 * - Deprecation/Sunset headers surfaced as an execution hint once per run, naming the endpoint.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { searchAnalyticalFields } from '../../nodes/Spendesk/methods/listSearch';
import type { SpendeskSimulator } from '../simulator';
import { DEFAULT_SUNSET } from '../simulator/server';
import { payableDetail } from '../simulator/routes-reads';
import { searchRow } from '../simulator/routes';
import { contextFor, failure, resetTransport, simulatorPerSuite } from '../support/fixtures';
import { prepareNode, runNode } from '../support/node';
import { locatorById, oneCompany, plain } from '../support/values';

const SNAPSHOT = {
	resource: 'payable',
	operation: 'getAllSnapshot',
	...oneCompany('cmp_002'),
	filterMode: 'fields',
	options: { maxWait: 20 },
	returnAll: true,
};

describe('node: real-world variations (docs/api.md#variations)', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			snapshotPendingPolls: 1,
			seed: { sizes: { invoices: 3, payables: 130, analyticalFieldValues: 70 } },
		},
		(started) => (sim = started),
	);
	beforeEach(() => {
		resetTransport({ statusPollMinMs: 20 });
		sim.configure({
			analyticalValuesMaxReturn: undefined,
			snapshotBuildConflict: undefined,
			snapshotPendingPolls: 1,
		});
	});

	describe('payables search answering { data, nextCursor } (older answers)', () => {
		test('Return All reads every page under data (2 pages of 100)', async () => {
			sim.injectFault({ route: 'searchPayables', kind: 'dataEnvelope', times: 10 });
			const { out } = await runNode(sim, 'orgKey', {
				resource: 'payable',
				operation: 'getAll',
				...oneCompany('cmp_002'),
				filterMode: 'json',
				filtersJson: '{}',
				returnAll: true,
			});
			expect(out.map((o) => o.json)).toEqual(plain(sim.data('cmp_002').payables.map(searchRow)));
			const pages = sim.requestsTo('searchPayables');
			expect(pages.map((r) => r.fault)).toEqual(['dataEnvelope', 'dataEnvelope']);
		});

		test('one page under payables and the next under data still gives every payable once, Limit 110 stops there', async () => {
			sim.injectFault({ route: 'searchPayables', kind: 'dataEnvelope', after: 1 });
			const { out } = await runNode(sim, 'companyKey', {
				resource: 'payable',
				operation: 'getAll',
				...oneCompany(),
				filterMode: 'json',
				filtersJson: '{}',
				returnAll: false,
				limit: 110,
			});
			expect(out.map((o) => o.json)).toEqual(
				plain(sim.data('cmp_001').payables.slice(0, 110).map(searchRow)),
			);
			expect(sim.requestsTo('searchPayables').map((r) => r.fault)).toEqual([
				undefined,
				'dataEnvelope',
			]);
		});
	});

	describe('analytical labels under value, values pages capped at 30', () => {
		test('Get Many Values, Return All: 70 values over 3 capped pages, each with its label as name too', async () => {
			sim.configure({ analyticalValuesMaxReturn: 30 });
			sim.injectFault({ route: 'listAnalyticalFieldValues', kind: 'valueLabels', times: 10 });
			const field = sim.data('cmp_002').analyticalFields[0];
			const { out } = await runNode(sim, 'orgKey', {
				resource: 'analyticalField',
				operation: 'getValues',
				...oneCompany('cmp_002'),
				fieldId: locatorById(field.id),
				returnAll: true,
			});
			expect(out.map((o) => o.json)).toEqual(
				field.values.map(({ id, name }) => ({ id, value: name, name })),
			);
			const pages = sim.requestsTo('listAnalyticalFieldValues');
			expect(pages.map((r) => r.query.limit)).toEqual(['1000', '1000', '1000']);
		});

		test('Get Many Values, Limit 45: reads what it got (30), asks for the 15 left, and stops at 45', async () => {
			sim.configure({ analyticalValuesMaxReturn: 30 });
			const field = sim.data('cmp_002').analyticalFields[1];
			const { out, hints } = await runNode(sim, 'orgKey', {
				resource: 'analyticalField',
				operation: 'getValues',
				...oneCompany('cmp_002'),
				fieldId: locatorById(field.id),
				returnAll: false,
				limit: 45,
			});
			expect(out.map((o) => o.json)).toEqual(plain(field.values.slice(0, 45)));
			expect(sim.requestsTo('listAnalyticalFieldValues').map((r) => r.query.limit)).toEqual([
				'45',
				'15',
			]);
			// One company: n8n's own Limit hint, none of the node's.
			expect(hints).toEqual([]);
		});

		test('the Analytical Field selector shows the labels given as value', async () => {
			sim.injectFault({ route: 'listAnalyticalFields', kind: 'valueLabels' });
			const { context } = await contextFor(sim, 'orgKey', {
				parameters: oneCompany('cmp_002'),
			});
			const { results } = await searchAnalyticalFields.call(
				context as unknown as ILoadOptionsFunctions,
			);
			expect(results).toEqual(
				sim
					.data('cmp_002')
					.analyticalFields.map((f) => ({ name: `${f.name} (${f.id})`, value: f.id })),
			);
		});
	});

	describe('a payables snapshot 409 while another of the company is built', () => {
		test('two 409s are waited out and the create retried: the snapshot is returned, no error', async () => {
			sim.injectFault({ route: 'createPayablesSnapshot', kind: 'snapshotConflict', times: 2 });
			const { out } = await runNode(sim, 'orgKey', {
				...SNAPSHOT,
				filters: { type: ['invoicePurchase'] },
			});
			expect(out.map((o) => o.json)).toEqual(
				plain(
					sim
						.data('cmp_002')
						.payables.filter((p) => p.type === 'invoicePurchase')
						.map(payableDetail),
				),
			);
			expect(sim.requestsTo('createPayablesSnapshot').map((r) => r.status)).toEqual([
				409, 409, 201,
			]);
		});

		test('a Retry-After on the 409 is honoured', async () => {
			sim.injectFault({
				route: 'createPayablesSnapshot',
				kind: 'snapshotConflict',
				retryAfterSeconds: 1,
			});
			await runNode(sim, 'orgKey', { ...SNAPSHOT, filters: { type: ['creditNote'] } });
			const [conflict, created] = sim.requestsTo('createPayablesSnapshot');
			expect(conflict.status).toBe(409);
			expect(created.at - conflict.at).toBeGreaterThanOrEqual(950);
		});

		test('a 409 that lasts past Max Wait fails saying another snapshot of the company is being built', async () => {
			sim.injectFault({ route: 'createPayablesSnapshot', kind: 'snapshotConflict', times: 1000 });
			const { execute } = await prepareNode(sim, 'orgKey', {
				...SNAPSHOT,
				options: { maxWait: 1 },
				filters: { type: ['reverseBill'] },
			});
			sim.clearLog();
			const error = await failure(execute());
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				'Another payables snapshot of company "cmp_002" was still being built after 1 s',
			);
			expect(sim.requestsTo('getPayablesSnapshot')).toHaveLength(0);
		});

		test('two executions asking snapshots of one company at once: built one after the other, the server never answers 409', async () => {
			// Snapshots of earlier tests, still counted as building under these settings, are dropped.
			sim.snapshots.clear();
			sim.configure({ snapshotBuildConflict: true, snapshotPendingPolls: 2 });
			const first = await prepareNode(sim, 'orgKey', {
				...SNAPSHOT,
				filters: { type: ['perDiemAllowance'] },
			});
			const second = await prepareNode(sim, 'orgKey', {
				...SNAPSHOT,
				filters: { type: ['mileageAllowance'] },
			});
			sim.clearLog();
			const [[a], [b]] = await Promise.all([first.execute(), second.execute()]);
			expect(a.map((o) => o.json)).toEqual(
				plain(
					sim
						.data('cmp_002')
						.payables.filter((p) => p.type === 'perDiemAllowance')
						.map(payableDetail),
				),
			);
			expect(b.map((o) => o.json)).toEqual(
				plain(
					sim
						.data('cmp_002')
						.payables.filter((p) => p.type === 'mileageAllowance')
						.map(payableDetail),
				),
			);
			const creates = sim.requestsTo('createPayablesSnapshot');
			expect(creates.map((r) => r.status)).toEqual([201, 201]);
			// The second create comes after the first snapshot was polled COMPLETE.
			const polls = sim.requestsTo('getPayablesSnapshot');
			expect(polls.slice(0, 3).every((r) => r.path === polls[0].path)).toBe(true);
			expect(creates[1].seq).toBeGreaterThan(polls[2].seq);
		});

		test('snapshots of different companies are not held up by each other (All Companies)', async () => {
			// Snapshots of earlier tests, still counted as building under these settings, are dropped.
			sim.snapshots.clear();
			sim.configure({ snapshotBuildConflict: true, snapshotPendingPolls: 2 });
			const { out } = await runNode(sim, 'orgKey', {
				...SNAPSHOT,
				companies: 'all',
				filters: { type: ['physicalCard'] },
			});
			const active = sim.companies().filter((c) => c.active);
			expect(out).toHaveLength(
				active.reduce(
					(n, c) => n + sim.data(c.id).payables.filter((p) => p.type === 'physicalCard').length,
					0,
				),
			);
			expect(sim.requestsTo('createPayablesSnapshot').map((r) => r.status)).toEqual([
				201, 201, 201, 201,
			]);
			const creates = sim.requestsTo('createPayablesSnapshot').map((r) => r.seq);
			const polls = sim.requestsTo('getPayablesSnapshot').map((r) => r.seq);
			// Each snapshot needs 3 polls: all four creates went out before the fourth poll, not one company after the other.
			expect(Math.max(...creates)).toBeLessThan(polls[3]);
		});
	});

	describe('Deprecation/Sunset headers as an execution hint', () => {
		const HINT = `Spendesk marks the endpoint of Supplier → Get Many (GET /v1/suppliers) as deprecated; it stops working on ${DEFAULT_SUNSET}. It still works for now: update the Spendesk node (or the Custom API Call's path) before then.`;

		test('one hint per run naming the endpoint, however many pages and items met the headers', async () => {
			sim.injectFault({ route: 'listSuppliers', kind: 'deprecated', times: 10 });
			const { out, hints } = await runNode(
				sim,
				'orgKey',
				{
					resource: 'supplier',
					operation: 'getAll',
					...oneCompany('cmp_002'),
					returnAll: true,
				},
				{ items: [{ json: {} }, { json: {} }] },
			);
			expect(out).toHaveLength(2 * sim.data('cmp_002').suppliers.length);
			expect(sim.requestsTo('listSuppliers').filter((r) => r.fault === 'deprecated')).toHaveLength(
				4,
			);
			expect(hints).toEqual([{ message: HINT, type: 'warning', location: 'outputPane' }]);
		});

		test('each deprecated endpoint gets its own hint; a Deprecation without Sunset says so without a date', async () => {
			sim.injectFault({ route: 'listSuppliers', kind: 'deprecated' });
			const { hints } = await runNode(
				sim,
				'orgKey',
				{
					resource: 'supplier',
					operation: 'getAll',
					...oneCompany('cmp_002'),
					returnAll: false,
					limit: 1,
				},
				{
					items: [{ json: {} }, { json: {} }],
					itemParameters: [
						{},
						{
							resource: 'customApiCall',
							operation: 'request',
							method: 'GET',
							path: '/v1/accounts',
							companyPlacement: 'header',
							pagination: 'none',
							query: '{"limit":2}',
						},
					],
				},
			);
			expect(hints.map((h) => h.message)).toEqual([
				HINT,
				"Spendesk marks the endpoint of Custom API Call (GET /v1/accounts) as deprecated. It still works for now: update the Spendesk node (or the Custom API Call's path) before then.",
			]);
		});

		test('the next run hints again; a run without the headers has no hint', async () => {
			sim.injectFault({
				route: 'listUsers',
				kind: 'deprecated',
				sunset: 'Fri, 01 Jan 2027 00:00:00 GMT',
			});
			const params = {
				resource: 'user',
				operation: 'getAll',
				...oneCompany('cmp_002'),
				returnAll: true,
			};
			const { hints } = await runNode(sim, 'orgKey', params);
			expect(hints.map((h) => h.message)).toEqual([
				expect.stringContaining(
					'the endpoint of User → Get Many (GET /v1/users) as deprecated; it stops working on Fri, 01 Jan 2027 00:00:00 GMT.',
				),
			]);
			expect((await runNode(sim, 'orgKey', params)).hints).toEqual([]);
		});
	});
});
