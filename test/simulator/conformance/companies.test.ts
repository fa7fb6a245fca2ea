import { SpendeskSimulator } from '../server';
import { api, err, ids, token } from './helpers';

const small = { invoices: 3, accounts: 3, payables: 3, settlements: 3, intakes: 1 };

describe('Get Companies (docs/api.md#companies) with 35 companies', () => {
	let sim: SpendeskSimulator;
	let org: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { companies: 35, sizes: small } });
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
	});
	afterAll(async () => {
		await sim.stop();
	});

	const active = (): string[] =>
		sim
			.companies()
			.filter((c) => c.active)
			.map((c) => c.id);

	test('an API key lists every active company (deactivated cmp_035 left out)', async () => {
		const p1 = await api(sim, org, '/v2/companies');
		const p2 = await api(sim, org, '/v2/companies?page=2');
		expect(p1.status).toBe(200);
		expect(p2.status).toBe(200);
		const all = [...p1.body.data, ...p2.body.data];
		expect(ids(all)).toEqual(active());
		expect(ids(all)).not.toContain('cmp_035');
		expect(active()).toHaveLength(34);
	});

	test('company items carry id and name as seeded', async () => {
		const p1 = await api(sim, org, '/v2/companies?pageSize=5');
		expect(p1.status).toBe(200);
		const expected = sim.companies().slice(0, 5);
		expect(
			p1.body.data.map((c: { id: string; name: string }) => ({ id: c.id, name: c.name })),
		).toEqual(expected.map((c) => ({ id: c.id, name: c.name })));
	});

	test('page lists (docs/api.md#page-lists): pageSize defaults to 30 and meta reports page, pageSize and total', async () => {
		const res = await api(sim, org, '/v2/companies');
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(30);
		expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 34 });
		expect(ids(res.body.data)).toEqual(active().slice(0, 30));
	});

	test('page lists (docs/api.md#page-lists): page 2 of 34 active companies holds the last 4', async () => {
		const res = await api(sim, org, '/v2/companies?page=2');
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(active().slice(30));
		expect(res.body.meta.pagination).toEqual({ page: 2, pageSize: 30, total: 34 });
	});

	test('page lists (docs/api.md#page-lists): later empty page is 404 not_found', async () => {
		const res = await api(sim, org, '/v2/companies?page=3');
		expect(res.status).toBe(404);
		expect(err(res).code).toBe('not_found');
		expect(res.body.data).toBeUndefined();
	});

	test('page lists (docs/api.md#page-lists): pageSize 30 is accepted as the maximum', async () => {
		const res = await api(sim, org, '/v2/companies?pageSize=30&page=2');
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(4);
	});

	test('page lists (docs/api.md#page-lists): pageSize above 30 is 400 invalid_parameter', async () => {
		const res = await api(sim, org, '/v2/companies?pageSize=31');
		expect(res.status).toBe(400);
		expect(err(res).code).toBe('invalid_parameter');
	});

	test('page lists (docs/api.md#page-lists): pageSize 0 is 400 invalid_parameter', async () => {
		const res = await api(sim, org, '/v2/companies?pageSize=0');
		expect(res.status).toBe(400);
		expect(err(res).code).toBe('invalid_parameter');
	});

	test('page lists (docs/api.md#page-lists): page 0 is 400 invalid_parameter', async () => {
		const res = await api(sim, org, '/v2/companies?page=0');
		expect(res.status).toBe(400);
		expect(err(res).code).toBe('invalid_parameter');
	});

	test('page lists (docs/api.md#page-lists): number of pages derives from total and pageSize (pageSize 10: 4 pages, page 4 has 4, page 5 is 404)', async () => {
		const p4 = await api(sim, org, '/v2/companies?page=4&pageSize=10');
		expect(p4.status).toBe(200);
		expect(ids(p4.body.data)).toEqual(active().slice(30, 34));
		expect(p4.body.meta.pagination).toEqual({ page: 4, pageSize: 10, total: 34 });
		const p5 = await api(sim, org, '/v2/companies?page=5&pageSize=10');
		expect(p5.status).toBe(404);
	});

	test('errors (docs/api.md#errors): a company-level token on Get Companies is 403 This endpoint requires an organisation-level token', async () => {
		const t = await token(sim, sim.credentials.companyKey);
		const res = await api(sim, t, '/v2/companies');
		expect(res.status).toBe(403);
		expect(err(res).detail).toBe('This endpoint requires an organisation-level token');
	});

	test('Get Companies needs no X-Company-Id and ignores one that is sent', async () => {
		const res = await api(sim, org, '/v2/companies?pageSize=3', { companyId: 'cmp_999' });
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(['cmp_001', 'cmp_002', 'cmp_003']);
	});
});

describe('Get Companies (docs/api.md#companies): the 20-minute cache', () => {
	let sim: SpendeskSimulator;

	beforeEach(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: small } });
		await sim.start();
	});
	afterEach(async () => {
		await sim.stop();
	});

	test('a deactivated company stays listed until the 1,200 s cache passes', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		const before = await api(sim, t, '/v2/companies');
		expect(ids(before.body.data)).toEqual(['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004']);
		sim.deactivateCompany('cmp_003');
		const cached = await api(sim, t, '/v2/companies');
		expect(cached.status).toBe(200);
		expect(ids(cached.body.data)).toEqual(['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004']);
		sim.clock.advance(1_100_000);
		const stillCached = await api(sim, t, '/v2/companies');
		expect(ids(stillCached.body.data)).toContain('cmp_003');
		sim.clock.advance(100_001);
		const t2 = await token(sim, sim.credentials.orgKey);
		const fresh = await api(sim, t2, '/v2/companies');
		expect(fresh.status).toBe(200);
		expect(ids(fresh.body.data)).toEqual(['cmp_001', 'cmp_002', 'cmp_004']);
		expect(fresh.body.meta.pagination.total).toBe(3);
	});

	test('a created company appears only after the 1,200 s cache passes', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		const before = await api(sim, t, '/v2/companies');
		expect(before.body.meta.pagination.total).toBe(4);
		const created = sim.createCompany({ id: 'cmp_new', name: 'New Co' });
		const cached = await api(sim, t, '/v2/companies');
		expect(ids(cached.body.data)).not.toContain(created.id);
		expect(cached.body.meta.pagination.total).toBe(4);
		sim.clock.advance(1_200_001);
		const t2 = await token(sim, sim.credentials.orgKey);
		const fresh = await api(sim, t2, '/v2/companies');
		expect(ids(fresh.body.data)).toEqual(['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004', 'cmp_new']);
		expect(fresh.body.data[4].name).toBe('New Co');
	});

	test('simulator: configure({companiesCacheSeconds: 0}) makes changes visible at once', async () => {
		sim.configure({ companiesCacheSeconds: 0 });
		const t = await token(sim, sim.credentials.orgKey);
		expect(ids((await api(sim, t, '/v2/companies')).body.data)).toContain('cmp_002');
		sim.deactivateCompany('cmp_002');
		sim.clock.advance(1);
		const res = await api(sim, t, '/v2/companies');
		expect(ids(res.body.data)).toEqual(['cmp_001', 'cmp_003', 'cmp_004']);
	});

	test('a company created by sim.createCompany is reachable at once by path even while the list is cached', async () => {
		const t = await token(sim, sim.credentials.orgKey);
		await api(sim, t, '/v2/companies');
		const c = sim.createCompany({ id: 'cmp_fresh', sizes: { invoices: 4 } });
		const res = await api(sim, t, `/v2/companies/${c.id}/invoices`);
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(ids(sim.invoicesSorted(c.id, 'createdAt', 'asc')));
		expect(res.body.data).toHaveLength(4);
	});
});
