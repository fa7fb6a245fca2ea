/**
 * First activation of the Spendesk Trigger: "Start From: Now" emits nothing, whatever exists;
 * "Start From: A Date" emits exactly the invoices with updatedAt >= Since (inclusive), oldest
 * first, once — the next poll emits nothing.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { resetTransport, startSimulator, triggerFor } from '../support/fixtures';
import type { TriggerEvent } from '../support/fixtures';
import { oneCompany } from '../support/values';

const EVENTS: TriggerEvent[] = ['newInvoice', 'newOrUpdatedInvoice'];

describe('Spendesk Trigger: first activation', () => {
	let sim: SpendeskSimulator;
	beforeEach(async () => {
		resetTransport();
		// 120 invoices per company: a backlog of more than one page (the trigger asks 100); their
		// updatedAt values fall on 4-hour grains, so several invoices share each one.
		sim = await startSimulator({ seed: { sizes: { invoices: 120 }, invoicesPerTimestamp: 240 } });
	});
	afterEach(async () => {
		await sim.stop();
		resetTransport();
	});

	const trigger = async (parameters: IDataObject, staticData: IDataObject = {}) =>
		await triggerFor(sim, parameters, { staticData });

	/** The ids the API lists for updatedAt >= since, oldest first (ties by id). */
	const expectedSince = (company: string, since: string) =>
		sim
			.invoicesSorted(company, 'updatedAt', 'asc')
			.filter((i) => Date.parse(i.updatedAt) >= Date.parse(since))
			.map((i) => i.id);

	/** An updatedAt in the middle of a company's history that several invoices share (tests the >=). */
	function sharedTimestamp(company: string): string {
		const list = sim.invoicesSorted(company, 'updatedAt', 'asc');
		for (let i = Math.floor(list.length / 2); i < list.length - 1; i++) {
			if (
				list[i].updatedAt === list[i + 1].updatedAt &&
				list[i - 1].updatedAt !== list[i].updatedAt
			)
				return list[i].updatedAt;
		}
		throw new Error('the seed has no shared updatedAt in the second half');
	}

	describe.each(EVENTS)('%s', (event) => {
		test('Start From Now: the first poll returns null although invoices exist, and so does the next', async () => {
			expect(sim.invoicesSorted('cmp_001')).toHaveLength(120);
			const t = await trigger({
				event,
				...oneCompany('cmp_001'),
				startFrom: 'now',
				options: {},
			});
			expect(await t.raw()).toBeNull();
			sim.clock.advance(60_000);
			expect(await t.raw()).toBeNull();
		});

		test('Start From Now, several companies: nothing on activation, then only what is new', async () => {
			const t = await trigger({
				event,
				companies: 'several',
				companyIds: ['cmp_001', 'cmp_002'],
				startFrom: 'now',
				options: {},
			});
			expect(await t.raw()).toBeNull();
			sim.clock.advance(60_000);
			const fresh = sim.insertInvoice('cmp_002');
			expect((await t.poll()).map((i) => [i.companyId, i.id])).toEqual([['cmp_002', fresh.id]]);
		});

		test('Start From A Date: exactly the invoices updated since (inclusive), oldest first; the next poll emits nothing', async () => {
			const since = sharedTimestamp('cmp_001');
			const expected = expectedSince('cmp_001', since);
			expect(expected.length).toBeGreaterThan(1);
			expect(expected.length).toBeLessThan(120);
			const t = await trigger({
				event,
				...oneCompany('cmp_001'),
				startFrom: 'date',
				since,
				options: {},
			});
			expect((await t.poll()).map((i) => i.id)).toEqual(expected);
			sim.clock.advance(60_000);
			expect(await t.raw()).toBeNull();
			// Since is used on first activation only: a new invoice is emitted once, alone.
			const fresh = sim.insertInvoice('cmp_001');
			expect((await t.poll()).map((i) => i.id)).toEqual([fresh.id]);
			expect(await t.raw()).toBeNull();
		});

		test('Start From A Date far in the past: the whole backlog (two pages), oldest first, then nothing', async () => {
			const since = '2000-01-01T00:00:00.000Z';
			const t = await trigger({
				event,
				...oneCompany('cmp_003'),
				startFrom: 'date',
				since,
				options: {},
			});
			const items = await t.poll();
			expect(items.map((i) => i.id)).toEqual(
				sim.invoicesSorted('cmp_003', 'updatedAt', 'asc').map((i) => i.id),
			);
			expect(items).toHaveLength(120);
			expect(await t.raw()).toBeNull();
		});

		test('Start From A Date, several companies: each company its own invoices since, oldest first, tagged with the company', async () => {
			const since = sharedTimestamp('cmp_002');
			const t = await trigger({
				event,
				companies: 'several',
				companyIds: ['cmp_001', 'cmp_002'],
				startFrom: 'date',
				since,
				options: {},
			});
			const items = await t.poll();
			for (const company of ['cmp_001', 'cmp_002']) {
				expect(items.filter((i) => i.companyId === company).map((i) => i.id)).toEqual(
					expectedSince(company, since),
				);
			}
			expect(items).toHaveLength(
				expectedSince('cmp_001', since).length + expectedSince('cmp_002', since).length,
			);
			expect(await t.raw()).toBeNull();
		});

		test('Start From A Date later than every invoice: nothing on activation, nothing on the next poll', async () => {
			// A user activating with "since yesterday" on an account whose last invoice is older.
			const newest = sim.invoicesSorted('cmp_001', 'updatedAt', 'desc')[0];
			const since = new Date(sim.clock.now() - 24 * 3600_000).toISOString();
			expect(Date.parse(newest.updatedAt)).toBeLessThan(Date.parse(since));
			const t = await trigger({
				event,
				...oneCompany('cmp_001'),
				startFrom: 'date',
				since,
				options: {},
			});
			expect(await t.raw()).toBeNull();
			sim.clock.advance(60_000);
			expect(await t.raw()).toBeNull();
			// And a new invoice is then emitted alone.
			const fresh = sim.insertInvoice('cmp_001');
			expect((await t.poll()).map((i) => i.id)).toEqual([fresh.id]);
		});

		test('Overlap Window 0 with Start From Now: the next poll does not emit the existing invoices', async () => {
			const t = await trigger({
				event,
				...oneCompany('cmp_001'),
				startFrom: 'now',
				options: { overlapMinutes: 0 },
			});
			expect(await t.raw()).toBeNull();
			sim.clock.advance(60_000);
			expect(await t.raw()).toBeNull();
		});
	});

	test.each([
		['a Date', (ms: number) => new Date(ms)],
		['a Luxon-like DateTime', (ms: number) => ({ toISO: () => new Date(ms).toISOString() })],
	])('Since given by an expression as %s is taken as that date', async (_, make) => {
		const since = sharedTimestamp('cmp_001');
		const t = await trigger({
			event: 'newOrUpdatedInvoice',
			...oneCompany('cmp_001'),
			startFrom: 'date',
			since: make(Date.parse(since)),
			options: {},
		});
		const expected = expectedSince('cmp_001', since);
		expect(expected.length).toBeGreaterThan(0);
		expect((await t.poll()).map((i) => i.id)).toEqual(expected);
	});

	test.each(['not a date', 1e20, -1e20])(
		'Start From A Date with an invalid Since (%p): the activation fails with a clear message',
		async (since) => {
			const t = await trigger({
				event: 'newInvoice',
				...oneCompany('cmp_001'),
				startFrom: 'date',
				since,
				options: {},
			});
			await expect(t.raw()).rejects.toThrow("'Since' is not a valid date");
			expect(t.staticData.companies).toBeUndefined();
		},
	);
});
