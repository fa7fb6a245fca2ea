/**
 * An end date given as a day includes that whole day (docs/errors.md, "on or before this date"):
 * Bank Fee and Wallet Load "Until", Purchase Order "Created To", and the payables snapshot's
 * "Created To" and "Payable Date To", through the node over real HTTP to the simulator. A day (no
 * time, or 00:00 without a time zone, which is what n8n's date picker gives) is sent as its last
 * millisecond in the workflow's time zone, so the records of later that day are listed; a moment
 * (a time, a time zone) is sent as it is. One rule covers every date filter of the node's
 * description: a label ending in "To" or "Until" ends with its day (docs/api.md#filters).
 */
import type { INodeProperties } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import type { SpendeskSimulator } from '../simulator';
import { purchaseOrdersOf } from '../simulator/purchaseOrders';
import { expectRefusedBeforeAnyRequest, simulatorPerSuite } from '../support/fixtures';
import { apiRequests, runNode } from '../support/node';
import { oneCompany } from '../support/values';

describe('an end date given as a day includes the whole day', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			snapshotPendingPolls: 0,
			seed: { companies: 2, sizes: { invoices: 1, bankFees: 35, walletLoads: 12 } },
		},
		(started) => (sim = started),
	);

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

/** Every date field of a Filters collection in the node's description, with where it is shown. */
function dateFilters(): Array<{ resource: string; operation: string; field: INodeProperties }> {
	const found: Array<{ resource: string; operation: string; field: INodeProperties }> = [];
	for (const property of new Spendesk().description.properties) {
		if (property.name !== 'filters' || property.type !== 'collection') continue;
		const show = property.displayOptions?.show ?? {};
		for (const resource of (show.resource ?? []) as string[])
			for (const operation of (show.operation ?? []) as string[])
				for (const field of (property.options ?? []) as INodeProperties[])
					if (field.type === 'dateTime') found.push({ resource, operation, field });
	}
	return found;
}

/** Every text anywhere in a query or a body. */
function textsIn(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (value && typeof value === 'object') return Object.values(value).flatMap(textsIn);
	return [];
}

describe('one rule for every date filter: a label ending in To or Until includes its day (docs/api.md#filters)', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{ snapshotPendingPolls: 0, seed: { companies: 1, sizes: { invoices: 1 } } },
		(started) => (sim = started),
	);

	const filters = dateFilters();
	test('the description has end dates and other dates to check', () => {
		const labels = filters.map((f) => `${f.resource}.${f.operation}: ${f.field.displayName}`);
		expect(labels).toEqual(
			expect.arrayContaining([
				'bankFee.getAll: Until',
				'payable.getAllSnapshot: Created To',
				'payable.getAllSnapshot: Payable Date To',
				'purchaseOrder.getAll: Created To',
				'supplier.getAll: Created Before',
			]),
		);
	});

	test.each(filters.map((f) => [f.resource, f.operation, f.field.displayName, f.field.name]))(
		'%s → %s, %s given as the day 2026-01-10',
		async (resource, operation, label, name) => {
			const endsItsDay = /\b(To|Until)$/.test(label);
			await runNode(sim, 'orgKey', {
				resource,
				operation,
				...oneCompany('cmp_001'),
				returnAll: true,
				filters: { [name]: '2026-01-10' },
			});
			const [first] = apiRequests(sim);
			const sent = textsIn([first.query, first.body]);
			const end = '2026-01-10T23:59:59.999Z';
			const start = '2026-01-10T00:00:00.000Z';
			expect(sent).toContain(endsItsDay ? end : start);
			expect(sent).not.toContain(endsItsDay ? start : end);
		},
	);
});

describe.each(['specification', 'documented'] as const)(
	'Payable → Get Many as Snapshot: an end date given as a day includes that day (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		simulatorPerSuite(
			{ profile, snapshotPendingPolls: 0, seed: { companies: 1, sizes: { payables: 8 } } },
			(started) => (sim = started),
		);
		// Four payables around 2026-01-10: the evening before, that morning, that afternoon and
		// the next midnight (the payable date is the day of creation).
		const AROUND = [
			'2026-01-09T20:30:00.000Z',
			'2026-01-10T08:00:00.000Z',
			'2026-01-10T15:30:00.000Z',
			'2026-01-11T00:00:00.000Z',
		];
		let around: string[];
		beforeEach(() => {
			const payables = sim.data('cmp_001').payables;
			AROUND.forEach((at, i) => (payables[i].createdAt = at));
			around = payables.slice(0, 4).map((p) => p.id);
		});

		const snapshot = async (filters: IDataObject, timezone = 'UTC') => {
			const { out } = await runNode(
				sim,
				'orgKey',
				{
					resource: 'payable',
					operation: 'getAllSnapshot',
					...oneCompany('cmp_001'),
					returnAll: true,
					filters,
				},
				{ timezone },
			);
			return {
				ids: out.map((i) => String(i.json.id)),
				body: sim.requestsTo('createPayablesSnapshot')[0].body as IDataObject,
			};
		};

		test('Created From and Created To the same day: the payable of that afternoon is listed', async () => {
			const { ids, body } = await snapshot({ createdFrom: '2026-01-10', createdTo: '2026-01-10' });
			expect(body).toEqual({
				createdFrom: '2026-01-10T00:00:00.000Z',
				createdTo: '2026-01-10T23:59:59.999Z',
			});
			expect(ids).toEqual([around[1], around[2]]);
		});

		test('Payable Date From and To the same day in Europe/Paris: the payables dated that day are listed', async () => {
			const { ids, body } = await snapshot(
				{ fromPayableDate: '2026-01-10', toPayableDate: '2026-01-10' },
				'Europe/Paris',
			);
			expect(body).toEqual({
				fromPayableDate: '2026-01-09T23:00:00.000Z',
				toPayableDate: '2026-01-10T22:59:59.999Z',
			});
			expect(ids).toEqual([around[1], around[2]]);
		});

		test('a moment stays a moment: Created To 2026-01-10T12:00:00Z leaves the afternoon out', async () => {
			const { ids, body } = await snapshot({
				createdFrom: '2026-01-10',
				createdTo: '2026-01-10T12:00:00Z',
			});
			expect(body.createdTo).toBe('2026-01-10T12:00:00.000Z');
			expect(ids).toEqual([around[1]]);
		});

		test.each([
			['2026-01-01', '2026-01-31', 'UTC', '2026-01-31T23:59:59.999Z'],
			['2026-01-01', '2026-02-01', 'UTC', '2026-02-01T23:59:59.999Z'],
			// 31 days with the clock going back an hour: 31 days and one hour long.
			['2026-10-01', '2026-10-31', 'Europe/Paris', '2026-10-31T22:59:59.999Z'],
		])(
			'Payable Date From %s and To %s as days (%s): at most 31 days apart, sent and answered',
			async (from, to, timezone, sentTo) => {
				const { body } = await snapshot({ fromPayableDate: from, toPayableDate: to }, timezone);
				expect(body.toPayableDate).toBe(sentTo);
				expect(sim.requestsTo('createPayablesSnapshot')).toHaveLength(1);
			},
		);

		test('Payable Date From 2026-01-01 and To 2026-02-02 as days: 32 days apart, refused before any request', async () => {
			const error = await expectRefusedBeforeAnyRequest(
				sim,
				snapshot({ fromPayableDate: '2026-01-01', toPayableDate: '2026-02-02' }),
				"'Payable Date From' and 'Payable Date To' are 32 days apart: Spendesk allows at most 31",
			);
			expect(error.description).toContain('Nothing was sent.');
		});
	},
);
