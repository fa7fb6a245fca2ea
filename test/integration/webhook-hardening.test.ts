/**
 * The Webhook Trigger, hardened (docs/triggers.md#webhook-trigger), against the simulator over
 * real HTTP both ways:
 * - Fetch Full Object of a settlement reads that one settlement (the settlements list filtered
 *   by its ID: one request), not the company's whole list, however long it is;
 * - an activation that changes the companies keeps the instances that are right (same URL,
 *   same events, still at Spendesk): no deletion, no new secret, no gap in deliveries; it
 *   creates only the missing ones and deletes only the stale ones.
 */
import { createHmac } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { webhooksOf } from '../simulator/webhooks';
import { resetTransport, startSimulator } from '../support/fixtures';
import { sleep } from '../support/time';
import { oneCompany } from '../support/values';
import { startWebhookHarness } from '../support/webhook-harness';
import type { WebhookHarness } from '../support/webhook-harness';
import { SIGNATURE_HEADER } from '../../nodes/Spendesk/webhook/signature';
import type { RegisteredInstance } from '../../nodes/Spendesk/webhook/staticData';

const kept = (h: WebhookHarness) => h.staticData.instances as RegisteredInstance[];

describe('Webhook Trigger hardening', () => {
	let sim: SpendeskSimulator;
	const harnesses: WebhookHarness[] = [];
	beforeAll(async () => {
		sim = await startSimulator({
			seed: { companies: 4, sizes: { invoices: 1, payables: 4, settlements: 600 } },
			webhookTimeScale: 0.0001,
		});
	});
	afterAll(async () => {
		await Promise.all(harnesses.map(async (h) => await h.close()));
		await sim.stop();
	});
	beforeEach(() => {
		resetTransport();
		sim.clearFaults();
		for (const c of sim.companies()) webhooksOf(sim, c.id).length = 0;
	});
	const harness = async (parameters: IDataObject) => {
		const h = await startWebhookHarness(sim, parameters);
		harnesses.push(h);
		return h;
	};

	describe('Fetch Full Object of a settlement', () => {
		test('a new settlement among 601 is read with one request, by its ID', async () => {
			const h = await harness({
				events: ['settlements:created'],
				...oneCompany('cmp_002'),
				options: { fetchFullObject: true },
			});
			await h.activate();
			sim.clearLog();
			const { settlement } = sim.createSettlement('cmp_002');
			expect(sim.data('cmp_002').settlements).toHaveLength(601);
			await sim.whenWebhooksSettled();
			expect(h.executions).toHaveLength(1);
			expect(h.executions[0][0]).toMatchObject({
				id: settlement.id,
				amount: settlement.amount,
				companyId: 'cmp_002',
				webhookEvent: { eventType: 'settlements:created' },
			});
			const reads = sim.requestsTo('listSettlements');
			expect(reads).toHaveLength(1);
			expect(reads[0].query.ids).toBe(settlement.id);
			expect(reads[0].companyId).toBe('cmp_002');
		});

		test('a settlement Spendesk does not show fails the delivery naming it and the company, after one request', async () => {
			const h = await harness({
				events: ['settlements:created'],
				...oneCompany('cmp_003'),
				options: { fetchFullObject: true },
			});
			await h.activate();
			const secret = kept(h)[0].secret;
			sim.clearLog();
			const body = JSON.stringify({
				data: { companyId: 'cmp_003', id: 'set_003_999999', version: 1 },
				event: {
					entity: 'settlement',
					eventType: 'settlements:created',
					id: 'evt_missing_settlement',
					timestamp: new Date().toISOString(),
				},
			});
			const signature = createHmac('sha256', secret).update(body).digest('hex');
			const answer = await h.deliver(body, { [SIGNATURE_HEADER]: signature });
			expect(answer.status).toBe(500);
			expect(h.errors[0].message).toBe(
				'Settlement "set_003_999999" of a webhook event was not found in company "cmp_003"',
			);
			expect(sim.requestsTo('listSettlements')).toHaveLength(1);
		});
	});

	describe('an activation that changes the companies', () => {
		/** The webhook-instance requests since the log was cleared, as "METHOD path company". */
		const webhookCalls = () =>
			sim.log
				.filter((r) => r.route.endsWith('Webhook') || r.route === 'listWebhooks')
				.map((r) => `${r.method} ${r.path} ${r.companyId ?? ''}`.trim());

		test('adding a company keeps the instances that are right and registers only the new one', async () => {
			const parameters: IDataObject = {
				events: ['payables:created'],
				companies: 'several',
				companyIds: ['cmp_001', 'cmp_002'],
				options: {},
			};
			const h = await harness(parameters);
			await h.activate();
			const before = kept(h).map((i) => ({ ...i }));
			expect(before).toHaveLength(2);

			parameters.companyIds = ['cmp_001', 'cmp_002', 'cmp_003'];
			// A payable created while the activation runs is delivered through the kept instance.
			sim.injectFault({ route: 'createWebhook', kind: 'latency', latencyMs: 300 });
			sim.clearLog();
			const activation = h.activate();
			await sleep(100);
			const during = sim.createPayable('cmp_001').payable;
			expect(await activation).toBe(true);
			await sim.whenWebhooksSettled();

			expect(sim.requestsTo('deleteWebhook')).toEqual([]);
			expect(sim.requestsTo('createWebhook').map((r) => r.companyId)).toEqual(['cmp_003']);
			// The kept instances: same ids and secrets, still at Spendesk.
			expect(kept(h).slice(0, 2)).toEqual(before);
			for (const instance of before)
				expect(webhooksOf(sim, instance.companyId).map((w) => w.id)).toEqual([instance.id]);
			expect(kept(h).map((i) => i.companyId)).toEqual(['cmp_001', 'cmp_002', 'cmp_003']);
			expect(await h.checkExists()).toBe(true);
			expect(h.executions.map((e) => (e[0].data as IDataObject).id)).toEqual([during.id]);
			expect(
				sim
					.webhookDeliveries()
					.filter((d) => d.url === h.url)
					.map((d) => d.status),
			).toEqual([200]);
		});

		test('removing a company deletes only its instance; an instance gone at Spendesk is registered anew', async () => {
			const parameters: IDataObject = {
				events: ['payables:created'],
				companies: 'several',
				companyIds: ['cmp_001', 'cmp_002', 'cmp_003'],
				options: {},
			};
			const h = await harness(parameters);
			await h.activate();
			const [first, second, third] = kept(h).map((i) => ({ ...i }));
			// cmp_002's instance disappears at Spendesk; cmp_003 leaves the selection.
			webhooksOf(sim, 'cmp_002').length = 0;
			parameters.companyIds = ['cmp_001', 'cmp_002'];
			sim.clearLog();
			expect(await h.activate()).toBe(true);

			// The stale ones only: cmp_003's, and cmp_002's, already gone (answered 404).
			expect(sim.requestsTo('deleteWebhook').map((r) => `${r.path} ${r.status}`)).toEqual([
				`/v1/webhooks/${second.id} 404`,
				`/v1/webhooks/${third.id} 204`,
			]);
			expect(sim.requestsTo('createWebhook').map((r) => r.companyId)).toEqual(['cmp_002']);
			expect(webhooksOf(sim, 'cmp_003')).toEqual([]);
			const now = kept(h);
			expect(now.find((i) => i.companyId === 'cmp_001')).toEqual(first);
			expect(now.find((i) => i.companyId === 'cmp_002')!.id).not.toBe(second.id);
			expect(now).toHaveLength(2);
			expect(await h.checkExists()).toBe(true);
			expect(webhookCalls().filter((c) => c.startsWith('PATCH'))).toEqual([]);
		});
	});
});
