/**
 * The Webhook Trigger against the simulator, over real HTTP both ways: registration,
 * deletion, recovery of instances an unfinished activation left, events changed in place (same
 * instance and secret) or registered anew (URL changed, instance gone, update refused), the
 * 50-per-company limit,
 * signatures (valid, invalid, missing, another company's secret), repeated deliveries and
 * Fetch Full Object.
 */
import { createHmac } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { webhooksOf } from '../simulator/webhooks';
import {
	expectRefusedBeforeAnyRequest,
	failure,
	resetTransport,
	startSimulator,
} from '../support/fixtures';
import { sleep } from '../support/time';
import { oneCompany } from '../support/values';
import { startWebhookHarness } from '../support/webhook-harness';
import type { WebhookHarness } from '../support/webhook-harness';
import { MAX_RECENT_EVENTS } from '../../nodes/Spendesk/webhook/recent';
import { SIGNATURE_HEADER as SIGNATURE } from '../../nodes/Spendesk/webhook/signature';
import type { RegisteredInstance } from '../../nodes/Spendesk/webhook/staticData';

const kept = (h: WebhookHarness) => h.staticData.instances as RegisteredInstance[];
const secretOf = (h: WebhookHarness, companyId: string) =>
	kept(h).find((i) => i.companyId === companyId)!.secret;

let events = 0;
function deliveryBody(
	companyId: string,
	id: string,
	eventType = 'payables:created',
	eventId = `evt_test_${++events}`,
): string {
	const entity = eventType.startsWith('settlements') ? 'settlement' : 'payable';
	return JSON.stringify({
		data: { companyId, id, version: 1 },
		event: { entity, eventType, id: eventId, timestamp: new Date().toISOString() },
	});
}
const hmac = (body: string, secret: string, encoding: 'hex' | 'base64' = 'hex') =>
	createHmac('sha256', secret).update(body).digest(encoding);
const signed = (body: string, secret: string, encoding: 'hex' | 'base64' = 'hex') => ({
	[SIGNATURE]: hmac(body, secret, encoding),
});

describe('Spendesk Webhook Trigger', () => {
	let sim: SpendeskSimulator;
	const harnesses: WebhookHarness[] = [];
	const start = async (
		parameters: IDataObject,
		options: Parameters<typeof startWebhookHarness>[2] = {},
	) => {
		const h = await startWebhookHarness(
			sim,
			{
				events: ['payables:created'],
				...oneCompany('cmp_002'),
				options: {},
				...parameters,
			},
			options,
		);
		harnesses.push(h);
		return h;
	};

	beforeAll(async () => {
		sim = await startSimulator({
			seed: { companies: 4, sizes: { invoices: 5, payables: 12, settlements: 8 } },
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
	const ours = (h: WebhookHarness, companyId: string) =>
		webhooksOf(sim, companyId).filter((w) => w.url === h.url);

	describe('registration', () => {
		test('activation registers one instance for the company with a secret made by the node; checkExists then holds', async () => {
			const h = await start({ events: ['payables:created', 'settlements:created'] });
			expect(await h.checkExists()).toBe(false);
			expect(await h.activate()).toBe(true);
			const [instance] = ours(h, 'cmp_002');
			expect(ours(h, 'cmp_002')).toHaveLength(1);
			expect(instance.events).toEqual(['payables:created', 'settlements:created']);
			expect(kept(h)).toEqual([
				{
					id: instance.id,
					company: 'cmp_002',
					companyId: 'cmp_002',
					secret: instance.secret,
					url: h.url,
					events: instance.events,
				},
			]);
			expect(instance.secret).toMatch(/^[0-9a-f]{64}$/);
			// The node sent its own secret: the one the simulator signs with.
			const create = sim.requestsTo('createWebhook').at(-1)!;
			expect((create.body as IDataObject).secret).toBe(instance.secret);
			expect(await h.checkExists()).toBe(true);
			expect(await h.activate()).toBe(false);
			expect(webhooksOf(sim, 'cmp_002')).toHaveLength(1);
			expect(JSON.stringify(h.logs)).not.toContain(instance.secret);
		});

		test('All Companies registers one instance per company the credential reaches; Several the ones given', async () => {
			const all = await start({ companies: 'all' });
			await all.activate();
			const active = sim
				.companies()
				.filter((c) => c.active)
				.map((c) => c.id);
			expect(active.length).toBeGreaterThan(1);
			for (const id of active) expect(ours(all, id)).toHaveLength(1);
			expect(
				kept(all)
					.map((i) => i.companyId)
					.sort(),
			).toEqual([...active].sort());
			expect(new Set(kept(all).map((i) => i.secret)).size).toBe(active.length);

			const several = await start({
				companies: 'several',
				companyIds: ['cmp_001', ' cmp_003 ', 'cmp_001'],
			});
			await several.activate();
			expect(kept(several).map((i) => i.companyId)).toEqual(['cmp_001', 'cmp_003']);
			expect(ours(several, 'cmp_002')).toHaveLength(0);
		});

		test('a company-level credential registers for its own company', async () => {
			const h = await start({ company: '' }, { kind: 'companyKey' });
			await h.activate();
			const own = sim.credentials.companyKey.companyId!;
			expect(ours(h, own)).toHaveLength(1);
			expect(kept(h)[0]).toMatchObject({ companyId: own });
			expect(kept(h)[0].company).toBeUndefined();
			expect(await h.checkExists()).toBe(true);
			const body = deliveryBody(own, 'pay_x');
			expect((await h.deliver(body, signed(body, secretOf(h, own)))).status).toBe(200);
			expect(h.executions).toHaveLength(1);
		});

		test('deactivation deletes exactly the instances the trigger registered', async () => {
			const other = await start({ companies: 'several', companyIds: ['cmp_002', 'cmp_003'] });
			await other.activate();
			const h = await start({ companies: 'several', companyIds: ['cmp_002', 'cmp_003'] });
			await h.activate();
			expect(webhooksOf(sim, 'cmp_002')).toHaveLength(2);
			expect(await h.deactivate()).toBe(true);
			expect(ours(h, 'cmp_002')).toHaveLength(0);
			expect(ours(h, 'cmp_003')).toHaveLength(0);
			expect(ours(other, 'cmp_002')).toHaveLength(1);
			expect(ours(other, 'cmp_003')).toHaveLength(1);
			expect(kept(h)).toEqual([]);
			expect(sim.requestsTo('deleteWebhook').length).toBeGreaterThanOrEqual(2);
		});

		test('deactivation succeeds when an instance is already gone at Spendesk', async () => {
			const h = await start({});
			await h.activate();
			webhooksOf(sim, 'cmp_002').length = 0;
			expect(await h.deactivate()).toBe(true);
			expect(kept(h)).toEqual([]);
		});

		test('instances an unfinished activation left are found by URL and replaced, not piled up', async () => {
			const h = await start({ companies: 'several', companyIds: ['cmp_002', 'cmp_003'] });
			await h.activate();
			const before = kept(h).map((i) => i.id);
			// n8n stopped before it saved static data: the trigger remembers nothing.
			h.staticData.instances = [];
			expect(await h.checkExists()).toBe(false);
			await h.activate();
			for (const id of ['cmp_002', 'cmp_003']) expect(ours(h, id)).toHaveLength(1);
			expect(
				kept(h)
					.map((i) => i.id)
					.some((id) => before.includes(id)),
			).toBe(false);
			// Deliveries are checked with the new secrets.
			const body = deliveryBody('cmp_003', 'pay_1');
			expect((await h.deliver(body, signed(body, secretOf(h, 'cmp_003')))).status).toBe(200);
		});

		test('a registration whose first deletion hit a short outage checks deliveries against the new instance, not the deleted one', async () => {
			const h = await start({});
			await h.activate();
			const dead = kept(h)[0];
			// Spendesk disabled the instance, so the activation registers anew; the DELETE of the
			// old instance fails on every retry, then Spendesk is back.
			Object.assign(ours(h, 'cmp_002')[0], { status: 'disabled', disabled: true });
			sim.injectFault({ route: 'deleteWebhook', kind: 'status', status: 503, times: 5 });
			await h.create();
			expect(ours(h, 'cmp_002')).toHaveLength(1);
			const current = ours(h, 'cmp_002')[0];
			expect(current.id).not.toBe(dead.id);
			expect(kept(h).map((i) => i.id)).toEqual([current.id]);
			const body = deliveryBody('cmp_002', 'pay_1');
			expect((await h.deliver(body, signed(body, current.secret))).status).toBe(200);
			expect(h.executions).toHaveLength(1);
			expect(await h.checkExists()).toBe(true);
		});

		test('a leftover instance that could not be deleted never shadows the current one: deliveries of either are accepted', async () => {
			const h = await start({});
			await h.activate();
			const current = kept(h)[0];
			const leftover = { ...current, id: 'wh_left_over', secret: 'a'.repeat(64) };
			h.staticData.instances = [leftover, current];
			expect(await h.checkExists()).toBe(true);
			const body = deliveryBody('cmp_002', 'pay_1');
			expect((await h.deliver(body, signed(body, current.secret))).status).toBe(200);
			const old = deliveryBody('cmp_002', 'pay_2');
			expect((await h.deliver(old, signed(old, leftover.secret))).status).toBe(200);
			const forged = deliveryBody('cmp_002', 'pay_3');
			expect((await h.deliver(forged, signed(forged, 'b'.repeat(64)))).status).toBe(401);
			expect(h.executions).toHaveLength(2);
			// The next deactivation deletes both.
			await h.deactivate();
			expect(kept(h)).toEqual([]);
		});

		test('changed events, an instance deleted or disabled at Spendesk make checkExists false, and activation registers again', async () => {
			const h = await start({});
			await h.activate();
			webhooksOf(sim, 'cmp_002').length = 0;
			expect(await h.checkExists()).toBe(false);
			await h.activate();
			expect(ours(h, 'cmp_002')).toHaveLength(1);

			// Spendesk disabled the instance (its deliveries failed for 3 days): registered anew.
			Object.assign(ours(h, 'cmp_002')[0], { status: 'disabled', disabled: true });
			expect(await h.checkExists()).toBe(false);
			await h.activate();
			expect(ours(h, 'cmp_002')).toHaveLength(1);
			expect(ours(h, 'cmp_002')[0].status).toBe('active');

			const changed = await startWebhookHarness(
				sim,
				{ events: ['payables:prepared'], ...oneCompany('cmp_002'), options: {} },
				{ staticData: h.staticData },
			);
			harnesses.push(changed);
			// Same static data, other URL and events: not this registration.
			expect(await changed.checkExists()).toBe(false);
		});

		test('a company with 50 instances: Spendesk refuses one more (the simulator’s limit), the error names the company and advises; what was registered for other companies is deleted again', async () => {
			const full = webhooksOf(sim, 'cmp_003');
			for (let i = 0; i < 50; i++) {
				full.push({
					id: `wh_full_${i}`,
					companyId: 'cmp_003',
					url: `https://elsewhere.example/${i}`,
					events: ['payables:created'],
					secret: 's',
					description: null,
					createdAt: '',
					updatedAt: '',
					status: 'active',
					disabled: false,
				});
			}
			const h = await start({ companies: 'several', companyIds: ['cmp_002', 'cmp_003'] });
			const error = await failure(h.activate());
			expect(error.message).toBe(
				'Could not register the webhook for company "cmp_003": Spendesk rejected Spendesk Webhook Trigger (registering its webhooks at Spendesk) for company "cmp_003" (400)',
			);
			// What Spendesk said comes with it.
			expect((error as { description?: string }).description).toContain(
				'A company has at most 50 webhook instances',
			);
			expect((error as { description?: string }).description).toMatch(
				/has 50 webhook instances already: if Spendesk limits their number, delete those no longer used/,
			);
			// The node asked Spendesk (no count of its own): the create was refused there.
			expect(sim.requestsTo('createWebhook').map((r) => [r.companyId, r.status])).toContainEqual([
				'cmp_003',
				400,
			]);
			expect(ours(h, 'cmp_002')).toHaveLength(0);
			expect(webhooksOf(sim, 'cmp_003')).toHaveLength(50);
			expect(kept(h)).toEqual([]);
		});

		test('an activation error never quotes the webhook secret when Spendesk echoes the request body', async () => {
			const h = await start({});
			sim.injectFault({ route: 'createWebhook', kind: 'echoBody', status: 400 });
			const error = await failure(h.activate());
			const sent = sim.requestsTo('createWebhook').at(-1)!;
			const secret = String((sent.body as IDataObject).secret);
			expect(secret).toMatch(/^[0-9a-f]{64}$/);
			const description = (error as { description?: string }).description ?? '';
			expect(error.message).toContain('Could not register the webhook for company "cmp_002"');
			// The rest of what Spendesk said is still quoted, the secret is not.
			expect(`${error.message} ${description}`).toContain(h.url);
			for (const text of [error.message, description, JSON.stringify(error)])
				expect(text).not.toContain(secret);
			expect(kept(h)).toEqual([]);
		});

		test('no events chosen is refused before any request', async () => {
			const h = await start({ events: [] });
			sim.clearLog();
			await expectRefusedBeforeAnyRequest(sim, h.activate(), 'Choose at least one event');
		});

		test('an organisation credential with no company chosen fails clearly', async () => {
			const h = await start({ company: '' });
			const error = await failure(h.activate());
			expect(error.message).toMatch(/compan/i);
			expect(webhooksOf(sim, 'cmp_002')).toHaveLength(0);
		});
	});

	describe('events changed on re-activation', () => {
		/** A trigger whose parameters the test changes between activations, as a user edits the node. */
		const editable = async (events: string[]) => {
			const parameters: IDataObject = {
				events,
				companies: 'several',
				companyIds: ['cmp_002', 'cmp_003'],
				options: {},
			};
			const h = await startWebhookHarness(sim, parameters);
			harnesses.push(h);
			await h.activate();
			return { h, parameters };
		};
		/** The webhook-instance requests since the log was cleared, as "METHOD path". */
		const webhookCalls = () =>
			sim.log
				.filter((r) => r.route.endsWith('Webhook') || r.route === 'listWebhooks')
				.map((r) => `${r.method} ${r.path}`);

		test('same URL, only the events changed: each instance is updated in place, its secret kept, and deliveries during the change are accepted', async () => {
			const { h, parameters } = await editable(['payables:created']);
			const before = kept(h).map((i) => ({ ...i }));
			parameters.events = ['payables:created', 'payables:prepared'];
			// The update of cmp_002 is slow: a payable created meanwhile is delivered (signed with
			// the instance's secret) while the change is under way.
			sim.injectFault({ route: 'updateWebhook', kind: 'latency', latencyMs: 400, times: 1 });
			sim.clearLog();
			const activation = h.activate();
			await sleep(150);
			const during = sim.createPayable('cmp_002').payable;
			expect(await activation).toBe(true);
			await sim.whenWebhooksSettled();

			expect(webhookCalls()).toEqual(before.map((i) => `PATCH /v1/webhooks/${i.id}`));
			expect(sim.requestsTo('updateWebhook').map((r) => r.body)).toEqual([
				{ events: ['payables:created', 'payables:prepared'] },
				{ events: ['payables:created', 'payables:prepared'] },
			]);
			for (const company of ['cmp_002', 'cmp_003']) {
				expect(ours(h, company)).toHaveLength(1);
				expect(ours(h, company)[0].events).toEqual(['payables:created', 'payables:prepared']);
			}
			// Same instances, same secrets; the kept registration carries the new events.
			expect(kept(h)).toEqual(
				before.map((i) => ({ ...i, events: ['payables:created', 'payables:prepared'] })),
			);
			expect(await h.checkExists()).toBe(true);

			// The payable created during the change started its execution; the new event is
			// delivered and checked with the same secret.
			expect(
				sim
					.webhookDeliveries()
					.filter((d) => d.url === h.url)
					.map((d) => d.status),
			).toEqual([200]);
			expect(h.executions.map((e) => e[0].data)).toEqual([
				expect.objectContaining({ id: during.id }),
			]);
			const { payable } = sim.createPayable('cmp_003', { bookkeepingStatus: 'created' });
			await sim.whenWebhooksSettled();
			sim.preparePayable('cmp_003', payable.id);
			await sim.whenWebhooksSettled();
			expect(h.executions).toHaveLength(3);
			expect(h.executions[2][0]).toMatchObject({
				data: { id: payable.id },
				event: { eventType: 'payables:prepared' },
			});
			const body = deliveryBody('cmp_003', 'pay_9', 'payables:prepared');
			const oldSecret = before.find((i) => i.companyId === 'cmp_003')!.secret;
			expect((await h.deliver(body, signed(body, oldSecret))).status).toBe(200);
			expect(JSON.stringify(h.logs)).not.toContain(oldSecret);
		});

		test('URL changed: the instances are deleted and registered anew with new secrets, as before', async () => {
			const { h } = await editable(['payables:created']);
			const before = kept(h);
			const moved = await startWebhookHarness(
				sim,
				{
					events: ['payables:prepared'],
					companies: 'several',
					companyIds: ['cmp_002', 'cmp_003'],
					options: {},
				},
				{ staticData: h.staticData },
			);
			harnesses.push(moved);
			sim.clearLog();
			expect(await moved.activate()).toBe(true);
			expect(sim.requestsTo('updateWebhook')).toHaveLength(0);
			expect(
				webhookCalls()
					.filter((c) => c.startsWith('DELETE'))
					.sort(),
			).toEqual(before.map((i) => `DELETE /v1/webhooks/${i.id}`).sort());
			expect(sim.requestsTo('createWebhook')).toHaveLength(2);
			for (const company of ['cmp_002', 'cmp_003']) {
				expect(ours(h, company)).toHaveLength(0);
				expect(ours(moved, company)).toHaveLength(1);
			}
			const secrets = kept(moved).map((i) => i.secret);
			expect(secrets.some((secret) => before.some((i) => i.secret === secret))).toBe(false);
		});

		test('an instance gone at Spendesk (404 on the update) or disabled is registered anew; the other one is updated in place', async () => {
			const { h, parameters } = await editable(['payables:created']);
			const [first, second] = kept(h).map((i) => ({ ...i }));
			webhooksOf(sim, first.companyId).length = 0;
			parameters.events = ['settlements:created'];
			sim.clearLog();
			await h.activate();
			expect(sim.requestsTo('updateWebhook').map((r) => r.status)).toEqual([404, 200]);
			expect(sim.requestsTo('createWebhook').map((r) => r.companyId)).toEqual([first.companyId]);
			expect(webhookCalls()).toEqual([
				`PATCH /v1/webhooks/${first.id}`,
				`PATCH /v1/webhooks/${second.id}`,
				`DELETE /v1/webhooks/${first.id}`,
				'GET /v1/webhooks',
				'POST /v1/webhooks',
			]);
			const renewed = kept(h).find((i) => i.companyId === first.companyId)!;
			expect(renewed.id).not.toBe(first.id);
			expect(renewed.secret).not.toBe(first.secret);
			expect(kept(h).find((i) => i.companyId === second.companyId)).toEqual({
				...second,
				events: ['settlements:created'],
			});
			expect(h.logs.map((l) => l.message).join('\n')).toContain(
				`webhook instance ${first.id} of company "${first.companyId}" is registered anew (it is no longer at Spendesk)`,
			);

			// Disabled by Spendesk (3 days of failed deliveries): an update would not revive it.
			Object.assign(ours(h, second.companyId)[0], { status: 'disabled', disabled: true });
			parameters.events = ['payables:created'];
			sim.clearLog();
			await h.activate();
			expect(sim.requestsTo('createWebhook').map((r) => r.companyId)).toEqual([second.companyId]);
			expect(ours(h, second.companyId)).toHaveLength(1);
			expect(ours(h, second.companyId)[0].status).toBe('active');
			expect(await h.checkExists()).toBe(true);
		});

		test("an update refused with an error quoting the instance's secret: the log says why it is registered anew, never the secret", async () => {
			const { h, parameters } = await editable(['payables:created']);
			const [first] = kept(h).map((i) => ({ ...i }));
			parameters.events = ['payables:prepared'];
			sim.injectFault({
				route: 'updateWebhook',
				kind: 'status',
				status: 400,
				detail: `Instance with secret ${first.secret} cannot change its events`,
			});
			sim.clearLog();
			await h.activate();
			expect(sim.requestsTo('updateWebhook').map((r) => r.status)).toEqual([400, 200]);
			const logs = h.logs.map((l) => l.message).join('\n');
			expect(logs).toContain(
				`webhook instance ${first.id} of company "${first.companyId}" is registered anew (Spendesk refused the update: `,
			);
			expect(JSON.stringify(h.logs)).not.toContain(first.secret);
			expect(kept(h).find((i) => i.companyId === first.companyId)!.id).not.toBe(first.id);
		});

		test('an update refused (no scope for it) falls back to delete and create; when creating is refused too, the error says which company and what to do', async () => {
			const { h, parameters } = await editable(['payables:created']);
			const before = kept(h).map((i) => ({ ...i }));
			parameters.events = ['payables:prepared'];
			sim.injectFault({
				route: 'updateWebhook',
				kind: 'status',
				status: 403,
				times: 2,
				detail: 'Missing scope experimental:webhooks:write',
			});
			sim.clearLog();
			await h.activate();
			expect(sim.requestsTo('updateWebhook').map((r) => r.status)).toEqual([403, 403]);
			expect(sim.requestsTo('deleteWebhook')).toHaveLength(2);
			expect(sim.requestsTo('createWebhook')).toHaveLength(2);
			for (const company of ['cmp_002', 'cmp_003']) {
				expect(ours(h, company)).toHaveLength(1);
				expect(ours(h, company)[0].events).toEqual(['payables:prepared']);
			}
			expect(kept(h).map((i) => i.id)).toEqual(
				ours(h, 'cmp_002')
					.concat(ours(h, 'cmp_003'))
					.map((w) => w.id),
			);
			expect(kept(h).some((i) => before.some((b) => b.secret === i.secret))).toBe(false);
			const body = deliveryBody('cmp_002', 'pay_3', 'payables:prepared');
			expect((await h.deliver(body, signed(body, secretOf(h, 'cmp_002')))).status).toBe(200);

			// The credential may neither update nor create: the registration's own message.
			parameters.events = ['settlements:created'];
			sim.injectFault({ route: 'updateWebhook', kind: 'status', status: 403, times: 2 });
			sim.injectFault({ route: 'createWebhook', kind: 'status', status: 403 });
			const error = await failure(h.activate());
			expect(error.message).toContain('Could not register the webhook for company "cmp_002"');
			expect((error as { description?: string }).description).toBeTruthy();
		});
	});

	describe('signatures', () => {
		let h: WebhookHarness;
		beforeEach(async () => {
			h = await start({
				companies: 'several',
				companyIds: ['cmp_002', 'cmp_003'],
				events: ['payables:created', 'settlements:created'],
			});
			await h.activate();
		});

		test('a delivery signed with the company secret (hex or base64) starts one execution with the body', async () => {
			const body = deliveryBody('cmp_002', 'pay_42');
			const answer = await h.deliver(body, signed(body, secretOf(h, 'cmp_002')));
			expect(answer.status).toBe(200);
			expect(h.executions).toEqual([[JSON.parse(body)]]);
			const second = deliveryBody('cmp_003', 'pay_43');
			expect(
				(await h.deliver(second, signed(second, secretOf(h, 'cmp_003'), 'base64'))).status,
			).toBe(200);
			expect(h.executions).toHaveLength(2);
		});

		test.each([
			['no signature header', () => ({}) as Record<string, string>],
			['a wrong signature', () => ({ [SIGNATURE]: 'a'.repeat(64) })],
			['a signature neither hex nor base64', () => ({ [SIGNATURE]: 'not a signature' })],
			[
				"a signature made with another company's secret",
				(body: string, h: WebhookHarness) => signed(body, secretOf(h, 'cmp_003')),
			],
		])('%s is answered 401 and starts nothing', async (_name, headers) => {
			const body = deliveryBody('cmp_002', 'pay_42');
			const answer = await h.deliver(body, headers(body, h));
			expect(answer.status).toBe(401);
			expect(h.executions).toHaveLength(0);
			expect(JSON.stringify(answer.body)).not.toContain(secretOf(h, 'cmp_002'));
		});

		test('a body changed after signing, a company without an instance, and a body that is not a delivery are answered 401', async () => {
			const body = deliveryBody('cmp_002', 'pay_42');
			const tampered = body.replace('pay_42', 'pay_99');
			expect((await h.deliver(tampered, signed(body, secretOf(h, 'cmp_002')))).status).toBe(401);
			const elsewhere = deliveryBody('cmp_001', 'pay_1');
			expect((await h.deliver(elsewhere, signed(elsewhere, secretOf(h, 'cmp_002')))).status).toBe(
				401,
			);
			expect((await h.deliver('not json', signed('not json', secretOf(h, 'cmp_002')))).status).toBe(
				401,
			);
			expect((await h.deliver('{}', signed('{}', secretOf(h, 'cmp_002')))).status).toBe(401);
			expect(h.executions).toHaveLength(0);
		});

		test('an event the trigger does not listen to is answered 200 and starts nothing', async () => {
			const body = deliveryBody('cmp_002', 'pay_1', 'payables:prepared');
			const answer = await h.deliver(body, signed(body, secretOf(h, 'cmp_002')));
			expect(answer.status).toBe(200);
			expect(h.executions).toHaveLength(0);
		});
	});

	describe('repeated deliveries', () => {
		test('the same event delivered again starts no second execution, also when deliveries overlap', async () => {
			const h = await start({});
			await h.activate();
			const body = deliveryBody('cmp_002', 'pay_7');
			const headers = signed(body, secretOf(h, 'cmp_002'));
			expect((await h.deliver(body, headers)).status).toBe(200);
			const again = await h.deliver(body, headers);
			expect(again).toEqual({ status: 200, body: { received: true, duplicate: true } });
			expect(h.executions.map((e) => (e[0].data as IDataObject).id)).toEqual(['pay_7']);
		});

		test('deliveries of one event that overlap (each with the static data as it was when it arrived) start one execution', async () => {
			const h = await start({ options: { fetchFullObject: true } });
			await h.activate();
			// The read of the payable keeps the first delivery busy while the repeats arrive.
			sim.injectFault({ route: 'getPayable', kind: 'latency', latencyMs: 300, times: 5 });
			const payable = sim.data('cmp_002').payables[2];
			const body = deliveryBody('cmp_002', payable.id);
			const answers = await Promise.all(
				Array.from(
					{ length: 5 },
					async () => await h.deliver(body, signed(body, secretOf(h, 'cmp_002'))),
				),
			);
			// The repeats come while the first is still being handled: not taken as delivered (409),
			// since it might yet fail; Spendesk delivers them again later.
			expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
			expect(answers.filter((a) => (a.body as IDataObject).duplicate === true)).toHaveLength(0);
			expect(h.executions).toHaveLength(1);
			const later = await h.deliver(body, signed(body, secretOf(h, 'cmp_002')));
			expect(later).toEqual({ status: 200, body: { received: true, duplicate: true } });
			expect(h.executions).toHaveLength(1);
			expect(h.executions[0][0]).toMatchObject({ id: payable.id });
		});

		test('repeats are recognised after a restart (static data) and the memory stays bounded', async () => {
			const h = await start({});
			await h.activate();
			const secret = secretOf(h, 'cmp_002');
			const first = deliveryBody('cmp_002', 'pay_1', 'payables:created', 'evt_restart_1');
			await h.deliver(first, signed(first, secret));
			// Another n8n process (or n8n restarted): same static data, empty process memory.
			const restarted = await startWebhookHarness(
				sim,
				{ events: ['payables:created'], ...oneCompany('cmp_002'), options: {} },
				{ staticData: h.staticData },
			);
			harnesses.push(restarted);
			expect(await restarted.deliver(first, signed(first, secret))).toEqual({
				status: 200,
				body: { received: true, duplicate: true },
			});
			expect(restarted.executions).toHaveLength(0);

			for (let i = 0; i < MAX_RECENT_EVENTS + 5; i++) {
				const body = deliveryBody('cmp_002', `pay_${i}`, 'payables:created', `evt_bound_${i}`);
				await h.deliver(body, signed(body, secret));
			}
			const recent = h.staticData.recentEvents as string[];
			expect(recent).toHaveLength(MAX_RECENT_EVENTS);
			expect(recent.at(-1)).toBe(`evt_bound_${MAX_RECENT_EVENTS + 4}`);
			expect(recent).not.toContain('evt_restart_1');
		});

		test('Options null (workflow JSON written by hand) delivers the event as with none set', async () => {
			const h = await start({ options: null });
			await h.activate();
			const body = deliveryBody('cmp_002', 'pay_null', 'payables:created', 'evt_null_options');
			expect((await h.deliver(body, signed(body, secretOf(h, 'cmp_002')))).status).toBe(200);
			expect(h.executions).toHaveLength(1);
		});

		test('a saved list of 200,000 handled events (an older version, a hand edit) is cut to the bound, not a failed delivery', async () => {
			const h = await start({});
			await h.activate();
			const secret = secretOf(h, 'cmp_002');
			const staticData = structuredClone(h.staticData);
			staticData.recentEvents = Array.from({ length: 200_000 }, (_, i) => `evt_old_${i}`);
			const other = await startWebhookHarness(
				sim,
				{ events: ['payables:created'], ...oneCompany('cmp_002'), options: {} },
				{ staticData, workflowId: 'wf-many-events' },
			);
			harnesses.push(other);
			const body = deliveryBody('cmp_002', 'pay_new', 'payables:created', 'evt_new');
			expect((await other.deliver(body, signed(body, secret))).status).toBe(200);
			expect(other.executions).toHaveLength(1);
			const recent = other.staticData.recentEvents as string[];
			expect(recent).toHaveLength(MAX_RECENT_EVENTS);
			expect(recent.at(-1)).toBe('evt_new');
			expect(recent.at(-2)).toBe('evt_old_199999');
			// The newest saved ones are still recognised as repeats.
			const old = deliveryBody('cmp_002', 'pay_old', 'payables:created', 'evt_old_199998');
			expect(await other.deliver(old, signed(old, secret))).toEqual({
				status: 200,
				body: { received: true, duplicate: true },
			});
		});

		test('after deliveries of different events that overlap, every one of them is in the saved static data: repeats are recognised after a restart or by another process', async () => {
			const h = await start({ options: { fetchFullObject: true } });
			await h.activate();
			const secret = secretOf(h, 'cmp_002');
			// Each delivery works on the static data as it was when it arrived and saves when it ends
			// (last save wins): the reads of the payables keep them overlapping, ending in another order.
			sim.injectFault({ route: 'getPayable', kind: 'latency', latencyMs: 300, times: 4 });
			const payables = sim.data('cmp_002').payables.slice(0, 8);
			const bodies = payables.map((p, i) =>
				deliveryBody('cmp_002', p.id, 'payables:created', `evt_overlap_${i}`),
			);
			const answers = await Promise.all(
				bodies.map(async (body) => await h.deliver(body, signed(body, secret))),
			);
			expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 200));
			expect(h.executions).toHaveLength(8);
			expect([...(h.staticData.recentEvents as string[])].sort()).toEqual(
				bodies.map((_, i) => `evt_overlap_${i}`).sort(),
			);

			// Another n8n process (a second webhook processor, or this one restarted): every repeat is recognised.
			const other = await startWebhookHarness(
				sim,
				{
					events: ['payables:created'],
					...oneCompany('cmp_002'),
					options: { fetchFullObject: true },
				},
				{ staticData: h.staticData },
			);
			harnesses.push(other);
			const repeats = await Promise.all(
				bodies.map(async (body) => await other.deliver(body, signed(body, secret))),
			);
			expect(repeats).toEqual(
				bodies.map(() => ({ status: 200, body: { received: true, duplicate: true } })),
			);
			expect(other.executions).toHaveLength(0);
		});

		test('an event whose delivery failed is never saved as handled, even when an overlapping delivery saves meanwhile: the retry starts it', async () => {
			resetTransport({ maxRetries: 1, backoffBaseMs: 600, maxBackoffMs: 600 });
			const parameters = {
				events: ['payables:created', 'settlements:created'],
				...oneCompany('cmp_002'),
				options: { fetchFullObject: true },
			};
			const h = await start(parameters);
			await h.activate();
			const secret = secretOf(h, 'cmp_002');
			const payable = sim.data('cmp_002').payables[0];
			const settlement = sim.data('cmp_002').settlements[0];
			// The payable's read fails twice (a 500, retried once after 300–600 ms): its delivery fails
			// after the settlement's delivery has ended and saved.
			sim.injectFault({ route: 'getPayable', kind: 'status', status: 500, times: 2 });
			const failing = deliveryBody('cmp_002', payable.id, 'payables:created', 'evt_fails_once');
			const failed = h.deliver(failing, signed(failing, secret));
			await new Promise((resolve) => setTimeout(resolve, 100));
			const fine = deliveryBody('cmp_002', settlement.id, 'settlements:created', 'evt_fine');
			expect((await h.deliver(fine, signed(fine, secret))).status).toBe(200);
			expect((await failed).status).toBe(500);
			expect(h.staticData.recentEvents).toEqual(['evt_fine']);

			// Spendesk's retry, to another process (or this one restarted) and to this one: each starts it.
			const other = await startWebhookHarness(sim, parameters, { staticData: h.staticData });
			harnesses.push(other);
			expect((await other.deliver(failing, signed(failing, secret))).status).toBe(200);
			expect(other.executions.map((e) => e[0].id)).toEqual([payable.id]);
			expect((await h.deliver(failing, signed(failing, secret))).status).toBe(200);
			expect(h.executions.map((e) => e[0].id)).toEqual([settlement.id, payable.id]);
		});
	});

	describe('Fetch Full Object', () => {
		test('a payable event gives the payable as Get a payable reads it, tagged with company and event', async () => {
			const h = await start({
				companies: 'several',
				companyIds: ['cmp_002', 'cmp_003'],
				options: { fetchFullObject: true },
			});
			await h.activate();
			const payable = sim.data('cmp_003').payables[3];
			sim.clearLog();
			const body = deliveryBody('cmp_003', payable.id, 'payables:created', 'evt_fetch_1');
			expect((await h.deliver(body, signed(body, secretOf(h, 'cmp_003')))).status).toBe(200);
			expect(h.executions).toHaveLength(1);
			const [item] = h.executions[0];
			expect(item).toMatchObject({
				id: payable.id,
				description: payable.description,
				companyId: 'cmp_003',
			});
			expect(item.version).toEqual(expect.any(Number));
			expect(item.webhookEvent).toMatchObject({ id: 'evt_fetch_1', eventType: 'payables:created' });
			const reads = sim.requestsTo('getPayable');
			expect(reads).toHaveLength(1);
			expect(reads[0].headers['x-company-id']).toBe('cmp_003');
		});

		test('a settlement event gives the settlement from its company list', async () => {
			const h = await start({
				events: ['settlements:created'],
				options: { fetchFullObject: true },
			});
			await h.activate();
			const settlement = sim.data('cmp_002').settlements.at(-1)!;
			const body = deliveryBody('cmp_002', settlement.id, 'settlements:created');
			expect((await h.deliver(body, signed(body, secretOf(h, 'cmp_002')))).status).toBe(200);
			expect(h.executions[0][0]).toMatchObject({
				id: settlement.id,
				amount: settlement.amount,
				companyId: 'cmp_002',
			});
		});

		test('a payable Spendesk does not show fails the delivery with an error naming it and the company; the retry can start it', async () => {
			const h = await start({ options: { fetchFullObject: true } });
			await h.activate();
			const body = deliveryBody('cmp_002', 'pay_not_there', 'payables:created', 'evt_missing');
			const answer = await h.deliver(body, signed(body, secretOf(h, 'cmp_002')));
			expect(answer.status).toBe(500);
			expect(h.executions).toHaveLength(0);
			expect(h.errors[0].message).toBe(
				'Payable "pay_not_there" of a webhook event was not found in company "cmp_002"',
			);
			expect((h.errors[0] as { description?: string }).description).toMatch(/payable:read/);
			// The event was not taken as handled: the same delivery, once the payable exists, starts it.
			const real = sim.data('cmp_002').payables[0];
			const retried = deliveryBody('cmp_002', real.id, 'payables:created', 'evt_missing');
			expect((await h.deliver(retried, signed(retried, secretOf(h, 'cmp_002')))).status).toBe(200);
			expect(h.executions).toHaveLength(1);
		});

		test('a repeat that arrives while a slow read is still running is answered non-2xx, so Spendesk retries later; the event then runs exactly once', async () => {
			const h = await start({ options: { fetchFullObject: true } });
			await h.activate();
			const payable = sim.data('cmp_002').payables[1];
			const body = deliveryBody('cmp_002', payable.id, 'payables:created', 'evt_slow_read');
			const signature = signed(body, secretOf(h, 'cmp_002'));
			// The read is slow (Spendesk gives up waiting and retries at once), then fails.
			sim.configure({ latencyMs: 150 });
			sim.injectFault({ route: 'getPayable', kind: 'status', status: 500, times: 100 });
			const first = h.deliver(body, signature);
			while (sim.stats.inFlight === 0) await sleep(2); // the read is under way
			const retry = await h.deliver(body, signature);
			expect(retry.status).toBeGreaterThanOrEqual(400);
			expect(retry.body).not.toMatchObject({ duplicate: true });
			expect((await first).status).toBe(500);
			expect(h.executions).toHaveLength(0);

			// Spendesk's later retry: the read works now, the event runs once.
			sim.clearFaults();
			sim.configure({ latencyMs: 0 });
			expect((await h.deliver(body, signature)).status).toBe(200);
			expect(h.executions).toHaveLength(1);
			expect((await h.deliver(body, signature)).body).toMatchObject({ duplicate: true });
			expect(h.executions).toHaveLength(1);
		});

		test('a repeat that arrives while a slow read is running, which then succeeds, is answered non-2xx, and the next retry is a duplicate', async () => {
			const h = await start({ options: { fetchFullObject: true } });
			await h.activate();
			const payable = sim.data('cmp_002').payables[2];
			const body = deliveryBody('cmp_002', payable.id, 'payables:created', 'evt_slow_ok');
			const signature = signed(body, secretOf(h, 'cmp_002'));
			sim.configure({ latencyMs: 300 });
			const first = h.deliver(body, signature);
			while (sim.stats.inFlight === 0) await sleep(2); // the read is under way
			expect((await h.deliver(body, signature)).status).toBeGreaterThanOrEqual(400);
			expect((await first).status).toBe(200);
			sim.configure({ latencyMs: 0 });
			expect((await h.deliver(body, signature)).body).toMatchObject({ duplicate: true });
			expect(h.executions).toHaveLength(1);
		});

		test('the read goes through the transport: a 429 is waited out', async () => {
			const h = await start({ options: { fetchFullObject: true } });
			await h.activate();
			sim.injectFault({ route: 'getPayable', kind: 'rateLimit', times: 1, retryAfterSeconds: 1 });
			const payable = sim.data('cmp_002').payables[1];
			sim.clearLog();
			const body = deliveryBody('cmp_002', payable.id);
			expect((await h.deliver(body, signed(body, secretOf(h, 'cmp_002')))).status).toBe(200);
			expect(h.executions[0][0]).toMatchObject({ id: payable.id });
			expect(sim.requestsTo('getPayable').map((r) => r.status)).toEqual([429, 200]);
		});
	});

	describe('deliveries made by the simulator', () => {
		test('a payable created at Spendesk gives exactly one execution with it; a failed delivery is retried by Spendesk and then starts it once', async () => {
			const h = await start({
				companies: 'several',
				companyIds: ['cmp_002', 'cmp_003'],
				events: ['payables:created', 'settlements:created'],
				options: { fetchFullObject: true },
			});
			await h.activate();
			const { payable } = sim.createPayable('cmp_003');
			await sim.whenWebhooksSettled();
			expect(h.executions).toHaveLength(1);
			expect(h.executions[0][0]).toMatchObject({
				id: payable.id,
				companyId: 'cmp_003',
				webhookEvent: { eventType: 'payables:created' },
			});

			// The read of the next payable is refused once: the delivery is answered 500, Spendesk
			// retries at once, and that retry starts the execution.
			sim.injectFault({ route: 'getPayable', kind: 'status', status: 403, times: 1 });
			const second = sim.createPayable('cmp_002').payable;
			await sim.whenWebhooksSettled();
			const attempts = sim
				.webhookDeliveries()
				.filter((d) => d.url === h.url && d.companyId === 'cmp_002');
			expect(attempts.map((d) => d.status)).toEqual([500, 200]);
			expect(h.executions.map((e) => e[0].id)).toEqual([payable.id, second.id]);
			expect(h.errors[0].message).toMatch(/403|denied/i);

			// A settlement: the settlement itself, once.
			const { settlement } = sim.createSettlement('cmp_002');
			await sim.whenWebhooksSettled();
			expect(h.executions.at(-1)![0]).toMatchObject({ id: settlement.id, companyId: 'cmp_002' });
			expect(h.executions).toHaveLength(3);
		});

		test('a repeated delivery of the same event starts nothing more; after deactivation nothing is delivered', async () => {
			const h = await start({});
			await h.activate();
			const { event } = sim.createPayable('cmp_002');
			await sim.whenWebhooksSettled();
			sim.redeliverWebhookEvent(event.id);
			await sim.whenWebhooksSettled();
			const attempts = sim.webhookDeliveries().filter((d) => d.url === h.url);
			expect(attempts.map((d) => d.status)).toEqual([200, 200]);
			expect(h.executions).toHaveLength(1);
			await h.deactivate();
			sim.createPayable('cmp_002');
			await sim.whenWebhooksSettled();
			expect(sim.webhookDeliveries().filter((d) => d.url === h.url)).toHaveLength(2);
		});
	});
});
