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
					bookkeepingStatus: 'failedExport',
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
			expect(payable('cmp_001', 1)).toMatchObject({
				version: 2,
				bookkeepingStatus: 'failedExport',
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

		test('a malformed entry is a 400 naming it, and nothing of the call is applied', async () => {
			const p = payable('cmp_001', 10);
			const res = await bulk([
				{ id: p.id, version: 1, bookkeepingStatus: 'exported' },
				{ id: payable('cmp_001', 11).id, version: 1, bookkeepingStatus: 'done' },
			]);
			expect(res.status).toBe(400);
			expect(err(res).source).toBe('body.payables[1].bookkeepingStatus');
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

		test('a state other than exported or failedExport is a 400; an unknown settlement a 404', async () => {
			const s = sim.data('cmp_002').settlements[1];
			const bad = await api(sim, org, `/v1/settlements/${s.id}/state`, {
				method: 'PUT',
				companyId: 'cmp_002',
				body: { state: 'paid' },
			});
			expect(err(bad)).toMatchObject({ code: 'invalid_body', source: 'body.state' });
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
		const create = (suppliers: unknown[], companyId = 'cmp_003') =>
			api(sim, org, '/v1/suppliers', { method: 'POST', companyId, body: { suppliers } });

		test('creates the suppliers, answered in the order sent (201)', async () => {
			const res = await create([
				{ name: 'Beta', iban: 'FR7630006000011234567890189', bic: 'BNPAFRPP' },
				{ name: 'Alpha', externalId: 'acc-1' },
			]);
			expect(res.status).toBe(201);
			expect(res.body.data.map((s: { name: string }) => s.name)).toEqual(['Beta', 'Alpha']);
			expect(res.body.data[1]).toMatchObject({
				externalId: 'acc-1',
				iban: null,
				isArchived: false,
			});
			expect(
				sim
					.data('cmp_003')
					.suppliers.slice(-2)
					.map((s) => s.id),
			).toEqual(res.body.data.map((s: { id: string }) => s.id));
		});

		test('all or nothing: a duplicate externalId or an invalid IBAN is a 400 naming the entry, and nothing is created', async () => {
			const before = sim.data('cmp_003').suppliers.length;
			const dup = await create([
				{ name: 'Gamma', externalId: 'acc-9' },
				{ name: 'Delta', externalId: 'acc-1' },
			]);
			expect(err(dup)).toMatchObject({
				code: 'duplicate_external_id',
				source: 'body.suppliers[1].externalId',
			});
			const iban = await create([{ name: 'Eps', iban: 'FR76 0000' }]);
			expect(err(iban).source).toBe('body.suppliers[0].iban');
			expect(err(await create([{ name: ' ' }])).source).toBe('body.suppliers[0].name');
			expect(sim.data('cmp_003').suppliers).toHaveLength(before);
		});

		test('accepts 1 to 100 suppliers per call', async () => {
			expect((await create([])).status).toBe(400);
			expect(
				(await create(Array.from({ length: 101 }, (_, i) => ({ name: `S${i}` })))).status,
			).toBe(400);
		});

		test('PATCH changes the fields given (null clears); unknown fields are a 400; an unknown supplier a 404', async () => {
			const s = sim.data('cmp_003').suppliers[0];
			const res = await api(sim, org, `/v1/suppliers/${s.id}`, {
				method: 'PATCH',
				companyId: 'cmp_003',
				body: { name: 'Renamed', externalId: null },
			});
			expect(res.status).toBe(200);
			expect(res.body.data).toMatchObject({ id: s.id, name: 'Renamed', externalId: null });
			const unknownField = await api(sim, org, `/v1/suppliers/${s.id}`, {
				method: 'PATCH',
				companyId: 'cmp_003',
				body: { colour: 'red' },
			});
			expect(err(unknownField).source).toBe('body.colour');
			const empty = await api(sim, org, `/v1/suppliers/${s.id}`, {
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
				body: { suppliers: [{ name: 'x' }] },
			});
			expect(err(res).detail).toBe('Missing scope: experimental:supplier:manage');
		});
	});
});
