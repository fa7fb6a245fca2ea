/**
 * Bounded state of the Spendesk Trigger: after reading a company of 100,000 invoices (Start
 * From: A Date far in the past, i.e. 1,000 pages of 100), the static data holds the cursor and
 * the ids of the overlap window only, and it does not grow over 50 more polls with inserts.
 *
 * The bound: per company, `seen` holds at most the invoices whose updatedAt lies inside the
 * overlap window (cursor − overlap, cursor] — New Invoice keeps those created inside it, a subset
 * — and each entry is one id with two numbers (< 64 characters of JSON). With the 5-minute
 * window and the write rates below that is well under 100 KB.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { resetTransport, startSimulator, triggerFor } from '../support/fixtures';
import type { TriggerEvent } from '../support/fixtures';
import { oneCompany } from '../support/values';

const TOTAL = 100_000;
const OVERLAP_MINUTES = 5;
const OVERLAP_MS = OVERLAP_MINUTES * 60_000;
const MAX_STATE_BYTES = 100 * 1024;
/** JSON of one `seen` entry: "inv_001_000123":[1767225600000,1767225600000], */
const ENTRY_BYTES = 64;
/** Cursor, flags and the JSON around them. */
const FIXED_BYTES = 512;

interface CompanyState {
	cursor: string | null;
	seen: Record<string, [number | null, number]>;
}

describe('Spendesk Trigger: state size after 100,000 invoices', () => {
	let sim: SpendeskSimulator;
	beforeAll(async () => {
		resetTransport();
		sim = await startSimulator({
			seed: { companies: [{ id: 'cmp_001', sizes: { invoices: TOTAL } }] },
			rateLimit: 1_000_000,
		});
	});
	afterAll(async () => {
		await sim.stop();
		resetTransport();
	});
	beforeEach(() => resetTransport());

	/** Invoices of cmp_001 whose updatedAt lies inside the overlap window below `cursor`. */
	function insideWindow(cursor: string | null): number {
		if (cursor === null) return 0;
		const limit = Date.parse(cursor) - OVERLAP_MS;
		let count = 0;
		for (const invoice of sim.invoicesSorted('cmp_001', 'updatedAt', 'desc')) {
			if (Date.parse(invoice.updatedAt) <= limit) break;
			count++;
		}
		return count;
	}

	test.each<TriggerEvent>(['newInvoice', 'newOrUpdatedInvoice'])(
		'%s: reading 100,000 invoices leaves only the overlap window in the state, which stays flat over 50 more polls',
		async (event) => {
			const staticData: IDataObject = {};
			const { poll } = await triggerFor(
				sim,
				{
					event,
					...oneCompany('cmp_001'),
					startFrom: 'date',
					since: '2000-01-01T00:00:00.000Z',
					options: { overlapMinutes: OVERLAP_MINUTES },
				},
				{ staticData },
			);
			const state = () => (staticData.companies as Record<string, CompanyState>).cmp_001;
			const size = () => JSON.stringify(staticData).length;

			sim.clearLog();
			const first = await poll();
			const existing = sim.invoicesSorted('cmp_001', 'updatedAt', 'asc').length;
			expect(first).toHaveLength(existing);
			expect(new Set(first.map((i) => i.id)).size).toBe(existing);
			// Every page once, plus one read of what changed while they were read (a poll of several pages).
			expect(sim.requestsTo('listInvoices')).toHaveLength(Math.ceil(existing / 100) + 1);

			const check = (label: string) => {
				const window = insideWindow(state().cursor);
				const seen = Object.keys(state().seen).length;
				const bytes = size();
				const bound = Math.min(MAX_STATE_BYTES, FIXED_BYTES + ENTRY_BYTES * window);
				expect({ label, seenWithinWindow: seen <= window, underBound: bytes <= bound }).toEqual({
					label,
					seenWithinWindow: true,
					underBound: true,
				});
				return { seen, bytes, window };
			};
			const afterFirst = check('after reading 100,000 invoices');
			expect(afterFirst.bytes).toBeLessThan(MAX_STATE_BYTES);

			// 50 more polls, 20 s apart, 3 new invoices (and 2 updates) before each: the window then
			// holds about 15 polls' worth of writes, whatever the history.
			const sizes: number[] = [];
			const seenCounts: number[] = [];
			for (let i = 1; i <= 50; i++) {
				sim.clock.advance(20_000);
				const fresh = [
					sim.insertInvoice('cmp_001'),
					sim.insertInvoice('cmp_001'),
					sim.insertInvoice('cmp_001'),
				];
				const older = sim.invoicesSorted('cmp_001', 'createdAt', 'asc');
				sim.updateInvoice('cmp_001', older[i * 997].id);
				sim.updateInvoice('cmp_001', older[i * 1999].id);
				const items = await poll();
				for (const invoice of fresh) expect(items.map((x) => x.id)).toContain(invoice.id);
				const { seen, bytes } = check(`poll ${i}`);
				sizes.push(bytes);
				seenCounts.push(seen);
			}
			// Flat: once the window has filled (after 15 polls of 20 s) it neither grows nor creeps.
			const settled = Math.max(...sizes.slice(15, 30));
			expect(Math.max(...sizes.slice(30))).toBeLessThanOrEqual(settled + 3 * ENTRY_BYTES);
			expect(Math.max(...seenCounts)).toBeLessThanOrEqual(16 * 5);
			expect(Math.max(...sizes)).toBeLessThan(MAX_STATE_BYTES);
		},
		120_000,
	);
});
