/**
 * Webhook deliveries: real HTTP POSTs from the simulator to a receiver on 127.0.0.1, signed,
 * retried on the time-scaled schedule, and the control route that triggers them.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpendeskSimulator } from '../server';
import type { SimulatorOptions } from '../types';
import { api, err, ids, request, sleep, token } from './helpers';

const DAY = 24 * 3_600_000;
const TEN_MINUTES = 10 * 60_000;
const TWO_HOURS = 2 * 3_600_000;
const SIGNATURE = 'x-spendesk-webhook-signature';

interface Hit {
	path: string;
	/** performance.now() when the whole request was in. */
	at: number;
	headers: http.IncomingHttpHeaders;
	raw: Buffer;
}

/** What the receiver answers to the n-th request (1-based) on a path: a status, or nothing at all. */
type Answer = (path: string, n: number) => number | 'hang';

interface Receiver {
	url: (path: string) => string;
	hits: Hit[];
	on: (path: string) => Hit[];
	close: () => Promise<void>;
}

async function receiver(answer: Answer = () => 200): Promise<Receiver> {
	const hits: Hit[] = [];
	const on = (path: string) => hits.filter((h) => h.path === path);
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const hit: Hit = {
				path: req.url ?? '',
				at: performance.now(),
				headers: req.headers,
				raw: Buffer.concat(chunks),
			};
			hits.push(hit);
			const status = answer(hit.path, on(hit.path).length);
			if (status === 'hang') return;
			res.writeHead(status, { 'content-type': 'text/plain' });
			res.end('ok');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const port = (server.address() as AddressInfo).port;
	return {
		url: (path) => `http://127.0.0.1:${port}${path}`,
		hits,
		on,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

const hmac = (secret: string, raw: Buffer) =>
	createHmac('sha256', secret).update(raw).digest('hex');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (hit: Hit): any => JSON.parse(hit.raw.toString('utf8'));

describe('webhook deliveries', () => {
	const open: Array<() => Promise<void>> = [];
	afterEach(async () => {
		while (open.length) await open.pop()!();
	});

	async function start(
		options: SimulatorOptions = {},
	): Promise<{ sim: SpendeskSimulator; org: string }> {
		const sim = new SpendeskSimulator({
			seed: { sizes: { invoices: 1, payables: 3, settlements: 3 } },
			...options,
		});
		await sim.start();
		open.push(() => sim.stop());
		return { sim, org: await token(sim, sim.credentials.orgKey) };
	}

	async function listen(answer?: Answer): Promise<Receiver> {
		const rx = await receiver(answer);
		open.push(rx.close);
		return rx;
	}

	/** Registers an instance through the API; the answer holds its secret. */
	async function register(
		sim: SpendeskSimulator,
		org: string,
		companyId: string,
		body: Record<string, unknown>,
		// eslint-disable-next-line @typescript-eslint/no-explicit-any
	): Promise<any> {
		const res = await api(sim, org, '/v1/webhooks', { method: 'POST', companyId, body });
		expect(res.status).toBe(201);
		return res.body.data;
	}

	test('a new payable is POSTed to the instance: the event as JSON, signed with HMAC-SHA256 (hex) of the raw body and the secret', async () => {
		const { sim, org } = await start();
		const rx = await listen();
		const hook = await register(sim, org, 'cmp_001', {
			url: rx.url('/a'),
			events: ['payables:created'],
			secret: 'whsec-one',
		});
		sim.clock.advance(DAY);

		const { payable, event } = sim.createPayable('cmp_001');
		await sim.whenWebhooksIdle();

		expect(rx.hits).toHaveLength(1);
		const [hit] = rx.hits;
		expect(hit.headers[SIGNATURE]).toMatch(/^[0-9a-f]{64}$/);
		expect(hit.headers[SIGNATURE]).toBe(hmac('whsec-one', hit.raw));
		expect(hit.headers['content-type']).toBe('application/json');
		expect(hit.headers['user-agent']).toMatch(/^Spendesk-Webhooks\/1\.0 /);
		expect(json(hit)).toEqual({
			data: { companyId: 'cmp_001', id: payable.id, version: 1 },
			event: {
				entity: 'payable',
				eventType: 'payables:created',
				id: event.id,
				timestamp: event.timestamp,
			},
		});
		expect(event.id).toMatch(/^evt_\w+$/);
		// The timestamp comes from the simulator's clock, a day ahead of the wall clock.
		expect(Date.parse(event.timestamp)).toBeGreaterThan(Date.now() + DAY - 60_000);

		const log = sim.webhookDeliveries();
		expect(log).toEqual([
			{
				eventId: event.id,
				eventType: 'payables:created',
				instanceId: hook.id,
				companyId: 'cmp_001',
				url: rx.url('/a'),
				attempt: 1,
				at: expect.any(String),
				status: 200,
				signature: hit.headers[SIGNATURE],
			},
		]);
		expect(Date.parse(log[0].at)).toBeGreaterThan(Date.now() + DAY - 60_000);
		expect(JSON.stringify(log)).not.toContain('whsec-one');
	});

	test('the records behind the events show in the API: Get a payable, the payables search, the settlements list', async () => {
		const { sim, org } = await start();
		const rx = await listen();
		await register(sim, org, 'cmp_001', {
			url: rx.url('/all'),
			events: ['payables:created', 'payables:prepared', 'settlements:created'],
		});

		const created = sim.createPayable('cmp_001', { description: 'Slack software', amount: 4200 });
		expect(created.payable.id).toBe('pay_001_000004');
		const got = await api(sim, org, `/v1/payables/${created.payable.id}`, { companyId: 'cmp_001' });
		expect(got.status).toBe(200);
		expect(got.body).toMatchObject({
			id: created.payable.id,
			type: 'invoicePurchase',
			bookkeepingStatus: 'created',
			version: 1,
			description: 'Slack software',
			amount: 4200,
		});
		const search = await api(sim, org, '/v1/payables/search', {
			method: 'POST',
			companyId: 'cmp_001',
			body: { limit: 100 },
		});
		expect(ids(search.body.payables)).toContain(created.payable.id);
		const toPrepare = await api(sim, org, '/v1/payables/search', {
			method: 'POST',
			companyId: 'cmp_001',
			body: {
				filters: {
					operator: 'and',
					subfilters: [{ field: 'bookkeepingStatus', operator: '=', value: ['toPrepare'] }],
				},
			},
		});
		expect(ids(toPrepare.body.payables)).toContain(created.payable.id);

		const prepared = sim.preparePayable('cmp_001', created.payable.id);
		const after = await api(sim, org, `/v1/payables/${created.payable.id}`, {
			companyId: 'cmp_001',
		});
		expect(after.body).toMatchObject({ bookkeepingStatus: 'prepared', version: 2 });
		expect(() => sim.preparePayable('cmp_001', created.payable.id)).toThrow(
			/only a created payable/,
		);

		const settled = sim.createSettlement('cmp_001', { transactionDescription: 'Card: test' });
		const list = await api(sim, org, '/v1/settlements', { companyId: 'cmp_001' });
		expect(list.status).toBe(200);
		expect(ids(list.body.data)).toContain(settled.settlement.id);
		expect(
			list.body.data.find((s: { id: string }) => s.id === settled.settlement.id),
		).toMatchObject({ transactionDescription: 'Card: test', state: 'created' });

		await sim.whenWebhooksIdle();
		const byType = (t: string) => rx.hits.map(json).find((b) => b.event.eventType === t);
		expect(rx.hits).toHaveLength(3);
		expect(byType('payables:prepared')).toEqual({
			data: { companyId: 'cmp_001', id: created.payable.id, version: 2 },
			event: {
				entity: 'payable',
				eventType: 'payables:prepared',
				id: prepared.event.id,
				timestamp: prepared.event.timestamp,
			},
		});
		expect(byType('settlements:created')).toEqual({
			data: { companyId: 'cmp_001', id: settled.settlement.id, version: 1 },
			event: {
				entity: 'settlement',
				eventType: 'settlements:created',
				id: settled.event.id,
				timestamp: settled.event.timestamp,
			},
		});
		expect(new Set([created.event.id, prepared.event.id, settled.event.id]).size).toBe(3);
	});

	test('new ids never collide with the ones taken', async () => {
		const { sim } = await start();
		const first = sim.createPayable('cmp_001', { id: 'pay_001_000005' });
		const next = sim.createPayable('cmp_001');
		expect(next.payable.id).toBe('pay_001_000006');
		expect(() => sim.createPayable('cmp_001', { id: first.payable.id })).toThrow(/already exists/);
		expect(sim.data('cmp_001').payables.filter((p) => p.id === first.payable.id)).toHaveLength(1);
	});

	test("only the instances of the event's company subscribed to its type receive it", async () => {
		const { sim, org } = await start();
		const rx = await listen();
		await register(sim, org, 'cmp_001', {
			url: rx.url('/created-1'),
			events: ['payables:created'],
		});
		await register(sim, org, 'cmp_001', {
			url: rx.url('/settlements-1'),
			events: ['settlements:created'],
		});
		const generated = await register(sim, org, 'cmp_001', {
			url: rx.url('/both-1'),
			events: ['payables:prepared', 'payables:created'],
		});
		await register(sim, org, 'cmp_002', {
			url: rx.url('/created-2'),
			events: ['payables:created'],
		});

		const one = sim.createPayable('cmp_001').event;
		const settlement = sim.createSettlement('cmp_001').event;
		const two = sim.createPayable('cmp_002').event;
		await sim.whenWebhooksIdle();

		const eventsOn = (path: string) => rx.on(path).map((h) => json(h).event.id);
		expect(eventsOn('/created-1')).toEqual([one.id]);
		expect(eventsOn('/both-1')).toEqual([one.id]);
		expect(eventsOn('/settlements-1')).toEqual([settlement.id]);
		expect(eventsOn('/created-2')).toEqual([two.id]);
		expect(rx.hits).toHaveLength(4);
		// A generated secret signs too.
		const [hit] = rx.on('/both-1');
		expect(hit.headers[SIGNATURE]).toBe(hmac(generated.secret, hit.raw));
	});

	test('a receiver answering 500 then 200 gets the immediate retry, the same bytes, then nothing more', async () => {
		const scale = 0.001; // 10 minutes = 600 ms
		const { sim, org } = await start({ webhookTimeScale: scale });
		const rx = await listen((_, n) => (n === 1 ? 500 : 200));
		const hook = await register(sim, org, 'cmp_001', {
			url: rx.url('/flaky'),
			events: ['payables:created'],
		});

		const { event } = sim.createPayable('cmp_001');
		await sim.whenWebhooksSettled();

		expect(rx.hits).toHaveLength(2);
		expect(rx.hits[1].at - rx.hits[0].at).toBeLessThan((TEN_MINUTES * scale) / 2);
		expect(rx.hits[1].raw.equals(rx.hits[0].raw)).toBe(true);
		expect(rx.hits[1].headers[SIGNATURE]).toBe(rx.hits[0].headers[SIGNATURE]);
		expect(sim.webhookDeliveries().map((a) => [a.eventId, a.attempt, a.status])).toEqual([
			[event.id, 1, 500],
			[event.id, 2, 200],
		]);
		await sleep(TEN_MINUTES * scale + 200);
		expect(rx.hits).toHaveLength(2);
		const shown = await api(sim, org, `/v1/webhooks/${hook.id}`, { companyId: 'cmp_001' });
		expect(shown.body.data).toMatchObject({ status: 'active', disabled: false });
	});

	test('whenWebhooksIdle waits for the immediate retry only; stop() cancels the scheduled retries', async () => {
		const scale = 0.0005; // 10 minutes = 300 ms
		const { sim, org } = await start({ webhookTimeScale: scale });
		const rx = await listen(() => 500);
		await register(sim, org, 'cmp_001', { url: rx.url('/down'), events: ['payables:created'] });

		sim.createPayable('cmp_001');
		await sim.whenWebhooksIdle();
		expect(sim.webhookDeliveries().map((a) => a.attempt)).toEqual([1, 2]);
		expect(rx.hits).toHaveLength(2);

		let settled = false;
		const settling = sim.whenWebhooksSettled().then(() => (settled = true));
		await sleep(50);
		expect(settled).toBe(false);

		await sim.stop();
		await settling;
		expect(settled).toBe(true);
		await sleep(TEN_MINUTES * scale + 300);
		expect(rx.hits).toHaveLength(2);
		expect(sim.webhookDeliveries()).toHaveLength(2);
	});

	test('the schedule, time-scaled: at once, 6 × every 10 minutes, 36 × every 2 hours, then the instance is disabled', async () => {
		const scale = 0.000003; // 10 minutes = 1.8 ms, 2 hours = 21.6 ms: about 0.8 s in all
		const { sim, org } = await start({ webhookTimeScale: scale });
		const rx = await listen(() => 503);
		const hook = await register(sim, org, 'cmp_001', {
			url: rx.url('/gone'),
			events: ['payables:created', 'settlements:created'],
		});

		const started = performance.now();
		const { event } = sim.createPayable('cmp_001');
		await sim.whenWebhooksSettled();
		const elapsed = performance.now() - started;

		expect(rx.hits).toHaveLength(1 + 1 + 6 + 36);
		const gaps = rx.hits.slice(1).map((h, i) => h.at - rx.hits[i].at);
		const short = TEN_MINUTES * scale;
		const long = TWO_HOURS * scale;
		// A retry never goes out before its wait is over (counted from the failed attempt's
		// answer, which comes after the receiver took the request). The immediate retry's
		// spacing is checked with a coarser scale above.
		const tenMinuteGaps = gaps.slice(1, 7);
		for (const gap of tenMinuteGaps) expect(gap).toBeGreaterThanOrEqual(short);
		expect(tenMinuteGaps.reduce((a, b) => a + b, 0) / tenMinuteGaps.length).toBeLessThan(long);
		for (const gap of gaps.slice(7)) expect(gap).toBeGreaterThanOrEqual(long);
		expect(elapsed).toBeLessThan(2000);

		const log = sim.webhookDeliveries();
		expect(log.map((a) => a.attempt)).toEqual(Array.from({ length: 44 }, (_, i) => i + 1));
		expect(log.every((a) => a.eventId === event.id && a.status === 503)).toBe(true);

		const shown = await api(sim, org, `/v1/webhooks/${hook.id}`, { companyId: 'cmp_001' });
		expect(shown.body.data).toMatchObject({ status: 'disabled', disabled: true });
		const listed = await api(sim, org, '/v1/webhooks', { companyId: 'cmp_001' });
		expect(listed.body.data.find((w: { id: string }) => w.id === hook.id)).toMatchObject({
			status: 'disabled',
		});

		sim.createSettlement('cmp_001');
		sim.redeliverWebhookEvent(event.id);
		await sim.whenWebhooksSettled();
		expect(rx.hits).toHaveLength(44);
		expect(sim.webhookDeliveries()).toHaveLength(44);
	});

	test('a receiver that never answers times out (webhookTimeoutMs); a closed port is a network error', async () => {
		const timeout = 150;
		const { sim, org } = await start({ webhookTimeoutMs: timeout });
		const rx = await listen(() => 'hang');
		const closed = await receiver();
		const closedUrl = closed.url('/nobody');
		await closed.close();
		await register(sim, org, 'cmp_001', { url: rx.url('/silent'), events: ['payables:created'] });
		await register(sim, org, 'cmp_001', { url: closedUrl, events: ['payables:created'] });

		const started = performance.now();
		sim.createPayable('cmp_001');
		await sim.whenWebhooksIdle();

		expect(performance.now() - started).toBeGreaterThanOrEqual(2 * timeout - 5);
		expect(rx.hits).toHaveLength(2);
		const silent = sim.webhookDeliveries().filter((a) => a.url === rx.url('/silent'));
		expect(silent.map((a) => a.attempt)).toEqual([1, 2]);
		for (const a of silent) {
			expect(a.status).toBeUndefined();
			expect(a.error).toMatch(/timeout/);
		}
		const refused = sim.webhookDeliveries().filter((a) => a.url === closedUrl);
		expect(refused.map((a) => a.attempt)).toEqual([1, 2]);
		for (const a of refused) {
			expect(a.status).toBeUndefined();
			expect(a.error).toMatch(/ECONNREFUSED/);
		}
	});

	test('redelivery sends the same event again: same id, same bytes, same signature', async () => {
		const { sim, org } = await start();
		const rx = await listen();
		await register(sim, org, 'cmp_001', { url: rx.url('/twice'), events: ['settlements:created'] });

		const { event } = sim.createSettlement('cmp_001');
		await sim.whenWebhooksIdle();
		sim.clock.advance(DAY);
		const again = sim.redeliverWebhookEvent(event.id);
		await sim.whenWebhooksIdle();

		expect(again).toEqual(event);
		expect(rx.hits).toHaveLength(2);
		expect(rx.hits[1].raw.equals(rx.hits[0].raw)).toBe(true);
		expect(json(rx.hits[1]).event.id).toBe(event.id);
		expect(rx.hits[1].headers[SIGNATURE]).toBe(rx.hits[0].headers[SIGNATURE]);
		expect(sim.webhookDeliveries().map((a) => [a.eventId, a.attempt])).toEqual([
			[event.id, 1],
			[event.id, 1],
		]);
		expect(() => sim.redeliverWebhookEvent('evt_unknown')).toThrow(/No webhook event/);
	});

	test('a deleted instance receives nothing, pending retries included', async () => {
		const scale = 0.0005; // 10 minutes = 300 ms
		const { sim, org } = await start({ webhookTimeScale: scale });
		const rx = await listen((path) => (path === '/failing' ? 500 : 200));
		const removed = await register(sim, org, 'cmp_001', {
			url: rx.url('/removed'),
			events: ['payables:created'],
		});
		await register(sim, org, 'cmp_001', { url: rx.url('/kept'), events: ['payables:created'] });
		const failing = await register(sim, org, 'cmp_001', {
			url: rx.url('/failing'),
			events: ['payables:created'],
		});
		const remove = async (id: string) =>
			expect(
				(await api(sim, org, `/v1/webhooks/${id}`, { method: 'DELETE', companyId: 'cmp_001' }))
					.status,
			).toBe(204);

		await remove(removed.id);
		sim.createPayable('cmp_001');
		await sim.whenWebhooksIdle();
		expect(rx.on('/removed')).toHaveLength(0);
		expect(rx.on('/kept')).toHaveLength(1);
		expect(rx.on('/failing')).toHaveLength(2);

		await remove(failing.id);
		await sleep(TEN_MINUTES * scale + 300);
		expect(rx.on('/failing')).toHaveLength(2);
		await sim.whenWebhooksSettled();
	});

	test('POST /_simulator/webhooks/events (no token) makes the change, emits the event and answers 201 { data: event }', async () => {
		const { sim, org } = await start();
		const rx = await listen();
		await register(sim, org, 'cmp_001', {
			url: rx.url('/ctl'),
			events: ['payables:created', 'payables:prepared', 'settlements:created'],
		});
		const control = (body: unknown) =>
			request(sim, '/_simulator/webhooks/events', { method: 'POST', body });
		sim.injectFault({ route: '*', kind: 'status', status: 503, times: 10 });

		const created = await control({ companyId: 'cmp_001', eventType: 'payables:created' });
		expect(created.status).toBe(201);
		expect(created.body.data).toMatchObject({
			entity: 'payable',
			eventType: 'payables:created',
			data: { companyId: 'cmp_001', version: 1 },
		});
		expect(created.body.data.id).toMatch(/^evt_/);
		sim.clearFaults();
		const payableId = created.body.data.data.id;
		expect(
			(await api(sim, org, `/v1/payables/${payableId}`, { companyId: 'cmp_001' })).body,
		).toMatchObject({ bookkeepingStatus: 'created', version: 1 });

		const prepared = await control({ companyId: 'cmp_001', eventType: 'payables:prepared' });
		expect(prepared.status).toBe(201);
		expect(prepared.body.data.data).toEqual({ companyId: 'cmp_001', id: payableId, version: 2 });
		expect(
			(await api(sim, org, `/v1/payables/${payableId}`, { companyId: 'cmp_001' })).body,
		).toMatchObject({ bookkeepingStatus: 'prepared', version: 2 });

		const settled = await control({ companyId: 'cmp_001', eventType: 'settlements:created' });
		expect(settled.status).toBe(201);
		expect(settled.body.data).toMatchObject({ entity: 'settlement', data: { version: 1 } });
		expect(
			ids((await api(sim, org, '/v1/settlements', { companyId: 'cmp_001' })).body.data),
		).toContain(settled.body.data.data.id);

		const seeded = sim.data('cmp_001').payables[0];
		const before = { ...seeded };
		const announced = await control({
			companyId: 'cmp_001',
			eventType: 'payables:created',
			id: seeded.id,
		});
		expect(announced.status).toBe(201);
		expect(announced.body.data.data).toEqual({ companyId: 'cmp_001', id: seeded.id, version: 1 });
		expect(sim.data('cmp_001').payables[0]).toEqual(before);

		await sim.whenWebhooksIdle();
		expect(rx.on('/ctl').map((h) => json(h).event.id)).toEqual(
			expect.arrayContaining([created, prepared, settled, announced].map((r) => r.body.data.id)),
		);
		expect(rx.on('/ctl')).toHaveLength(4);
	});

	test('POST /_simulator/webhooks/events: a wrong company, event type or id is refused, as is preparing with no created payable', async () => {
		const { sim } = await start();
		const control = (body: unknown) =>
			request(sim, '/_simulator/webhooks/events', { method: 'POST', body });

		const badType = await control({ companyId: 'cmp_001', eventType: 'payables:deleted' });
		expect(badType.status).toBe(400);
		expect(err(badType).source).toBe('body.eventType');
		const badCompany = await control({ companyId: 'cmp_999', eventType: 'payables:created' });
		expect(badCompany.status).toBe(404);
		expect(err(badCompany).source).toBe('body.companyId');
		const badId = await control({
			companyId: 'cmp_001',
			eventType: 'settlements:created',
			id: 'stl_001_999999',
		});
		expect(badId.status).toBe(404);
		expect(err(badId).source).toBe('body.id');

		for (const p of sim.data('cmp_003').payables.filter((x) => !x.bookkeepingStatus))
			sim.preparePayable('cmp_003', p.id);
		const nothing = await control({ companyId: 'cmp_003', eventType: 'payables:prepared' });
		expect(nothing.status).toBe(409);
		expect(err(nothing).code).toBe('no_payable_to_prepare');
		expect(sim.webhookDeliveries()).toEqual([]);
	});
});
