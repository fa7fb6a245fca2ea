import { SpendeskTrigger } from '../../nodes/Spendesk/SpendeskTrigger.node';
import type { SpendeskSimulator } from '../simulator';
import { contextFor, resetTransport, startSimulator } from '../support/fixtures';

describe('trigger smoke', () => {
	let sim: SpendeskSimulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: { sizes: { invoices: 30 } } });
	});
	afterAll(async () => sim.stop());
	beforeEach(() => resetTransport());

	test('first poll emits nothing, then a new invoice once, idle poll one request', async () => {
		const staticData = {};
		const { context } = await contextFor(sim, 'orgKey', {
			mode: 'trigger',
			staticData,
			parameters: { event: 'newInvoice', companyScope: 'one', company: 'cmp_002', startFrom: 'now', options: {} },
		});
		const trigger = new SpendeskTrigger();
		expect(await trigger.poll.call(context as never)).toBeNull();
		const inv = sim.insertInvoice('cmp_002');
		const out = await trigger.poll.call(context as never);
		expect(out![0].map((i) => i.json.id)).toEqual([inv.id]);
		sim.clearLog();
		expect(await trigger.poll.call(context as never)).toBeNull();
		expect(sim.requestsTo('listInvoices')).toHaveLength(1);
		sim.updateInvoice('cmp_002', inv.id);
		expect(await trigger.poll.call(context as never)).toBeNull();
	});
});
