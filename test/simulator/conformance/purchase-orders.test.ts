/**
 * Purchase orders in both profiles (docs/api.md#purchase-orders): the page list and its
 * filters, Get, the create body as a public client sent it to the vendor's sandbox (amounts as
 * `{amount, currency, precision}` in minor units, custom fields as
 * `{customFieldId, customFieldValueId}`, ISO date-times, `items[]`, `netAmount`,
 * `costCenterId` and `customFieldAssociations` required), cancel and close, and the scopes. In
 * the documented profile the keys hold the experimental scopes only because the test grants
 * them.
 */
import { SpendeskSimulator } from '../server';
import { purchaseOrdersOf, SEEDED_PURCHASE_ORDERS } from '../purchaseOrders';
import { api, err, ids, token } from './helpers';

const GRANTED = ['experimental:purchase-order:read', 'experimental:purchase-order:write'];
const eur = (amount: number) => ({ amount, currency: 'EUR', precision: 2 });

describe.each(['specification', 'documented'] as const)(
	'purchase orders (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		let org: string;
		let company: string;
		let limited: string;
		/** The error source as the profile writes it: `body.x` in the specification's, `x` in the documented one. */
		const source = (s: string) =>
			profile === 'documented' ? s.replace(/^(body|path|query)\./, '') : s;
		const badRequest =
			profile === 'documented' ? 'BAD_REQUEST_INCORRECT_OR_MISSING_FIELD' : 'invalid_body';

		beforeAll(async () => {
			sim = new SpendeskSimulator({
				profile,
				rateLimit: 10_000,
				maxInFlight: undefined,
				seed: { companies: 3, sizes: { invoices: 2, payables: 2, suppliers: 12 } },
				grantScopes: { 'sim-org-client': GRANTED, 'sim-company-client': GRANTED },
			});
			await sim.start();
			org = await token(sim, sim.credentials.orgKey);
			company = await token(sim, sim.credentials.companyKey);
			limited = await token(sim, sim.credentials.orgKeyNoExperimental);
		});
		afterAll(async () => sim.stop());

		const seeded = () => purchaseOrdersOf(sim, 'cmp_002');
		const create = (body: unknown, t = org) =>
			api(sim, t, '/v1/purchase-orders', { method: 'POST', companyId: 'cmp_002', body });
		/** The body of the public client's sandbox run, with this company's IDs. */
		const order = {
			userId: 'usr_002_00001',
			amount: eur(120_000),
			netAmount: eur(100_000),
			costCenterId: 'cc_002_0001',
			startDate: '2026-03-01T00:00:00.000Z',
			endDate: '2026-06-30T18:00:00.000Z',
			customFieldAssociations: [
				{ customFieldId: 'af_002_001', customFieldValueId: 'afv_002_001_00001' },
			],
			description: 'Printing, spring campaign',
			items: [{ name: 'Posters', quantity: 2, unitPrice: eur(50_000), vatRate: 20 }],
			deliveryNotesExpected: false,
		};

		test('GET /v1/purchase-orders is a page list, without items unless withItems=true', async () => {
			const res = await api(sim, org, '/v1/purchase-orders?pageSize=5', { companyId: 'cmp_002' });
			expect(res.status).toBe(200);
			expect(res.body.meta.pagination).toEqual({
				page: 1,
				pageSize: 5,
				total: SEEDED_PURCHASE_ORDERS,
			});
			expect(ids(res.body.data)).toEqual(ids(seeded().slice(0, 5)));
			expect(res.body.data[0]).not.toHaveProperty('items');
			expect(res.body.data[0]).toMatchObject({
				status: expect.any(String),
				supplier: { name: expect.any(String) },
				amount: { amount: expect.any(Number), currency: 'EUR', precision: 2 },
			});
			const withItems = await api(sim, org, '/v1/purchase-orders?withItems=true', {
				companyId: 'cmp_002',
			});
			expect(withItems.body.data[0].items).toEqual(seeded()[0].items);
			expect(
				(await api(sim, org, '/v1/purchase-orders?page=9', { companyId: 'cmp_002' })).status,
			).toBe(404);
		});

		test('filters: status (one or several) and the creation dates', async () => {
			const closed = await api(sim, org, '/v1/purchase-orders?status=closed', {
				companyId: 'cmp_002',
			});
			expect(ids(closed.body.data)).toEqual(ids(seeded().filter((o) => o.status === 'closed')));
			const two = await api(sim, org, '/v1/purchase-orders?status[]=closed&status[]=cancelled', {
				companyId: 'cmp_002',
			});
			expect(ids(two.body.data)).toEqual(ids(seeded().filter((o) => o.status !== 'open')));
			expect(two.body.data.length).toBeGreaterThan(closed.body.data.length);
			const dated = await api(
				sim,
				org,
				'/v1/purchase-orders?createdFrom=2026-01-10&createdTo=2026-01-20T00:00:00Z',
				{ companyId: 'cmp_002' },
			);
			expect(ids(dated.body.data)).toEqual(
				ids(
					seeded().filter(
						(o) => o.createdAt >= '2026-01-10' && o.createdAt <= '2026-01-20T00:00:00.000Z',
					),
				),
			);
			expect(dated.body.data.length).toBeGreaterThan(0);
			const wrong = await api(sim, org, '/v1/purchase-orders?status=draft', {
				companyId: 'cmp_002',
			});
			expect(wrong.status).toBe(400);
			expect(err(wrong).source).toBe(source('query.status'));
		});

		test('POST with the sandbox body creates an open purchase order (201) that carries it; with supplierName too; GET reads it', async () => {
			const byId = await create({ ...order, supplierId: 'sup_002_00003' });
			expect(byId.status).toBe(201);
			expect(byId.body).toEqual({
				...order,
				id: expect.stringMatching(/^po_002_/),
				status: 'open',
				supplier: { id: 'sup_002_00003', name: sim.data('cmp_002').suppliers[2].name },
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
				closedAt: null,
				cancelledAt: null,
			});
			const minimal = await create({
				...order,
				customFieldAssociations: [],
				items: undefined,
				description: undefined,
				deliveryNotesExpected: undefined,
				startDate: '2026-03-01T09:30:00+02:00',
				supplierName: 'New Print Shop',
			});
			expect(minimal.status).toBe(201);
			expect(minimal.body).toMatchObject({
				supplier: { id: null, name: 'New Print Shop' },
				customFieldAssociations: [],
				items: [],
				startDate: '2026-03-01T07:30:00.000Z',
			});
			const read = await api(sim, org, `/v1/purchase-orders/${byId.body.id}`, {
				companyId: 'cmp_002',
			});
			expect(read.status).toBe(200);
			expect(read.body).toEqual(byId.body);
			expect(
				(await api(sim, org, '/v1/purchase-orders/po_nope', { companyId: 'cmp_002' })).status,
			).toBe(404);
		});

		test('POST in the former shape (major-unit numbers, fieldId/valueId, YYYY-MM-DD days) is a 400 in the documented error shape; nothing is created', async () => {
			const before = seeded().length;
			const former = {
				userId: 'usr_002_00001',
				amount: 1200,
				netAmount: 1000,
				costCenterId: 'cc_002_0001',
				startDate: '2026-03-01',
				endDate: '2026-06-30',
				customFieldAssociations: [{ fieldId: 'af_002_001', valueId: 'afv_002_001_00001' }],
				supplierId: 'sup_002_00003',
			};
			const res = await create(former);
			expect(res.status).toBe(400);
			expect(res.body).toEqual({
				errors: [
					{
						code: badRequest,
						detail:
							'amount must be an object {amount, currency, precision}, the amount in minor units',
						source: source('body.amount'),
					},
				],
			});
			for (const [change, at] of [
				[{ netAmount: 1000 }, 'body.netAmount'],
				[{ startDate: '2026-03-01' }, 'body.startDate'],
				[
					{ customFieldAssociations: [{ fieldId: 'af_002_001', valueId: 'afv_002_001_00001' }] },
					'body.customFieldAssociations[0].fieldId',
				],
			] as const) {
				const one = await create({ ...order, supplierId: 'sup_002_00003', ...change });
				expect(one.status).toBe(400);
				expect(err(one)).toMatchObject({ code: badRequest, source: source(at) });
			}
			expect(seeded()).toHaveLength(before);
		});

		test.each([
			['no netAmount', { netAmount: undefined }, 'body.netAmount'],
			['no costCenterId', { costCenterId: undefined }, 'body.costCenterId'],
			[
				'no customFieldAssociations',
				{ customFieldAssociations: undefined },
				'body.customFieldAssociations',
			],
			[
				'both supplierId and supplierName',
				{ supplierId: 'sup_002_00003', supplierName: 'X' },
				'body.supplierName',
			],
			['neither supplierId nor supplierName', {}, 'body.supplierId'],
			['an unknown supplier', { supplierId: 'sup_nope' }, 'body.supplierId'],
			['another field', { supplierName: 'X', currency: 'EUR' }, 'body.currency'],
			[
				'an amount in major units',
				{ supplierName: 'X', amount: eur(1200.5) },
				'body.amount.amount',
			],
			[
				'an amount field left out',
				{ supplierName: 'X', amount: { amount: 1, currency: 'EUR' } },
				'body.amount.precision',
			],
			[
				'a net amount in another currency',
				{ supplierName: 'X', netAmount: { ...eur(1), currency: 'USD' } },
				'body.netAmount.currency',
			],
			[
				'a net amount above the amount',
				{ supplierName: 'X', netAmount: eur(500_000) },
				'body.netAmount.amount',
			],
			[
				'an end before the start',
				{ supplierName: 'X', endDate: '2026-02-01T00:00:00Z' },
				'body.startDate',
			],
			[
				'a date-time without offset',
				{ supplierName: 'X', endDate: '2026-07-01T00:00:00' },
				'body.endDate',
			],
			['an unknown user', { supplierName: 'X', userId: 'usr_nope' }, 'body.userId'],
			[
				'an unknown cost center',
				{ supplierName: 'X', costCenterId: 'cc_nope' },
				'body.costCenterId',
			],
			[
				'a value of another field',
				{
					supplierName: 'X',
					customFieldAssociations: [
						{ customFieldId: 'af_002_001', customFieldValueId: 'afv_002_002_00001' },
					],
				},
				'body.customFieldAssociations[0].customFieldValueId',
			],
			[
				'an item without a name',
				{ supplierName: 'X', items: [{ quantity: 1, unitPrice: eur(1) }] },
				'body.items[0].name',
			],
			[
				'an item price in major units',
				{ supplierName: 'X', items: [{ name: 'A', quantity: 1, unitPrice: eur(0.5) }] },
				'body.items[0].unitPrice.amount',
			],
		])('POST with %s is a 400 naming the field', async (_, change, at) => {
			const before = seeded().length;
			const res = await create({ ...order, ...change });
			expect(res.status).toBe(400);
			expect(err(res)).toMatchObject({ code: badRequest, source: source(at) });
			expect(seeded()).toHaveLength(before);
		});

		test('cancel and close move an open purchase order only; anything else is a 409 saying why', async () => {
			const { body: a } = await create({ ...order, supplierName: 'A' });
			const { body: b } = await create({ ...order, supplierName: 'B' });
			const act = (id: string, action: string) =>
				api(sim, org, `/v1/purchase-orders/${id}/${action}`, {
					method: 'POST',
					companyId: 'cmp_002',
				});
			const cancelled = await act(a.id, 'cancel');
			expect(cancelled.status).toBe(200);
			expect(cancelled.body).toMatchObject({
				id: a.id,
				status: 'cancelled',
				cancelledAt: expect.any(String),
			});
			const closed = await act(b.id, 'close');
			expect(closed.body).toMatchObject({
				id: b.id,
				status: 'closed',
				closedAt: expect.any(String),
			});
			for (const [id, action, status] of [
				[a.id, 'cancel', 'cancelled'],
				[a.id, 'close', 'cancelled'],
				[b.id, 'cancel', 'closed'],
			]) {
				const res = await act(id, action);
				expect(res.status).toBe(409);
				expect(err(res).detail).toBe(
					`Purchase order ${id} is ${status}: only an open purchase order can be ${action === 'cancel' ? 'cancelled' : 'closed'}`,
				);
			}
			expect((await act('po_nope', 'close')).status).toBe(404);
		});

		test('reads need experimental:purchase-order:read, writes experimental:purchase-order:write', async () => {
			const refused = async (path: string, method: string, scope: string, body?: unknown) => {
				const res = await api(sim, limited, path, { method, companyId: 'cmp_001', body });
				expect(res.status).toBe(403);
				if (profile === 'specification') expect(err(res).detail).toBe(`Missing scope: ${scope}`);
				else expect(err(res).code).toBe('FORBIDDEN_ERROR');
			};
			await refused('/v1/purchase-orders', 'GET', 'experimental:purchase-order:read');
			await refused('/v1/purchase-orders', 'POST', 'experimental:purchase-order:write', {
				...order,
				supplierName: 'X',
			});
			await refused(
				`/v1/purchase-orders/${seeded()[0].id}/cancel`,
				'POST',
				'experimental:purchase-order:write',
			);
		});

		test('a company-level key reaches its own purchase orders', async () => {
			const res = await api(sim, company, '/v1/purchase-orders');
			expect(res.status).toBe(200);
			expect(ids(res.body.data)).toEqual(ids(purchaseOrdersOf(sim, 'cmp_001')));
		});
	},
);
