/**
 * Conformance of the real-world variations (docs/api.md#variations), as the
 * simulator serves them on request (fault kinds and options), over real HTTP.
 */
import { DEFAULT_SUNSET, SpendeskSimulator } from '../server';
import { api, err, ids, token } from './helpers';

describe('real-world variations', () => {
	let sim: SpendeskSimulator;
	let org: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({
			seed: { sizes: { invoices: 2, payables: 12, analyticalFieldValues: 70 } },
		});
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
	});
	afterAll(async () => sim.stop());
	afterEach(() => {
		sim.clearFaults();
		sim.configure({ analyticalValuesMaxReturn: undefined, snapshotBuildConflict: undefined });
	});

	test('dataEnvelope: the payables search answers { data, nextCursor } instead of { payables, nextCursor }', async () => {
		sim.injectFault({ route: 'searchPayables', kind: 'dataEnvelope' });
		const res = await api(sim, org, '/v1/payables/search', {
			companyId: 'cmp_001',
			body: { limit: 5 },
		});
		expect(res.status).toBe(200);
		expect(res.body).not.toHaveProperty('payables');
		expect(ids(res.body.data)).toEqual(ids(sim.data('cmp_001').payables.slice(0, 5)));
		expect(typeof res.body.nextCursor).toBe('string');
		const next = await api(sim, org, '/v1/payables/search', {
			companyId: 'cmp_001',
			body: { limit: 5, cursor: res.body.nextCursor },
		});
		expect(ids(next.body.payables)).toEqual(ids(sim.data('cmp_001').payables.slice(5, 10)));
	});

	test('bareObject: single objects come without the data wrapper (supplier, user, wallet summary, settlement state)', async () => {
		const data = sim.data('cmp_001');
		const cases: Array<[Parameters<typeof sim.injectFault>[0]['route'], string, object]> = [
			['getSupplier', `/v1/suppliers/${data.suppliers[0].id}`, data.suppliers[0]],
			['getUser', `/v1/users/${data.users[0].id}`, data.users[0]],
			['walletSummary', '/v1/wallet-summary', data.walletSummary],
		];
		for (const [route, path, expected] of cases) {
			const wrapped = await api(sim, org, path, { companyId: 'cmp_001' });
			// The wallet summary comes with `meta` as the vendor's older document shows it.
			expect(wrapped.body).toMatchObject({ data: JSON.parse(JSON.stringify(expected)) });
			sim.injectFault({ route, kind: 'bareObject' });
			const bare = await api(sim, org, path, { companyId: 'cmp_001' });
			expect(bare.body).toEqual(JSON.parse(JSON.stringify(expected)));
		}
		sim.injectFault({ route: 'updateSettlementState', kind: 'bareObject' });
		const settlement = data.settlements[0];
		const state = await api(sim, org, `/v1/settlements/${settlement.id}/state`, {
			method: 'PUT',
			companyId: 'cmp_001',
			body: { state: 'exported' },
		});
		expect(state.body).toMatchObject({ id: settlement.id, state: 'exported' });
		expect(state.body).not.toHaveProperty('data');
	});

	test('valueLabels: analytical values carry their label as value instead of name', async () => {
		const field = sim.data('cmp_001').analyticalFields[0];
		sim.injectFault({ route: 'listAnalyticalFieldValues', kind: 'valueLabels' });
		const res = await api(sim, org, `/v2/analytical-fields/${field.id}/values?limit=3`, {
			companyId: 'cmp_001',
		});
		expect(res.body.data).toEqual(
			field.values.slice(0, 3).map(({ id, name }) => ({ id, value: name })),
		);
	});

	test('valueLabels: the analytical fields list carries the labels as value too', async () => {
		sim.injectFault({ route: 'listAnalyticalFields', kind: 'valueLabels' });
		const res = await api(sim, org, '/v2/analytical-fields', { companyId: 'cmp_001' });
		expect(res.body.data).toEqual(
			sim.data('cmp_001').analyticalFields.map(({ id, name }) => ({ id, value: name })),
		);
	});

	test('analyticalValuesMaxReturn 30: a values page holds 30 whatever the limit asked, and the cursor goes on from there', async () => {
		sim.configure({ analyticalValuesMaxReturn: 30 });
		const field = sim.data('cmp_001').analyticalFields[1];
		const res = await api(sim, org, `/v2/analytical-fields/${field.id}/values?limit=1000`, {
			companyId: 'cmp_001',
		});
		expect(res.body.data).toHaveLength(30);
		expect(res.body.meta.pagination).toMatchObject({ limit: 1000, hasNextPage: true });
		const next = await api(
			sim,
			org,
			`/v2/analytical-fields/${field.id}/values?limit=1000&cursor=${res.body.meta.pagination.nextCursor}`,
			{ companyId: 'cmp_001' },
		);
		expect(ids(next.body.data)).toEqual(ids(field.values.slice(30, 60)));
	});

	test('snapshotConflict: creating a payables snapshot answers 409 with the error body (and Retry-After when asked)', async () => {
		sim.injectFault({
			route: 'createPayablesSnapshot',
			kind: 'snapshotConflict',
			retryAfterSeconds: 2,
		});
		const res = await api(sim, org, '/v1/snapshots/payables', { companyId: 'cmp_001', body: {} });
		expect(res.status).toBe(409);
		expect(err(res).code).toBe('snapshot_in_progress');
		expect(res.headers.get('retry-after')).toBe('2');
	});

	test('snapshotBuildConflict: while a snapshot of the company is PENDING, another one is a 409; other companies and the same key are not held up', async () => {
		sim.configure({ snapshotBuildConflict: true, snapshotPendingPolls: 1 });
		const first = await api(sim, org, '/v1/snapshots/payables', {
			companyId: 'cmp_002',
			body: { bookkeepingStatus: ['exported'] },
		});
		expect(first.status).toBe(201);
		expect(
			(
				await api(sim, org, '/v1/snapshots/payables', {
					companyId: 'cmp_002',
					body: { bookkeepingStatus: ['created'] },
				})
			).status,
		).toBe(409);
		expect(
			(
				await api(sim, org, '/v1/snapshots/payables', {
					companyId: 'cmp_002',
					body: { bookkeepingStatus: ['exported'] },
				})
			).status,
		).toBe(201);
		expect(
			(
				await api(sim, org, '/v1/snapshots/payables', {
					companyId: 'cmp_003',
					body: { bookkeepingStatus: ['created'] },
				})
			).status,
		).toBe(201);
		// Polled past PENDING, the first snapshot is built: the other one may start.
		await api(sim, org, `/v1/snapshots/payables/${first.body.key}`, { companyId: 'cmp_002' });
		expect(
			(await api(sim, org, `/v1/snapshots/payables/${first.body.key}`, { companyId: 'cmp_002' }))
				.body.status,
		).toBe('COMPLETE');
		expect(
			(
				await api(sim, org, '/v1/snapshots/payables', {
					companyId: 'cmp_002',
					body: { bookkeepingStatus: ['created'] },
				})
			).status,
		).toBe(201);
	});

	test('deprecated: a normal answer with Deprecation: true and a Sunset date', async () => {
		sim.injectFault({ route: 'listSuppliers', kind: 'deprecated' });
		const res = await api(sim, org, '/v1/suppliers', { companyId: 'cmp_001' });
		expect(res.status).toBe(200);
		expect(res.body.data).toHaveLength(30);
		expect(res.headers.get('deprecation')).toBe('true');
		expect(res.headers.get('sunset')).toBe(DEFAULT_SUNSET);
		const plain = await api(sim, org, '/v1/suppliers', { companyId: 'cmp_001' });
		expect(plain.headers.get('deprecation')).toBeNull();
	});
});
