import { SpendeskSimulator } from '../server';
import { api, err, ids, listed, pageItems, token } from './helpers';

/**
 * The documented v1 reference lists, in both profiles (docs/api.md#the-documented-profile):
 * page lists (pageSize ≤ 30), header placement for organisation tokens, their scopes, and
 * `includeArchived` for analytical fields and their values.
 */
describe.each(['specification', 'documented'] as const)(
	'v1 analytical fields, values and expense categories (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		let company: string;
		let org: string;
		const errorCode = (spec: string, documented: string) =>
			profile === 'documented' ? documented : spec;

		beforeAll(async () => {
			sim = new SpendeskSimulator({
				profile,
				seed: {
					companies: 3,
					sizes: { analyticalFields: 33, analyticalFieldValues: 40, expenseCategories: 45 },
				},
			});
			await sim.start();
			company = await token(sim, sim.credentials.companyKey);
			org = await token(sim, sim.credentials.orgKey);
		});
		afterAll(async () => {
			await sim.stop();
		});

		test('GET /v1/analytical-fields pages by page and pageSize, 30 at most, items {id, name, isArchived}', async () => {
			const fields = sim.data('cmp_001').analyticalFields;
			const first = await api(sim, company, '/v1/analytical-fields');
			expect(first.status).toBe(200);
			expect(first.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 33 });
			expect(first.body.data[0]).toEqual({
				id: fields[0].id,
				name: fields[0].name,
				isArchived: false,
			});
			const second = await api(sim, company, '/v1/analytical-fields?page=2&pageSize=30');
			expect(ids(second.body.data)).toEqual(ids(fields.slice(30)));
			const past = await api(sim, company, '/v1/analytical-fields?page=3&pageSize=30');
			expect(past.status).toBe(404);
			const tooBig = await api(sim, company, '/v1/analytical-fields?pageSize=31');
			expect(tooBig.status).toBe(400);
			expect(err(tooBig).code).toBe(
				errorCode('invalid_parameter', 'BAD_REQUEST_INCORRECT_OR_MISSING_FIELD'),
			);
		});

		test('archived analytical fields are listed only with includeArchived=true', async () => {
			const field = sim.data('cmp_002').analyticalFields[1];
			field.isArchived = true;
			try {
				const t = await token(sim, { clientId: 'sim-org-client', clientSecret: 'sim-org-secret' });
				const without = await api(sim, t, '/v1/analytical-fields?pageSize=30', {
					companyId: 'cmp_002',
				});
				expect(ids(without.body.data)).not.toContain(field.id);
				expect(without.body.meta.pagination.total).toBe(32);
				const withArchived = await api(sim, t, '/v1/analytical-fields?includeArchived=true', {
					companyId: 'cmp_002',
				});
				expect(withArchived.body.data[1]).toEqual({
					id: field.id,
					name: field.name,
					isArchived: true,
				});
				const bad = await api(sim, t, '/v1/analytical-fields?includeArchived=yes', {
					companyId: 'cmp_002',
				});
				expect(bad.status).toBe(400);
			} finally {
				field.isArchived = undefined;
			}
		});

		test('GET /v1/analytical-fields/{fieldId}/values pages by 30 at most, items {id, value, isArchived}; the documented profile answers a bare array (docs/api.md#page-lists)', async () => {
			const field = sim.data('cmp_001').analyticalFields[0];
			field.values[2].isArchived = true;
			try {
				const first = await api(sim, company, `/v1/analytical-fields/${field.id}/values`);
				expect(first.status).toBe(200);
				if (profile === 'documented') expect(Array.isArray(first.body)).toBe(true);
				else expect(first.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 39 });
				expect(pageItems(first.body)[0]).toEqual({
					id: field.values[0].id,
					value: field.values[0].name,
					isArchived: false,
				});
				expect(listed(first.body)).toHaveLength(30);
				expect(listed(first.body)).not.toContain(field.values[2].id);
				const second = await api(sim, company, `/v1/analytical-fields/${field.id}/values?page=2`);
				expect(listed(second.body)).toEqual(
					ids(field.values.filter((v) => !v.isArchived).slice(30)),
				);
				const past = await api(sim, company, `/v1/analytical-fields/${field.id}/values?page=3`);
				expect(past.status).toBe(404);
				const all = await api(
					sim,
					company,
					`/v1/analytical-fields/${field.id}/values?includeArchived=true&page=1&pageSize=5`,
				);
				expect(pageItems(all.body)[2]).toMatchObject({ id: field.values[2].id, isArchived: true });
				if (profile === 'specification') expect(all.body.meta.pagination.total).toBe(40);
				const unknown = await api(sim, company, '/v1/analytical-fields/af_nope/values');
				expect(unknown.status).toBe(404);
			} finally {
				field.values[2].isArchived = undefined;
			}
		});

		test('analytical values: a pageSize above 30 is served as 30, not refused (docs/api.md#page-lists)', async () => {
			const field = sim.data('cmp_001').analyticalFields[0];
			for (const pageSize of [31, 100, 1000]) {
				const big = await api(
					sim,
					company,
					`/v1/analytical-fields/${field.id}/values?pageSize=${pageSize}`,
				);
				expect(big.status).toBe(200);
				expect(listed(big.body)).toEqual(ids(field.values.slice(0, 30)));
				if (profile === 'specification')
					expect(big.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 40 });
			}
			const second = await api(
				sim,
				company,
				`/v1/analytical-fields/${field.id}/values?page=2&pageSize=100`,
			);
			expect(listed(second.body)).toEqual(ids(field.values.slice(30)));
			const zero = await api(sim, company, `/v1/analytical-fields/${field.id}/values?pageSize=0`);
			expect(zero.status).toBe(400);
		});

		test('GET /v1/expense-categories pages by 30 at most, items {id, name, costCenters}', async () => {
			const categories = sim.data('cmp_001').expenseCategories;
			const first = await api(sim, company, '/v1/expense-categories');
			expect(first.body.meta.pagination).toEqual({ page: 1, pageSize: 30, total: 45 });
			const center = sim.data('cmp_001').costCenters[0];
			expect(first.body.data[0]).toEqual({
				id: categories[0].id,
				name: categories[0].name,
				costCenters: [{ id: center.id, name: center.name }],
			});
			const second = await api(sim, company, '/v1/expense-categories?page=2');
			expect(ids(second.body.data)).toEqual(ids(categories.slice(30)));
			expect((await api(sim, company, '/v1/expense-categories?pageSize=31')).status).toBe(400);
		});

		test('organisation tokens name the company in X-Company-Id; without it, 400', async () => {
			for (const path of ['/v1/analytical-fields', '/v1/expense-categories']) {
				const named = await api(sim, org, path, { companyId: 'cmp_002' });
				expect(named.status).toBe(200);
				expect(sim.log.at(-1)?.companyId).toBe('cmp_002');
				const unnamed = await api(sim, org, path);
				expect(unnamed.status).toBe(400);
				expect(err(unnamed).source).toBe(errorCode('headers.x-company-id', 'x-company-id'));
			}
			const field = sim.data('cmp_002').analyticalFields[0];
			expect(
				(await api(sim, org, `/v1/analytical-fields/${field.id}/values`, { companyId: 'cmp_002' }))
					.status,
			).toBe(200);
		});

		test('a company-level token reaches its own company whatever the header says', async () => {
			const res = await api(sim, company, '/v1/expense-categories', { companyId: 'cmp_002' });
			expect(res.status).toBe(200);
			expect(sim.log.at(-1)?.companyId).toBe('cmp_001');
		});

		test('scopes: analytical-field:read for fields and values, expense-category:read for categories', async () => {
			sim.addApiKey({
				clientId: `k-categories-${profile}`,
				clientSecret: 's',
				level: 'company',
				companyId: 'cmp_001',
				scopes: ['expense-category:read'],
			});
			const t = await token(sim, { clientId: `k-categories-${profile}`, clientSecret: 's' });
			expect((await api(sim, t, '/v1/expense-categories')).status).toBe(200);
			const field = sim.data('cmp_001').analyticalFields[0];
			for (const path of ['/v1/analytical-fields', `/v1/analytical-fields/${field.id}/values`]) {
				const res = await api(sim, t, path);
				expect(res.status).toBe(403);
				expect(err(res)).toMatchObject({
					code: errorCode('insufficient_scope', 'FORBIDDEN_ERROR'),
					detail: 'Missing scope: analytical-field:read',
				});
			}
			sim.grantScopes(`k-categories-${profile}`, ['analytical-field:read']);
			const t2 = await token(sim, { clientId: `k-categories-${profile}`, clientSecret: 's' });
			expect((await api(sim, t2, '/v1/analytical-fields')).status).toBe(200);
			sim.addApiKey({
				clientId: `k-fields-${profile}`,
				clientSecret: 's',
				level: 'company',
				companyId: 'cmp_001',
				scopes: ['analytical-field:read'],
			});
			const t3 = await token(sim, { clientId: `k-fields-${profile}`, clientSecret: 's' });
			const refused = await api(sim, t3, '/v1/expense-categories');
			expect(refused.status).toBe(403);
			expect(err(refused).detail).toBe('Missing scope: expense-category:read');
		});
	},
);
