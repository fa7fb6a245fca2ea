/**
 * Page lists answered as a bare JSON array, and answers no list reader understands
 * (docs/api.md#page-lists), over real HTTP to the simulator: the node's lists and the From List
 * searches read `{data, meta}` and a bare array alike, page by page to the end; an answer that
 * is neither is an error naming the operation as the editor shows it, never an empty list.
 * Suppliers as read (docs/api.md#suppliers-as-read) in the supplier search.
 */
import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';
import { searchCostCenters, searchSuppliers } from '../../nodes/Spendesk/methods/recordSearch';
import type { SpendeskSimulator } from '../simulator';
import { contextFor, failure, simulatorPerSuite } from '../support/fixtures';
import { apiRequests, runNode } from '../support/node';
import { locatorFromList, oneCompany, plain } from '../support/values';

const SUPPLIERS = { resource: 'supplier', operation: 'getAll', companies: 'one' };

describe('page lists answered as a bare array (docs/api.md#page-lists)', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			rateLimit: 10_000,
			seed: {
				companies: [
					{ id: 'cmp_001', sizes: { suppliers: 40 } },
					{ id: 'cmp_002', sizes: { suppliers: 60 } },
				],
				sizes: { invoices: 1, payables: 1, costCenters: 35 },
			},
		},
		(started) => (sim = started),
	);
	const run = (params: IDataObject) =>
		runNode(sim, 'orgKey', { ...SUPPLIERS, returnAll: true, company: 'cmp_001', ...params });

	test('Supplier → Get Many: every page a bare array, read to the short last page', async () => {
		sim.injectFault({ route: 'listSuppliers', kind: 'bareArray', times: 10 });
		const { out } = await run({});
		expect(out.map((o) => o.json)).toEqual(plain(sim.data('cmp_001').suppliers));
		const pages = apiRequests(sim);
		expect(pages.map((r) => [r.query.page, r.query.pageSize, r.fault])).toEqual([
			['1', '30', 'bareArray'],
			['2', '30', 'bareArray'],
		]);
	});

	test('a list of exactly two full pages ends on the 404 of page 3; a Limit stops as soon as it is reached', async () => {
		sim.injectFault({ route: 'listSuppliers', kind: 'bareArray', times: 10 });
		const { out } = await run({ company: 'cmp_002' });
		expect(out.map((o) => o.json.id)).toEqual(sim.data('cmp_002').suppliers.map((s) => s.id));
		expect(apiRequests(sim).map((r) => [r.query.page, r.status])).toEqual([
			['1', 200],
			['2', 200],
			['3', 404],
		]);
		sim.clearFaults();
		sim.injectFault({ route: 'listSuppliers', kind: 'bareArray', times: 10 });
		const limited = await run({ company: 'cmp_002', returnAll: false, limit: 35 });
		expect(limited.out.map((o) => o.json.id)).toEqual(
			sim
				.data('cmp_002')
				.suppliers.slice(0, 35)
				.map((s) => s.id),
		);
		// Two pages of 18 for 35 items (fewest requests), the second one cut at the Limit.
		expect(apiRequests(sim).map((r) => [r.query.page, r.query.pageSize])).toEqual([
			['1', '18'],
			['2', '18'],
		]);
	});

	test.each([
		[
			'an object without data',
			{ data: undefined, items: [{ id: 'x' }] },
			'an object with "meta", "items"',
		],
		['data that is not a list', { data: { id: 'x' } }, '("data" is not a list)'],
	])(
		'an answer with %s is an error naming "Supplier → Get Many" and the company, never an empty list',
		async (_, set, shape) => {
			sim.injectFault({ route: 'listSuppliers', kind: 'setFields', set });
			const error = await failure(run({}));
			expect(error.message).toBe(
				`Spendesk answered Supplier → Get Many for company "cmp_001" with something the node cannot read as a list (page 1: ${error.message.split('(page 1: ')[1]}`,
			);
			expect(error.message).toContain(shape);
			expect((error as { description?: string }).description).toContain(
				'The node stops rather than return an empty or partial list',
			);
			expect(apiRequests(sim)).toHaveLength(1);
		},
	);

	test('a later page that cannot be read fails the list too, with its page number', async () => {
		sim.injectFault({ route: 'listSuppliers', kind: 'setFields', set: { data: 'none' }, after: 1 });
		const error = await failure(run({}));
		expect(error.message).toMatch(/ Supplier → Get Many for company "cmp_001" .*\(page 2: /);
	});

	test('From List reads a bare array too (cost centers), and fails on an answer it cannot read', async () => {
		const { context } = await contextFor(sim, 'orgKey', {
			parameters: oneCompany(locatorFromList('cmp_001')),
		});
		const ctx = context as unknown as ILoadOptionsFunctions;
		sim.injectFault({ route: 'listCostCenters', kind: 'bareArray', times: 2 });
		sim.clearLog();
		const first = await searchCostCenters.call(ctx);
		expect(first.results.map((r) => r.value)).toEqual(
			sim.data('cmp_001').costCenters.map((c) => c.id),
		);
		expect(apiRequests(sim).map((r) => r.query.page)).toEqual(['1', '2']);
		sim.injectFault({ route: 'listCostCenters', kind: 'setFields', set: { data: null } });
		const error = await failure(searchCostCenters.call(ctx));
		expect(error.message).toMatch(
			/^Spendesk answered the list of cost centers for company "cmp_001"/,
		);
	});

	test('the supplier search labels each supplier with the fields Spendesk reads back: name, city, VAT number (docs/api.md#suppliers-as-read)', async () => {
		const { context } = await contextFor(sim, 'orgKey', {
			parameters: oneCompany(locatorFromList('cmp_001')),
		});
		const { results } = await searchSuppliers.call(context as unknown as ILoadOptionsFunctions);
		const all = sim.data('cmp_001').suppliers;
		expect(results).toHaveLength(40);
		const full = all.find((s) => s.address.city && s.vatNo)!;
		expect(results.find((r) => r.value === full.id)!.name).toBe(
			`${full.name}, ${full.address.city}, ${full.vatNo} (${full.id})`,
		);
		const bare = all.find((s) => !s.address.city && !s.vatNo)!;
		expect(results.find((r) => r.value === bare.id)!.name).toBe(`${bare.name} (${bare.id})`);
	});
});

describe('the documented profile answers the analytical values as a bare array (docs/api.md#page-lists)', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			profile: 'documented',
			rateLimit: 10_000,
			maxInFlight: undefined,
			seed: {
				companies: 2,
				sizes: { invoices: 1, analyticalFields: 2, analyticalFieldValues: 45 },
			},
		},
		(started) => (sim = started),
	);

	test('Analytical Field → Get Many Values with a company key: every value, two bare pages', async () => {
		const field = sim.data('cmp_001').analyticalFields[1];
		const { out } = await runNode(sim, 'companyKey', {
			resource: 'analyticalField',
			operation: 'getValues',
			fieldId: locatorFromList(field.id),
			returnAll: true,
		});
		expect(out.map((o) => o.json.id)).toEqual(field.values.map((v) => v.id));
		expect(out[0].json).toMatchObject({ value: field.values[0].name, name: field.values[0].name });
		const pages = apiRequests(sim);
		expect(pages.map((r) => [r.path, r.query.page, r.status])).toEqual([
			[`/v1/analytical-fields/${field.id}/values`, '1', 200],
			[`/v1/analytical-fields/${field.id}/values`, '2', 200],
		]);
	});
});
