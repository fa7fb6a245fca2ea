import { SpendeskSimulator } from '../server';
import { api, type ApiResponse, err, ids, token } from './helpers';

describe('payables snapshots (docs/api.md#snapshots)', () => {
	let sim: SpendeskSimulator;
	let org: string;
	const C = 'cmp_002';

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 3, payables: 45 } } });
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
	});
	afterAll(async () => {
		await sim.stop();
	});

	const create = (body: Record<string, unknown>, companyId = C): Promise<ApiResponse> =>
		api(sim, org, '/v1/snapshots/payables', { method: 'POST', companyId, body });
	const get = (key: string, query = '', companyId = C): Promise<ApiResponse> =>
		api(sim, org, `/v1/snapshots/payables/${encodeURIComponent(key)}${query}`, { companyId });

	test('creating a snapshot is 201 with a key, the filters echoed under query, and its lifetime', async () => {
		const filters = { type: ['invoicePurchase'], sortBy: 'payableDate', sortOrder: 'desc' };
		const res = await create(filters);
		expect(res.status).toBe(201);
		expect(typeof res.body.key).toBe('string');
		expect(res.body.key.length).toBeGreaterThan(0);
		expect(res.body).toEqual({
			query: filters,
			key: res.body.key,
			expireInSeconds: 43200,
			remainingSeconds: 43200,
		});
	});

	test.each([
		['payableType', { payableType: ['invoicePurchase'] }, 'body.payableType'],
		['status', { status: ['prepared'] }, 'body.status'],
	])('a %s filter (no source shows one) is a 400', async (_name, body, source) => {
		const res = await create(body);
		expect(res.status).toBe(400);
		expect(err(res)).toMatchObject({ detail: 'must NOT have additional properties', source });
	});

	test.each([
		['type', { type: ['card_purchase'] }],
		['bookkeepingStatus', { bookkeepingStatus: ['toPrepare'] }],
	])('a %s value outside the documented ones is a 400', async (name, body) => {
		const res = await create(body);
		expect(res.status).toBe(400);
		expect(err(res).source).toBe(`body.${name}`);
	});

	test('the result holds each payable as Get a payable answers it: documented fields, minor units', async () => {
		const { body } = await create({ type: ['expenseClaim', 'physicalCard'] });
		let res = await get(body.key);
		for (let i = 0; i < 5 && res.body.status === 'PENDING'; i++) res = await get(body.key);
		expect(res.body.status).toBe('COMPLETE');
		expect(res.body.result.data.length).toBeGreaterThan(0);
		for (const payable of res.body.result.data) {
			const one = await api(sim, org, `/v1/payables/${payable.id}`, { companyId: C });
			expect(payable).toEqual(one.body);
			expect(['expenseClaim', 'physicalCard']).toContain(payable.type);
			expect(Number.isInteger(payable.amount)).toBe(true);
			expect(payable).not.toHaveProperty('payableType');
			expect(payable).not.toHaveProperty('status');
			expect(payable).not.toHaveProperty('supplier');
		}
	});

	test('a snapshot answers PENDING with result null for the default 2 polls, then COMPLETE', async () => {
		const { body } = await create({ type: ['creditNote', 'reverseBill'] });
		const first = await get(body.key);
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({ status: 'PENDING', result: null });
		const second = await get(body.key);
		expect(second.body).toMatchObject({ status: 'PENDING', result: null });
		const third = await get(body.key);
		expect(third.status).toBe(200);
		expect(third.body.status).toBe('COMPLETE');
		const expected = sim
			.data(C)
			.payables.filter((p) => p.type === 'creditNote' || p.type === 'reverseBill');
		expect(expected.length).toBeGreaterThan(0);
		expect(ids(third.body.result.data).sort()).toEqual(ids(expected).sort());
		expect(third.body.result.meta.pagination).toEqual({
			page: 1,
			pageSize: 30,
			total: expected.length,
		});
	});

	test('the snapshot result is page-based: page 2 holds the rest, page 3 is 404', async () => {
		const { body } = await create({});
		let res = await get(body.key);
		for (let i = 0; i < 5 && res.body.status === 'PENDING'; i++) res = await get(body.key);
		expect(res.body.status).toBe('COMPLETE');
		expect(res.body.result.data).toHaveLength(30);
		expect(res.body.result.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 45 });
		const p2 = await get(body.key, '?page=2');
		expect(p2.status).toBe(200);
		expect(p2.body.status).toBe('COMPLETE');
		expect(p2.body.result.data).toHaveLength(15);
		expect(p2.body.result.meta.pagination).toEqual({ page: 2, pageSize: 30, total: 45 });
		const union = [...ids(res.body.result.data), ...ids(p2.body.result.data)];
		expect(union.sort()).toEqual(ids(sim.data(C).payables).sort());
		const p3 = await get(body.key, '?page=3');
		expect(p3.status).toBe(404);
	});

	test('the snapshot result honours pageSize', async () => {
		const { body } = await create({});
		let res = await get(body.key, '?pageSize=10&page=5');
		for (let i = 0; i < 5 && res.body.status === 'PENDING'; i++)
			res = await get(body.key, '?pageSize=10&page=5');
		expect(res.status).toBe(200);
		expect(res.body.result.data).toHaveLength(5);
		expect(res.body.result.meta.pagination).toEqual({ page: 5, pageSize: 10, total: 45 });
	});

	test('the same filters give the same snapshot key; different filters a different key', async () => {
		const a = await create({ bookkeepingStatus: ['exported'], type: ['physicalCard'] });
		const b = await create({ type: ['physicalCard'], bookkeepingStatus: ['exported'] });
		const c = await create({ bookkeepingStatus: ['created'], type: ['physicalCard'] });
		expect(a.status).toBe(201);
		expect(b.body.key).toBe(a.body.key);
		expect(c.body.key).not.toBe(a.body.key);
	});

	test('the same filters on another company give a different key', async () => {
		const a = await create({ bookkeepingStatus: ['exported'] }, 'cmp_001');
		const b = await create({ bookkeepingStatus: ['exported'] }, 'cmp_003');
		expect(a.status).toBe(201);
		expect(b.status).toBe(201);
		expect(b.body.key).not.toBe(a.body.key);
	});

	test('an unknown snapshot key is 404', async () => {
		const res = await get('no-such-snapshot-key');
		expect(res.status).toBe(404);
		expect(Array.isArray(res.body.errors)).toBe(true);
	});

	test('snapshots need X-Company-Id with an organisation token', async () => {
		const res = await api(sim, org, '/v1/snapshots/payables', { method: 'POST', body: {} });
		expect(res.status).toBe(400);
		expect(err(res)).toMatchObject({
			code: 'missing_company_id',
			detail: 'X-Company-Id header is required for organisation tokens',
			source: 'headers.x-company-id',
		});
	});

	test('simulator: snapshotError fault makes the snapshot GET answer status ERROR', async () => {
		const { body } = await create({ type: ['expenseClaim'] });
		sim.injectFault({ route: 'getPayablesSnapshot', kind: 'snapshotError' });
		const res = await get(body.key);
		expect(res.body.status).toBe('ERROR');
		sim.clearFaults();
	});

	test('within 12 hours the same filters return the same key and the already built snapshot', async () => {
		const a = await create({ bookkeepingStatus: ['prepared'], type: ['expenseClaim'] });
		let res = await get(a.body.key);
		for (let i = 0; i < 5 && res.body.status === 'PENDING'; i++) res = await get(a.body.key);
		expect(res.body.status).toBe('COMPLETE');
		sim.clock.advance(11 * 3_600_000);
		org = await token(sim, sim.credentials.orgKey);
		const b = await create({ bookkeepingStatus: ['prepared'], type: ['expenseClaim'] });
		expect(b.status).toBe(201);
		expect(b.body.key).toBe(a.body.key);
		const again = await get(b.body.key);
		expect(again.body.status).toBe('COMPLETE');
		expect(ids(again.body.result.data)).toEqual(ids(res.body.result.data));
	});
});

describe('payables snapshots (docs/api.md#snapshots) with snapshotPendingPolls 4', () => {
	let sim: SpendeskSimulator;

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			snapshotPendingPolls: 4,
			seed: { sizes: { invoices: 3, payables: 12 } },
		});
		await sim.start();
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('simulator: snapshot is PENDING for exactly the configured number of polls, then COMPLETE', async () => {
		const org = await token(sim, sim.credentials.orgKey);
		const created = await api(sim, org, '/v1/snapshots/payables', {
			method: 'POST',
			companyId: 'cmp_001',
			body: {},
		});
		expect(created.status).toBe(201);
		const statuses: string[] = [];
		for (let i = 0; i < 6; i++) {
			const res = await api(
				sim,
				org,
				`/v1/snapshots/payables/${encodeURIComponent(created.body.key)}`,
				{
					companyId: 'cmp_001',
				},
			);
			expect(res.status).toBe(200);
			statuses.push(res.body.status);
			if (res.body.status === 'COMPLETE') {
				expect(ids(res.body.result.data).sort()).toEqual(ids(sim.data('cmp_001').payables).sort());
			}
		}
		expect(statuses).toEqual(['PENDING', 'PENDING', 'PENDING', 'PENDING', 'COMPLETE', 'COMPLETE']);
	});
});
