/**
 * Request economy of the Spendesk Trigger: an idle poll costs exactly one request per company
 * (one listInvoices page, newest first), and "All Companies" lists the companies once, then
 * reuses the list for 20 minutes (the API caches it that long too).
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { resetTransport, startSimulator, triggerFor } from '../support/fixtures';
import type { TriggerEvent } from '../support/fixtures';
import { oneCompany } from '../support/values';

// Default seed: cmp_001…cmp_005, cmp_005 deactivated, so "All Companies" reaches four.
const ACTIVE = ['cmp_001', 'cmp_002', 'cmp_003', 'cmp_004'];

const SCOPES: Array<{ name: string; scope: IDataObject; companies: string[] }> = [
	{
		name: 'one company',
		scope: { companies: 'one', company: 'cmp_002' },
		companies: ['cmp_002'],
	},
	{
		name: 'several companies',
		scope: { companies: 'several', companyIds: ['cmp_001', 'cmp_003'] },
		companies: ['cmp_001', 'cmp_003'],
	},
	{ name: 'all companies', scope: { companies: 'all' }, companies: ACTIVE },
];

describe('Spendesk Trigger: requests per poll', () => {
	let sim: SpendeskSimulator;
	beforeEach(async () => {
		resetTransport();
		sim = await startSimulator();
	});
	afterEach(async () => {
		await sim.stop();
		resetTransport();
	});

	describe.each<TriggerEvent>(['newInvoice', 'newOrUpdatedInvoice'])('%s', (event) => {
		test.each(SCOPES)(
			'$name: an idle poll makes exactly one request per company, for 19 minutes of idle polls',
			async ({ scope, companies }) => {
				const { poll } = await triggerFor(sim, { event, ...scope, startFrom: 'now' });

				expect(await poll()).toEqual([]); // activation
				expect(sim.requestsTo('getCompanies')).toHaveLength(scope.companies === 'all' ? 1 : 0);

				for (let minute = 1; minute <= 19; minute++) {
					sim.clock.advance(60_000);
					sim.clearLog();
					expect(await poll()).toEqual([]);
					// Nothing else: no company list, no token, no second page.
					expect(sim.log.map((r) => r.route)).toEqual(companies.map(() => 'listInvoices'));
					expect(sim.log.map((r) => r.path).sort()).toEqual(
						companies.map((c) => `/v2/companies/${c}/invoices`).sort(),
					);
					for (const request of sim.log) {
						expect(request.query).toEqual({ sortBy: 'updatedAt', sort: 'desc', limit: '100' });
						expect(request.status).toBe(200);
					}
				}
			},
		);

		test.each(SCOPES)(
			'$name: after emitting, the next idle poll is one request per company again',
			async ({ scope, companies }) => {
				const { poll } = await triggerFor(sim, { event, ...scope, startFrom: 'now' });
				expect(await poll()).toEqual([]);

				sim.clock.advance(30_000);
				const added = companies.map((c) => sim.insertInvoice(c));
				sim.clearLog();
				expect((await poll()).map((i) => i.id).sort()).toEqual(added.map((i) => i.id).sort());
				expect(sim.requestsTo('listInvoices')).toHaveLength(companies.length);

				sim.clock.advance(30_000);
				sim.clearLog();
				expect(await poll()).toEqual([]);
				expect(sim.log.map((r) => r.route)).toEqual(companies.map(() => 'listInvoices'));
			},
		);

		test('after 1,000 invoices sharing one updatedAt, every idle poll is one request but one, which reads the tie once after the overlap', async () => {
			const { poll } = await triggerFor(sim, {
				event,
				...oneCompany('cmp_002'),
				startFrom: 'now',
				options: { overlapMinutes: 1 },
			});
			expect(await poll()).toEqual([]);

			sim.clock.advance(10_000);
			const at = sim.clock.iso();
			const tie = Array.from({ length: 1_000 }, () =>
				sim.insertInvoice('cmp_002', { createdAt: at, updatedAt: at }),
			);
			expect((await poll()).map((i) => i.id).sort()).toEqual(tie.map((i) => i.id).sort());

			// Polls every 20 s. While the tie lies within the overlap window an invoice could still
			// appear among it: the polls read only what is newer (one request), and the first poll
			// after the window (plus one poll whose answer proves it: at most 5 polls of 20 s) reads
			// the tie once more, 10 pages and the page above it, read again for what moved meanwhile.
			const requests: number[] = [];
			for (let i = 0; i < 9; i++) {
				sim.clock.advance(20_000);
				sim.clearLog();
				expect(await poll()).toEqual([]);
				requests.push(sim.requestsTo('listInvoices').length);
			}
			const recheck = requests.findIndex((n) => n > 1);
			expect(recheck).toBeGreaterThanOrEqual(3);
			expect(recheck).toBeLessThanOrEqual(5);
			expect(requests[recheck]).toBe(12);
			expect(requests.filter((n, i) => i !== recheck)).toEqual(requests.slice(1).map(() => 1));

			// And the next invoice is still emitted, once.
			sim.clock.advance(20_000);
			const next = sim.insertInvoice('cmp_002');
			expect((await poll()).map((i) => i.id)).toEqual([next.id]);
			sim.clock.advance(20_000);
			expect(await poll()).toEqual([]);
		});
	});
});
