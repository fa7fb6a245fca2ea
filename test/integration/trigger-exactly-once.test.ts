/**
 * Exactly-once tests of the Spendesk Trigger (nodes/Spendesk/trigger), against the simulator
 * over real HTTP: the smallest sequence behind the misses the randomized runs of
 * trigger-exactly-once.fuzz.test.ts found, as a quick deterministic test.
 */
import type { SpendeskSimulator } from '../simulator';
import { pollItems, resetTransport, startSimulator, triggerFor } from '../support/fixtures';
import type { TriggerEvent } from '../support/fixtures';
import { ids, oneCompany } from '../support/values';
import { iso, sleep } from '../support/time';

/**
 * The smallest sequence behind the misses the randomized New Invoice test finds: an invoice is
 * created, no poll happens for longer than the overlap window (poll interval, n8n busy or down,
 * or the company's polls failing), then the invoice is updated while the catch-up poll pages.
 * The update moves it above the page being read, so that poll does not see it; the poll still
 * advances the cursor to the newest invoice, so the next poll's horizon (cursor − overlap) lies
 * after the invoice's createdAt and `handled` (state.ts) would take it as handled — unless the
 * poll re-reads what changed while it paged, which it does.
 */
describe('Spendesk Trigger: an invoice updated while a catch-up poll pages', () => {
	let sim: SpendeskSimulator;
	beforeEach(async () => {
		resetTransport();
		sim = await startSimulator({
			seed: { companies: 1, deactivated: [], sizes: { invoices: 20 } },
		});
	});
	afterEach(async () => {
		await sim.stop();
		resetTransport();
	});

	async function scenario(event: TriggerEvent) {
		const { raw, poll } = await triggerFor(sim, {
			event,
			...oneCompany('cmp_001'),
			startFrom: 'now',
			options: { overlapMinutes: 1 },
		});
		expect(await poll()).toEqual([]); // activation

		const late = sim.insertInvoice('cmp_001'); // created after activation
		sim.clock.advance(61_000); // next poll more than the overlap window later
		const others: string[] = [];
		for (let i = 0; i < 150; i++) others.push(sim.insertInvoice('cmp_001').id); // two pages above it

		sim.configure({ latencyMs: 30 });
		const before = sim.requestsTo('listInvoices').length;
		const pending = raw();
		while (sim.requestsTo('listInvoices').length === before) await sleep(1); // page 1 answered, page 2 not read yet
		const updated = sim.updateInvoice('cmp_001', late.id);
		const catchUp = pollItems(await pending);
		sim.configure({ latencyMs: 0 });

		sim.clock.advance(5_000);
		const next = await poll();
		return { late, updated, others, catchUp, next };
	}

	// The poll that paged re-reads what changed meanwhile, so the moved invoice comes with it
	// (newest, so last); the next poll emits nothing more.
	test('New Invoice: it is emitted once, by the catch-up poll itself', async () => {
		const { late, others, catchUp, next } = await scenario('newInvoice');
		expect(catchUp.map((i) => i.id)).toEqual([...others, late.id]);
		expect(next).toEqual([]);
	});

	test('New or Updated Invoice: its new version is emitted once, by the catch-up poll itself', async () => {
		const { updated, others, catchUp, next } = await scenario('newOrUpdatedInvoice');
		expect(catchUp.map((i) => [i.id, i.updatedAt])).toEqual([
			...others.map((id) => [id, expect.any(String)]),
			[updated.id, updated.updatedAt],
		]);
		expect(next).toEqual([]);
	});
});

/**
 * Invoices that show up late: Spendesk's list lags its writes, so an invoice may become visible
 * after a poll that read past its `updatedAt`.
 */
describe('Spendesk Trigger: invoices that show up late', () => {
	let sim: SpendeskSimulator;
	beforeEach(async () => {
		resetTransport();
		sim = await startSimulator({ seed: { companies: 1, deactivated: [], sizes: { invoices: 5 } } });
	});
	afterEach(async () => {
		await sim.stop();
		resetTransport();
	});

	/** The trigger on cmp_001 from now, activated (its first poll emits nothing). */
	async function activated(event: TriggerEvent, overlapMinutes: number) {
		const { poll } = await triggerFor(sim, {
			event,
			...oneCompany('cmp_001'),
			startFrom: 'now',
			options: { overlapMinutes },
		});
		expect(await poll()).toEqual([]);
		return poll;
	}

	// Overlap Window 0: one tied with the newest invoice of a poll lies exactly on the cursor.
	test.each<TriggerEvent>(['newInvoice', 'newOrUpdatedInvoice'])(
		'an invoice tied with the newest one that becomes visible just after a poll is emitted once by the next poll (%s)',
		async (event) => {
			const poll = await activated(event, 0);
			sim.clock.advance(30_000);
			const at = iso(sim.clock.now());
			const first = sim.insertInvoice('cmp_001', { createdAt: at, updatedAt: at });
			expect(ids(await poll())).toEqual([first.id]);
			const tie = sim.insertInvoice('cmp_001', { createdAt: at, updatedAt: at });
			sim.clock.advance(5_000);
			expect(ids(await poll())).toEqual([tie.id]);
			sim.clock.advance(5_000);
			expect(await poll()).toEqual([]);
		},
	);

	// A bulk update gives more invoices than a page one `updatedAt`. The polls that follow read
	// only what is newer (one request when idle); the first poll after the overlap window reads
	// the window again, once, and emits what showed up late in it.
	test.each<TriggerEvent>(['newInvoice', 'newOrUpdatedInvoice'])(
		'late invoices dated in a bulk update or below it are emitted once, by the re-read after the window (%s)',
		async (event) => {
			const poll = await activated(event, 1);
			sim.clock.advance(30_000);
			const at = sim.clock.now();
			const tie = Array.from({ length: 250 }, () =>
				sim.insertInvoice('cmp_001', { createdAt: iso(at), updatedAt: iso(at) }),
			);
			expect(ids(await poll()).sort()).toEqual(ids(tie).sort());

			sim.clock.advance(10_000);
			const inTie = sim.insertInvoice('cmp_001', { createdAt: iso(at), updatedAt: iso(at) });
			const below = sim.insertInvoice('cmp_001', {
				createdAt: iso(at - 20_000),
				updatedAt: iso(at - 20_000),
			});
			const fresh = sim.insertInvoice('cmp_001');
			const touched = sim.updateInvoice('cmp_001', tie[0].id);
			sim.clearLog();
			const next = ids(await poll());
			// What is newer than the tie is emitted at once, in one request.
			expect(sim.requestsTo('listInvoices')).toHaveLength(1);
			expect(next.sort()).toEqual(
				(event === 'newInvoice' ? [fresh.id] : [fresh.id, touched.id]).sort(),
			);

			const later: unknown[][] = [];
			const requests: number[] = [];
			for (let i = 0; i < 8; i++) {
				sim.clock.advance(20_000);
				sim.clearLog();
				later.push(ids(await poll()));
				requests.push(sim.requestsTo('listInvoices').length);
			}
			const recheck = later.findIndex((list) => list.length > 0);
			// The late ones, oldest first, by the first poll that reads the window again.
			expect(later[recheck]).toEqual([below.id, inTie.id]);
			expect(requests[recheck]).toBeGreaterThan(1);
			expect(later.flat()).toEqual([below.id, inTie.id]);
			expect(requests.filter((_, i) => i !== recheck)).toEqual(requests.slice(1).map(() => 1));
		},
	);
});
