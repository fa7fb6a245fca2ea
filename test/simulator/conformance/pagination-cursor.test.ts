import { SpendeskSimulator } from '../server';
import { api, drainCursor, err, ids, token } from './helpers';

describe('cursor lists (docs/api.md#cursor-lists): invoices, analytical field values, expense categories', () => {
	let sim: SpendeskSimulator;
	let org: string;
	const C = 'cmp_001';
	const INV = `/v2/companies/${C}/invoices`;

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			seed: {
				sizes: {
					invoices: 45,
					analyticalFields: 2,
					analyticalFieldValues: 1005,
					expenseCategories: 25,
				},
			},
		});
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('invoices: the default limit is 20 with hasNextPage, nextCursor and nextUrl set', async () => {
		const res = await api(sim, org, INV);
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(20);
		const p = res.body.meta.pagination;
		expect(p.limit).toBe(20);
		expect(p.hasNextPage).toBe(true);
		expect(typeof p.nextCursor).toBe('string');
		expect(typeof p.nextUrl).toBe('string');
		expect(ids(res.body.data)).toEqual(ids(sim.invoicesSorted(C, 'createdAt', 'asc')).slice(0, 20));
	});

	test('invoices: limit 100 is accepted (max) and returns all 45 with hasNextPage false', async () => {
		const res = await api(sim, org, `${INV}?limit=100`);
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(45);
		expect(res.body.meta.pagination).toEqual({
			limit: 100,
			hasNextPage: false,
			nextCursor: null,
			nextUrl: null,
		});
	});

	test('invoices: limit 101 is 400 invalid_parameter with source query.limit', async () => {
		const res = await api(sim, org, `${INV}?limit=101`);
		expect(res.status).toBe(400);
		expect(err(res)).toMatchObject({ code: 'invalid_parameter', source: 'query.limit' });
	});

	test('invoices: limit 0 is 400 invalid_parameter', async () => {
		const res = await api(sim, org, `${INV}?limit=0`);
		expect(res.status).toBe(400);
		expect(err(res).code).toBe('invalid_parameter');
	});

	test('invoices: draining sortBy=updatedAt&sort=desc equals sim.invoicesSorted exactly', async () => {
		const { items, pages } = await drainCursor(
			sim,
			org,
			`${INV}?sortBy=updatedAt&sort=desc&limit=7`,
		);
		expect(pages).toHaveLength(7);
		expect(ids(items)).toEqual(ids(sim.invoicesSorted(C, 'updatedAt', 'desc')));
	});

	test('invoices: the default order is createdAt asc (drain equals sim.invoicesSorted createdAt asc)', async () => {
		const { items } = await drainCursor(sim, org, `${INV}?limit=10`);
		expect(ids(items)).toEqual(ids(sim.invoicesSorted(C, 'createdAt', 'asc')));
	});

	test('the last page has hasNextPage false, nextCursor null and nextUrl null', async () => {
		const { pages } = await drainCursor(sim, org, `${INV}?limit=20`);
		expect(pages).toHaveLength(3);
		const last = pages[2].body;
		expect(last.data).toHaveLength(5);
		expect(last.meta.pagination).toEqual({
			limit: 20,
			hasNextPage: false,
			nextCursor: null,
			nextUrl: null,
		});
		expect(pages[1].body.meta.pagination.hasNextPage).toBe(true);
	});

	test('nextUrl is absolute, keeps filters and limit, sets cursor, and is followable', async () => {
		const path = `${INV}?sortBy=updatedAt&sort=desc&status=paid&limit=3`;
		const first = await api(sim, org, path);
		expect(first.status).toBe(200);
		const p = first.body.meta.pagination;
		expect(p.hasNextPage).toBe(true);
		const next = new URL(p.nextUrl);
		expect(next.origin).toBe(sim.baseUrl);
		expect(next.pathname).toBe(INV);
		expect(next.searchParams.get('sortBy')).toBe('updatedAt');
		expect(next.searchParams.get('sort')).toBe('desc');
		expect(next.searchParams.get('status')).toBe('paid');
		expect(next.searchParams.get('limit')).toBe('3');
		expect(next.searchParams.get('cursor')).toBe(p.nextCursor);
		const second = await api(sim, org, p.nextUrl);
		expect(second.status).toBe(200);
		const expected = sim.invoicesSorted(C, 'updatedAt', 'desc').filter((i) => i.status === 'paid');
		expect(ids(second.body.data)).toEqual(ids(expected).slice(3, 6));
	});

	test('invoices: the status filter is kept over every page (drain equals filtered sim data)', async () => {
		const { items } = await drainCursor(
			sim,
			org,
			`${INV}?status=to_pay&sortBy=updatedAt&sort=asc&limit=4`,
		);
		const expected = sim.invoicesSorted(C, 'updatedAt', 'asc').filter((i) => i.status === 'to_pay');
		expect(expected.length).toBeGreaterThan(0);
		expect(ids(items)).toEqual(ids(expected));
	});

	test('a cursor reused with a different sort is 400 invalid_cursor', async () => {
		const first = await api(sim, org, `${INV}?sortBy=updatedAt&sort=desc&limit=5`);
		const cursor = encodeURIComponent(first.body.meta.pagination.nextCursor);
		const res = await api(sim, org, `${INV}?sortBy=updatedAt&sort=asc&limit=5&cursor=${cursor}`);
		expect(res.status).toBe(400);
		expect(err(res).code).toBe('invalid_cursor');
	});

	test('a cursor reused with a different filter is 400 invalid_cursor', async () => {
		const first = await api(sim, org, `${INV}?status=paid&limit=2`);
		const cursor = encodeURIComponent(first.body.meta.pagination.nextCursor);
		const res = await api(sim, org, `${INV}?status=to_review&limit=2&cursor=${cursor}`);
		expect(res.status).toBe(400);
		expect(err(res).code).toBe('invalid_cursor');
	});

	test('a garbage cursor is 400 invalid_cursor', async () => {
		const res = await api(sim, org, `${INV}?cursor=not-a-real-cursor`);
		expect(res.status).toBe(400);
		expect(err(res).code).toBe('invalid_cursor');
	});

	test('invoices: sortBy other than updatedAt/createdAt is 400', async () => {
		const res = await api(sim, org, `${INV}?sortBy=amount`);
		expect(res.status).toBe(400);
		expect(Array.isArray(res.body.errors)).toBe(true);
	});

	test('an empty page (emptyPage fault) has hasNextPage true and draining continues to the full list', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'emptyPage', after: 1, times: 1 });
		const { items, pages } = await drainCursor(
			sim,
			org,
			`${INV}?sortBy=updatedAt&sort=desc&limit=10`,
		);
		expect(pages[1].body.data).toEqual([]);
		expect(pages[1].body.meta.pagination.hasNextPage).toBe(true);
		expect(typeof pages[1].body.meta.pagination.nextCursor).toBe('string');
		expect(pages).toHaveLength(6);
		expect(ids(items)).toEqual(ids(sim.invoicesSorted(C, 'updatedAt', 'desc')));
		sim.clearFaults();
	});

	test('keyset pages: inserting newer invoices during a drain neither duplicates nor skips', async () => {
		const before = ids(sim.invoicesSorted(C, 'updatedAt', 'desc'));
		const path = `${INV}?sortBy=updatedAt&sort=desc&limit=10`;
		const first = await api(sim, org, path);
		expect(ids(first.body.data)).toEqual(before.slice(0, 10));
		const future = new Date(sim.clock.now() + 86_400_000).toISOString();
		const inserted = [
			sim.insertInvoice(C, { updatedAt: future, createdAt: future }),
			sim.insertInvoice(C, { updatedAt: future, createdAt: future }),
			sim.insertInvoice(C, { updatedAt: future, createdAt: future }),
		];
		const rest = await drainCursor(
			sim,
			org,
			`${path}&cursor=${encodeURIComponent(first.body.meta.pagination.nextCursor)}`,
		);
		const all = [...ids(first.body.data), ...ids(rest.items)];
		expect(all).toEqual(before);
		for (const inv of inserted) expect(all).not.toContain(inv.id);
		expect(
			ids(sim.invoicesSorted(C, 'updatedAt', 'desc'))
				.slice(0, 3)
				.sort(),
		).toEqual(ids(inserted).sort());
	});

	test('analytical field values: the default limit is 30', async () => {
		const field = sim.data(C).analyticalFields[0];
		const res = await api(sim, org, `/v2/analytical-fields/${field.id}/values`, { companyId: C });
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(30);
		expect(res.body.meta.pagination.limit).toBe(30);
		expect(res.body.meta.pagination.hasNextPage).toBe(true);
		expect(ids(field.values)).toEqual(expect.arrayContaining(ids(res.body.data)));
	});

	test('analytical field values: limit 1000 accepted, 1001 is 400 invalid_parameter', async () => {
		const field = sim.data(C).analyticalFields[1];
		const ok = await api(sim, org, `/v2/analytical-fields/${field.id}/values?limit=1000`, {
			companyId: C,
		});
		expect(ok.status).toBe(200);
		expect(ok.body.data).toHaveLength(1000);
		expect(ok.body.meta.pagination.limit).toBe(1000);
		expect(ok.body.meta.pagination.hasNextPage).toBe(true);
		const rest = await api(sim, org, ok.body.meta.pagination.nextUrl, { companyId: C });
		expect(rest.status).toBe(200);
		expect(rest.body.data).toHaveLength(5);
		expect(rest.body.meta.pagination.hasNextPage).toBe(false);
		expect([...ids(ok.body.data), ...ids(rest.body.data)].sort()).toEqual(ids(field.values).sort());
		const over = await api(sim, org, `/v2/analytical-fields/${field.id}/values?limit=1001`, {
			companyId: C,
		});
		expect(over.status).toBe(400);
		expect(err(over)).toMatchObject({ code: 'invalid_parameter', source: 'query.limit' });
	});

	test('expense categories: the default limit is 20, draining gives every category once', async () => {
		const first = await api(sim, org, '/v2/expense-categories', { companyId: 'cmp_002' });
		expect(first.status).toBe(200);
		expect(first.body.data).toHaveLength(20);
		expect(first.body.meta.pagination.limit).toBe(20);
		const { items } = await drainCursor(sim, org, '/v2/expense-categories', {
			companyId: 'cmp_002',
		});
		expect(items).toHaveLength(25);
		expect(ids(items).sort()).toEqual(ids(sim.data('cmp_002').expenseCategories).sort());
	});

	test('nextUrl of a list with its company in X-Company-Id works when followed with the same header', async () => {
		const first = await api(sim, org, '/v2/expense-categories?limit=15', { companyId: 'cmp_003' });
		const url = new URL(first.body.meta.pagination.nextUrl);
		expect(url.origin).toBe(sim.baseUrl);
		expect(url.pathname).toBe('/v2/expense-categories');
		expect(url.searchParams.get('limit')).toBe('15');
		const second = await api(sim, org, first.body.meta.pagination.nextUrl, {
			companyId: 'cmp_003',
		});
		expect(second.status).toBe(200);
		expect(second.body.data).toHaveLength(10);
		expect([...ids(first.body.data), ...ids(second.body.data)].sort()).toEqual(
			ids(sim.data('cmp_003').expenseCategories).sort(),
		);
	});

	test('simulator: nextUrlOrigin option changes the origin of nextUrl', async () => {
		sim.configure({ nextUrlOrigin: 'http://proxy.example.test:8080' });
		try {
			const res = await api(sim, org, `${INV}?limit=5`);
			expect(res.status).toBe(200);
			const url = new URL(res.body.meta.pagination.nextUrl);
			expect(url.origin).toBe('http://proxy.example.test:8080');
			expect(url.pathname).toBe(INV);
		} finally {
			sim.configure({ nextUrlOrigin: sim.baseUrl });
		}
	});
});
