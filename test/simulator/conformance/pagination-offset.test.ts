import { SpendeskSimulator } from '../server';
import { api, ids, token } from './helpers';

describe('offset lists (docs/api.md#offset-lists): Get accounts', () => {
	let sim: SpendeskSimulator;
	let org: string;
	const C = 'cmp_002';

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 3, accounts: 45 } } });
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('offset and fetch select a window and the response reports totalResults, currentOffset, currentFetch', async () => {
		const res = await api(sim, org, '/v1/accounts?offset=10&fetch=5', { companyId: C });
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(ids(sim.data(C).accounts.slice(10, 15)));
		expect(res.body.totalResults).toBe(45);
		expect(res.body.currentOffset).toBe(10);
		expect(res.body.currentFetch).toBe(5);
	});

	test('fetch above 100 is capped at 100, fetch 0 is 400', async () => {
		const big = new SpendeskSimulator({
			seed: { companies: 1, deactivated: [], sizes: { invoices: 1, accounts: 130 } },
		});
		await big.start();
		try {
			const t = await token(big, big.credentials.orgKey);
			const res = await api(big, t, '/v1/accounts?fetch=500', { companyId: 'cmp_001' });
			expect(res.status).toBe(200);
			expect(ids(res.body.data)).toEqual(ids(big.data('cmp_001').accounts.slice(0, 100)));
			expect(res.body.currentFetch).toBe(100);
			expect(res.body.totalResults).toBe(130);
			const zero = await api(big, t, '/v1/accounts?fetch=0', { companyId: 'cmp_001' });
			expect(zero.status).toBe(400);
			expect(zero.body.errors[0]).toMatchObject({
				code: 'invalid_parameter',
				source: 'query.fetch',
			});
		} finally {
			await big.stop();
		}
	});

	test('offset defaults to 0 and fetch to 20', async () => {
		const res = await api(sim, org, '/v1/accounts', { companyId: C });
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(ids(sim.data(C).accounts.slice(0, 20)));
		expect(res.body.currentOffset).toBe(0);
		expect(res.body.currentFetch).toBe(20);
		expect(res.body.totalResults).toBe(45);
	});

	test('currentFetch is the number of items returned (short last window)', async () => {
		const res = await api(sim, org, '/v1/accounts?offset=40&fetch=20', { companyId: C });
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(ids(sim.data(C).accounts.slice(40)));
		expect(res.body.currentFetch).toBe(5);
		expect(res.body.totalResults).toBe(45);
	});

	test('an offset past the end returns an empty data array with totalResults', async () => {
		const res = await api(sim, org, '/v1/accounts?offset=45&fetch=10', { companyId: C });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual([]);
		expect(res.body.currentFetch).toBe(0);
		expect(res.body.totalResults).toBe(45);
	});

	test('versioning (docs/api.md#versioning): the deprecated limit is accepted as fetch, answered with a Deprecation header and logged as deprecatedLimit', async () => {
		sim.clearLog();
		const res = await api(sim, org, '/v1/accounts?limit=7&offset=3', { companyId: C });
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(ids(sim.data(C).accounts.slice(3, 10)));
		expect(res.body.currentFetch).toBe(7);
		expect(res.headers.get('deprecation')).toBe('true');
		const logged = sim.requestsTo('getAccounts');
		expect(logged).toHaveLength(1);
		expect(logged[0].deprecatedLimit).toBe(true);
		expect(logged[0].query.limit).toBe('7');
	});

	test('versioning (docs/api.md#versioning): requests with fetch carry no Deprecation header and are not logged as deprecatedLimit', async () => {
		sim.clearLog();
		const res = await api(sim, org, '/v1/accounts?fetch=7', { companyId: C });
		expect(res.status).toBe(200);
		expect(res.headers.get('deprecation')).toBeNull();
		expect(sim.requestsTo('getAccounts')[0].deprecatedLimit).not.toBe(true);
	});

	test('accounts of the X-Company-Id company only (other company, other accounts)', async () => {
		const a = await api(sim, org, '/v1/accounts?fetch=100', { companyId: 'cmp_001' });
		const b = await api(sim, org, '/v1/accounts?fetch=100', { companyId: 'cmp_003' });
		expect(ids(a.body.data)).toEqual(ids(sim.data('cmp_001').accounts));
		expect(ids(b.body.data)).toEqual(ids(sim.data('cmp_003').accounts));
		expect(ids(a.body.data)).not.toEqual(ids(b.body.data));
	});
});

describe('offset lists (docs/api.md#offset-lists): Get accounts with accountsMaxReturn', () => {
	let sim: SpendeskSimulator;

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			accountsMaxReturn: 8,
			seed: { sizes: { invoices: 3, accounts: 45 } },
		});
		await sim.start();
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('accountsMaxReturn returns fewer than asked and currentFetch reports what was returned', async () => {
		const org = await token(sim, sim.credentials.orgKey);
		const res = await api(sim, org, '/v1/accounts?offset=0&fetch=20', { companyId: 'cmp_001' });
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(ids(sim.data('cmp_001').accounts.slice(0, 8)));
		expect(res.body.currentFetch).toBe(8);
		expect(res.body.currentOffset).toBe(0);
		expect(res.body.totalResults).toBe(45);
	});

	test('advancing the offset by what was received drains every account exactly once', async () => {
		const org = await token(sim, sim.credentials.orgKey);
		const seen: string[] = [];
		let offset = 0;
		let calls = 0;
		for (;;) {
			const res = await api(sim, org, `/v1/accounts?offset=${offset}&fetch=20`, {
				companyId: 'cmp_001',
			});
			expect(res.status).toBe(200);
			calls++;
			if (res.body.data.length === 0) break;
			seen.push(...ids(res.body.data));
			offset += res.body.data.length;
			if (offset >= res.body.totalResults) break;
			if (calls > 20) throw new Error('runaway');
		}
		expect(calls).toBe(6);
		expect(seen).toEqual(ids(sim.data('cmp_001').accounts));
	});
});
