/**
 * Conformance of the read routes of the second endpoint catalogue (docs/api.md#endpoints):
 * one test per rule,
 * over real HTTP.
 */
import { SpendeskSimulator } from '../server';
import { api, err, ids, token } from './helpers';

describe('reads of payables, suppliers, users, cost centers, bank fees, wallet loads (docs/api.md#endpoints)', () => {
	let sim: SpendeskSimulator;
	let org: string;
	let company: string;
	let limited: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			seed: { sizes: { invoices: 2, accounts: 2, settlements: 2, payables: 12 } },
		});
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
		company = await token(sim, sim.credentials.companyKey);
		sim.addApiKey({
			clientId: 'no-reads',
			clientSecret: 'no-reads-secret',
			level: 'organisation',
			scopes: ['payable:read'],
		});
		limited = await token(sim, { clientId: 'no-reads', clientSecret: 'no-reads-secret' });
	});
	afterAll(async () => sim.stop());

	describe('GET /v1/payables/{payableId}', () => {
		test('answers the payable at the top level (no data wrapper) in the documented shape (docs/api.md#payables), amounts in minor units', async () => {
			// pay_002_000004: one prepared line, with an expense and a VAT account (seed.ts).
			const payable = sim.data('cmp_002').payables[3];
			const res = await api(sim, org, `/v1/payables/${payable.id}`, { companyId: 'cmp_002' });
			expect(res.status).toBe(200);
			expect(res.body).not.toHaveProperty('data');
			const { amount } = payable;
			expect(Number.isInteger(amount)).toBe(true);
			expect(res.body).toMatchObject({
				id: payable.id,
				version: 1,
				type: payable.type,
				userId: payable.userId,
				companyId: 'cmp_002',
				amount,
				currency: payable.currency,
				description: payable.description,
				payableDate: payable.createdAt.slice(0, 10),
				exportedAt: null,
				analyticalProperties: [],
				bookkeepingStatus: 'created',
				costCenterId: 'cc_002_0004',
			});
			expect(res.body.counterparty).toEqual({
				type: expect.stringMatching(/^(supplier|employee)$/),
				id: expect.any(String),
				name: expect.any(String),
				accountPayable: null,
			});
			expect(res.body.documentaryEvidence).toEqual({
				provided: expect.anything(),
				notProvided: null,
			});
			const vat = Math.round((amount * 10) / 110);
			expect(res.body.lineItems).toEqual([
				{
					expenseAccount: { id: 'ea_6511', code: '651100', description: 'Software licences' },
					vatAccount: {
						id: 'ta_4457',
						code: '445662',
						description: 'Deductible VAT 10%',
						rate: 10,
					},
					financial: {
						netAmount: amount - vat,
						vatAmount: vat,
						vatAdjustmentAmount: 0,
						grossAmount: amount,
					},
					analyticalProperties: [],
					costCenterId: 'cc_002_0004',
				},
			]);
			for (const gone of ['payableType', 'status', 'supplier', 'updatedAt'])
				expect(res.body).not.toHaveProperty(gone);
		});

		test('a payable not prepared yet has lines without accounts; some lines lack the cost center the payable has', async () => {
			const get = async (n: number) =>
				(
					await api(sim, org, `/v1/payables/pay_002_${String(n).padStart(6, '0')}`, {
						companyId: 'cmp_002',
					})
				).body;
			// pay_002_000003: not prepared yet, and its line has no cost center while the payable
			// has one (seed.ts).
			const unprepared = await get(3);
			expect(
				unprepared.lineItems.map((l: Record<string, unknown>) => [
					l.expenseAccount,
					l.vatAccount,
					l.costCenterId,
				]),
			).toEqual([[null, null, null]]);
			expect(unprepared.costCenterId).toBe('cc_002_0003');
			// pay_002_000010: two lines adding up to the payable's amount.
			const twoLines = await get(10);
			expect(twoLines.lineItems).toHaveLength(2);
			expect(
				twoLines.lineItems.reduce(
					(sum: number, l: { financial: { grossAmount: number } }) => sum + l.financial.grossAmount,
					0,
				),
			).toBe(twoLines.amount);
		});

		test('a payable of another company is a 404 (the company of payables is placed in X-Company-Id)', async () => {
			const payable = sim.data('cmp_002').payables[0];
			const res = await api(sim, org, `/v1/payables/${payable.id}`, { companyId: 'cmp_003' });
			expect(res.status).toBe(404);
			expect(err(res)).toMatchObject({ code: 'not_found', source: 'path.payableId' });
		});

		test('a company-level token reads its own company without X-Company-Id', async () => {
			const payable = sim.data('cmp_001').payables[0];
			const res = await api(sim, company, `/v1/payables/${payable.id}`);
			expect(res.status).toBe(200);
			expect(res.body.id).toBe(payable.id);
		});

		test('an organisation token without X-Company-Id gets the 400 of docs/api.md#errors', async () => {
			const res = await api(sim, org, '/v1/payables/pay_001_000001');
			expect(res.status).toBe(400);
			expect(err(res).source).toBe('headers.x-company-id');
		});
	});

	describe('suppliers', () => {
		test('GET /v1/suppliers is page-based, pageSize 30 at most, and 31 is a 400', async () => {
			const p1 = await api(sim, org, '/v1/suppliers', { companyId: 'cmp_001' });
			expect(p1.status).toBe(200);
			expect(p1.body.data).toHaveLength(30);
			expect(p1.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 40 });
			const p2 = await api(sim, org, '/v1/suppliers?page=2', { companyId: 'cmp_001' });
			expect([...ids(p1.body.data), ...ids(p2.body.data)]).toEqual(
				ids(sim.data('cmp_001').suppliers),
			);
			expect((await api(sim, org, '/v1/suppliers?page=3', { companyId: 'cmp_001' })).status).toBe(
				404,
			);
			const tooBig = await api(sim, org, '/v1/suppliers?pageSize=31', { companyId: 'cmp_001' });
			expect(tooBig.status).toBe(400);
			expect(err(tooBig).source).toBe('query.pageSize');
		});

		test('updatedAfter keeps the suppliers updated strictly after the date-time; isArchived keeps archived or active ones', async () => {
			const all = sim.data('cmp_001').suppliers;
			const after = all[10].updatedAt;
			const res = await api(
				sim,
				org,
				`/v1/suppliers?pageSize=30&updatedAfter=${encodeURIComponent(after)}&isArchived=false`,
				{ companyId: 'cmp_001' },
			);
			expect(res.status).toBe(200);
			const want = all.filter((s) => s.updatedAt > after && !s.isArchived);
			expect(res.body.meta.pagination.total).toBe(want.length);
			expect(ids(res.body.data)).toEqual(ids(want).slice(0, 30));
			const archived = await api(sim, org, '/v1/suppliers?isArchived=true', {
				companyId: 'cmp_001',
			});
			expect(ids(archived.body.data)).toEqual(ids(all.filter((s) => s.isArchived)));
		});

		test('a filter that is not a date or not true/false is a 400 naming it', async () => {
			const date = await api(sim, org, '/v1/suppliers?updatedAfter=yesterday', {
				companyId: 'cmp_001',
			});
			expect(date.status).toBe(400);
			expect(err(date).source).toBe('query.updatedAfter');
			const flag = await api(sim, org, '/v1/suppliers?isArchived=yes', { companyId: 'cmp_001' });
			expect(flag.status).toBe(400);
			expect(err(flag).source).toBe('query.isArchived');
		});

		test('GET /v1/suppliers/{supplierId}: { data: Supplier }, 404 when unknown', async () => {
			const supplier = sim.data('cmp_003').suppliers[5];
			const res = await api(sim, org, `/v1/suppliers/${supplier.id}`, { companyId: 'cmp_003' });
			expect(res.body).toEqual({ data: supplier });
			const missing = await api(sim, org, '/v1/suppliers/sup_nope', { companyId: 'cmp_003' });
			expect(missing.status).toBe(404);
			expect(err(missing).source).toBe('path.supplierId');
		});

		test('suppliers need supplier:read', async () => {
			const res = await api(sim, limited, '/v1/suppliers', { companyId: 'cmp_001' });
			expect(res.status).toBe(403);
			expect(err(res).detail).toBe('Missing scope: supplier:read');
		});
	});

	describe('users and cost centers', () => {
		test('GET /v1/users is page-based over the company members; GET /v1/users/{userId} answers one, 404 when unknown', async () => {
			const p1 = await api(sim, org, '/v1/users', { companyId: 'cmp_002' });
			expect(p1.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 35 });
			const user = sim.data('cmp_002').users[33];
			expect((await api(sim, org, `/v1/users/${user.id}`, { companyId: 'cmp_002' })).body).toEqual({
				data: user,
			});
			expect((await api(sim, org, `/v1/users/${user.id}`, { companyId: 'cmp_001' })).status).toBe(
				404,
			);
		});

		test('users need user:read, cost centers cost-center:read', async () => {
			expect(err(await api(sim, limited, '/v1/users', { companyId: 'cmp_001' })).detail).toBe(
				'Missing scope: user:read',
			);
			expect(
				err(await api(sim, limited, '/v1/users/usr_001_00001', { companyId: 'cmp_001' })).detail,
			).toBe('Missing scope: user:read');
			expect(
				err(await api(sim, limited, '/v1/cost-centers', { companyId: 'cmp_001' })).detail,
			).toBe('Missing scope: cost-center:read');
		});

		test('GET /v1/cost-centers lists the cost centers on one page', async () => {
			const res = await api(sim, org, '/v1/cost-centers', { companyId: 'cmp_001' });
			expect(res.body).toEqual({
				data: sim.data('cmp_001').costCenters,
				meta: { pagination: { page: 1, pageSize: 30, total: 12 } },
			});
		});
	});

	describe('bank fees and wallet loads', () => {
		test.each(['bank-fees', 'wallet-loads'] as const)(
			'GET /v1/%s: from and to (both inclusive) filter on the date; amounts in cents',
			async (path) => {
				const list =
					path === 'bank-fees' ? sim.data('cmp_001').bankFees : sim.data('cmp_001').walletLoads;
				const from = list[2].createdAt;
				const to = list[6].createdAt;
				const res = await api(
					sim,
					org,
					`/v1/${path}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
					{ companyId: 'cmp_001' },
				);
				expect(res.status).toBe(200);
				expect(res.body.data).toEqual(list.slice(2, 7));
				for (const item of res.body.data) expect(Number.isInteger(item.amount)).toBe(true);
			},
		);

		test('a date-only from is read as midnight UTC', async () => {
			const res = await api(sim, org, '/v1/bank-fees?from=2026-01-10&pageSize=30', {
				companyId: 'cmp_001',
			});
			expect(
				res.body.data.every(
					(f: { createdAt: string }) => f.createdAt >= '2026-01-10T00:00:00.000Z',
				),
			).toBe(true);
			expect(res.body.data[0].createdAt).toBe('2026-01-10T00:00:00.000Z');
		});

		test('from after to, or a value that is not a date, is a 400', async () => {
			const order = await api(sim, org, '/v1/wallet-loads?from=2026-02-01&to=2026-01-01', {
				companyId: 'cmp_001',
			});
			expect(order.status).toBe(400);
			expect(err(order).source).toBe('query.from');
			const bad = await api(sim, org, '/v1/bank-fees?to=soon', { companyId: 'cmp_001' });
			expect(bad.status).toBe(400);
			expect(err(bad).source).toBe('query.to');
		});

		test('bank fees need bank-fee:read and wallet loads wallet-load:read (vendor documentation)', async () => {
			expect(err(await api(sim, limited, '/v1/bank-fees', { companyId: 'cmp_001' })).detail).toBe(
				'Missing scope: bank-fee:read',
			);
			expect(
				err(await api(sim, limited, '/v1/wallet-loads', { companyId: 'cmp_001' })).detail,
			).toBe('Missing scope: wallet-load:read');
			sim.addApiKey({
				clientId: 'settlements-only',
				clientSecret: 'settlements-only-secret',
				level: 'organisation',
				scopes: ['settlement:read'],
			});
			const settlementsOnly = await token(sim, {
				clientId: 'settlements-only',
				clientSecret: 'settlements-only-secret',
			});
			for (const [path, scope] of [
				['/v1/bank-fees', 'bank-fee:read'],
				['/v1/wallet-loads', 'wallet-load:read'],
			]) {
				const res = await api(sim, settlementsOnly, path, { companyId: 'cmp_001' });
				expect(res.status).toBe(403);
				expect(err(res).detail).toBe(`Missing scope: ${scope}`);
				expect((await api(sim, org, path, { companyId: 'cmp_001' })).status).toBe(200);
			}
		});
	});
});
