import { SpendeskSimulator } from '../server';
import type { BookkeptPayable } from '../writes';
import { api, err, token } from './helpers';

describe('writes (docs/api.md#bulk-writes)', () => {
	let sim: SpendeskSimulator;
	let org: string;
	let limited: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			seed: { sizes: { invoices: 2, payables: 120, settlements: 3, suppliers: 3 } },
		});
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
		limited = await token(sim, sim.credentials.orgKeyNoExperimental);
	});
	afterAll(async () => sim.stop());

	const bulk = (payables: unknown[], companyId = 'cmp_001', t = org) =>
		api(sim, t, '/v1/payables/bookkeeping-status', {
			method: 'PUT',
			companyId,
			body: { payables },
		});
	const payable = (company: string, index: number) =>
		sim.data(company).payables[index] as BookkeptPayable;

	describe('PUT /v1/payables/bookkeeping-status', () => {
		test('updated: one result per entry in the order sent; the version moves on by one', async () => {
			const [a, b] = [payable('cmp_001', 0), payable('cmp_001', 1)];
			const res = await bulk([
				{
					id: b.id,
					version: 1,
					bookkeepingStatus: 'failedToExport',
					failureReason: 'No ledger account',
				},
				{ id: a.id, version: 1, bookkeepingStatus: 'exported' },
			]);
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				data: [
					{ id: b.id, status: 'updated', version: 2 },
					{ id: a.id, status: 'updated', version: 2 },
				],
			});
			// The status written is the payable state read back.
			expect(payable('cmp_001', 1)).toMatchObject({
				version: 2,
				bookkeepingStatus: 'failedToExport',
				failureReason: 'No ledger account',
			});
		});

		test('conflict: a stale version is refused for that entry only, with the current version', async () => {
			const [a, b] = [payable('cmp_001', 2), payable('cmp_001', 3)];
			const res = await bulk([
				{ id: a.id, version: 5, bookkeepingStatus: 'exported' },
				{ id: b.id, version: 1, bookkeepingStatus: 'exported' },
			]);
			expect(res.body.data).toEqual([
				{ id: a.id, status: 'conflict', version: 1 },
				{ id: b.id, status: 'updated', version: 2 },
			]);
			expect(payable('cmp_001', 2).version).toBeUndefined();
		});

		test('a replay of an applied update answers conflict and changes nothing', async () => {
			const p = payable('cmp_001', 4);
			await bulk([{ id: p.id, version: 1, bookkeepingStatus: 'exported' }]);
			const replay = await bulk([{ id: p.id, version: 1, bookkeepingStatus: 'exported' }]);
			expect(replay.body.data).toEqual([{ id: p.id, status: 'conflict', version: 2 }]);
			expect(payable('cmp_001', 4).version).toBe(2);
		});

		test('not_found: an unknown payable, or one of another company', async () => {
			const other = payable('cmp_002', 0);
			const res = await bulk([
				{ id: 'pay_nope', version: 1, bookkeepingStatus: 'exported' },
				{ id: other.id, version: 1, bookkeepingStatus: 'exported' },
			]);
			expect(res.body.data).toEqual([
				{ id: 'pay_nope', status: 'not_found', version: null },
				{ id: other.id, status: 'not_found', version: null },
			]);
		});

		test('accepts 1 to 100 entries: 0 and 101 are a 400', async () => {
			expect(err(await bulk([]))).toMatchObject({ code: 'invalid_body', source: 'body.payables' });
			const many = Array.from({ length: 101 }, (_, i) => ({
				id: payable('cmp_001', i).id,
				version: 1,
				bookkeepingStatus: 'exported',
			}));
			expect((await bulk(many)).status).toBe(400);
		});

		test('a malformed entry (a status not failedToExport or exported, e.g. failedExport) is a 400 naming it, and nothing of the call is applied', async () => {
			const p = payable('cmp_001', 10);
			for (const status of ['done', 'failedExport']) {
				const res = await bulk([
					{ id: p.id, version: 1, bookkeepingStatus: 'exported' },
					{ id: payable('cmp_001', 11).id, version: 1, bookkeepingStatus: status },
				]);
				expect(res.status).toBe(400);
				expect(err(res).source).toBe('body.payables[1].bookkeepingStatus');
			}
			expect(payable('cmp_001', 10).version).toBeUndefined();
			const reason = await bulk([
				{ id: p.id, version: 1, bookkeepingStatus: 'exported', failureReason: 'x' },
			]);
			expect(err(reason).source).toBe('body.payables[0].failureReason');
		});

		test('needs experimental:accounting:update, and X-Company-Id for an organisation token', async () => {
			const res = await bulk(
				[{ id: 'x', version: 1, bookkeepingStatus: 'exported' }],
				'cmp_001',
				limited,
			);
			expect(res.status).toBe(403);
			expect(err(res).detail).toBe('Missing scope: experimental:accounting:update');
			const noCompany = await api(sim, org, '/v1/payables/bookkeeping-status', {
				method: 'PUT',
				body: { payables: [] },
			});
			expect(noCompany.status).toBe(400);
			expect(err(noCompany).source).toBe('headers.x-company-id');
		});
	});

	describe('PUT /v1/settlements/{settlementId}/state', () => {
		test('sets the state and answers the settlement', async () => {
			const s = sim.data('cmp_002').settlements[0];
			const res = await api(sim, org, `/v1/settlements/${s.id}/state`, {
				method: 'PUT',
				companyId: 'cmp_002',
				body: { state: 'exported' },
			});
			expect(res.status).toBe(200);
			expect(res.body.data).toEqual({ ...JSON.parse(JSON.stringify(s)), state: 'exported' });
		});

		test('failedToExport is the documented failure state; failedExport or another state is a 400; an unknown settlement a 404', async () => {
			const s = sim.data('cmp_002').settlements[1];
			const failed = await api(sim, org, `/v1/settlements/${s.id}/state`, {
				method: 'PUT',
				companyId: 'cmp_002',
				body: { state: 'failedToExport' },
			});
			expect(failed.status).toBe(200);
			expect(failed.body.data).toMatchObject({ id: s.id, state: 'failedToExport' });
			for (const state of ['failedExport', 'paid']) {
				const bad = await api(sim, org, `/v1/settlements/${s.id}/state`, {
					method: 'PUT',
					companyId: 'cmp_002',
					body: { state },
				});
				expect(bad.status).toBe(400);
				expect(err(bad)).toMatchObject({ code: 'invalid_body', source: 'body.state' });
			}
			const unknown = await api(sim, org, '/v1/settlements/stl_nope/state', {
				method: 'PUT',
				companyId: 'cmp_002',
				body: { state: 'exported' },
			});
			expect(unknown.status).toBe(404);
		});

		test('needs experimental:settlement:update', async () => {
			const res = await api(sim, limited, '/v1/settlements/x/state', {
				method: 'PUT',
				companyId: 'cmp_002',
				body: { state: 'exported' },
			});
			expect(err(res).detail).toBe('Missing scope: experimental:settlement:update');
		});
	});

	describe('POST /v1/suppliers and PATCH /v1/suppliers/{supplierId}', () => {
		const create = (suppliers: unknown, companyId = 'cmp_003') =>
			api(sim, org, '/v1/suppliers', { method: 'POST', companyId, body: suppliers });
		const full = {
			name: 'Beta',
			primaryEmail: 'billing@beta.example',
			supplierDetails: {
				legalName: 'Beta SAS',
				vatNumber: 'FR40303265045',
				country: 'FR',
				city: 'Paris',
				zipcode: '75002',
				address: '1 rue de la Paix',
				registrationNumber: '303265045',
			},
			bankInfo: { iban: 'FR7630006000011234567890189', bic: 'BNPAFRPP', bankCountry: 'FR' },
		};

		/** `full` as Spendesk reads it back (docs/api.md#suppliers-as-read). */
		const fullAsRead = {
			name: 'Beta',
			primaryEmail: 'billing@beta.example',
			legalName: 'Beta SAS',
			registrationNo: '303265045',
			vatNo: 'FR40303265045',
			address: { line1: '1 rue de la Paix', city: 'Paris', postalCode: '75002', country: 'FR' },
			iban: 'FR7630006000011234567890189',
			bic: 'BNPAFRPP',
			bankCountry: 'FR',
			bankInfo: {},
		};

		test('the body is a JSON array in the nested shape; 201 { items: [{ outcome, supplier }] } in the order sent, each supplier as read', async () => {
			const res = await create([full, { name: 'Alpha' }]);
			expect(res.status).toBe(201);
			expect(res.body.items.map((i: { outcome: string }) => i.outcome)).toEqual([
				'created',
				'created',
			]);
			const [beta, alpha] = res.body.items.map((i: { supplier: object }) => i.supplier);
			expect(beta).toEqual({
				id: expect.any(String),
				...fullAsRead,
				isArchived: false,
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
			});
			expect(beta).not.toHaveProperty('supplierDetails');
			expect(alpha).toMatchObject({
				name: 'Alpha',
				primaryEmail: null,
				iban: null,
				vatNo: null,
				address: { line1: null, city: null, postalCode: null, country: null },
			});
			expect(
				sim
					.data('cmp_003')
					.suppliers.slice(-2)
					.map((s) => s.id),
			).toEqual([beta.id, alpha.id]);
		});

		test('one supplier is answered { item: supplier }', async () => {
			const res = await create([{ name: 'Solo' }]);
			expect(res.status).toBe(201);
			expect(res.body).toEqual({
				item: expect.objectContaining({ id: expect.any(String), name: 'Solo' }),
			});
			expect(sim.data('cmp_003').suppliers.at(-1)!.id).toBe(res.body.item.id);
		});

		test('strict: unknown properties are a 400 "must NOT have additional properties" naming them; nothing is created', async () => {
			const before = sim.data('cmp_003').suppliers.length;
			for (const [body, source] of [
				[[{ name: 'Gamma', externalId: 'acc-9' }], 'body[0].externalId'],
				[
					[{ name: 'Gamma' }, { name: 'Delta', iban: 'FR7630006000011234567890189' }],
					'body[1].iban',
				],
				[
					[{ name: 'Eps', bankInfo: { iban: 'FR7630006000011234567890189', owner: 'x' } }],
					'body[0].bankInfo.owner',
				],
				[[{ name: 'Eps', supplierDetails: { siren: '1' } }], 'body[0].supplierDetails.siren'],
			] as const) {
				const res = await create(body);
				expect(res.status).toBe(400);
				expect(err(res)).toMatchObject({
					detail: 'must NOT have additional properties',
					source,
				});
			}
			expect(sim.data('cmp_003').suppliers).toHaveLength(before);
		});

		test('invalid values are a 400 naming them: IBAN, country, e-mail, an empty name; nothing is created', async () => {
			const before = sim.data('cmp_003').suppliers.length;
			expect(err(await create([{ name: 'Eps', bankInfo: { iban: 'FR76 0000' } }])).source).toBe(
				'body[0].bankInfo.iban',
			);
			expect(
				err(await create([{ name: 'Eps', supplierDetails: { country: 'France' } }])).source,
			).toBe('body[0].supplierDetails.country');
			expect(err(await create([{ name: 'Eps', primaryEmail: 'nope' }])).source).toBe(
				'body[0].primaryEmail',
			);
			expect(err(await create([{ name: ' ' }])).source).toBe('body[0].name');
			expect(sim.data('cmp_003').suppliers).toHaveLength(before);
		});

		test('accepts 1 to 100 suppliers per call, as an array (the former { suppliers } object is a 400)', async () => {
			expect((await create([])).status).toBe(400);
			expect(
				(await create(Array.from({ length: 101 }, (_, i) => ({ name: `S${i}` })))).status,
			).toBe(400);
			const wrapped = await create({ suppliers: [{ name: 'Old' }] });
			expect(wrapped.status).toBe(400);
			expect(err(wrapped).source).toBe('body');
		});

		test('PATCH takes the same nested shape: fields given change (null clears), others stay; unknown properties are a 400; an unknown supplier a 404', async () => {
			const created = (await create([full])).body.item;
			const res = await api(sim, org, `/v1/suppliers/${created.id}`, {
				method: 'PATCH',
				companyId: 'cmp_003',
				body: {
					name: 'Renamed',
					supplierDetails: { city: 'Lyon', zipcode: null },
					bankInfo: { bic: null },
				},
			});
			expect(res.status).toBe(200);
			expect(res.body.data).toEqual({
				...created,
				...fullAsRead,
				name: 'Renamed',
				address: { ...fullAsRead.address, city: 'Lyon', postalCode: null },
				bic: null,
				updatedAt: expect.any(String),
			});
			for (const [body, source] of [
				[{ externalId: 'x' }, 'body.externalId'],
				[{ isArchived: true }, 'body.isArchived'],
				[{ supplierDetails: { colour: 'red' } }, 'body.supplierDetails.colour'],
			] as const) {
				const refused = await api(sim, org, `/v1/suppliers/${created.id}`, {
					method: 'PATCH',
					companyId: 'cmp_003',
					body,
				});
				expect(err(refused)).toMatchObject({
					detail: 'must NOT have additional properties',
					source,
				});
			}
			const empty = await api(sim, org, `/v1/suppliers/${created.id}`, {
				method: 'PATCH',
				companyId: 'cmp_003',
				body: {},
			});
			expect(empty.status).toBe(400);
			const unknown = await api(sim, org, '/v1/suppliers/sup_nope', {
				method: 'PATCH',
				companyId: 'cmp_003',
				body: { name: 'x' },
			});
			expect(unknown.status).toBe(404);
		});

		test('need experimental:supplier:manage', async () => {
			const res = await api(sim, limited, '/v1/suppliers', {
				method: 'POST',
				companyId: 'cmp_003',
				body: [{ name: 'x' }],
			});
			expect(err(res).detail).toBe('Missing scope: experimental:supplier:manage');
		});
	});
});
