/**
 * Fault matrix of the Spendesk Trigger: what a hostile server, a busy n8n, expressions and
 * saved state from elsewhere do to the exactly-once promise. Every test goes over real HTTP
 * to the simulator, through the n8n context double, as the other trigger tests do.
 *
 * n8n runs every poll of an active trigger on one poll context and one static data object,
 * on its schedule, without waiting for the previous poll: `triggerFor` gives the same.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { MAX_SEEN } from '../../nodes/Spendesk/trigger/cursorState';
import type { SpendeskSimulator } from '../simulator';
import {
	contextFor,
	expectRefusedBeforeAnyRequest,
	failure,
	pollItems,
	resetTransport,
	startSimulator,
	triggerFor,
} from '../support/fixtures';
import type { TriggerEvent } from '../support/fixtures';
import { ids, oneCompany } from '../support/values';
import { eventually, iso } from '../support/time';

const EVENTS: TriggerEvent[] = ['newInvoice', 'newOrUpdatedInvoice'];
const DAY = 24 * 3_600_000;
const SECRETS = ['sim-org-secret', 'sat_'];

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

interface SavedCompany {
	cursor: string | null;
	seen: Record<string, [number | null, number]>;
}
const savedCompanies = (data: IDataObject) => data.companies as Record<string, SavedCompany>;

/** Logs that quote a secret of the credential or a bearer token: none may. */
const leaks = (logs: Array<{ message: string }>) =>
	logs.filter((log) => SECRETS.some((secret) => log.message.includes(secret)));

let sim: SpendeskSimulator;
afterEach(async () => {
	jest.restoreAllMocks();
	await sim?.stop();
	resetTransport();
});

const one = (event: TriggerEvent, more: IDataObject = {}): IDataObject => ({
	event,
	...oneCompany('cmp_001'),
	startFrom: 'now',
	options: {},
	...more,
});

/** The trigger on cmp_001 after its first poll, with `recheck` written into its saved state by hand. */
async function withSavedRecheck(event: TriggerEvent, recheck: unknown, nodeName?: string) {
	const t = await triggerFor(sim, one(event), { nodeName });
	expect(await t.poll()).toEqual([]);
	(savedCompanies(t.staticData).cmp_001 as SavedCompany & { recheck?: unknown }).recheck = recheck;
	return t;
}

describe('Spendesk Trigger faults: overlapping polls', () => {
	beforeEach(async () => {
		resetTransport();
		sim = await startSimulator({
			seed: { companies: 1, deactivated: [], sizes: { invoices: 20 } },
			tokenLifetimeSeconds: 30 * 24 * 3600,
		});
	});

	test.each(EVENTS)(
		'a poll that starts while the previous one runs emits nothing and changes nothing (%s)',
		async (event) => {
			const t = await triggerFor(sim, one(event), { workflowId: 'wf-overlap' });
			expect(await t.poll()).toEqual([]); // activation

			sim.clock.advance(30_000);
			const added = [
				sim.insertInvoice('cmp_001'),
				sim.insertInvoice('cmp_001'),
				sim.insertInvoice('cmp_001'),
			];
			sim.injectFault({ route: 'listInvoices', kind: 'latency', latencyMs: 1_000 });
			const slow = t.raw();
			expect(await eventually(() => sim.stats.inFlight > 0)).toBe(true); // the slow poll is waiting for its page

			const before = clone(t.staticData);
			const requests = sim.log.length;
			const overlapping = await t.raw(); // the next scheduled poll, on the same context and static data
			expect(overlapping).toBeNull();
			expect(t.staticData).toEqual(before);
			expect(sim.log.length).toBe(requests); // not a single request
			expect(t.logs.filter((log) => log.level === 'warn').map((log) => log.message)).toEqual([
				expect.stringContaining('previous poll'),
			]);

			expect(ids(pollItems(await slow))).toEqual(added.map((invoice) => invoice.id));
			sim.clock.advance(30_000);
			expect(await t.poll()).toEqual([]);
			expect(t.logs.filter((log) => log.level === 'error')).toEqual([]);
		},
	);

	test('two poll contexts of one trigger (same workflow and node) sharing its static data emit each invoice once', async () => {
		const staticData: IDataObject = {};
		const a = await triggerFor(sim, one('newInvoice'), {
			staticData,
			workflowId: 'wf-two-contexts',
		});
		const b = await triggerFor(sim, one('newInvoice'), {
			staticData,
			workflowId: 'wf-two-contexts',
		});
		expect(await a.poll()).toEqual([]);

		sim.clock.advance(30_000);
		const added = sim.insertInvoice('cmp_001');
		sim.injectFault({ route: 'listInvoices', kind: 'latency', latencyMs: 1_000 });
		const slow = a.raw();
		expect(await eventually(() => sim.stats.inFlight > 0)).toBe(true);
		expect(await b.raw()).toBeNull();
		expect(ids(pollItems(await slow))).toEqual([added.id]);
		expect(await b.poll()).toEqual([]);
	});

	test('a poll still running after an hour is taken over; when it ends at last it emits nothing and saves nothing', async () => {
		const t = await triggerFor(sim, one('newInvoice'), { workflowId: 'wf-stuck' });
		expect(await t.poll()).toEqual([]);

		sim.clock.advance(30_000);
		const added = [sim.insertInvoice('cmp_001'), sim.insertInvoice('cmp_001')];
		sim.injectFault({ route: 'listInvoices', kind: 'latency', latencyMs: 1_000 });
		const stuck = t.raw();
		expect(await eventually(() => sim.stats.inFlight > 0)).toBe(true);

		// Two hours later (the real clock cannot be waited out: Date.now is moved on instead).
		const realNow = Date.now.bind(Date);
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 2 * 3_600_000);
		const takeover = await t.poll();
		expect(ids(takeover)).toEqual(added.map((invoice) => invoice.id));
		const saved = clone(t.staticData);

		expect(await stuck).toBeNull();
		expect(t.staticData).toEqual(saved);
		expect(await t.poll()).toEqual([]);
	});
});

describe('Spendesk Trigger faults: timestamps from the future', () => {
	beforeEach(async () => {
		resetTransport();
		sim = await startSimulator({
			seed: { companies: 1, deactivated: [], sizes: { invoices: 20 } },
		});
	});

	test.each(EVENTS)(
		'an invoice dated 30 days ahead does not hide the invoices after it (%s)',
		async (event) => {
			const t = await triggerFor(sim, one(event));
			expect(await t.poll()).toEqual([]);

			sim.clock.advance(30_000);
			const future = sim.insertInvoice('cmp_001', { updatedAt: iso(sim.clock.now() + 30 * DAY) });
			expect(ids(await t.poll())).toEqual([future.id]);

			for (let i = 0; i < 3; i++) {
				sim.clock.advance(60_000);
				const next = sim.insertInvoice('cmp_001');
				expect(ids(await t.poll())).toEqual([next.id]);
			}
			sim.clock.advance(60_000);
			expect(await t.poll()).toEqual([]);
			// The cursor stays with the server's clock (the Date header), not 30 days ahead.
			expect(Date.parse(savedCompanies(t.staticData).cmp_001.cursor!)).toBeLessThanOrEqual(
				sim.clock.now() + 5 * 60_000,
			);
			expect(t.logs.filter((log) => log.level === 'error')).toEqual([]);
		},
	);

	test.each(EVENTS)(
		'a saved cursor 30 days ahead (a clock stepped back) is brought back to the present (%s)',
		async (event) => {
			const t = await triggerFor(sim, one(event));
			expect(await t.poll()).toEqual([]);
			savedCompanies(t.staticData).cmp_001.cursor = iso(sim.clock.now() + 30 * DAY);

			sim.clock.advance(30_000);
			const next = sim.insertInvoice('cmp_001');
			expect(ids(await t.poll())).toEqual([next.id]);
			expect(Date.parse(savedCompanies(t.staticData).cmp_001.cursor!)).toBeLessThanOrEqual(
				sim.clock.now() + 5 * 60_000,
			);
			expect(t.logs.filter((log) => log.level === 'warn').map((log) => log.message)).toEqual([
				expect.stringContaining('cmp_001'),
			]);
			sim.clock.advance(30_000);
			expect(await t.poll()).toEqual([]);
		},
	);

	test.each(EVENTS)(
		'an updatedAt that is not a date is skipped with a warning, not taken as the end of the list (%s)',
		async (event) => {
			const t = await triggerFor(sim, one(event));
			expect(await t.poll()).toEqual([]);

			sim.clock.advance(30_000);
			// 'not a date' sorts above every ISO date: the first invoice the trigger reads.
			const broken = sim.insertInvoice('cmp_001', { updatedAt: 'not a date' });
			expect(sim.invoicesSorted('cmp_001', 'updatedAt', 'desc')[0].id).toBe(broken.id);
			const after = [sim.insertInvoice('cmp_001'), sim.insertInvoice('cmp_001')];
			expect(ids(await t.poll())).toEqual(after.map((invoice) => invoice.id));
			const warnings = t.logs.filter((log) => log.level === 'warn').map((log) => log.message);
			expect(warnings).toEqual([expect.stringContaining(broken.id)]);
			expect(warnings[0]).toContain('updatedAt');

			sim.clock.advance(30_000);
			expect(await t.poll()).toEqual([]);
			expect(t.logs.filter((log) => log.level === 'error')).toEqual([]);
			expect(leaks(t.logs)).toEqual([]);
		},
	);
});

describe('Spendesk Trigger faults: bulk updates', () => {
	const BULK = 10_100;

	test.each(EVENTS)(
		'a burst of 10,100 invoices sharing one updatedAt is emitted exactly once, idle polls emit nothing, the state stays bounded (%s)',
		async (event) => {
			resetTransport();
			// New Invoice: 10,100 invoices created at once; New or Updated Invoice: 10,100 existing invoices updated at once.
			const existing = event === 'newInvoice' ? 20 : BULK;
			sim = await startSimulator({
				seed: { companies: 1, deactivated: [], sizes: { invoices: existing } },
				rateLimit: 1_000_000,
			});
			const t = await triggerFor(sim, one(event));
			expect(await t.poll()).toEqual([]);

			sim.clock.advance(60_000);
			const at = iso(sim.clock.now());
			const bulk =
				event === 'newInvoice'
					? Array.from(
							{ length: BULK },
							() => sim.insertInvoice('cmp_001', { createdAt: at, updatedAt: at }).id,
						)
					: sim
							.invoicesSorted('cmp_001', 'createdAt', 'asc')
							.map((invoice) => sim.updateInvoice('cmp_001', invoice.id, { updatedAt: at }).id);
			expect(bulk).toHaveLength(BULK);

			const first = await t.poll();
			expect(first).toHaveLength(BULK);
			expect(new Set(ids(first))).toEqual(new Set(bulk));
			for (let i = 0; i < 3; i++) {
				sim.clock.advance(60_000);
				expect(ids(await t.poll())).toEqual([]);
			}
			const state = savedCompanies(t.staticData).cmp_001;
			expect(Object.keys(state.seen).length).toBeLessThanOrEqual(MAX_SEEN);
			expect(JSON.stringify(t.staticData).length).toBeLessThan(1_000_000);

			// The ids let go of (the lowest of the tie) still count as handled; what happens to them later does not.
			sim.clock.advance(60_000);
			const lowest = [...bulk].sort()[0];
			const later =
				event === 'newInvoice'
					? sim.insertInvoice('cmp_001', { createdAt: at, updatedAt: at }) // one more in the tie, shown late
					: sim.updateInvoice('cmp_001', lowest); // a new version of the lowest
			const next = sim.insertInvoice('cmp_001');
			// A new version is newer than the tie: emitted at once. One more in the tie, shown late,
			// is emitted once by the poll that reads the tie again after the overlap window.
			const atOnce = event === 'newInvoice' ? [next.id] : [later.id, next.id];
			expect(ids(await t.poll()).sort()).toEqual(atOnce.sort());
			const afterwards: unknown[] = [];
			for (let i = 0; i < 4; i++) {
				sim.clock.advance(60_000);
				afterwards.push(...ids(await t.poll()));
			}
			expect(afterwards).toEqual(event === 'newInvoice' ? [later.id] : []);
		},
		180_000,
	);
});

describe('Spendesk Trigger faults: parameters from expressions', () => {
	beforeEach(async () => {
		resetTransport();
		sim = await startSimulator({
			seed: { companies: 3, deactivated: [], sizes: { invoices: 20 } },
		});
	});

	test.each<[string, unknown]>([
		['"5m"', '5m'],
		['"abc"', 'abc'],
		['-1', -1],
		['NaN', NaN],
		['an object', { minutes: 5 }],
		['true', true],
	])(
		'Overlap Window %s is refused with an error naming the field, before any request',
		async (_, overlapMinutes) => {
			const t = await triggerFor(sim, one('newInvoice', { options: { overlapMinutes } }));
			sim.clearLog();
			await expectRefusedBeforeAnyRequest(sim, t.poll(), /Overlap Window \(Minutes\)/);
			expect(t.staticData).toEqual({});
		},
	);

	test('an Event that is neither choice is refused with an error naming the field', async () => {
		const t = await triggerFor(sim, one('newInvoices' as TriggerEvent));
		const error = await failure(t.poll());
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toContain('Trigger On');
		expect(t.staticData).toEqual({});
	});

	test('Overlap Window "2" (a number as text, from an expression) is accepted', async () => {
		const t = await triggerFor(sim, one('newInvoice', { options: { overlapMinutes: '2' } }));
		expect(await t.poll()).toEqual([]);
		sim.clock.advance(30_000);
		const fresh = sim.insertInvoice('cmp_001');
		expect(ids(await t.poll())).toEqual([fresh.id]);
		expect(t.logs.filter((log) => log.level === 'error')).toEqual([]);
	});

	test.each(EVENTS)(
		'Several Companies " cmp_001", "cmp_001", "cmp_002 " and empty entries are two companies, each invoice emitted once (%s)',
		async (event) => {
			const t = await triggerFor(sim, {
				event,
				companies: 'several',
				companyIds: [' cmp_001', 'cmp_001', 'cmp_002 ', '', '  ', null],
				startFrom: 'now',
				options: {},
			});
			expect(await t.poll()).toEqual([]);
			expect(Object.keys(t.staticData.companies as IDataObject).sort()).toEqual([
				'cmp_001',
				'cmp_002',
			]);

			sim.clock.advance(30_000);
			const added = [sim.insertInvoice('cmp_001'), sim.insertInvoice('cmp_002')];
			sim.clearLog();
			const items = await t.poll();
			expect(items.map((i) => [i.companyId, i.id]).sort()).toEqual(
				added.map((i) => [i.companyId, i.id]).sort(),
			);
			expect(
				sim
					.requestsTo('listInvoices')
					.map((r) => r.path)
					.sort(),
			).toEqual(['/v2/companies/cmp_001/invoices', '/v2/companies/cmp_002/invoices']);
			expect(t.logs.filter((log) => log.level === 'error')).toEqual([]);
		},
	);

	test('a numeric company id (4242) is used as its text form, in Several Companies and in One Company', async () => {
		sim.createCompany({ id: '4242', name: 'Numbers Inc' });
		const several = await triggerFor(sim, {
			event: 'newInvoice',
			companies: 'several',
			companyIds: [4242, 'cmp_001'],
			startFrom: 'now',
			options: {},
		});
		const single = await triggerFor(sim, {
			event: 'newInvoice',
			companies: 'one',
			company: 4242,
			startFrom: 'now',
			options: {},
		});
		expect(await several.poll()).toEqual([]);
		expect(await single.poll()).toEqual([]);

		sim.clock.advance(30_000);
		const added = sim.insertInvoice('4242');
		expect((await several.poll()).map((i) => [i.companyId, i.id])).toEqual([['4242', added.id]]);
		expect(ids(await single.poll())).toEqual([added.id]);
		for (const t of [several, single])
			expect(t.logs.filter((log) => log.level === 'error')).toEqual([]);
	});

	test.each<[string, IDataObject, string]>([
		[
			'an object in Several Companies',
			{ companies: 'several', companyIds: ['cmp_001', { id: 'cmp_002' }] },
			'Company Names or IDs',
		],
		[
			'a boolean in Several Companies',
			{ companies: 'several', companyIds: [true] },
			'Company Names or IDs',
		],
		['an object as One Company', { companies: 'one', company: { id: 'cmp_001' } }, 'Company'],
		[
			'an ID with a zero-width space in Several Companies',
			{ companies: 'several', companyIds: ['cmp_001', 'cmp_002\u200b'] },
			"'Company Names or IDs (entry 2)' contains an invisible character (U+200B, a zero-width space)",
		],
	])(
		'%s is refused with an error naming the field, not "trim is not a function"',
		async (_, scope, field) => {
			const t = await triggerFor(sim, {
				event: 'newInvoice',
				...scope,
				startFrom: 'now',
				options: {},
			});
			sim.clearLog();
			const error = await failure(t.poll());
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toContain(field);
			expect(error.message).not.toContain('trim');
			expect(sim.requestsTo('listInvoices')).toEqual([]);
		},
	);

	test('the Spendesk node reads a numeric Company id as its text form, and refuses an object naming the field', async () => {
		sim.createCompany({ id: '4242', name: 'Numbers Inc' });
		const run = async (company: IDataObject[string]) => {
			const { context } = await contextFor(sim, 'orgKey', {
				parameters: {
					resource: 'invoice',
					operation: 'getAll',
					companies: 'one',
					company,
					returnAll: false,
					limit: 5,
					filters: '{}',
				},
			});
			return await new Spendesk().execute.call(context as unknown as IExecuteFunctions);
		};
		const [items] = await run(4242);
		expect(items).toHaveLength(5);
		expect(items.every((item) => item.json.companyId === '4242')).toBe(true);
		const error = await failure(run({ id: 'cmp_001' }));
		expect(error.message).toContain('Company');
		expect(error.message).not.toContain('trim');
	});
});

describe('Spendesk Trigger faults: saved state from elsewhere', () => {
	beforeEach(async () => {
		resetTransport();
		sim = await startSimulator({
			seed: { companies: 4, deactivated: [], sizes: { invoices: 20 } },
		});
	});

	test.each(EVENTS)(
		'company states missing a field or holding garbage are dropped with a warning and start fresh; the others go on (%s)',
		async (event) => {
			const companyIds = ['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004'];
			const parameters: IDataObject = {
				event,
				companies: 'several',
				companyIds,
				startFrom: 'now',
				options: {},
			};
			const staticData: IDataObject = {};
			expect(await (await triggerFor(sim, parameters, { staticData })).poll()).toEqual([]);

			// An older version's, or a hand-edited, state, reloaded by n8n.
			const saved = clone(staticData);
			const companies = saved.companies as Record<string, unknown>;
			delete (companies.cmp_001 as IDataObject).seen; // a field missing
			(companies.cmp_002 as IDataObject).cursor = 'last tuesday'; // not a date
			companies.cmp_003 = 'garbage'; // not a state at all
			saved.pending = { cmp_004: 'soon' };
			saved.absent = 'never';
			const t = await triggerFor(sim, parameters, { staticData: saved });
			expect(await t.poll()).toEqual([]); // no history: they start as a new company would
			const warnings = t.logs
				.filter((log) => log.level === 'warn')
				.map((log) => log.message)
				.join('\n');
			for (const company of ['cmp_001', 'cmp_002', 'cmp_003']) expect(warnings).toContain(company);
			expect(warnings).not.toContain('cmp_004');
			expect(t.logs.filter((log) => log.level === 'error')).toEqual([]);

			sim.clock.advance(30_000);
			const added = companyIds.map((company) => sim.insertInvoice(company));
			expect((await t.poll()).map((i) => [i.companyId, i.id]).sort()).toEqual(
				added.map((i) => [i.companyId, i.id]).sort(),
			);
			sim.clock.advance(30_000);
			expect(await t.poll()).toEqual([]);
			expect(t.logs.filter((log) => log.level === 'error')).toEqual([]);
			expect(leaks(t.logs)).toEqual([]);
		},
	);

	test('a saved start past any date (pending 1e300) is dropped with a warning; the company is polled, not silenced', async () => {
		const parameters = one('newInvoice', {
			companies: 'several',
			companyIds: ['cmp_001', 'cmp_002'],
		});
		const staticData: IDataObject = {};
		expect(await (await triggerFor(sim, parameters, { staticData })).poll()).toEqual([]);
		const saved = clone(staticData);
		delete (saved.companies as IDataObject).cmp_002;
		saved.pending = { cmp_002: 1e300 };
		const t = await triggerFor(sim, parameters, { staticData: saved });
		expect(await t.poll()).toEqual([]);
		expect(t.logs.filter((log) => log.level === 'warn').map((log) => log.message)).toEqual([
			expect.stringContaining('dropped unreadable entries of its saved "pending" list'),
		]);

		sim.clock.advance(30_000);
		const fresh = sim.insertInvoice('cmp_002');
		expect(ids(await t.poll())).toEqual([fresh.id]);
		expect(t.logs.filter((log) => log.level === 'error')).toEqual([]);
	});

	test('a cached company list dated in the future is read again', async () => {
		const staticData: IDataObject = {};
		const parameters: IDataObject = {
			event: 'newInvoice',
			companies: 'all',
			startFrom: 'now',
			options: {},
		};
		expect(await (await triggerFor(sim, parameters, { staticData })).poll()).toEqual([]);

		const saved = clone(staticData);
		saved.companyList = { at: Date.now() + 10 * DAY, companies: [['cmp_001', 'Only this one']] };
		const t = await triggerFor(sim, parameters, { staticData: saved });
		sim.clearLog();
		expect(await t.poll()).toEqual([]);
		expect(sim.requestsTo('getCompanies')).toHaveLength(1);
		expect(
			sim
				.requestsTo('listInvoices')
				.map((r) => r.path.split('/')[3])
				.sort(),
		).toEqual(['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004']);
		expect((saved.companyList as { at: number }).at).toBeLessThanOrEqual(Date.now());
	});

	test('a cached company list that is not a list is dropped with a warning and read again', async () => {
		const staticData: IDataObject = {};
		const parameters: IDataObject = {
			event: 'newInvoice',
			companies: 'all',
			startFrom: 'now',
			options: {},
		};
		expect(await (await triggerFor(sim, parameters, { staticData })).poll()).toEqual([]);

		const saved = clone(staticData);
		saved.companyList = { at: Date.now(), companies: 'cmp_001' };
		const t = await triggerFor(sim, parameters, { staticData: saved });
		sim.clearLog();
		expect(await t.poll()).toEqual([]);
		expect(sim.requestsTo('getCompanies')).toHaveLength(1);
		expect(sim.requestsTo('listInvoices')).toHaveLength(4);
		expect(t.logs.filter((log) => log.level === 'warn').map((log) => log.message)).toEqual([
			expect.stringContaining('company list'),
		]);
	});

	test('an expired company list is read again, although n8n keeps one poll context for every poll', async () => {
		const parameters: IDataObject = {
			event: 'newInvoice',
			companies: 'all',
			startFrom: 'now',
			options: {},
		};
		const t = await triggerFor(sim, parameters);
		expect(await t.poll()).toEqual([]);

		const created = sim.createCompany();
		sim.clock.advance(1_200_001); // the API's own 20-minute cache
		(t.staticData.companyList as { at: number }).at -= 21 * 60_000; // the trigger's (real clock)
		sim.clearLog();
		expect(await t.poll()).toEqual([]);
		expect(sim.requestsTo('getCompanies')).toHaveLength(1);
		expect(sim.requestsTo('listInvoices').map((r) => r.path.split('/')[3])).toContain(created.id);

		sim.clock.advance(30_000);
		const fresh = sim.insertInvoice(created.id);
		expect((await t.poll()).map((i) => [i.companyId, i.id])).toEqual([[created.id, fresh.id]]);
	});
});

describe('Spendesk Trigger faults: clocks that disagree', () => {
	beforeEach(async () => {
		resetTransport();
		sim = await startSimulator({
			seed: { companies: 2, deactivated: [], sizes: { invoices: 5 } },
		});
	});

	test.each(EVENTS)(
		"2 with n8n's clock ahead of Spendesk's, a company whose first poll failed catches up from Spendesk's time, losing nothing created within the skew (%s)",
		async (event) => {
			sim.clock.advance(-4 * 60_000); // Spendesk's clock 4 minutes behind n8n's
			const t = await triggerFor(sim, {
				event,
				companies: 'several',
				companyIds: ['cmp_001', 'cmp_002'],
				startFrom: 'now',
				options: {},
			});
			sim.injectFault({ route: 'listInvoices', kind: 'status', status: 400 });
			expect(pollItems(await t.raw())).toEqual([]); // activation: one company fails
			const failed = ['cmp_001', 'cmp_002'].filter((id) => !(id in savedCompanies(t.staticData)));
			expect(failed).toHaveLength(1);

			const created: string[] = [];
			for (let i = 0; i < 5; i++) {
				sim.clock.advance(30_000);
				created.push(sim.insertInvoice(failed[0]).id);
			}
			expect(ids(await t.poll())).toEqual(created);
			sim.clock.advance(30_000);
			expect(await t.poll()).toEqual([]);
		},
	);

	test.each(EVENTS)(
		'2 a saved recheck ending in the future is brought back to the cursor, so new invoices are emitted at once (%s)',
		async (event) => {
			const t = await withSavedRecheck(event, [
				sim.clock.now() - 10_000,
				sim.clock.now() + 30 * DAY,
			]);

			sim.clock.advance(30_000);
			const next = sim.insertInvoice('cmp_001');
			expect(ids(await t.poll())).toEqual([next.id]);
			sim.clock.advance(30_000);
			const after = sim.insertInvoice('cmp_001');
			expect(ids(await t.poll())).toEqual([after.id]);
			const range = (savedCompanies(t.staticData).cmp_001 as { recheck?: number[] }).recheck;
			expect(range).toBeUndefined();
			// The warning says what was wrong: the re-read, not a position ahead of the clock.
			const warnings = t.logs.filter((log) => log.level === 'warn').map((log) => log.message);
			expect(warnings).toEqual([
				expect.stringMatching(
					/^Spendesk: the saved state of company "cmp_001" left invoices up to .* to be read again later, past its position .*; that re-read now ends at the position/,
				),
			]);
		},
	);

	test.each(EVENTS)(
		'2 saved times past the last date JavaScript can show are repaired with a warning, not a crash (%s)',
		async (event) => {
			const t = await withSavedRecheck(event, [sim.clock.now() - 10_000, 1e20]);
			const saved = savedCompanies(t.staticData).cmp_001 as SavedCompany & { floor?: unknown };
			saved.floor = [1e20, 'zzz'];

			sim.clock.advance(30_000);
			const next = sim.insertInvoice('cmp_001');
			expect(ids(await t.poll())).toEqual([next.id]);
			const warnings = t.logs.filter((log) => log.level === 'warn').map((log) => log.message);
			expect(warnings).toEqual([
				expect.stringContaining('left invoices up to 100000000000000000000 to be read again later'),
				expect.stringContaining('took every invoice up to 100000000000000000000 as handled'),
			]);
			sim.clock.advance(30_000);
			const after = sim.insertInvoice('cmp_001');
			expect(ids(await t.poll())).toEqual([after.id]);
		},
	);

	test.each(EVENTS)(
		'2 a saved recheck that is not a range drops the position with a warning naming the trigger; the company starts afresh (%s)',
		async (event) => {
			const t = await withSavedRecheck(
				event,
				[sim.clock.now(), sim.clock.now() - 60_000],
				'New invoices',
			);

			sim.clock.advance(30_000);
			expect(await t.poll()).toEqual([]);
			const warnings = t.logs.filter((log) => log.level === 'warn').map((log) => log.message);
			expect(warnings).toEqual([
				expect.stringMatching(/^New invoices dropped the saved position of company "cmp_001"/),
			]);
			sim.clock.advance(30_000);
			const next = sim.insertInvoice('cmp_001');
			expect(ids(await t.poll())).toEqual([next.id]);
		},
	);

	test.each(EVENTS)(
		'2 a saved floor dated in the future is brought back with a warning, so the company is not silenced (%s)',
		async (event) => {
			const t = await triggerFor(sim, one(event));
			expect(await t.poll()).toEqual([]);
			const saved = savedCompanies(t.staticData).cmp_001 as SavedCompany & { floor?: unknown };
			saved.floor = [sim.clock.now() + 30 * DAY, 'zzz'];

			sim.clock.advance(30_000);
			const next = sim.insertInvoice('cmp_001');
			expect(ids(await t.poll())).toEqual([next.id]);
			const warnings = t.logs.filter((log) => log.level === 'warn').map((log) => log.message);
			expect(warnings).toEqual([expect.stringContaining('cmp_001')]);
			sim.clock.advance(30_000);
			const after = sim.insertInvoice('cmp_001');
			expect(ids(await t.poll())).toEqual([after.id]);
			sim.clock.advance(30_000);
			expect(await t.poll()).toEqual([]);
		},
	);
});
