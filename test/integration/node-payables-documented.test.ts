/**
 * Payables as the public material shows them (docs/api.md#payables), through the node over real
 * HTTP, in both simulator profiles: Change Some writes back every line's accounts as Get
 * answers them; the snapshot's Payable Type takes the documented types and no review status;
 * the search takes its own bookkeeping words and does not rest on `nextCursor` to end; a bulk
 * bookkeeping answer the node cannot pair leaves the applied writes successful; a Max Wait no
 * longer than the status interval still gets a second check; Output Simplified keeps fields a payable has.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { transportSeam } from '../support/seam';
import type { SpendeskSimulator } from '../simulator';
import { payableDetail } from '../simulator/routes-reads';
import { PAYABLE_TYPES } from '../simulator/types';
import { failure, simulatorPerSuite } from '../support/fixtures';
import { apiRequests, runNode } from '../support/node';
import { locatorById, oneCompany } from '../support/values';

const SCOPES = ['experimental:accounting:update', 'experimental:payable-search:read'];
const C = 'cmp_001';
/** A company with more payables than one search page holds (100). */
const BIG = 'cmp_002';
const PROFILES = ['specification', 'documented'] as const;

/** The editor's options of the filter `name` of the operation `operation` (Fields mode). */
function filterOptions(operation: string): INodeProperties[] {
	const filters = new Spendesk().description.properties.find(
		(p) =>
			p.name === 'filters' &&
			(p.displayOptions?.show?.operation as string[] | undefined)?.includes(operation) &&
			(p.displayOptions?.show?.resource as string[] | undefined)?.includes('payable'),
	);
	return (filters?.options ?? []) as INodeProperties[];
}

describe.each(PROFILES)(
	'node: payables as the public material shows them (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		simulatorPerSuite(
			{
				profile,
				rateLimit: 10_000,
				seed: {
					companies: [
						{ id: C, sizes: { payables: 45 } },
						{ id: BIG, sizes: { payables: 150 } },
					],
					sizes: { invoices: 1, payables: 45, suppliers: 3, users: 5 },
				},
				grantScopes: { 'sim-org-client': SCOPES },
			},
			(started) => (sim = started),
		);
		const stored = (id: string, company = C) =>
			sim.data(company).payables.find((p) => p.id === id)!;
		const run = (params: IDataObject, extra = {}) =>
			runNode(sim, 'orgKey', { ...oneCompany(C), ...params }, extra);

		test('Update, Change Some: every line keeps the expense and VAT accounts Get answers as objects; a line without a cost center takes the payable’s (docs/api.md#payable-accounting)', async () => {
			// pay_001_000038: two prepared lines with accounts, no cost center on the lines, the
			// payable's own cost center cc_001_0002 (seed.ts).
			const id = 'pay_001_000038';
			const before = payableDetail(stored(id));
			expect(before.lineItems).toHaveLength(2);
			expect(before.lineItems.map((l) => l.costCenterId)).toEqual([null, null]);
			expect(before.costCenterId).toBe('cc_001_0002');
			const accounts = before.lineItems.map((l) => [l.expenseAccount!.id, l.vatAccount!.id]);
			expect(accounts.flat().every(Boolean)).toBe(true);

			const { out } = await run({
				resource: 'payable',
				operation: 'update',
				payableId: locatorById(id),
				version: '',
				lineItemsMode: 'changeSome',
				lineChanges: {
					change: [{ applyTo: 'oneLine', lineNumber: 2, costCenterId: locatorById('cc_001_0004') }],
				},
			});

			const patch = apiRequests(sim).find((r) => r.method === 'PATCH')!;
			expect((patch.body as IDataObject).lineItems).toEqual([
				{
					grossAmount: before.lineItems[0].financial.grossAmount,
					expenseAccountId: accounts[0][0],
					taxAccountId: accounts[0][1],
					costCenterId: 'cc_001_0002',
					analyticalFieldValues: [],
				},
				{
					grossAmount: before.lineItems[1].financial.grossAmount,
					expenseAccountId: accounts[1][0],
					taxAccountId: accounts[1][1],
					costCenterId: 'cc_001_0004',
					analyticalFieldValues: [],
				},
			]);
			// At the simulator: every account survived the write-back, in the documented shape.
			const after = payableDetail(stored(id));
			expect(after.version).toBe(before.version + 1);
			expect(after.lineItems.map((l) => [l.expenseAccount?.id, l.vatAccount?.id])).toEqual(
				accounts,
			);
			expect(after.lineItems.map((l) => l.expenseAccount)).toEqual(
				before.lineItems.map((l) => l.expenseAccount),
			);
			expect(after.lineItems.map((l) => l.costCenterId)).toEqual(['cc_001_0002', 'cc_001_0004']);
			expect(out.map((o) => o.json.version)).toEqual([before.version + 1]);
		});

		test('Get Many as Snapshot: Payable Type offers the nine documented types and sends them as `type`; there is no Status filter; each payable is the one Get answers (docs/api.md#filters)', async () => {
			const options = filterOptions('getAllSnapshot');
			expect(options.map((o) => o.name)).not.toContain('status');
			expect(options.map((o) => o.name)).not.toContain('payableType');
			const type = options.find((o) => o.displayName === 'Payable Type');
			expect(type?.name).toBe('type');
			expect((type?.options as Array<{ value: string }>).map((o) => o.value).sort()).toEqual(
				[...PAYABLE_TYPES].sort(),
			);

			const wanted = ['invoicePurchase', 'creditNote'];
			const { out } = await run({
				resource: 'payable',
				operation: 'getAllSnapshot',
				filterMode: 'fields',
				filters: { type: wanted },
				returnAll: true,
			});
			const create = apiRequests(sim).find((r) => r.route === 'createPayablesSnapshot')!;
			expect(create.body).toEqual({ type: wanted });
			const expected = sim.data(C).payables.filter((p) => wanted.includes(p.type));
			expect(expected.length).toBeGreaterThan(1);
			expect(out.map((o) => o.json)).toEqual(
				expected.map((p) => JSON.parse(JSON.stringify(payableDetail(p)))),
			);
			for (const { json } of out) {
				expect(Number.isInteger(json.amount)).toBe(true);
				expect(json).not.toHaveProperty('payableType');
				expect(json).not.toHaveProperty('status');
				expect(json).not.toHaveProperty('supplier');
			}
		});

		test('Get Many, Fields mode: Bookkeeping Status takes the search’s own words (toPrepare, toExport, exported) and sends them (docs/api.md#body-cursor-lists)', async () => {
			const payables = sim.data(C).payables;
			payables[0].bookkeepingStatus = 'prepared';
			payables[1].bookkeepingStatus = 'failedToExport';
			payables[2].bookkeepingStatus = 'exported';
			try {
				const { out } = await run({
					resource: 'payable',
					operation: 'getAll',
					filterMode: 'fields',
					filters: { bookkeepingStatus: ['toExport'] },
					returnAll: true,
				});
				const search = apiRequests(sim).find((r) => r.route === 'searchPayables')!;
				expect((search.body as IDataObject).filters).toEqual({
					operator: 'and',
					subfilters: [{ field: 'bookkeepingStatus', operator: '=', value: ['toExport'] }],
				});
				expect(out.map((o) => o.json.id)).toEqual([payables[0].id, payables[1].id]);
				expect(out.map((o) => o.json.state)).toEqual(['toExport', 'toExport']);
			} finally {
				for (const p of payables.slice(0, 3)) delete p.bookkeepingStatus;
			}
		});

		test('Get Many: a short page ends the search whatever its cursor says; a full page without a cursor ends it with a hint (docs/api.md#body-cursor-lists)', async () => {
			// A cursor on the last, short page: nothing more is asked.
			sim.injectFault({ route: 'searchPayables', kind: 'setFields', set: { nextCursor: 'more' } });
			const short = await run({ resource: 'payable', operation: 'getAll', returnAll: true });
			expect(short.out).toHaveLength(45);
			expect(apiRequests(sim).filter((r) => r.route === 'searchPayables')).toHaveLength(1);
			expect(short.hints).toEqual([]);

			// A full first page without a cursor: the list ends there, and the output says more may match.
			sim.clearFaults();
			sim.injectFault({
				route: 'searchPayables',
				kind: 'setFields',
				set: { nextCursor: undefined },
			});
			const full = await run({
				resource: 'payable',
				operation: 'getAll',
				returnAll: true,
				company: BIG,
			});
			expect(full.out).toHaveLength(100);
			expect(apiRequests(sim).filter((r) => r.route === 'searchPayables')).toHaveLength(1);
			expect(full.hints.map((h) => h.message)).toEqual([
				expect.stringContaining('full page of 100'),
			]);

			// With the cursor it gives, the same search reads all 150.
			sim.clearFaults();
			const all = await run({
				resource: 'payable',
				operation: 'getAll',
				returnAll: true,
				company: BIG,
			});
			expect(all.out).toHaveLength(150);
			expect(all.hints).toEqual([]);
		});

		test('Update Bookkeeping Status: a 2xx answer that reports on no payable leaves the items successful with a note, never failed (docs/api.md#bulk-writes)', async () => {
			const [a, b] = sim.data(C).payables.slice(10, 12);
			sim.injectFault({
				route: 'updateBookkeepingStatus',
				kind: 'setFields',
				set: { data: undefined },
			});
			const { out, hints } = await run(
				{
					resource: 'payable',
					operation: 'updateBookkeepingStatus',
					payableId: locatorById('={{ $json.id }}'),
					version: '={{ $json.version }}',
					bookkeepingStatus: 'failedToExport',
					failureReason: 'Ledger closed',
				},
				{ items: [{ json: { id: a.id, version: 1 } }, { json: { id: b.id, version: 1 } }] },
			);
			const call = apiRequests(sim).find((r) => r.route === 'updateBookkeepingStatus')!;
			const sent = (id: string) => ({
				id,
				version: 1,
				bookkeepingStatus: 'failedToExport',
				failureReason: 'Ledger closed',
			});
			expect(call.body).toEqual({ payables: [sent(a.id), sent(b.id)] });
			expect(out.map((o) => o.json)).toEqual(
				[a.id, b.id].map((id) => ({
					id,
					bookkeepingStatus: 'failedToExport',
					failureReason: 'Ledger closed',
					note: expect.stringContaining('most likely set'),
				})),
			);
			expect(hints.map((h) => h.message)).toEqual([expect.stringContaining('2 payables')]);
			// The writes were applied.
			for (const id of [a.id, b.id])
				expect(payableDetail(stored(id))).toMatchObject({
					version: 2,
					bookkeepingStatus: 'failedToExport',
				});
		});

		test('Get Many as Snapshot with Max Wait no longer than the status interval waits one interval and checks once more (docs/api.md#snapshots)', async () => {
			// Scaled down: an interval of 1 s and a Max Wait of 1 s stand for Spendesk's minute and a
			// Max Wait of 60 s.
			transportSeam.settings.snapshotPollIntervalMs = 1000;
			sim.configure({ snapshotPendingPolls: 1 });
			try {
				const { out } = await run({
					resource: 'payable',
					operation: 'getAllSnapshot',
					returnAll: true,
					options: { maxWait: 1 },
				});
				expect(out).toHaveLength(45);
				const polls = sim.requestsTo('getPayablesSnapshot').map((r) => r.at);
				// A check at once (PENDING), one after the interval (COMPLETE, page 1), then page 2.
				expect(polls).toHaveLength(3);
				// Timers may fire a little early; never a check well inside the interval.
				expect(polls[1] - polls[0]).toBeGreaterThanOrEqual(1000 - 50);
			} finally {
				sim.configure({ snapshotPendingPolls: 2 });
			}
		});

		test('Get Many as Snapshot: a snapshot still pending after the last check fails saying how long the node waited', async () => {
			transportSeam.settings.snapshotPollIntervalMs = 600;
			sim.configure({ snapshotPendingPolls: 5 });
			try {
				const error = await failure(
					run({
						resource: 'payable',
						operation: 'getAllSnapshot',
						returnAll: true,
						filters: { bookkeepingStatus: ['created'] },
						options: { maxWait: 1 },
					}),
				);
				// Checks at once, after 0.6 s and after 1.2 s (the first at or after Max Wait).
				expect(error.message).toBe('The payables snapshot was not ready after 1 s');
				expect(sim.requestsTo('getPayablesSnapshot')).toHaveLength(3);
			} finally {
				sim.configure({ snapshotPendingPolls: 2 });
			}
		});

		test('Output Simplified keeps fields a payable has: type, counterparty, cost center; no payableType, status or supplier (docs/api.md#payables)', async () => {
			const id = 'pay_001_000004';
			const { out } = await run({
				resource: 'payable',
				operation: 'get',
				payableId: locatorById(id),
				output: 'simple',
			});
			const full = payableDetail(stored(id));
			expect(out.map((o) => o.json)).toEqual([
				{
					id,
					description: full.description,
					type: full.type,
					bookkeepingStatus: 'created',
					amount: full.amount,
					currency: full.currency,
					counterparty: JSON.parse(JSON.stringify(full.counterparty)),
					costCenterId: full.costCenterId,
					payableDate: full.payableDate,
					version: 1,
				},
			]);
		});
	},
);
