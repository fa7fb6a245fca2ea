import { SpendeskSimulator } from '../server';
import { api, err, ids, token } from './helpers';

const MISSING = 'X-Company-Id header is required for organisation tokens';

describe('company placement (docs/api.md#levels-and-company-placement)', () => {
	let sim: SpendeskSimulator;
	let org: string;
	let comp: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			seed: { sizes: { invoices: 8, settlements: 5, accounts: 5, payables: 5 } },
		});
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
		comp = await token(sim, sim.credentials.companyKey);
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('errors (docs/api.md#errors): an organisation token without X-Company-Id is 400 with detail and source', async () => {
		const res = await api(sim, org, '/v1/wallet-summary');
		expect(res.status).toBe(400);
		const e = err(res);
		expect(e.code).toBe('missing_company_id');
		expect(e.detail).toBe(MISSING);
		expect(e.source).toBe('headers.x-company-id');
	});

	test('v1 endpoints: an organisation token with X-Company-Id reaches that company', async () => {
		const a = await api(sim, org, '/v1/wallet-summary', { companyId: 'cmp_002' });
		expect(a.status).toBe(200);
		expect(a.body.data).toEqual(sim.data('cmp_002').walletSummary);
		const b = await api(sim, org, '/v1/wallet-summary', { companyId: 'cmp_003' });
		expect(b.body.data).toEqual(sim.data('cmp_003').walletSummary);
		expect(b.body.data.id).toBe('wal_003');
	});

	test('errors (docs/api.md#errors): an organisation token on v1 settlements without X-Company-Id is 400 missing_company_id', async () => {
		const res = await api(sim, org, '/v1/settlements');
		expect(res.status).toBe(400);
		expect(err(res)).toMatchObject({
			code: 'missing_company_id',
			detail: MISSING,
			source: 'headers.x-company-id',
		});
	});

	test('errors (docs/api.md#errors): a v2 endpoint without company in path (analytical fields) needs X-Company-Id: 400 without it', async () => {
		const res = await api(sim, org, '/v2/analytical-fields');
		expect(res.status).toBe(400);
		expect(err(res)).toMatchObject({
			code: 'missing_company_id',
			detail: MISSING,
			source: 'headers.x-company-id',
		});
		const ok = await api(sim, org, '/v2/analytical-fields', { companyId: 'cmp_002' });
		expect(ok.status).toBe(200);
		expect(ids(ok.body.data).sort()).toEqual(ids(sim.data('cmp_002').analyticalFields).sort());
	});

	test('errors (docs/api.md#errors): v2 expense categories without X-Company-Id is 400, with it lists that company', async () => {
		const res = await api(sim, org, '/v2/expense-categories');
		expect(res.status).toBe(400);
		expect(err(res).detail).toBe(MISSING);
		const ok = await api(sim, org, '/v2/expense-categories?limit=100', { companyId: 'cmp_004' });
		expect(ok.status).toBe(200);
		expect(ids(ok.body.data).sort()).toEqual(ids(sim.data('cmp_004').expenseCategories).sort());
	});

	test('errors (docs/api.md#errors): an X-Company-Id outside the organisation is 403 Company does not belong to organisation', async () => {
		const res = await api(sim, org, '/v1/wallet-summary', { companyId: 'cmp_999' });
		expect(res.status).toBe(403);
		expect(err(res).detail).toBe('Company does not belong to organisation');
	});

	test('errors (docs/api.md#errors): a path company outside the organisation is 403 Company does not belong to organisation', async () => {
		const res = await api(sim, org, '/v2/companies/cmp_999/invoices');
		expect(res.status).toBe(403);
		expect(err(res).detail).toBe('Company does not belong to organisation');
	});

	test('a deactivated company named in X-Company-Id is 403 Company is deactivated', async () => {
		const res = await api(sim, org, '/v1/wallet-summary', { companyId: 'cmp_005' });
		expect(res.status).toBe(403);
		expect(err(res).detail).toBe('Company is deactivated');
	});

	test('the path company is authoritative: no X-Company-Id needed on /v2/companies/{id}/invoices', async () => {
		const res = await api(sim, org, '/v2/companies/cmp_002/invoices');
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(ids(sim.invoicesSorted('cmp_002', 'createdAt', 'asc')));
	});

	test('the path company is authoritative: a bogus X-Company-Id is ignored on a path route', async () => {
		const res = await api(sim, org, '/v2/companies/cmp_003/invoices', { companyId: 'cmp_999' });
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(ids(sim.invoicesSorted('cmp_003', 'createdAt', 'asc')));
	});

	test('the path company is authoritative: another valid X-Company-Id does not change the company', async () => {
		const res = await api(sim, org, '/v2/companies/cmp_002/intakes', { companyId: 'cmp_001' });
		expect(res.status).toBe(200);
		expect(ids(res.body.data).sort()).toEqual(ids(sim.data('cmp_002').intakes).sort());
	});

	test('v1 endpoints: a company-level token ignores X-Company-Id (own company answered)', async () => {
		const res = await api(sim, comp, '/v1/wallet-summary', { companyId: 'cmp_002' });
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual(sim.data('cmp_001').walletSummary);
	});

	test('v1 endpoints: a company-level token ignores even a foreign X-Company-Id', async () => {
		const res = await api(sim, comp, '/v1/settlements', { companyId: 'cmp_999' });
		expect(res.status).toBe(200);
		expect(ids(res.body.data).sort()).toEqual(ids(sim.data('cmp_001').settlements).sort());
	});

	test('a company-level token on another company’s /v2/companies/{id} path is 403', async () => {
		const res = await api(sim, comp, '/v2/companies/cmp_002/invoices');
		expect(res.status).toBe(403);
		expect(err(res).detail).toBe('Forbidden');
	});

	test('a company-level token on its own /v2/companies/{id} path is 200', async () => {
		const res = await api(sim, comp, '/v2/companies/cmp_001/invoices');
		expect(res.status).toBe(200);
		expect(ids(res.body.data)).toEqual(ids(sim.invoicesSorted('cmp_001', 'createdAt', 'asc')));
	});

	test('create intake on the path company returns 201 and it is listed for that company only', async () => {
		const res = await api(sim, org, '/v2/companies/cmp_004/intakes', {
			method: 'POST',
			body: { description: 'conformance intake' },
			companyId: 'cmp_001',
		});
		expect(res.status).toBe(201);
		expect(typeof res.body.data.id).toBe('string');
		expect(ids(sim.data('cmp_004').intakes)).toContain(res.body.data.id);
		expect(ids(sim.data('cmp_001').intakes)).not.toContain(res.body.data.id);
		const list = await api(sim, org, '/v2/companies/cmp_004/intakes?limit=100');
		expect(ids(list.body.data)).toContain(res.body.data.id);
	});

	test('create intake with a non-object JSON body is 400', async () => {
		const res = await api(sim, org, '/v2/companies/cmp_004/intakes', {
			method: 'POST',
			body: '[1,2]',
		});
		expect(res.status).toBe(400);
		expect(Array.isArray(res.body.errors)).toBe(true);
	});

	test('simulator: the request log records the company of each request, wherever it was placed (header, path, token)', async () => {
		sim.clearLog();
		await api(sim, org, '/v1/wallet-summary', { companyId: 'cmp_002' });
		await api(sim, org, '/v2/companies/cmp_003/invoices', { companyId: 'cmp_004' });
		await api(sim, comp, '/v1/wallet-summary', { companyId: 'cmp_004' });
		expect(sim.log.map((l) => [l.route, l.companyId, l.status])).toEqual([
			['walletSummary', 'cmp_002', 200],
			['listInvoices', 'cmp_003', 200],
			['walletSummary', 'cmp_001', 200],
		]);
	});
});
