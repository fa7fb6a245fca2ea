import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import type { SpendeskSimulator } from '../simulator';
import { contextFor, resetTransport, startSimulator } from '../support/fixtures';

describe('node smoke', () => {
	let sim: SpendeskSimulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: { sizes: { invoices: 30 } } });
	});
	afterAll(async () => sim.stop());
	beforeEach(() => resetTransport());

	test('all companies invoices with limit 5', async () => {
		const { context, hints } = await contextFor(sim, 'orgKey', {
			parameters: {
				resource: 'invoice',
				operation: 'getAll',
				companyScope: 'all',
				returnAll: false,
				limit: 5,
				sortBy: 'updatedAt',
				sort: 'desc',
				filters: '{}',
			},
		});
		const [out] = await new Spendesk().execute.call(context as never);
		const active = sim.companies().filter((c) => c.active);
		expect(out).toHaveLength(5 * active.length);
		for (const c of active) {
			const mine = out.filter((o) => o.json.companyId === c.id);
			expect(mine.map((o) => o.json.id)).toEqual(
				sim
					.invoicesSorted(c.id, 'updatedAt', 'desc')
					.slice(0, 5)
					.map((i) => i.id),
			);
			expect(mine[0].json.companyName).toBe(c.name);
		}
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(hints).toHaveLength(1);
	});
});
