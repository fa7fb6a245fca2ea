/**
 * Spendesk Trigger in manual mode ("Fetch Test Event") and with failing companies.
 *
 * Manual mode returns the newest invoice of each selected company, leaves the saved state
 * untouched, and throws on an API error. In an active workflow a failing company does not stop
 * the others: the failure is logged, the failing company's state does not advance, and it is
 * retried next time.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { resetTransport, startSimulator, triggerFor } from '../support/fixtures';
import type { TriggerEvent } from '../support/fixtures';
import { oneCompany } from '../support/values';

const EVENTS: TriggerEvent[] = ['newInvoice', 'newOrUpdatedInvoice'];
const ACTIVE = ['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004'];
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('Spendesk Trigger: manual mode and failing companies', () => {
	let sim: SpendeskSimulator;
	beforeEach(async () => {
		resetTransport({ maxRetries: 0 });
		sim = await startSimulator();
	});
	afterEach(async () => {
		await sim.stop();
		resetTransport();
	});

	const node = async (
		mode: 'manual' | 'trigger',
		parameters: IDataObject,
		staticData: IDataObject = {},
	) => await triggerFor(sim, parameters, { mode, staticData });

	const newest = (company: string) => sim.invoicesSorted(company, 'updatedAt', 'desc')[0];

	/** Static data of an active trigger that has already emitted something. */
	async function activeState(event: TriggerEvent, scope: IDataObject): Promise<IDataObject> {
		const t = await node('trigger', { event, ...scope, startFrom: 'now', options: {} });
		expect(await t.raw()).toBeNull();
		sim.clock.advance(30_000);
		sim.insertInvoice('cmp_001');
		expect(await t.raw()).not.toBeNull();
		return t.staticData;
	}

	describe.each(EVENTS)('%s, manual mode', (event) => {
		test('one company: the newest invoice, as the API has it; the saved state is unchanged', async () => {
			const staticData = await activeState(event, oneCompany('cmp_001'));
			sim.clock.advance(30_000);
			const latest = sim.insertInvoice('cmp_001');
			const before = clone(staticData);
			const t = await node(
				'manual',
				{ event, ...oneCompany('cmp_001'), startFrom: 'now', options: {} },
				staticData,
			);
			expect(await t.poll()).toEqual([latest]);
			expect(staticData).toEqual(before);
			expect(sim.requestsTo('listInvoices').at(-1)?.query).toEqual({
				sortBy: 'updatedAt',
				sort: 'desc',
				limit: '1',
			});
		});

		test('several companies: the newest invoice of each, tagged with its company; the saved state is unchanged', async () => {
			const scope = { companies: 'several', companyIds: ['cmp_001', 'cmp_003'] };
			const staticData = await activeState(event, scope);
			sim.clock.advance(30_000);
			sim.updateInvoice('cmp_003', sim.invoicesSorted('cmp_003')[4].id); // the newest is now an older invoice, updated
			const before = clone(staticData);
			const t = await node(
				'manual',
				{ event, ...scope, startFrom: 'now', options: {} },
				staticData,
			);
			const items = await t.poll();
			expect(items.map((i) => [i.companyId, i.id, i.updatedAt])).toEqual(
				['cmp_001', 'cmp_003'].map((c) => [c, newest(c).id, newest(c).updatedAt]),
			);
			expect(staticData).toEqual(before);
		});

		test('all companies: the newest invoice of each active company; nothing saved, not even the company list', async () => {
			const staticData: IDataObject = {};
			const t = await node(
				'manual',
				{ event, companies: 'all', startFrom: 'now', options: {} },
				staticData,
			);
			const items = await t.poll();
			expect(items.map((i) => [i.companyId, i.id])).toEqual(ACTIVE.map((c) => [c, newest(c).id]));
			expect(staticData).toEqual({});
		});

		test('an API error is thrown (company outside the organisation → 403), and the state is unchanged', async () => {
			const staticData = await activeState(event, oneCompany('cmp_001'));
			const before = clone(staticData);
			const one = await node(
				'manual',
				{ event, ...oneCompany('cmp_999'), startFrom: 'now', options: {} },
				staticData,
			);
			await expect(one.raw()).rejects.toThrow(
				'Company "cmp_999" does not belong to your organisation',
			);
			const several = await node(
				'manual',
				{
					event,
					companies: 'several',
					companyIds: ['cmp_001', 'cmp_999'],
					startFrom: 'now',
					options: {},
				},
				staticData,
			);
			await expect(several.raw()).rejects.toThrow(
				'Company "cmp_999" does not belong to your organisation',
			);
			expect(
				sim
					.requestsTo('listInvoices')
					.filter((r) => r.path.includes('cmp_999'))
					.map((r) => r.status),
			).toEqual([403, 403]);
			expect(staticData).toEqual(before);
		});

		test('a server error is thrown too', async () => {
			const t = await node('manual', {
				event,
				...oneCompany('cmp_002'),
				startFrom: 'now',
				options: {},
			});
			sim.injectFault({ route: 'listInvoices', kind: 'status', status: 500 });
			await expect(t.raw()).rejects.toThrow();
			expect(t.staticData).toEqual({});
		});
	});

	describe.each(EVENTS)('%s, active workflow', (event) => {
		test('one failing company (cmp_999) does not stop the other: logged, no state for it, retried every poll', async () => {
			const t = await node('trigger', {
				event,
				companies: 'several',
				companyIds: ['cmp_001', 'cmp_999'],
				startFrom: 'now',
				options: {},
			});
			expect(await t.raw()).toBeNull();
			const errors = () => t.logs.filter((l) => l.level === 'error');
			expect(errors()).toHaveLength(1);
			expect(errors()[0].message).toContain('cmp_999');
			expect(errors()[0].message).toContain('does not belong to your organisation');
			expect(errors()[0].message).not.toContain('cmp_001');

			sim.clock.advance(30_000);
			const fresh = sim.insertInvoice('cmp_001');
			const items = await t.poll();
			expect(items.map((i) => [i.companyId, i.id])).toEqual([['cmp_001', fresh.id]]);
			expect(errors()).toHaveLength(2);
			const companies = t.staticData.companies as IDataObject;
			expect(Object.keys(companies)).toEqual(['cmp_001']);
			expect(sim.requestsTo('listInvoices').filter((r) => r.path.includes('cmp_999'))).toHaveLength(
				2,
			);

			sim.clock.advance(30_000);
			expect(await t.raw()).toBeNull();
			expect(Object.keys(t.staticData.companies as IDataObject)).toEqual(['cmp_001']);
		});

		test('Start From A Date: the failing company does not hold back the backlog of the other', async () => {
			const since = '2000-01-01T00:00:00.000Z';
			const t = await node('trigger', {
				event,
				companies: 'several',
				companyIds: ['cmp_999', 'cmp_002'],
				startFrom: 'date',
				since,
				options: {},
			});
			const items = await t.poll();
			expect(items.map((i) => i.id)).toEqual(
				sim.invoicesSorted('cmp_002', 'updatedAt', 'asc').map((i) => i.id),
			);
			expect(items.every((i) => i.companyId === 'cmp_002')).toBe(true);
			expect(
				t.logs
					.filter((l) => l.level === 'error')
					.map((l) => l.message)
					.join(),
			).toContain('cmp_999');
			expect(Object.keys(t.staticData.companies as IDataObject)).toEqual(['cmp_002']);
		});

		test('a company whose poll fails keeps its old position: what arrived meanwhile is emitted once it recovers', async () => {
			const t = await node('trigger', {
				event,
				companies: 'several',
				companyIds: ['cmp_001', 'cmp_002'],
				startFrom: 'now',
				options: {},
			});
			expect(await t.raw()).toBeNull();
			const saved = clone((t.staticData.companies as IDataObject).cmp_002);

			sim.clock.advance(30_000);
			const first = sim.insertInvoice('cmp_002');
			const other = sim.insertInvoice('cmp_001');
			// cmp_002 fails on its first request (whichever order the two companies' requests arrive in, only one 500).
			sim.clearLog();
			sim.injectFault({ route: 'listInvoices', kind: 'status', status: 503, times: 1 });
			const failedPoll = await t.poll();
			const failed = sim
				.requestsTo('listInvoices')
				.find((r) => r.status === 503)!
				.path.split('/')[3];
			const ok = failed === 'cmp_001' ? 'cmp_002' : 'cmp_001';
			expect(failedPoll.map((i) => i.companyId)).toEqual([ok]);
			expect(t.logs.filter((l) => l.level === 'error').at(-1)?.message).toContain(failed);
			if (failed === 'cmp_002')
				expect((t.staticData.companies as IDataObject).cmp_002).toEqual(saved);

			sim.clock.advance(30_000);
			const recovered = await t.poll();
			expect(recovered.map((i) => [i.companyId, i.id])).toEqual([
				[failed, failed === 'cmp_002' ? first.id : other.id],
			]);
			sim.clock.advance(30_000);
			expect(await t.raw()).toBeNull();
		});

		test('every company failing on activation: the activation fails (throws) and nothing is saved', async () => {
			const t = await node('trigger', {
				event,
				...oneCompany('cmp_999'),
				startFrom: 'now',
				options: {},
			});
			await expect(t.raw()).rejects.toThrow('cmp_999');
			expect(t.staticData.companies ?? {}).toEqual({});
			expect(t.staticData.initialized).toBeUndefined();
		});

		test('every company failing after activation: logged, not thrown, nothing emitted, state kept', async () => {
			const t = await node('trigger', {
				event,
				companies: 'several',
				companyIds: ['cmp_001', 'cmp_002'],
				startFrom: 'now',
				options: {},
			});
			expect(await t.raw()).toBeNull();
			const saved = clone(t.staticData);
			sim.clock.advance(30_000);
			const fresh = sim.insertInvoice('cmp_001');
			sim.injectFault({ route: 'listInvoices', kind: 'reset', times: 2 });
			expect(await t.raw()).toBeNull();
			expect(t.staticData).toEqual(saved);
			expect(t.logs.filter((l) => l.level === 'error').at(-1)?.message).toContain('2 of 2');
			expect((await t.poll()).map((i) => i.id)).toEqual([fresh.id]);
		});

		// A company whose very first poll (the activation) fails has no saved position yet.
		test('a company whose activation poll failed: invoices created after activation are emitted once it recovers', async () => {
			const t = await node('trigger', {
				event,
				companies: 'several',
				companyIds: ['cmp_001', 'cmp_002'],
				startFrom: 'now',
				options: {},
			});
			sim.clearLog();
			sim.injectFault({ route: 'listInvoices', kind: 'status', status: 500, times: 1 });
			expect(await t.raw()).toBeNull(); // activation succeeds: one company is polled
			const failed = sim
				.requestsTo('listInvoices')
				.find((r) => r.status === 500)!
				.path.split('/')[3];
			expect(Object.keys(t.staticData.companies as IDataObject)).not.toContain(failed);

			sim.clock.advance(30_000);
			const created = sim.insertInvoice(failed); // after activation
			const items = await t.poll();
			sim.clock.advance(30_000);
			items.push(...(await t.poll()));
			expect(items.map((i) => [i.companyId, i.id])).toEqual([[failed, created.id]]);
		});

		test('Start From A Date, a company whose activation poll failed: its backlog since the date is emitted once it recovers', async () => {
			const since = '2000-01-01T00:00:00.000Z';
			const t = await node('trigger', {
				event,
				companies: 'several',
				companyIds: ['cmp_001', 'cmp_002'],
				startFrom: 'date',
				since,
				options: {},
			});
			sim.clearLog();
			sim.injectFault({ route: 'listInvoices', kind: 'status', status: 500, times: 1 });
			const activation = await t.poll();
			const failed = sim
				.requestsTo('listInvoices')
				.find((r) => r.status === 500)!
				.path.split('/')[3];
			const ok = failed === 'cmp_001' ? 'cmp_002' : 'cmp_001';
			expect(activation.map((i) => i.id)).toEqual(
				sim.invoicesSorted(ok, 'updatedAt', 'asc').map((i) => i.id),
			);

			sim.clock.advance(30_000);
			const recovered = await t.poll();
			expect({ company: failed, emitted: recovered.length }).toEqual({
				company: failed,
				emitted: sim.invoicesSorted(failed, 'updatedAt', 'asc').length,
			});
		});
	});
});
