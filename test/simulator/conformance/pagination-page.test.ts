import { SpendeskSimulator } from '../server';
import { api, err, ids, token } from './helpers';

describe('page lists (docs/api.md#page-lists): settlements', () => {
	let sim: SpendeskSimulator;
	let org: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			seed: {
				companies: [
					{ id: 'cmp_001', sizes: { settlements: 45 } },
					{ id: 'cmp_002', sizes: { settlements: 0 } },
					{ id: 'cmp_003', sizes: { settlements: 30 } },
				],
				sizes: { invoices: 3, payables: 45, accounts: 3 },
			},
		});
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('the first page has pageSize 30 by default and meta total 45', async () => {
		const res = await api(sim, org, '/v1/settlements', { companyId: 'cmp_001' });
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(30);
		expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 45 });
	});

	test('pages 1 and 2 together hold every settlement once', async () => {
		const p1 = await api(sim, org, '/v1/settlements?page=1', { companyId: 'cmp_001' });
		const p2 = await api(sim, org, '/v1/settlements?page=2', { companyId: 'cmp_001' });
		expect(p2.status).toBe(200);
		expect(p2.body.data).toHaveLength(15);
		expect(p2.body.meta.pagination).toEqual({ page: 2, pageSize: 30, total: 45 });
		const all = [...ids(p1.body.data), ...ids(p2.body.data)];
		expect(new Set(all).size).toBe(45);
		expect(all.sort()).toEqual(ids(sim.data('cmp_001').settlements).sort());
	});

	test('a later empty page is 404', async () => {
		const res = await api(sim, org, '/v1/settlements?page=3', { companyId: 'cmp_001' });
		expect(res.status).toBe(404);
		expect(err(res).code).toBe('not_found');
	});

	test('a page exactly at the total boundary (30 of 30) then page 2 is 404', async () => {
		const p1 = await api(sim, org, '/v1/settlements', { companyId: 'cmp_003' });
		expect(p1.status).toBe(200);
		expect(p1.body.data).toHaveLength(30);
		expect(p1.body.meta.pagination.total).toBe(30);
		const p2 = await api(sim, org, '/v1/settlements?page=2', { companyId: 'cmp_003' });
		expect(p2.status).toBe(404);
	});

	test('the first page always returns 200 with empty data when nothing is listed', async () => {
		const res = await api(sim, org, '/v1/settlements', { companyId: 'cmp_002' });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual([]);
		expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 0 });
	});

	test('page 2 of an empty list is 404', async () => {
		const res = await api(sim, org, '/v1/settlements?page=2', { companyId: 'cmp_002' });
		expect(res.status).toBe(404);
		expect(err(res).code).toBe('not_found');
	});

	test('explicit pageSize 7 pages through every settlement in 7 pages', async () => {
		const seen: string[] = [];
		let page = 1;
		for (;;) {
			const res = await api(sim, org, `/v1/settlements?page=${page}&pageSize=7`, {
				companyId: 'cmp_001',
			});
			if (res.status === 404) break;
			expect(res.status).toBe(200);
			expect(res.body.meta.pagination).toEqual({ page, pageSize: 7, total: 45 });
			seen.push(...ids(res.body.data));
			page++;
			if (page > 20) throw new Error('runaway');
		}
		expect(page).toBe(8);
		expect(seen).toHaveLength(45);
		expect([...seen].sort()).toEqual(ids(sim.data('cmp_001').settlements).sort());
	});

	test('pageSize above 30 on settlements is 400 invalid_parameter', async () => {
		const res = await api(sim, org, '/v1/settlements?pageSize=50', { companyId: 'cmp_001' });
		expect(res.status).toBe(400);
		expect(err(res).code).toBe('invalid_parameter');
	});
});
