/**
 * An end date given as a day includes that whole day (docs/errors.md, "on or before this date"):
 * Bank Fee and Wallet Load "Until" and Purchase Order "Created To", through the node over real
 * HTTP to the simulator. A day (no time, or 00:00 without a time zone, which is what n8n's date
 * picker gives) is sent as its last millisecond in the workflow's time zone, so the records of
 * later that day are listed; a moment (a time, a time zone) is sent as it is.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { purchaseOrdersOf } from '../simulator/purchaseOrders';
import { resetTransport, startSimulator } from '../support/fixtures';
import { apiRequests, runNode } from '../support/node';

describe('an end date given as a day includes the whole day', () => {
	let sim: SpendeskSimulator;
	beforeAll(async () => {
		sim = await startSimulator({
			seed: { companies: 2, sizes: { invoices: 1, bankFees: 35, walletLoads: 12 } },
		});
	});
	afterAll(async () => sim.stop());
	beforeEach(() => {
		resetTransport();
		sim.clearFaults();
	});

	const list = async (resource: string, filters: IDataObject, timezone = 'UTC') => {
		const { out } = await runNode(
			sim,
			'orgKey',
			{ resource, operation: 'getAll', company: 'cmp_001', returnAll: true, filters },
			{ timezone },
		);
		return { ids: out.map((i) => String(i.json.id)), query: apiRequests(sim)[0].query };
	};

	// Bank fees every 12 hours from 2026-01-01T12:00Z: one at midnight and one at noon each day.
	test.each(['2026-01-02', '2026-01-02T00:00:00', '2026-01-02 00:00'])(
		'Bank Fee Until %s: the fees of noon that day are listed',
		async (until) => {
			const fees = sim.data('cmp_001').bankFees;
			const { ids, query } = await list('bankFee', { to: until });
			expect(query.to).toBe('2026-01-02T23:59:59.999Z');
			expect(ids).toEqual(fees.filter((f) => f.createdAt < '2026-01-03').map((f) => f.id));
			expect(ids).toContain(fees.find((f) => f.createdAt === '2026-01-02T12:00:00.000Z')!.id);
		},
	);

	test('Bank Fee From and Until the same day: that day, both fees', async () => {
		const { ids } = await list('bankFee', { from: '2026-01-05', to: '2026-01-05' });
		expect(ids).toEqual(
			sim
				.data('cmp_001')
				.bankFees.filter((f) => f.createdAt.startsWith('2026-01-05'))
				.map((f) => f.id),
		);
		expect(ids).toHaveLength(2);
	});

	test('a moment is kept as it is: Until 2026-01-02T00:00:00Z leaves the noon fee out', async () => {
		const { ids, query } = await list('bankFee', { to: '2026-01-02T00:00:00Z' });
		expect(query.to).toBe('2026-01-02T00:00:00.000Z');
		expect(ids).not.toContain(
			sim.data('cmp_001').bankFees.find((f) => f.createdAt === '2026-01-02T12:00:00.000Z')!.id,
		);
		const later = await list('bankFee', { to: '2026-01-02T06:00:00' });
		expect(later.query.to).toBe('2026-01-02T06:00:00.000Z');
	});

	// Wallet loads every 3 days at 00:00Z: in Paris (UTC+1) each falls at 01:00 local time.
	test('Wallet Load Until 2026-01-04 in Europe/Paris: the load of 01:00 that day is listed', async () => {
		const loads = sim.data('cmp_001').walletLoads;
		const { ids, query } = await list('walletLoad', { to: '2026-01-04' }, 'Europe/Paris');
		expect(query.to).toBe('2026-01-04T22:59:59.999Z');
		expect(loads[0].createdAt).toBe('2026-01-04T00:00:00.000Z');
		expect(ids).toEqual([loads[0].id]);
	});

	test('a day with a clock change is whole too (Europe/Paris, 2026-03-29, 23 hours)', async () => {
		const { query } = await list('walletLoad', { to: '2026-03-29' }, 'Europe/Paris');
		expect(query.to).toBe('2026-03-29T21:59:59.999Z');
	});

	test('Purchase Order Created To a day: an order created that afternoon is listed', async () => {
		const orders = purchaseOrdersOf(sim, 'cmp_001');
		const morning = orders.find((o) => o.createdAt === '2026-01-10T00:00:00.000Z')!;
		const afternoon = { ...morning, id: 'po_001_90001', createdAt: '2026-01-10T15:30:00.000Z' };
		orders.splice(orders.indexOf(morning) + 1, 0, afternoon);
		try {
			const { ids, query } = await list('purchaseOrder', {
				createdFrom: '2026-01-10',
				createdTo: '2026-01-10',
			});
			expect(query).toMatchObject({
				createdFrom: '2026-01-10T00:00:00.000Z',
				createdTo: '2026-01-10T23:59:59.999Z',
			});
			expect(ids).toEqual([morning.id, afternoon.id]);
		} finally {
			orders.splice(orders.indexOf(afternoon), 1);
		}
	});
});
