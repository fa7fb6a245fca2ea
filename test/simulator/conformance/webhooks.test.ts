import { SpendeskSimulator } from '../server';
import { MAX_WEBHOOKS_PER_COMPANY, webhooksOf } from '../webhooks';
import { api, err, token } from './helpers';

describe('webhook instances (docs/api.md#webhooks)', () => {
	let sim: SpendeskSimulator;
	let org: string;
	let limited: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 1 } } });
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
		limited = await token(sim, sim.credentials.orgKeyNoExperimental);
	});
	afterAll(async () => sim.stop());

	const create = (body: unknown, companyId = 'cmp_001', t = org) =>
		api(sim, t, '/v1/webhooks', { method: 'POST', companyId, body });
	const hook = {
		url: 'https://n8n.example.com/webhook/abc',
		events: ['payables:created', 'settlements:created'],
		description: 'n8n',
	};

	test('POST creates an instance of the calling company; the secret is given in this answer only', async () => {
		const res = await create({ ...hook, secret: 'shared-secret' }, 'cmp_002');
		expect(res.status).toBe(201);
		expect(res.body.data).toMatchObject({
			url: hook.url,
			events: hook.events,
			companyId: 'cmp_002',
			secret: 'shared-secret',
			description: 'n8n',
		});
		const again = await api(sim, org, `/v1/webhooks/${res.body.data.id}`, { companyId: 'cmp_002' });
		expect(again.status).toBe(200);
		expect(again.body.data.secret).toBeUndefined();
		expect(again.body.data).toMatchObject({ id: res.body.data.id, url: hook.url });
	});

	test('POST without a secret gets one generated', async () => {
		const res = await create(hook);
		expect(res.status).toBe(201);
		expect(res.body.data.secret).toMatch(/^[0-9a-f]{48}$/);
	});

	test.each([
		[
			'an http URL that is not loopback',
			{ ...hook, url: 'http://n8n.example.com/webhook' },
			'body.url',
		],
		['no events', { ...hook, events: [] }, 'body.events'],
		['an unknown event', { ...hook, events: ['payables:deleted'] }, 'body.events'],
	])('POST with %s is a 400', async (_, body, source) => {
		const res = await create(body, 'cmp_002');
		expect(res.status).toBe(400);
		expect(err(res).source).toBe(source);
	});

	test('an instance belongs to its company: another company does not see it (404)', async () => {
		const { body } = await create(hook, 'cmp_001');
		expect(
			(await api(sim, org, `/v1/webhooks/${body.data.id}`, { companyId: 'cmp_002' })).status,
		).toBe(404);
		const list = await api(sim, org, '/v1/webhooks', { companyId: 'cmp_002' });
		expect(list.body.data.map((w: { id: string }) => w.id)).not.toContain(body.data.id);
	});

	test('GET lists the instances page by page, without secrets', async () => {
		const res = await api(sim, org, '/v1/webhooks', { companyId: 'cmp_001' });
		expect(res.status).toBe(200);
		expect(res.body.data.length).toBe(webhooksOf(sim, 'cmp_001').length);
		expect(res.body.data.every((w: Record<string, unknown>) => !('secret' in w))).toBe(true);
		expect(res.body.meta.pagination).toMatchObject({
			page: 1,
			total: webhooksOf(sim, 'cmp_001').length,
		});
	});

	test('PATCH changes url, events and description; DELETE answers 204 and the instance is gone', async () => {
		const { body } = await create(hook, 'cmp_004');
		const patched = await api(sim, org, `/v1/webhooks/${body.data.id}`, {
			method: 'PATCH',
			companyId: 'cmp_004',
			body: { events: ['payables:prepared'] },
		});
		expect(patched.status).toBe(200);
		expect(patched.body.data).toMatchObject({ events: ['payables:prepared'], url: hook.url });
		expect(patched.body.data.secret).toBeUndefined();
		const removed = await api(sim, org, `/v1/webhooks/${body.data.id}`, {
			method: 'DELETE',
			companyId: 'cmp_004',
		});
		expect(removed.status).toBe(204);
		expect(
			(await api(sim, org, `/v1/webhooks/${body.data.id}`, { companyId: 'cmp_004' })).status,
		).toBe(404);
	});

	test(`at most ${MAX_WEBHOOKS_PER_COMPANY} instances per company: the next is a 400`, async () => {
		for (let n = webhooksOf(sim, 'cmp_003').length; n < MAX_WEBHOOKS_PER_COMPANY; n++)
			expect((await create(hook, 'cmp_003')).status).toBe(201);
		const over = await create(hook, 'cmp_003');
		expect(over.status).toBe(400);
		expect(err(over).code).toBe('too_many_webhooks');
	});

	test('the experimental webhook scopes are needed (403 without them)', async () => {
		const res = await create(hook, 'cmp_001', limited);
		expect(res.status).toBe(403);
		expect((await api(sim, limited, '/v1/webhooks', { companyId: 'cmp_001' })).status).toBe(403);
	});
});
