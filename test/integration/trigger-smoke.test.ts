import type { SpendeskSimulator } from '../simulator';
import { resetTransport, startSimulator, triggerFor } from '../support/fixtures';

describe('trigger smoke', () => {
	let sim: SpendeskSimulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: { sizes: { invoices: 30 } } });
	});
	afterAll(async () => sim.stop());
	beforeEach(() => resetTransport());

	test('first poll emits nothing, then a new invoice once, idle poll one request', async () => {
		const { raw } = await triggerFor(sim, {
			event: 'newInvoice',
			companyScope: 'one',
			company: 'cmp_002',
			startFrom: 'now',
			options: {},
		});
		expect(await raw()).toBeNull();
		const inv = sim.insertInvoice('cmp_002');
		const out = await raw();
		expect(out![0].map((i) => i.json.id)).toEqual([inv.id]);
		sim.clearLog();
		expect(await raw()).toBeNull();
		expect(sim.requestsTo('listInvoices')).toHaveLength(1);
		sim.updateInvoice('cmp_002', inv.id);
		expect(await raw()).toBeNull();
	});
});
