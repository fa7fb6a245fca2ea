/**
 * Purchase Order → Get, Get Many, Create, Cancel and Close over real HTTP to the simulator
 * (docs/api.md#purchase-orders), in both profiles: the documented profile's keys hold the
 * experimental purchase-order scopes only once granted. Writes run on one company only; a
 * refused write says why, per item with Continue On Fail. The purchase order, user and supplier
 * fields offer From List: the purchase order list (`searchPurchaseOrders`) pages on to its end.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { searchPurchaseOrders } from '../../nodes/Spendesk/methods/recordSearch';
import type { SpendeskSimulator } from '../simulator';
import { purchaseOrdersOf } from '../simulator/purchaseOrders';
import { expectRefusedBeforeAnyRequest, failure, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import type { ContextOptions } from '../support/n8n-context';
import { apiRequests, AS_GIVEN, listSearch, prepareNode, runNode } from '../support/node';
import { locatorById, locatorFromList, oneCompany, plain } from '../support/values';

const SCOPES = ['experimental:purchase-order:read', 'experimental:purchase-order:write'];
/** A valid Create on cmp_002 (a user, the amounts, a period, a supplier by ID, a cost center). */
const CREATE = {
	...oneCompany('cmp_002'),
	operation: 'create',
	userId: locatorById('usr_002_00002'),
	currency: 'EUR',
	amount: 100,
	netAmount: 80,
	startDate: '2026-04-01',
	endDate: '2026-04-30',
	supplierMode: 'existing',
	supplierId: locatorById('sup_002_00003'),
	costCenterId: locatorById('cc_002_0001'),
};
const eur = (amount: number) => ({ amount, currency: 'EUR', precision: 2 });
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
			const { out } = await run({ ...oneCompany('cmp_002'), operation: 'getAll', returnAll: true });
			const all = purchaseOrdersOf(sim, 'cmp_002');
			expect(out.map((o) => o.json.id)).toEqual(all.map((o) => o.id));
			expect(out[0].json).not.toHaveProperty('items');
			const calls = apiRequests(sim);
			expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/purchase-orders']);
			expect(calls[0].headers['x-company-id']).toBe('cmp_002');
			const limited = await run({
				...oneCompany('cmp_002'),
				operation: 'getAll',
				returnAll: false,
				limit: 3,
				options: { withItems: true },
			});
			expect(limited.out.map((o) => o.json)).toEqual(plain(all.slice(0, 3)));
		});

		test('Get Many filters by status and creation dates', async () => {
			const { out } = await run({
				...oneCompany('cmp_002'),
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
				run({
					...oneCompany('cmp_002'),
					operation: 'get',
					purchaseOrderId: locatorById('po_nope'),
				}),
			);
			expect(error.message).toBe('Purchase order "po_nope" was not found in company "cmp_002"');
			expect((error as NodeApiError).description).toContain('Purchase Order → Get Many');
		});

		test('Create (docs/api.md#purchase-orders) sends the body of the sandbox run: amounts as {amount, currency, precision} in minor units, custom fields as {customFieldId, customFieldValueId}, ISO date-times, items', async () => {
			const base = {
				...oneCompany('cmp_002'),
				operation: 'create',
				// Picked From List, as the editor stores them.
				userId: locatorFromList('usr_002_00002'),
				currency: 'eur',
				amount: 1200.5,
				netAmount: '1000.42',
				startDate: '2026-04-01',
				endDate: '2026-06-30T18:00:00',
				costCenterId: locatorFromList('cc_002_0002'),
				customFields: {
					field: [
						{
							fieldId: locatorFromList('af_002_001'),
							valueId: locatorById('afv_002_001_00004'),
						},
					],
				},
			};
			const { out } = await run(
				{
					...base,
					supplierMode: 'existing',
					supplierId: locatorFromList('sup_002_00003'),
					additionalFields: {
						description: 'Posters',
						deliveryNotesExpected: true,
						items: { item: [{ name: 'Posters A2', quantity: 2, unitPrice: 500.21, vatRate: 20 }] },
					},
				},
				'orgKey',
				{ timezone: 'Europe/Paris' },
			);
			const [sent] = apiRequests(sim);
			expect(sent).toMatchObject({ method: 'POST', path: '/v1/purchase-orders', status: 201 });
			expect(sent.body).toEqual({
				userId: 'usr_002_00002',
				amount: eur(120050),
				netAmount: eur(100042),
				// Midnight and 18:00 in the workflow's time zone (Paris, summer time).
				startDate: '2026-03-31T22:00:00.000Z',
				endDate: '2026-06-30T16:00:00.000Z',
				costCenterId: 'cc_002_0002',
				customFieldAssociations: [
					{ customFieldId: 'af_002_001', customFieldValueId: 'afv_002_001_00004' },
				],
				supplierId: 'sup_002_00003',
				description: 'Posters',
				items: [{ name: 'Posters A2', quantity: 2, unitPrice: eur(50021), vatRate: 20 }],
				deliveryNotesExpected: true,
			});
			expect(out).toHaveLength(1);
			expect(out[0].json).toMatchObject({
				status: 'open',
				amount: eur(120050),
				supplier: { id: 'sup_002_00003' },
			});
			expect(purchaseOrdersOf(sim, 'cmp_002').at(-1)!.id).toBe(out[0].json.id);

			// New Supplier sends supplierName; no custom field is an empty list; JPY has no decimals.
			const byName = await run({
				...base,
				currency: 'JPY',
				amount: 120000,
				netAmount: 100000,
				customFields: {},
				supplierMode: 'new',
				supplierName: ' Northwind Printing ',
			});
			expect(byName.out[0].json.supplier).toEqual({ id: null, name: 'Northwind Printing' });
			const body = apiRequests(sim)[0].body as IDataObject;
			expect(body).toMatchObject({
				supplierName: 'Northwind Printing',
				amount: { amount: 120000, currency: 'JPY', precision: 0 },
				customFieldAssociations: [],
			});
			expect(body).not.toHaveProperty('supplierId');
			expect(body).not.toHaveProperty('items');
		});

		test('Create: Net Amount and Cost Center are required in the panel; Cost Center and the custom fields offer From List', () => {
			const create = new Spendesk().description.properties.filter(
				(p) =>
					p.displayOptions?.show?.operation?.includes('create') &&
					p.displayOptions?.show?.resource?.includes('purchaseOrder'),
			);
			const field = (name: string) => create.find((p) => p.name === name)!;
			for (const name of [
				'currency',
				'amount',
				'netAmount',
				'startDate',
				'endDate',
				'costCenterId',
			])
				expect([name, field(name)?.required]).toEqual([name, true]);
			expect(field('amount').description).toMatch(/decimal number in the Currency.*not in cents/);
			expect(field('netAmount').description).toMatch(
				/decimal number in the Currency.*not in cents/,
			);
			expect(field('costCenterId')).toMatchObject({
				type: 'resourceLocator',
				modes: [
					{ name: 'list', typeOptions: { searchListMethod: 'searchCostCenters' } },
					{ name: 'id' },
				],
			});
			const [fieldOf] = (field('customFields')?.options ?? []) as Array<{
				values: INodeProperties[];
			}>;
			expect(fieldOf?.values.map((v) => [v.name, v.type, v.modes?.map((m) => m.name)])).toEqual([
				['fieldId', 'resourceLocator', ['list', 'id']],
				['valueId', 'resourceLocator', ['list', 'id']],
			]);
			expect(fieldOf.values[0].modes![0].typeOptions).toMatchObject({
				searchListMethod: 'searchAnalyticalFields',
			});
			// The values of the field chosen in the same row.
			expect(fieldOf.values[1].modes![0].typeOptions).toMatchObject({
				searchListMethod: 'searchAnalyticalFieldValues',
			});
		});

		test('Create: bad input fails before any request, saying which field and what to do', async () => {
			const base = CREATE;
			for (const [change, message] of [
				[
					{ endDate: '2026-03-01' },
					"'Start Date' (2026-04-01T00:00:00.000Z) is after 'End Date' (2026-03-01T00:00:00.000Z)",
				],
				[{ amount: 0 }, "'Amount' must be a number above 0; got 0"],
				[{ netAmount: 150 }, "'Net Amount' (150) is more than 'Amount' (100)"],
				[{ amount: 12.345 }, "'Amount' has more decimals than EUR has (2); got 12.345"],
				[{ currency: 'euro' }, `'Currency' must be a three-letter currency code; got "euro"`],
				[{ costCenterId: locatorById('') }, "'Cost Center' is empty"],
				[
					{ customFields: { field: [{ fieldId: locatorById('af_002_001') }] } },
					"'Custom Fields' 1 needs both a 'Field' and a 'Value'",
				],
				[
					{ additionalFields: { items: { item: [{ name: 'A', unitPrice: 1.001 }] } } },
					"'Item' 1, 'Unit Price' has more decimals than EUR has (2); got 1.001",
				],
				[{ supplierMode: 'new', supplierName: '  ' }, "'Supplier Name' is empty"],
				[
					{ startDate: '2026-02-30' },
					"'Start Date' is not a date: 2026-02-30 does not exist (February 2026 has 28 days)",
				],
				[{ amount: 1.7e308, netAmount: 1 }, "'Amount' is too large to send exactly; got 1.7e+308"],
			] as Array<[IDataObject, string]>) {
				const error = await expectRefusedBeforeAnyRequest(
					sim,
					run({ ...base, ...change }),
					message,
				);
				expect(error.description).toBeTruthy();
			}
			// An expression giving a Date that holds no time, evaluated by n8n's expression engine.
			await expectRefusedBeforeAnyRequest(
				sim,
				run({ ...base, endDate: '={{ new Date("soon") }}' }),
				`'End Date' is not a date: "Invalid Date"`,
			);
		});

		test('Create answered 204 with no content: the error says it may have been created, to check before running again', async () => {
			sim.injectFault({ route: 'createPurchaseOrder', kind: 'noContent' });
			const error = await failure(run(CREATE));
			expect(apiRequests(sim)).toHaveLength(1);
			const description = (error as NodeApiError).description ?? '';
			expect(description).toContain('Spendesk may have applied Purchase Order → Create:');
			expect(description).toContain('before running the node again');
			expect(description).not.toContain('then run the node again');
		});

		test('Create refused by Spendesk (an unknown supplier): the error names the company and quotes Spendesk; nothing is created', async () => {
			const before = purchaseOrdersOf(sim, 'cmp_002').length;
			const error = await failure(run({ ...CREATE, supplierId: locatorById('sup_nope') }));
			expect(error.message).toBe(
				'Spendesk rejected Purchase Order → Create for company "cmp_002" (400)',
			);
			expect((error as NodeApiError).description).toContain(
				'supplierId must be the ID of a supplier of the company',
			);
			expect(purchaseOrdersOf(sim, 'cmp_002')).toHaveLength(before);
			expect(apiRequests(sim)).toHaveLength(1);
		});

		test('From List: the purchase orders of the chosen company as "supplier, EUR 100.50, status (id)", the amount read from minor units, page after page to the end', async () => {
			const orders = purchaseOrdersOf(sim, 'cmp_001');
			const template = orders[0];
			// More than one page of the editor's list (100): 5 API pages of 30.
			for (let n = orders.length + 1; n <= 132; n++)
				orders.push({ ...template, id: `po_001_${String(n).padStart(5, '0')}`, amount: eur(n) });
			const search = (parameters: IDataObject, filter?: string, token?: string) =>
				listSearch(sim, 'orgKey', searchPurchaseOrders, { parameters }, filter, token);
			const company = oneCompany(locatorFromList('cmp_001'));
			const first = await search(company);
			// The amount in minor units with its precision, shown in the currency (docs/api.md#purchase-orders).
			expect(template.amount).toEqual(eur(10050));
			expect(first.results[0]).toEqual({
				name: `${template.supplier.name}, EUR 100.50, ${template.status} (${template.id})`,
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
			await expectRefusedBeforeAnyRequest(
				sim,
				search({ companies: 'all' }),
				'Purchase orders belong to one company: choose One Company to pick from the list',
			);
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
					...oneCompany('cmp_003'),
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
				...oneCompany('cmp_003'),
				operation: 'close',
				purchaseOrderId: locatorById(open[2].id),
			});
			expect(closedNow[0].json).toMatchObject({ id: open[2].id, status: 'closed' });
			const again = await failure(
				run({
					...oneCompany('cmp_003'),
					operation: 'close',
					purchaseOrderId: locatorById(open[2].id),
				}),
			);
			expect(again.message).toBe(
				`Purchase order "${open[2].id}" in company "cmp_003" could not be closed: it is not open`,
			);
		});

		test('a 5xx on Cancel is not retried and says the change may have been applied', async () => {
			const order = purchaseOrdersOf(sim, 'cmp_003').find((o) => o.status === 'open')!;
			sim.injectFault({ route: 'cancelPurchaseOrder', kind: 'status', status: 503 });
			const error = await failure(
				run({
					...oneCompany('cmp_003'),
					operation: 'cancel',
					purchaseOrderId: locatorById(order.id),
				}),
			);
			expect(error.message).toBe(
				'Spendesk could not complete Purchase Order → Cancel for company "cmp_003" (503)',
			);
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
				...oneCompany('cmp_003'),
				operation: 'cancel',
				purchaseOrderId: locatorById(order.id),
			});
			expect(out.map((o) => o.json)).toEqual([{ id: order.id, status: 'cancelled' }]);
		});

		test('writes run on one company only: All Companies handed as given (not by n8n, which drops it) is refused before any request', async () => {
			await expectRefusedBeforeAnyRequest(
				sim,
				run(
					{
						companies: 'all',
						operation: 'cancel',
						purchaseOrderId: locatorById('po_001_00001'),
					},
					'orgKey',
					AS_GIVEN,
				),
				/All Companies/,
			);
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
				netAmount: 100,
				startDate: '2026-04-01',
				endDate: '2026-04-30',
				supplierMode: 'new',
				supplierName: 'Northwind',
				costCenterId: locatorById('cc_001_0001'),
			}),
		);
		expect(error.message).toBe(
			'Purchase Order → Create uses Spendesk\'s experimental API, and the credential "Spendesk API key" has no access to it for company "cmp_001"',
		);
		expect((error as NodeApiError).description).toContain('experimental:purchase-order:write');
		expect(sim.requestsTo('createPurchaseOrder')).toHaveLength(1);
	});
});
