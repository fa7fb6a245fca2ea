/**
 * "All Companies": a company that appears after activation starts fresh — its existing invoices
 * are not emitted (not even with Start From: A Date, which applies to the first activation only),
 * the invoices created after it was picked up are.
 *
 * Two caches stand between the new company and the trigger: the API's Get Companies cache (20
 * minutes of simulated time: advance sim.clock) and the trigger's own 20-minute company list,
 * timed with the real clock — a test cannot wait it out, so it reloads the static data without
 * `companyList`, as if that time had passed.
 */
import type { IDataObject } from 'n8n-workflow';
import { FORGET_AFTER_MS } from '../../nodes/Spendesk/trigger/staticData';
import type { SpendeskSimulator } from '../simulator';
import { resetTransport, startSimulator, triggerFor } from '../support/fixtures';
import type { TriggerEvent } from '../support/fixtures';

const API_COMPANY_CACHE_MS = 1_200_001;

// A fresh simulator for every test of this file.
let sim: SpendeskSimulator;
beforeEach(async () => {
	resetTransport();
	sim = await startSimulator();
});
afterEach(async () => {
	await sim.stop();
	resetTransport();
});

/** The static data as n8n would load it later: saved, reloaded, the trigger's company list expired. */
const reload = (data: IDataObject) => {
	const copy = JSON.parse(JSON.stringify(data)) as IDataObject;
	delete copy.companyList;
	return copy;
};

describe('Spendesk Trigger: companies that appear later', () => {
	const trigger = async (parameters: IDataObject, staticData: IDataObject) =>
		await triggerFor(sim, parameters, { staticData });

	const polledCompanies = () =>
		sim
			.requestsTo('listInvoices')
			.map((r) => r.path.split('/')[3])
			.sort();

	describe.each<[TriggerEvent, 'now' | 'date']>([
		['newInvoice', 'now'],
		['newOrUpdatedInvoice', 'now'],
		['newInvoice', 'date'],
		['newOrUpdatedInvoice', 'date'],
	])('%s, Start From %s', (event, startFrom) => {
		test('a company created after activation: its existing invoices are not emitted, its new ones are', async () => {
			const parameters: IDataObject = {
				event,
				companies: 'all',
				startFrom,
				...(startFrom === 'date' ? { since: '2000-01-01T00:00:00.000Z' } : {}),
				options: {},
			};
			const staticData: IDataObject = {};
			let t = await trigger(parameters, staticData);
			const activation = await t.poll();
			const backlog = ['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004'].reduce(
				(n, c) => n + sim.invoicesSorted(c).length,
				0,
			);
			expect(activation).toHaveLength(startFrom === 'date' ? backlog : 0);

			const created = sim.createCompany();
			expect(sim.invoicesSorted(created.id).length).toBeGreaterThan(0);

			// Within the 20 minutes the trigger keeps its list: the new company is not polled yet.
			sim.clock.advance(60_000);
			sim.clearLog();
			expect(await t.poll()).toEqual([]);
			expect(polledCompanies()).toEqual(['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004']);
			expect(sim.requestsTo('getCompanies')).toHaveLength(0);

			// 20 minutes later (API cache: simulated clock; trigger's list: dropped from the reloaded data).
			sim.clock.advance(API_COMPANY_CACHE_MS);
			const reloaded = reload(staticData);
			t = await trigger(parameters, reloaded);
			sim.clearLog();
			expect(await t.poll()).toEqual([]); // the new company's existing invoices: not emitted
			expect(sim.requestsTo('getCompanies')).toHaveLength(1);
			expect(polledCompanies()).toEqual(['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004', created.id]);
			expect(Object.keys(reloaded.companies as IDataObject).sort()).toContain(created.id);

			sim.clock.advance(30_000);
			const fresh = sim.insertInvoice(created.id);
			const elsewhere = sim.insertInvoice('cmp_002');
			const items = await t.poll();
			expect(items.map((i) => [i.companyId, i.id]).sort()).toEqual(
				[
					['cmp_002', elsewhere.id],
					[created.id, fresh.id],
				].sort(),
			);
			expect(items.find((i) => i.id === fresh.id)?.companyName).toBe(created.name);

			if (event === 'newOrUpdatedInvoice') {
				// An invoice the company had before it was picked up, updated now: a new version.
				sim.clock.advance(30_000);
				const old = sim.invoicesSorted(created.id, 'createdAt', 'asc')[0];
				const updated = sim.updateInvoice(created.id, old.id);
				expect((await t.poll()).map((i) => [i.companyId, i.id, i.updatedAt])).toEqual([
					[created.id, updated.id, updated.updatedAt],
				]);
			}

			sim.clock.advance(30_000);
			expect(await t.poll()).toEqual([]);
			expect(t.logs.filter((l) => l.level === 'error')).toEqual([]);
		});
	});

	test('New Invoice: an old invoice of the new company, updated after it was picked up, is not emitted', async () => {
		const staticData: IDataObject = {};
		const parameters = { event: 'newInvoice', companies: 'all', startFrom: 'now', options: {} };
		let t = await trigger(parameters, staticData);
		expect(await t.poll()).toEqual([]);
		const created = sim.createCompany();
		sim.clock.advance(API_COMPANY_CACHE_MS);
		delete staticData.companyList;
		t = await trigger(parameters, staticData);
		expect(await t.poll()).toEqual([]);
		sim.clock.advance(30_000);
		sim.updateInvoice(created.id, sim.invoicesSorted(created.id, 'createdAt', 'asc')[3].id);
		expect(await t.poll()).toEqual([]);
	});
});

describe('Spendesk Trigger: companies that leave', () => {
	const poll = async (staticData: IDataObject, parameters: IDataObject) => {
		const t = await triggerFor(sim, parameters, { staticData });
		return { items: await t.poll(), logs: t.logs };
	};
	const saved = (data: IDataObject) => Object.keys((data.companies ?? {}) as IDataObject).sort();

	test('a deactivated company is marked absent, kept for a week, then forgotten; the others go on', async () => {
		const parameters: IDataObject = {
			event: 'newInvoice',
			companies: 'all',
			startFrom: 'now',
			options: {},
		};
		let data: IDataObject = {};
		await poll(data, parameters);
		expect(saved(data)).toEqual(['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004']);
		expect(data.absent).toEqual({});

		sim.deactivateCompany('cmp_003');
		sim.clock.advance(API_COMPANY_CACHE_MS);
		data = reload(data);
		const before = Date.now();
		const fresh = sim.insertInvoice('cmp_002');
		const { items, logs } = await poll(data, parameters);
		expect(items.map((i) => [i.companyId, i.id])).toEqual([['cmp_002', fresh.id]]);
		expect(logs.filter((l) => l.level === 'error')).toEqual([]);
		// Away, not forgotten yet: its state is kept (a short absence loses nothing).
		expect(saved(data)).toEqual(['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004']);
		const since = (data.absent as Record<string, number>).cmp_003;
		expect(Object.keys(data.absent as IDataObject)).toEqual(['cmp_003']);
		expect(since).toBeGreaterThanOrEqual(before);

		// Still away at the next poll: the first time it was missed is kept.
		data = reload(data);
		await poll(data, parameters);
		expect((data.absent as Record<string, number>).cmp_003).toBe(since);
		expect(saved(data)).toContain('cmp_003');

		// A week later (the real clock cannot be waited out: the saved time is moved back instead).
		data = reload(data);
		(data.absent as Record<string, number>).cmp_003 = Date.now() - FORGET_AFTER_MS;
		await poll(data, parameters);
		expect(saved(data)).toEqual(['cmp_001', 'cmp_002', 'cmp_004']);
		expect(data.absent).toEqual({});
	});

	test('a company that comes back within the week resumes from its saved position, and is no longer marked absent', async () => {
		const parameters: IDataObject = {
			event: 'newInvoice',
			companies: 'several',
			companyIds: ['cmp_001', 'cmp_002'],
			startFrom: 'now',
			options: {},
		};
		let data: IDataObject = {};
		await poll(data, parameters);
		data = reload(data);
		await poll(data, { ...parameters, companyIds: ['cmp_001'] });
		expect(Object.keys(data.absent as IDataObject)).toEqual(['cmp_002']);

		// While it was out of the selection an invoice arrived: it is emitted once it is back.
		sim.clock.advance(30_000);
		const missed = sim.insertInvoice('cmp_002');
		data = reload(data);
		const { items } = await poll(data, parameters);
		expect(items.map((i) => [i.companyId, i.id])).toEqual([['cmp_002', missed.id]]);
		expect(data.absent).toEqual({});
		expect(saved(data)).toEqual(['cmp_001', 'cmp_002']);
	});
});
