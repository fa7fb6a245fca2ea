/**
 * Suppliers as Spendesk reads them back, and the per-supplier archive status, in both profiles
 * (docs/api.md#suppliers-as-read, docs/api.md#supplier-management): reads and writes have two
 * shapes, the writes' nested `supplierDetails` and `bankInfo` read back at the top level.
 */
import { SpendeskSimulator } from '../server';
import { api, err, ids, token } from './helpers';

const READ_KEYS = [
	'address',
	'bankCountry',
	'bankInfo',
	'bic',
	'createdAt',
	'iban',
	'id',
	'isArchived',
	'legalName',
	'name',
	'primaryEmail',
	'registrationNo',
	'updatedAt',
	'vatNo',
];

describe.each(['specification', 'documented'] as const)('suppliers (%s profile)', (profile) => {
	let sim: SpendeskSimulator;
	let company: string;
	let limited: string;
	const single = (body: { data?: unknown }) => (profile === 'documented' ? body : body.data);

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			profile,
			rateLimit: 10_000,
			maxInFlight: undefined,
			seed: { companies: 2, sizes: { invoices: 1, suppliers: 12 } },
			grantScopes: { 'sim-company-client': ['experimental:supplier:manage'] },
		});
		await sim.start();
		company = await token(sim, sim.credentials.companyKey);
		sim.addApiKey({
			clientId: `k-read-${profile}`,
			clientSecret: 's',
			level: 'company',
			companyId: 'cmp_001',
			scopes: ['supplier:read'],
		});
		limited = await token(sim, { clientId: `k-read-${profile}`, clientSecret: 's' });
	});
	afterAll(async () => sim.stop());

	test('GET /v1/suppliers and /v1/suppliers/{id}: details and bank account at the top level, the address nested, bankInfo empty', async () => {
		const res = await api(sim, company, '/v1/suppliers');
		expect(res.status).toBe(200);
		const all = sim.data('cmp_001').suppliers;
		expect(ids(res.body.data)).toEqual(ids(all));
		for (const supplier of res.body.data) {
			expect(Object.keys(supplier).sort()).toEqual(READ_KEYS);
			expect(Object.keys(supplier.address).sort()).toEqual([
				'city',
				'country',
				'line1',
				'postalCode',
			]);
			expect(supplier.bankInfo).toEqual({});
		}
		const withBank = res.body.data.find((s: { iban: unknown }) => s.iban);
		expect(withBank).toMatchObject({
			iban: expect.stringMatching(/^FR76/),
			bic: expect.any(String),
			bankCountry: 'FR',
			vatNo: expect.stringMatching(/^FR/),
		});
		const one = await api(sim, company, `/v1/suppliers/${withBank.id}`);
		expect(single(one.body)).toEqual(withBank);
	});

	test('a supplier written in the nested shape reads back in the read shape', async () => {
		const created = await api(sim, company, '/v1/suppliers', {
			method: 'POST',
			body: [
				{
					name: 'Gamma',
					supplierDetails: {
						legalName: 'Gamma SARL',
						registrationNumber: '552100554',
						vatNumber: 'FR83552100554',
						address: '2 quai Perrache',
						city: 'Lyon',
						zipcode: '69002',
						country: 'FR',
					},
					bankInfo: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', bankCountry: 'DE' },
				},
			],
		});
		expect(created.status).toBe(201);
		const id = created.body.item.id;
		const read = single((await api(sim, company, `/v1/suppliers/${id}`)).body);
		expect(read).toEqual({
			id,
			name: 'Gamma',
			legalName: 'Gamma SARL',
			registrationNo: '552100554',
			vatNo: 'FR83552100554',
			address: { line1: '2 quai Perrache', city: 'Lyon', postalCode: '69002', country: 'FR' },
			iban: 'DE89370400440532013000',
			bic: 'COBADEFFXXX',
			bankCountry: 'DE',
			bankInfo: {},
			primaryEmail: null,
			isArchived: false,
			createdAt: expect.any(String),
			updatedAt: expect.any(String),
		});
		expect(read).not.toHaveProperty('supplierDetails');
		// The documented filters match the fields as read.
		const byVat = await api(sim, company, '/v1/suppliers?vatNumber=FR83552100554&bankCountry=de');
		expect(ids(byVat.body.data)).toEqual([id]);
	});

	test('PATCH /v1/experimental/suppliers/{id}/status {isArchived} archives or unarchives one supplier and answers it', async () => {
		const supplier = sim.data('cmp_001').suppliers[1];
		const path = `/v1/experimental/suppliers/${supplier.id}/status`;
		const archived = await api(sim, company, path, { method: 'PATCH', body: { isArchived: true } });
		expect(archived.status).toBe(200);
		expect(archived.body.data ?? archived.body).toMatchObject({
			id: supplier.id,
			isArchived: true,
		});
		expect(supplier.isArchived).toBe(true);
		await api(sim, company, path, { method: 'PATCH', body: { isArchived: false } });
		expect(supplier.isArchived).toBe(false);
		for (const body of [{}, { isArchived: 'yes' }, { isArchived: true, supplierIds: [] }]) {
			const bad = await api(sim, company, path, { method: 'PATCH', body });
			expect(bad.status).toBe(400);
		}
		const unknown = await api(sim, company, '/v1/experimental/suppliers/sup_nope/status', {
			method: 'PATCH',
			body: { isArchived: true },
		});
		expect(unknown.status).toBe(404);
		const refused = await api(sim, limited, path, { method: 'PATCH', body: { isArchived: true } });
		expect(refused.status).toBe(403);
		if (profile === 'specification')
			expect(err(refused).detail).toBe('Missing scope: experimental:supplier:manage');
		expect(supplier.isArchived).toBe(false);
	});
});
