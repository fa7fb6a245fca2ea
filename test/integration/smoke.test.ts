import { collect } from '../../nodes/Spendesk/transport/paginate';
import type { SpendeskSimulator } from '../simulator';
import { contextFor, resetTransport, startSimulator } from '../support/fixtures';

describe('smoke', () => {
	let sim: SpendeskSimulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: { sizes: { invoices: 250 } } });
	});
	afterAll(async () => sim.stop());
	beforeEach(() => resetTransport());

	test('drains invoices', async () => {
		const { context } = await contextFor(sim, 'orgKey');
		sim.clearLog();
		const items = await collect(context as never, 'listInvoices', {
			company: 'cmp_002',
			qs: { sortBy: 'updatedAt', sort: 'desc' },
		});
		expect(items.map((i) => i.id)).toEqual(
			sim.invoicesSorted('cmp_002', 'updatedAt', 'desc').map((i) => i.id),
		);
		expect(sim.requestsTo('listInvoices')).toHaveLength(3);
		expect(sim.requestsTo('token')).toHaveLength(1);
	});
});
