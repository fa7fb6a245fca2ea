/**
 * The Spendesk Webhook Trigger in a real, running n8n (`n8n start`), with the example workflow
 * examples/payable-created-webhook.json: published, it registers one instance per company at
 * the simulator; a payable created at the simulator is delivered (signed) to n8n's production
 * webhook URL and gives exactly one execution carrying that payable (Fetch Full Object); a
 * repeat of the delivery and an unsigned POST start nothing; n8n restarted after a version
 * with one more event was published while it was stopped has the instances follow it (updated
 * in place, or registered anew where n8n deletes a changed trigger first: UPDATED_IN_PLACE);
 * deactivating the workflow deletes the instances at the simulator.
 */
import { SpendeskSimulator } from '../simulator';
import { webhooksOf } from '../simulator/webhooks';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHome, ensureN8n, parseTargets } from './runtime';
import type { N8nHome, N8nTarget } from './runtime';
import { getExecution, listExecutions, login, setupOwner, startN8n, waitFor } from './server';
import type { N8nServer, RestSession } from './server';
import {
	apiKeyCredential,
	importCredentials,
	importWorkflows,
	items,
	loadExample,
	runN8n,
} from './workflows';
import type { Workflow } from './workflows';

const EXAMPLE = 'payable-created-webhook.json';
const WORKFLOW_ID = 'spendeskWebhookE2e';
const TRIGGER = 'Spendesk Webhook Trigger';
const COMPANY = 'cmp_002';
const CREDENTIAL = { id: 'spendeskOrgKeyWebhook', name: 'Spendesk organisation key (simulator)' };

jest.setTimeout(6 * 60_000);

/**
 * Whether n8n applies a newly published version of the trigger through its checkExists/create
 * hooks, so that the instances are updated in place. n8n 2.41.1 applies it through its workflow
 * publication service (N8N_USE_WORKFLOW_PUBLICATION_SERVICE, on by default): a trigger whose
 * parameters changed is deleted, then created again, and the instances are registered anew.
 */
const UPDATED_IN_PLACE: Record<N8nTarget, boolean> = { node20: true, node24: false };

const pause = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** The example with the trigger listening to `events` instead. */
function withEvents(example: Workflow, events: string[]): Workflow {
	return {
		...example,
		nodes: example.nodes.map((n) =>
			n.name === TRIGGER ? { ...n, parameters: { ...n.parameters, events } } : n,
		),
	};
}

/** Runs an n8n CLI command that must succeed. */
async function cli(home: N8nHome, args: string[]): Promise<void> {
	const result = await runN8n(home, args);
	if (result.code !== 0)
		throw new Error(
			`n8n ${args.join(' ')} failed (${result.code}):\n${result.stderr.slice(-3000)}`,
		);
}

/** The id of the workflow's saved (current) version, from `n8n export:workflow`. */
async function savedVersionId(home: N8nHome, workflowId: string): Promise<string> {
	const file = path.join(home.dir, `export-${workflowId}.json`);
	await cli(home, ['export:workflow', `--id=${workflowId}`, `--output=${file}`]);
	const [exported] = JSON.parse(readFileSync(file, 'utf8')) as Array<{ versionId: string }>;
	return exported.versionId;
}

describe.each(parseTargets())('Spendesk Webhook Trigger in a running n8n (%s)', (target) => {
	let sim: SpendeskSimulator;
	let home: N8nHome;
	let server: N8nServer | undefined;
	let session: RestSession;
	let webhookUrl: string;
	/** A saved version of the workflow whose trigger listens to Payable Created and Payable Prepared. */
	let widenedVersionId: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 5, payables: 20 } } });
		await sim.start();
		const runtime = await ensureN8n(target);
		home = await createHome(runtime);
		await importCredentials(home, [
			apiKeyCredential(CREDENTIAL, sim.baseUrl, sim.credentials.orgKey),
		]);
		const example = loadExample(EXAMPLE, WORKFLOW_ID, CREDENTIAL);
		// First saved with one more event: that version is published later, while n8n is stopped.
		await importWorkflows(home, [withEvents(example, ['payables:created', 'payables:prepared'])]);
		widenedVersionId = await savedVersionId(home, WORKFLOW_ID);
		// The example as a user imports it: All Companies, Payable Created, Fetch Full Object.
		await importWorkflows(home, [example], [WORKFLOW_ID]);
		server = await startN8n(home);
		session = await setupOwner(server.baseUrl);
		const trigger = loadExample(EXAMPLE, WORKFLOW_ID, CREDENTIAL).nodes.find(
			(n) => n.name === TRIGGER,
		) as { webhookId?: string };
		webhookUrl = `${server.baseUrl}/webhook/${trigger.webhookId}/webhook`;
	});

	afterAll(async () => {
		await server?.stop();
		await sim?.stop();
	});

	it('registers one instance per company on activation, with the production webhook URL', async () => {
		const active = sim.companies().filter((c) => c.active);
		const registered = () => active.flatMap((c) => webhooksOf(sim, c.id));
		await waitFor(() => registered().length >= active.length || undefined, {
			timeoutMs: 60_000,
			what: 'the webhook instances registered at activation',
		});
		for (const c of active) {
			expect(webhooksOf(sim, c.id)).toHaveLength(1);
			expect(webhooksOf(sim, c.id)[0]).toMatchObject({
				url: webhookUrl,
				events: ['payables:created'],
				companyId: c.id,
			});
		}
		// Each instance's secret was made by the node (not left to Spendesk to generate), one per company.
		const sent = sim
			.requestsTo('createWebhook')
			.map((r) => (r.body as { secret?: unknown }).secret);
		expect(
			sent.every((secret) => typeof secret === 'string' && /^[0-9a-f]{64}$/.test(secret)),
		).toBe(true);
		expect(new Set(sent).size).toBe(active.length);
	});

	it('a payable created at Spendesk gives exactly one execution carrying it; a repeat and an unsigned POST start nothing', async () => {
		const { payable } = sim.createPayable(COMPANY);
		const executions = await waitFor(
			async () => {
				const list = await listExecutions(session, WORKFLOW_ID);
				return list.length > 0 && list.every((e) => e.status !== 'running' && e.status !== 'new')
					? list
					: undefined;
			},
			{ timeoutMs: 60_000, intervalMs: 500, what: 'the execution of the delivery' },
		);
		expect(executions).toHaveLength(1);
		expect(executions[0]).toMatchObject({
			workflowId: WORKFLOW_ID,
			mode: 'webhook',
			status: 'success',
		});
		const execution = await getExecution(session, home, executions[0].id);
		const emitted = items(execution, TRIGGER);
		expect(emitted).toHaveLength(1);
		expect(emitted[0]).toMatchObject({
			id: payable.id,
			description: payable.description,
			companyId: COMPANY,
		});
		expect(emitted[0].webhookEvent).toMatchObject({ eventType: 'payables:created' });
		expect(items(execution, 'Format Message')).toEqual([
			expect.objectContaining({
				payableId: payable.id,
				companyId: COMPANY,
				title: `New payable in ${COMPANY}`,
				eventId: (emitted[0].webhookEvent as { id: string }).id,
			}),
		]);

		const deliveries = sim.webhookDeliveries().filter((d) => d.url === webhookUrl);
		expect(deliveries.map((d) => d.status)).toEqual([200]);
		expect(
			sim.requestsTo('getPayable').filter((r) => r.path === `/v1/payables/${payable.id}`),
		).toHaveLength(1);

		// Spendesk delivers the same event again: answered 200, no second execution.
		sim.redeliverWebhookEvent(deliveries[0].eventId);
		await waitFor(
			() => sim.webhookDeliveries().filter((d) => d.url === webhookUrl).length === 2 || undefined,
			{ what: 'the repeated delivery' },
		);
		await sim.whenWebhooksIdle();
		expect(
			sim
				.webhookDeliveries()
				.filter((d) => d.url === webhookUrl)
				.map((d) => d.status),
		).toEqual([200, 200]);

		// Not signed by Spendesk: refused.
		const forged = await fetch(webhookUrl, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-spendesk-webhook-signature': '0'.repeat(64),
			},
			body: JSON.stringify({
				data: { companyId: COMPANY, id: payable.id, version: 1 },
				event: {
					entity: 'payable',
					eventType: 'payables:created',
					id: 'evt_forged',
					timestamp: new Date().toISOString(),
				},
			}),
		});
		expect(forged.status).toBe(401);

		await pause(3_000);
		expect((await listExecutions(session, WORKFLOW_ID)).map((e) => e.id)).toEqual([
			executions[0].id,
		]);
		const secret = webhooksOf(sim, COMPANY)[0].secret;
		expect(server!.logs()).not.toContain(secret);
	});

	it('restarted after a version with one more event was published while it was stopped, n8n has the instances follow it', async () => {
		const active = sim.companies().filter((c) => c.active);
		const before = new Map(active.map((c) => [c.id, { ...webhooksOf(sim, c.id)[0] }]));
		const executionsBefore = (await listExecutions(session, WORKFLOW_ID)).map((e) => e.id);
		const port = server!.port;
		await server!.stop();
		// Stopping n8n leaves the instances registered; publishing from the CLI does not touch them.
		await cli(home, ['publish:workflow', `--id=${WORKFLOW_ID}`, `--versionId=${widenedVersionId}`]);
		const since = (route: 'createWebhook' | 'updateWebhook' | 'deleteWebhook') => {
			const from = sim.requestsTo(route).length;
			return () => sim.requestsTo(route).slice(from);
		};
		const [created, updated, deleted] = [
			since('createWebhook'),
			since('updateWebhook'),
			since('deleteWebhook'),
		];
		server = await startN8n(home, { port });
		session = await login(server.baseUrl);
		const widened = ['payables:created', 'payables:prepared'];
		if (UPDATED_IN_PLACE[target]) {
			await waitFor(() => updated().length >= active.length || undefined, {
				timeoutMs: 60_000,
				what: 'the instances updated at activation',
			});
			expect(updated().map((r) => [r.path, r.status, r.body])).toEqual(
				active.map((c) => [`/v1/webhooks/${before.get(c.id)!.id}`, 200, { events: widened }]),
			);
			expect([...created(), ...deleted()]).toEqual([]);
		} else {
			await waitFor(() => created().length >= active.length || undefined, {
				timeoutMs: 60_000,
				what: 'the instances registered anew at activation',
			});
			expect(deleted().map((r) => [r.path, r.status])).toEqual(
				active.map((c) => [`/v1/webhooks/${before.get(c.id)!.id}`, 204]),
			);
			expect(updated()).toEqual([]);
		}
		for (const c of active) {
			expect(webhooksOf(sim, c.id)).toHaveLength(1);
			const now = webhooksOf(sim, c.id)[0];
			expect(now).toMatchObject({ url: webhookUrl, events: widened });
			// Updated in place: the same instance and secret; registered anew: a new one of each.
			expect([now.id === before.get(c.id)!.id, now.secret === before.get(c.id)!.secret]).toEqual(
				UPDATED_IN_PLACE[target] ? [true, true] : [false, false],
			);
		}

		// A payable prepared at Spendesk: signed with the instance's secret, accepted, one execution.
		const inReview = sim
			.data(COMPANY)
			.payables.find((p) => (p.bookkeepingStatus ?? 'created') === 'created')!;
		const { payable, event } = sim.preparePayable(COMPANY, inReview.id);
		const fresh = await waitFor(
			async () => {
				const list = (await listExecutions(session, WORKFLOW_ID)).filter(
					(e) => !executionsBefore.includes(e.id),
				);
				return list.length > 0 && list.every((e) => e.status !== 'running' && e.status !== 'new')
					? list
					: undefined;
			},
			{ timeoutMs: 60_000, intervalMs: 500, what: 'the execution of the prepared payable' },
		);
		await sim.whenWebhooksIdle();
		expect(fresh).toHaveLength(1);
		expect(fresh[0]).toMatchObject({ mode: 'webhook', status: 'success' });
		const emitted = items(await getExecution(session, home, fresh[0].id), TRIGGER);
		expect(emitted).toEqual([
			expect.objectContaining({
				id: payable.id,
				bookkeepingStatus: 'prepared',
				companyId: COMPANY,
			}),
		]);
		expect(emitted[0].webhookEvent).toMatchObject({ eventType: 'payables:prepared' });
		expect(
			sim
				.webhookDeliveries()
				.filter((d) => d.eventId === event.id)
				.map((d) => [d.url, d.status]),
		).toEqual([[webhookUrl, 200]]);
	});

	it('deactivating the workflow deletes the instances at Spendesk', async () => {
		const active = sim.companies().filter((c) => c.active);
		const ids = active.map((c) => webhooksOf(sim, c.id)[0].id);
		const from = sim.requestsTo('deleteWebhook').length;
		await session.post(`/workflows/${WORKFLOW_ID}/deactivate`, {});
		await waitFor(() => active.every((c) => webhooksOf(sim, c.id).length === 0) || undefined, {
			timeoutMs: 30_000,
			what: 'the instances deleted at deactivation',
		});
		expect(
			sim
				.requestsTo('deleteWebhook')
				.slice(from)
				.map((r) => [r.path, r.status])
				.sort(),
		).toEqual(ids.map((id) => [`/v1/webhooks/${id}`, 204]).sort());
	});
});
