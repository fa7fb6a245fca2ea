import { SpendeskSimulator } from '../server';
import { ALL_SCOPES } from '../types';
import { api, err, ids, token } from './helpers';

describe('scopes (docs/api.md#scopes)', () => {
	let sim: SpendeskSimulator;
	let limited: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 5, settlements: 7, payables: 6 } } });
		await sim.start();
		limited = await token(sim, sim.credentials.orgKeyNoExperimental);
	});
	afterAll(async () => {
		await sim.stop();
	});

	test('the seeded keys and OAuth2 client hold every scope, the documented bank-fee, wallet-load and payables-search scopes included', () => {
		for (const scope of ['bank-fee:read', 'wallet-load:read', 'experimental:payable-search:read']) {
			expect(ALL_SCOPES).toContain(scope);
			expect(sim.credentials.orgKey.scopes).toContain(scope);
			expect(sim.credentials.companyKey.scopes).toContain(scope);
			expect(sim.credentials.oauthClient.scopes).toContain(scope);
		}
		expect(sim.credentials.orgKeyNoExperimental.scopes).toEqual(
			expect.arrayContaining(['bank-fee:read', 'wallet-load:read']),
		);
		expect(sim.credentials.orgKeyNoExperimental.scopes).not.toContain(
			'experimental:payable-search:read',
		);
	});

	test('an organisation key without experimental scopes gets 403 naming experimental:invoice:read on invoices', async () => {
		const res = await api(sim, limited, '/v2/companies/cmp_001/invoices');
		expect(res.status).toBe(403);
		expect(err(res)).toMatchObject({
			code: 'insufficient_scope',
			detail: 'Missing scope: experimental:invoice:read',
		});
	});

	test('an organisation key without experimental scopes gets 403 naming experimental:company:read on Get Companies', async () => {
		const res = await api(sim, limited, '/v2/companies');
		expect(res.status).toBe(403);
		expect(err(res)).toMatchObject({
			code: 'insufficient_scope',
			detail: 'Missing scope: experimental:company:read',
		});
	});

	test('v2 analytical fields need experimental:analytical-field:read', async () => {
		const res = await api(sim, limited, '/v2/analytical-fields', { companyId: 'cmp_001' });
		expect(res.status).toBe(403);
		expect(err(res).detail).toBe('Missing scope: experimental:analytical-field:read');
	});

	test('an organisation key without experimental scopes still reaches v1 settlements', async () => {
		const res = await api(sim, limited, '/v1/settlements', { companyId: 'cmp_002' });
		expect(res.status).toBe(200);
		expect(ids(res.body.data).sort()).toEqual(ids(sim.data('cmp_002').settlements).sort());
		expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 7 });
	});

	test('v1 payables search requires experimental:payable-search:read (vendor documentation): the limited key lacks it', async () => {
		const res = await api(sim, limited, '/v1/payables/search', {
			method: 'POST',
			companyId: 'cmp_001',
			body: { limit: 100 },
		});
		expect(res.status).toBe(403);
		expect(err(res).detail).toBe('Missing scope: experimental:payable-search:read');
		const org = await token(sim, sim.credentials.orgKey);
		const full = await api(sim, org, '/v1/payables/search', {
			method: 'POST',
			companyId: 'cmp_001',
			body: { limit: 100 },
		});
		expect(full.status).toBe(200);
		expect(ids(full.body.payables).sort()).toEqual(ids(sim.data('cmp_001').payables).sort());
	});

	test('a key with payable:read only gets 403 Missing scope: experimental:payable-search:read on payables search', async () => {
		sim.addApiKey({
			clientId: 'k-settlements',
			clientSecret: 's-settlements',
			level: 'organisation',
			scopes: ['settlement:read', 'payable:read'],
		});
		const t = await token(sim, { clientId: 'k-settlements', clientSecret: 's-settlements' });
		const res = await api(sim, t, '/v1/payables/search', {
			method: 'POST',
			companyId: 'cmp_001',
			body: {},
		});
		expect(res.status).toBe(403);
		expect(err(res)).toMatchObject({
			code: 'insufficient_scope',
			detail: 'Missing scope: experimental:payable-search:read',
		});
		expect((await api(sim, t, '/v1/settlements', { companyId: 'cmp_001' })).status).toBe(200);
	});

	test('a company-level key with only account:read is refused wallet-summary:read', async () => {
		sim.addApiKey({
			clientId: 'k-company-accounts',
			clientSecret: 's-company-accounts',
			level: 'company',
			companyId: 'cmp_002',
			scopes: ['account:read'],
		});
		const t = await token(sim, {
			clientId: 'k-company-accounts',
			clientSecret: 's-company-accounts',
		});
		const denied = await api(sim, t, '/v1/wallet-summary');
		expect(denied.status).toBe(403);
		expect(err(denied).detail).toBe('Missing scope: wallet-summary:read');
		const ok = await api(sim, t, '/v1/accounts?fetch=100');
		expect(ok.status).toBe(200);
		expect(ids(ok.body.data)).toEqual(ids(sim.data('cmp_002').accounts));
	});
});
