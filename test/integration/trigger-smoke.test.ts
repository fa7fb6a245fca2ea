import type { IPollFunctions } from 'n8n-workflow';
import { SpendeskTrigger } from '../../nodes/Spendesk/SpendeskTrigger.node';
import type { SpendeskSimulator } from '../simulator';
import {
	contextFor,
	resetTransport,
	startSimulator,
	storeFor,
	triggerFor,
	simulatorPerSuite,
} from '../support/fixtures';
import { oneCompany } from '../support/values';

describe('trigger smoke', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({ seed: { sizes: { invoices: 30 } } }, (started) => (sim = started));

	test('first poll emits nothing, then a new invoice once, idle poll one request', async () => {
		const { raw } = await triggerFor(sim, {
			event: 'newInvoice',
			...oneCompany('cmp_002'),
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

	test('the harness hands the trigger its parameters as n8n resolves them: defaults filled in, fields not shown left out', async () => {
		const { context } = await triggerFor(sim, {
			...oneCompany('cmp_001'),
			// Not shown with Start From: Now, nor is an option of the trigger.
			since: '2026-01-01T00:00:00Z',
			options: { notAnOption: true },
		});
		const read = (name: string) =>
			(context as unknown as IPollFunctions).getNodeParameter(name, 'absent');
		expect(read('since')).toBe('absent');
		expect(read('options')).toEqual({});
		expect(read('event')).toBe('newInvoice');
		expect(read('startFrom')).toBe('now');
	});
});

describe('trigger: the credential switched to another environment while active', () => {
	let first: SpendeskSimulator;
	let second: SpendeskSimulator;
	beforeAll(async () => {
		first = await startSimulator({ seed: { sizes: { invoices: 5 } } });
		second = await startSimulator({ seed: { sizes: { invoices: 5 } } });
	});
	afterAll(async () => {
		await first.stop();
		await second.stop();
	});
	beforeEach(() => resetTransport());

	test('every poll resolves the base URL the credential holds now, not the first poll’s', async () => {
		const store = await storeFor(first, 'orgKey');
		const { context } = await contextFor(first, 'orgKey', {
			mode: 'trigger',
			staticData: {},
			store,
			parameters: {
				event: 'newInvoice',
				...oneCompany('cmp_002'),
				startFrom: 'now',
				options: {},
			},
		});
		const trigger = new SpendeskTrigger();
		const poll = async () => await trigger.poll.call(context as unknown as IPollFunctions);
		expect(await poll()).toBeNull();
		expect(first.requestsTo('listInvoices')).toHaveLength(1);
		// The user points the credential at the other environment (its base URL and its key);
		// n8n keeps the same poll context for the whole activation.
		store.set('spendeskApi', (await storeFor(second, 'orgKey')).get('spendeskApi'));
		first.clearLog();
		second.clearLog();
		await poll();
		expect(first.log).toEqual([]);
		expect(second.requestsTo('listInvoices').length).toBeGreaterThan(0);
	});
});
