import { SpendeskSimulator } from '../server';
import { api, type ApiResponse, ids, token } from './helpers';

describe('body-cursor lists (docs/api.md#body-cursor-lists): Search payables', () => {
	let sim: SpendeskSimulator;
	let org: string;
	const C = 'cmp_003';

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 3, payables: 45 } } });
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
	});
	afterAll(async () => {
		await sim.stop();
	});

	const search = (body: Record<string, unknown>, companyId = C): Promise<ApiResponse> =>
		api(sim, org, '/v1/payables/search', { method: 'POST', companyId, body });

	async function drain(
		filters: Record<string, unknown>,
	): Promise<{ items: string[]; calls: ApiResponse[] }> {
		const items: string[] = [];
		const calls: ApiResponse[] = [];
		let cursor: string | null = null;
		for (let i = 0; i < 100; i++) {
			const res = await search(cursor === null ? { ...filters } : { ...filters, cursor });
			if (res.status !== 200)
				throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
			calls.push(res);
			items.push(...ids(res.body.data));
			cursor = res.body.nextCursor;
			if (cursor === null) return { items, calls };
		}
		throw new Error('runaway');
	}

	test('the limit in the JSON body sets the page size and nextCursor is top-level', async () => {
		const res = await search({ limit: 10 });
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(10);
		expect(typeof res.body.nextCursor).toBe('string');
		expect(res.body.meta).toBeUndefined();
	});

	test('the default limit is 20', async () => {
		const res = await search({});
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(20);
		expect(typeof res.body.nextCursor).toBe('string');
	});

	test('the cursor is sent back in the body; union of pages equals the company’s payables', async () => {
		const { items, calls } = await drain({ limit: 10 });
		expect(calls).toHaveLength(5);
		expect(items).toHaveLength(45);
		expect(new Set(items).size).toBe(45);
		expect([...items].sort()).toEqual(ids(sim.data(C).payables).sort());
	});

	test('nextCursor is null on the last page', async () => {
		const { calls } = await drain({ limit: 20 });
		expect(calls).toHaveLength(3);
		const last = calls[2].body;
		expect(last.data).toHaveLength(5);
		expect(last.nextCursor).toBeNull();
		expect(calls[1].body.nextCursor).not.toBeNull();
	});

	test('status and payableType filters are respected on every page', async () => {
		const status = sim.data(C).payables[0].status;
		const { items } = await drain({ limit: 3, status });
		const expected = sim.data(C).payables.filter((p) => p.status === status);
		expect([...items].sort()).toEqual(ids(expected).sort());
		const type = sim.data(C).payables[0].payableType;
		const both = await drain({ limit: 4, status, payableType: type });
		const expectedBoth = sim
			.data(C)
			.payables.filter((p) => p.status === status && p.payableType === type);
		expect(expectedBoth.length).toBeGreaterThan(0);
		expect([...both.items].sort()).toEqual(ids(expectedBoth).sort());
	});

	test('returned items carry the requested status', async () => {
		const res = await search({ limit: 100, status: 'settled' });
		expect(res.status).toBe(200);
		expect(res.body.data.every((p: { status: string }) => p.status === 'settled')).toBe(true);
		expect(res.body.data).toHaveLength(
			sim.data(C).payables.filter((p) => p.status === 'settled').length,
		);
		expect(res.body.nextCursor).toBeNull();
	});

	test('the company is placed in X-Company-Id: another company, its own payables', async () => {
		const res = await search({ limit: 100 }, 'cmp_001');
		expect(res.status).toBe(200);
		expect(ids(res.body.data).sort()).toEqual(ids(sim.data('cmp_001').payables).sort());
	});
});
