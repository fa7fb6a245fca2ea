/**
 * Purchase Order → Get, Get Many, Create, Cancel and Close over real HTTP to the simulator
 * (docs/api.md#purchase-orders), in both profiles: the documented profile's keys hold the
 * experimental purchase-order scopes only once granted. Writes run on one company only; a
 * refused write says why, per item with Continue On Fail. The purchase order, user and supplier
 * fields offer From List: the purchase order list (`searchPurchaseOrders`) pages on to its end.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';
import { searchPurchaseOrders } from '../../nodes/Spendesk/methods/purchaseOrderSearch';
import type { SpendeskSimulator } from '../simulator';
import { purchaseOrdersOf } from '../simulator/purchaseOrders';
import { contextFor, failure, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import type { ContextOptions } from '../support/n8n-context';
import { apiRequests, AS_GIVEN, prepareNode, runNode } from '../support/node';
import { locatorById, locatorFromList, plain } from '../support/values';

const SCOPES = ['experimental:purchase-order:read', 'experimental:purchase-order:write'];
const one = (company: string) => ({ companyScope: 'one', company });
/** A valid Create on cmp_002 (a user, an amount, a period, a supplier by ID). */
const CREATE = {
	...one('cmp_002'),
	operation: 'create',
	userId: locatorById('usr_002_00002'),
	amount: 100,
	startDate: '2026-04-01',
	endDate: '2026-04-30',
	supplierMode: 'id',
	supplierId: locatorById('sup_002_00003'),
};
const PO = { resource: 'purchaseOrder' };

describe.each(['specification', 'documented'] as const)(
	'node: purchase orders (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		simulatorPerSuite(
			{
				profile,
				rateLimit: 10_000,
				seed: { companies: 4, sizes: { invoices: 1, payables: 2, suppliers: 5, users: 4 } },
				grantScopes: { 'sim-org-client': SCOPES, 'sim-company-client': SCOPES },
			},
			(started) => (sim = started),
		);

		const run = (
			params: IDataObject,
			kind: CredentialKind = 'orgKey',
			extra: Partial<ContextOptions> = {},
		) => runNode(sim, kind, { ...PO, ...params }, extra);

		test('Get Many lists every purchase order of the company, page by page, without items unless asked', async () => {
			const { out } = await run({ ...one('cmp_002'), operation: 'getAll', returnAll: true });
			const all = purchaseOrdersOf(sim, 'cmp_002');
			expect(out.map((o) => o.json.id)).toEqual(all.map((o) => o.id));
			expect(out[0].json).not.toHaveProperty('items');
			const calls = apiRequests(sim);
			expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/purchase-orders']);
			expect(calls[0].headers['x-company-id']).toBe('cmp_002');
			const limited = await run({
				...one('cmp_002'),
				operation: 'getAll',
				returnAll: false,
				limit: 3,
				options: { withItems: true },
			});
			expect(limited.out.map((o) => o.json)).toEqual(plain(all.slice(0, 3)));
		});

		test('Get Many filters by status and creation dates', async () => {
			const { out } = await run({
				...one('cmp_002'),
				operation: 'getAll',
				returnAll: true,
				filters: {
					status: ['closed', 'cancelled'],
					createdFrom: '2026-01-05T00:00:00Z',
					createdTo: '2026-02-01T00:00:00Z',
				},
			});
			const expected = purchaseOrdersOf(sim, 'cmp_002').filter(
				(o) => o.status !== 'open' && o.createdAt >= '2026-01-05' && o.createdAt <= '2026-02-01',
			);
			expect(expected.length).toBeGreaterThan(0);
			expect(out.map((o) => o.json.id)).toEqual(expected.map((o) => o.id));
			expect(apiRequests(sim)[0].query).toMatchObject({
				status: 'closed,cancelled',
				createdFrom: '2026-01-05T00:00:00.000Z',
				createdTo: '2026-02-01T00:00:00.000Z',
			});
		});

		test('Get reads one purchase order with its items; an unknown ID is the item’s error naming it and the company', async () => {
			const wanted = purchaseOrdersOf(sim, 'cmp_001')[2];
			const { out } = await run(
				{ operation: 'get', purchaseOrderId: locatorById(wanted.id) },
				'companyKey',
			);
			expect(out.map((o) => o.json)).toEqual(plain([wanted]));
			const error = await failure(
				run({ ...one('cmp_002'), operation: 'get', purchaseOrderId: locatorById('po_nope') }),
			);
			expect(error.message).toBe('Purchase order "po_nope" was not found in company "cmp_002"');
			expect((error as NodeApiError).description).toContain('Purchase Order → Get Many');
		});

		test('Create sends the purchase order once and returns it; New Supplier sends supplierName instead of supplierId', async () => {
			const base = {
				...one('cmp_002'),
				operation: 'create',
				// Picked From List, as the editor stores it.
				userId: locatorFromList('usr_002_00002'),
				amount: 1200.5,
				startDate: '2026-04-01',
				endDate: '2026-06-30T00:00:00',
			};
			const { out } = await run({
				...base,
				supplierMode: 'id',
				supplierId: locatorFromList('sup_002_00003'),
				additionalFields: {
					netAmount: 1000,
					costCenterId: 'cc_002_0002',
					customFields: { field: [{ fieldId: 'af_002_001', valueId: 'afv_002_001_00004' }] },
				},
			});
			expect(out).toHaveLength(1);
			expect(out[0].json).toMatchObject({
				status: 'open',
				amount: 1200.5,
				netAmount: 1000,
				startDate: '2026-04-01',
				endDate: '2026-06-30',
				supplier: { id: 'sup_002_00003' },
				customFieldAssociations: [{ fieldId: 'af_002_001', valueId: 'afv_002_001_00004' }],
			});
			expect(purchaseOrdersOf(sim, 'cmp_002').at(-1)!.id).toBe(out[0].json.id);
			const [sent] = apiRequests(sim);
			expect(sent).toMatchObject({ method: 'POST', path: '/v1/purchase-orders' });
			expect(sent.body).toEqual({
				userId: 'usr_002_00002',
				amount: 1200.5,
				startDate: '2026-04-01',
				endDate: '2026-06-30',
				supplierId: 'sup_002_00003',
				netAmount: 1000,
				costCenterId: 'cc_002_0002',
				customFieldAssociations: [{ fieldId: 'af_002_001', valueId: 'afv_002_001_00004' }],
			});
			const byName = await run({
				...base,
				supplierMode: 'name',
				supplierName: ' Northwind Printing ',
			});
			expect(byName.out[0].json.supplier).toEqual({ id: null, name: 'Northwind Printing' });
			expect(apiRequests(sim)[0].body).toMatchObject({ supplierName: 'Northwind Printing' });
			expect(apiRequests(sim)[0].body).not.toHaveProperty('supplierId');
		});

		test('Create: bad input fails before any request, saying which field and what to do', async () => {
			const base = CREATE;
			for (const [change, message] of [
				[{ endDate: '2026-03-01' }, 'Start Date (2026-04-01) is after End Date (2026-03-01)'],
				[{ amount: 0 }, 'Amount must be a number of at least 0.01; got 0'],
				[{ additionalFields: { netAmount: 150 } }, 'Net Amount (150) is more than Amount (100)'],
				[{ supplierMode: 'name', supplierName: '  ' }, 'Supplier Name is empty'],
				[
					{ startDate: '2026-02-30' },
					'Start Date is not a date: 2026-02-30 does not exist (February 2026 has 28 days)',
				],
				[{ amount: 1.7e308 }, 'Amount is too large to send exactly; got 1.7e+308'],
			] as Array<[IDataObject, string]>) {
				const error = await failure(run({ ...base, ...change }));
				expect(error.message).toBe(message);
				expect((error as { description?: string }).description).toBeTruthy();
				expect(apiRequests(sim)).toEqual([]);
			}
			// An expression giving a Date that holds no time, evaluated by n8n's expression engine.
			const invalid = await failure(run({ ...base, endDate: '={{ new Date("soon") }}' }));
			expect(invalid.message).toBe('End Date is not a date: "Invalid Date"');
			expect(apiRequests(sim)).toEqual([]);
		});

		test('Create answered 204 with no content: the error says it may have been created, to check before running again', async () => {
			sim.injectFault({ route: 'createPurchaseOrder', kind: 'noContent' });
			const error = await failure(run(CREATE));
			expect(apiRequests(sim)).toHaveLength(1);
			const description = (error as NodeApiError).description ?? '';
			expect(description).toContain('Spendesk may have applied this "Create a purchase order"');
			expect(description).toContain('before running the node again');
			expect(description).not.toContain('then run the node again');
		});

		test('Create refused by Spendesk (an unknown supplier): the error names the company and quotes Spendesk; nothing is created', async () => {
			const before = purchaseOrdersOf(sim, 'cmp_002').length;
			const error = await failure(run({ ...CREATE, supplierId: locatorById('sup_nope') }));
			expect(error.message).toBe(
				'Spendesk rejected "Create a purchase order" for company "cmp_002" (400)',
			);
			expect((error as NodeApiError).description).toContain(
				'supplierId must be the ID of a supplier of the company',
			);
			expect(purchaseOrdersOf(sim, 'cmp_002')).toHaveLength(before);
			expect(apiRequests(sim)).toHaveLength(1);
		});

		test('From List: the purchase orders of the chosen company as "supplier, amount currency, status (id)", page after page to the end', async () => {
			const orders = purchaseOrdersOf(sim, 'cmp_001');
			const template = orders[0];
			// More than one page of the editor's list (100): 5 API pages of 30.
			for (let n = orders.length + 1; n <= 132; n++)
				orders.push({ ...template, id: `po_001_${String(n).padStart(5, '0')}`, amount: n });
			const search = async (parameters: IDataObject, filter?: string, token?: string) => {
				const { context } = await contextFor(sim, 'orgKey', { parameters });
				sim.clearLog();
				return await searchPurchaseOrders.call(
					context as unknown as ILoadOptionsFunctions,
					filter,
					token,
				);
			};
			const company = { companyScope: 'one', company: locatorFromList('cmp_001') };
			const first = await search(company);
			expect(first.results[0]).toEqual({
				name: `${template.supplier.name}, ${template.amount} EUR, ${template.status} (${template.id})`,
				value: template.id,
			});
			// API pages are read until 100 match; the next page number is the token.
			expect(first.results.map((r) => r.value)).toEqual(orders.slice(0, 120).map((o) => o.id));
			expect(first.paginationToken).toBe('5');
			const pages = apiRequests(sim);
			expect(pages.map((r) => r.query.page)).toEqual(['1', '2', '3', '4']);
			expect(pages.every((r) => r.headers['x-company-id'] === 'cmp_001')).toBe(true);
			const rest = await search(company, undefined, first.paginationToken as string);
			expect(rest.results.map((r) => r.value)).toEqual(orders.slice(120).map((o) => o.id));
			expect(rest.paginationToken).toBeUndefined();
			expect(apiRequests(sim).map((r) => r.query.page)).toEqual(['5']);

			// Filtered by the text typed: an ID, or a status.
			const byId = await search(company, 'PO_001_00131');
			expect(byId.results.map((r) => r.value)).toEqual(['po_001_00131']);
			const closed = await search(company, 'closed');
			expect(closed.results.map((r) => r.value)).toEqual(
				orders.filter((o) => o.status === 'closed').map((o) => o.id),
			);

			// With All Companies there is no list: the ID is entered instead.
			const error = await failure(search({ companyScope: 'all' }));
			expect(error.message).toBe(
				'Purchase orders belong to one company: choose One Company to pick from the list',
			);
			expect(apiRequests(sim)).toEqual([]);
		});

		test('Cancel and Close move open purchase orders; a closed one is refused, per item with Continue On Fail', async () => {
			const list = purchaseOrdersOf(sim, 'cmp_003');
			const open = list.filter((o) => o.status === 'open');
			const closed = list.find((o) => o.status === 'closed')!;
			const items = [open[0].id, closed.id, open[1].id].map((id) => ({ json: { id } }));
			const node = await prepareNode(
				sim,
				'orgKey',
				{
					...PO,
					...one('cmp_003'),
					operation: 'cancel',
					purchaseOrderId: locatorById('={{ $json.id }}'),
				},
				{ items, continueOnFail: true },
			);
			const [out] = await node.execute();
			expect(out).toHaveLength(3);
			expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(out[0].json).toMatchObject({ id: open[0].id, status: 'cancelled' });
			expect(out[2].json).toMatchObject({ id: open[1].id, status: 'cancelled' });
			expect(out[1].json.error).toBe(
				`Purchase order "${closed.id}" in company "cmp_003" could not be cancelled: it is not open`,
			);
			expect(out[1].json.description).toContain('nothing was changed');
			expect(closed.status).toBe('closed');
			// Never repeated: one call per item.
			expect(apiRequests(sim)).toHaveLength(3);

			const { out: closedNow } = await run({
				...one('cmp_003'),
				operation: 'close',
				purchaseOrderId: locatorById(open[2].id),
			});
			expect(closedNow[0].json).toMatchObject({ id: open[2].id, status: 'closed' });
			const again = await failure(
				run({ ...one('cmp_003'), operation: 'close', purchaseOrderId: locatorById(open[2].id) }),
			);
			expect(again.message).toBe(
				`Purchase order "${open[2].id}" in company "cmp_003" could not be closed: it is not open`,
			);
		});

		test('a 5xx on Cancel is not retried and says the change may have been applied', async () => {
			const order = purchaseOrdersOf(sim, 'cmp_003').find((o) => o.status === 'open')!;
			sim.injectFault({ route: 'cancelPurchaseOrder', kind: 'status', status: 503 });
			const error = await failure(
				run({ ...one('cmp_003'), operation: 'cancel', purchaseOrderId: locatorById(order.id) }),
			);
			expect(error.message).toContain('server error (503)');
			expect((error as NodeApiError).description).toContain('not safe to repeat');
			expect(sim.requestsTo('cancelPurchaseOrder')).toHaveLength(1);
		});

		test('Cancel answered with the order in a list under data: the output item is the order, not the envelope', async () => {
			const order = purchaseOrdersOf(sim, 'cmp_003').find((o) => o.status === 'open')!;
			sim.injectFault({
				route: 'cancelPurchaseOrder',
				kind: 'setFields',
				set: { data: [{ id: order.id, status: 'cancelled' }] },
			});
			const { out } = await run({
				...one('cmp_003'),
				operation: 'cancel',
				purchaseOrderId: locatorById(order.id),
			});
			expect(out.map((o) => o.json)).toEqual([{ id: order.id, status: 'cancelled' }]);
		});

		test('writes run on one company only: All Companies handed as given (not by n8n, which drops it) is refused before any request', async () => {
			const error = await failure(
				run(
					{
						companyScope: 'all',
						operation: 'cancel',
						purchaseOrderId: locatorById('po_001_00001'),
					},
					'orgKey',
					AS_GIVEN,
				),
			);
			expect(error.message).toMatch(/All Companies/);
			expect(apiRequests(sim)).toEqual([]);
		});
	},
);

describe('node: purchase orders without the experimental scope (documented profile)', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			profile: 'documented',
			seed: { companies: 2, sizes: { invoices: 1 } },
		},
		(started) => (sim = started),
	);

	test('a refused write says the operation is experimental, for which credential and company, and how to get access', async () => {
		const error = await failure(
			runNode(sim, 'companyKey', {
				...PO,
				operation: 'create',
				userId: locatorById('usr_001_00002'),
				amount: 100,
				startDate: '2026-04-01',
				endDate: '2026-04-30',
				supplierMode: 'name',
				supplierName: 'Northwind',
			}),
		);
		expect(error.message).toContain(
			'"Create a purchase order" belongs to Spendesk\'s experimental API',
		);
		expect((error as NodeApiError).description).toContain('experimental:purchase-order:write');
		expect(sim.requestsTo('createPurchaseOrder')).toHaveLength(1);
	});
});
