import { collect } from '../../nodes/Spendesk/transport/paginate';
import type { SpendeskSimulator } from '../simulator';
import { contextFor, simulatorPerSuite } from '../support/fixtures';

describe('smoke', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({ seed: { sizes: { invoices: 250 } } }, (started) => (sim = started));

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
