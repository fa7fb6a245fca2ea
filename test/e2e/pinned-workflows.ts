/**
 * Saved workflows pinned with their output (test/fixtures/workflows/<version>/): each
 * `<name>.json` is a workflow as n8n exports it, `<name>.expected.json` beside it is what it
 * gives when it runs in a real n8n with the package installed, against the simulator's seeded
 * data. test/e2e/fixtures-1.0.e2e.ts compares; test/fixtures/workflows/record.ts writes the
 * expected files. Both run the workflows through `FixtureRunner`, so they run them alike:
 *
 * - one n8n (`n8n start`) for every workflow: the credentials of `fixtureCredentials` and
 *   every workflow are imported before it starts, unpublished;
 * - each workflow runs against a simulator of its own, freshly seeded with `FIXTURE_SEED`
 *   (so no workflow sees what another wrote), on the same two ports every time, so that the
 *   credentials stay valid. The simulator's profile is that of the credential the workflow
 *   uses (`FIXTURE_CREDENTIALS`);
 * - how a workflow starts follows from its trigger: a Manual Trigger or the Spendesk Trigger
 *   runs as the editor's Execute Workflow does (the Spendesk Trigger then shows what Fetch Test
 *   Event shows); a Spendesk Webhook Trigger is published, and Spendesk then emits each event
 *   the trigger listens to in its company, one after the other (each makes the change: a new
 *   payable, the newest payable in review prepared, a new settlement), one execution each;
 * - the outcome is each execution's status and, node by node, every run's items on every
 *   output (json, pairedItem, binary, item errors) and its error, normalised by
 *   `normaliseExecution` (pinned-outcome.ts).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SpendeskSimulator } from '../simulator';
import type { SimulatorOptions } from '../simulator';
import { webhooksOf } from '../simulator/webhooks';
import { activateWorkflow, deactivateWorkflow } from './queue';
import { createHome, ensureN8n, parseTargets, REPO_ROOT } from './runtime';
import type { N8nHome, N8nTarget } from './runtime';
import { freePort, getExecution, listExecutions, setupOwner, startN8n, waitFor } from './server';
import type { N8nServer, RestSession } from './server';
import { apiKeyCredential, importCredentials, importWorkflows, SPENDESK_NODE } from './workflows';
import type { CredentialExport, Workflow, WorkflowNode } from './workflows';
import { normaliseExecution } from './pinned-outcome';
import type { FixtureOutcome, RunContext } from './pinned-outcome';

export const FIXTURES_ROOT = path.join(REPO_ROOT, 'test', 'fixtures', 'workflows');

/** The n8n target the expected outputs are recorded on and compared on (FIXTURES_E2E_TARGETS overrides). */
export const FIXTURE_TARGET: N8nTarget = 'node20';

/** The targets of the fixture runs: FIXTURES_E2E_TARGETS (a comma/space list), else FIXTURE_TARGET. */
export function fixtureTargets(): N8nTarget[] {
	return parseTargets(process.env.FIXTURES_E2E_TARGETS?.trim() || FIXTURE_TARGET);
}

export const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
export const SPENDESK_TRIGGER = 'n8n-nodes-spendesk.spendeskTrigger';
export const SPENDESK_WEBHOOK_TRIGGER = 'n8n-nodes-spendesk.spendeskWebhookTrigger';

// ---------------------------------------------------------------- the simulator and credentials

/**
 * The seeded data of every run: three companies (the third deactivated), a few records of
 * each kind, so that every list fits in an expected file and a Limit still cuts one.
 */
export const FIXTURE_SEED: NonNullable<SimulatorOptions['seed']> = {
	seed: 42,
	companies: 3,
	sizes: {
		invoices: 4,
		accounts: 3,
		payables: 5,
		settlements: 4,
		analyticalFields: 2,
		analyticalFieldValues: 3,
		expenseCategories: 3,
		intakes: 2,
		suppliers: 4,
		users: 3,
		costCenters: 3,
		bankFees: 3,
		walletLoads: 3,
	},
};

type Profile = NonNullable<SimulatorOptions['profile']>;

/** The simulator of one run: FIXTURE_SEED; snapshots and exports complete at the first check (no wait of a minute). */
function simulatorOptions(
	profile: Profile,
	ports: { api: number; files: number },
): SimulatorOptions {
	return {
		profile,
		port: ports.api,
		filePort: ports.files,
		snapshotPendingPolls: 0,
		exportPendingPolls: 0,
		seed: FIXTURE_SEED,
	};
}

/**
 * The credentials the fixtures name (by id and name, as a saved workflow does), and the
 * simulator profile each one is used with.
 */
export const FIXTURE_CREDENTIALS = {
	/** An organisation-level API key with every scope (the specification's world). */
	organisationKey: {
		id: 'pinOrgKey0000001',
		name: 'Spendesk organisation key',
		profile: 'specification',
	},
	/** A company-level API key of cmp_001 with the documented scopes only (what Spendesk documents). */
	companyKey: {
		id: 'pinCompanyKey001',
		name: 'Spendesk company key',
		profile: 'documented',
	},
} as const satisfies Record<string, { id: string; name: string; profile: Profile }>;

/**
 * The credentials as n8n imports them, pointing at the simulator on `baseUrl`. The one place
 * that writes their fields: when a credential's fields change, change them here (and
 * re-record only if the outputs change, which a credential change should not do).
 */
export function fixtureCredentials(baseUrl: string): CredentialExport[] {
	const keys = (profile: Profile) =>
		new SpendeskSimulator({ profile, seed: FIXTURE_SEED }).credentials;
	const { organisationKey, companyKey } = FIXTURE_CREDENTIALS;
	return [
		apiKeyCredential(organisationKey, baseUrl, keys(organisationKey.profile).orgKey),
		apiKeyCredential(companyKey, baseUrl, keys(companyKey.profile).companyKey),
	];
}

// ---------------------------------------------------------------- the fixture files

export interface Fixture {
	/** The file name without `.json`, e.g. `company-get-many`. */
	name: string;
	file: string;
	expectedFile: string;
	workflow: Workflow;
}

/** Every workflow of a fixture set (`1.0`), sorted by name; `<name>.expected.json` are not workflows. */
export function listFixtures(version: string): Fixture[] {
	const dir = path.join(FIXTURES_ROOT, version);
	return readdirSync(dir)
		.filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))
		.sort()
		.map((f) => {
			const name = f.slice(0, -'.json'.length);
			const file = path.join(dir, f);
			return {
				name,
				file,
				expectedFile: path.join(dir, `${name}.expected.json`),
				workflow: JSON.parse(readFileSync(file, 'utf8')) as Workflow,
			};
		});
}

/** The `.expected.json` files of a fixture set (to find those whose workflow is gone). */
export function listExpectedFiles(version: string): string[] {
	return readdirSync(path.join(FIXTURES_ROOT, version))
		.filter((f) => f.endsWith('.expected.json'))
		.sort();
}

/** The node a workflow starts at: its one trigger. */
export function triggerOf(workflow: Workflow): WorkflowNode {
	const triggers = workflow.nodes.filter((n) =>
		[MANUAL_TRIGGER, SPENDESK_TRIGGER, SPENDESK_WEBHOOK_TRIGGER].includes(n.type),
	);
	if (triggers.length !== 1)
		throw new Error(
			`workflow "${workflow.name}" must have exactly one trigger (Manual, Spendesk or Spendesk Webhook); it has ${triggers.length}`,
		);
	return triggers[0];
}

/** The simulator profile of a workflow: that of the fixture credential its Spendesk nodes use. */
export function profileOf(workflow: Workflow): Profile {
	const byId = new Map<string, Profile>(
		Object.values(FIXTURE_CREDENTIALS).map((c) => [c.id, c.profile]),
	);
	const profiles = new Set<Profile>();
	for (const node of workflow.nodes)
		for (const ref of Object.values(node.credentials ?? {})) {
			const profile = byId.get(ref.id);
			if (!profile)
				throw new Error(
					`workflow "${workflow.name}", node "${node.name}": credential ${ref.id} is not one of FIXTURE_CREDENTIALS`,
				);
			profiles.add(profile);
		}
	if (profiles.size !== 1)
		throw new Error(
			`workflow "${workflow.name}" must use credentials of one simulator profile (uses: ${[...profiles].join(', ') || 'none'})`,
		);
	return [...profiles][0];
}

// ---------------------------------------------------------------- the runner

const finished = (status: string) => !['new', 'running', 'waiting', 'unknown'].includes(status);

/** One n8n with every fixture imported, running them one at a time. */
export class FixtureRunner {
	private constructor(
		readonly target: N8nTarget,
		private readonly home: N8nHome,
		private readonly server: N8nServer,
		private readonly session: RestSession,
		private readonly ports: { api: number; files: number },
		private readonly log: (line: string) => void,
	) {}

	/** Installs the package into a fresh n8n home, imports credentials and workflows, starts n8n. */
	static async start(
		target: N8nTarget,
		fixtures: Fixture[],
		log: (line: string) => void = () => undefined,
	): Promise<FixtureRunner> {
		const ports = { api: await freePort(), files: await freePort() };
		const runtime = await ensureN8n(target);
		const home = await createHome(runtime);
		await importCredentials(home, fixtureCredentials(`http://127.0.0.1:${ports.api}`));
		await importWorkflows(
			home,
			fixtures.map((f) => ({ ...f.workflow, active: false })),
		);
		log(`n8n ${runtime.version} (${target}): ${fixtures.length} workflows imported, starting`);
		// Binary data inline (base64 in the item), so that the bytes are part of the outcome.
		const server = await startN8n(home, { env: { N8N_DEFAULT_BINARY_DATA_MODE: 'default' } });
		try {
			const session = await setupOwner(server.baseUrl);
			return new FixtureRunner(target, home, server, session, ports, log);
		} catch (error) {
			await server.stop();
			throw error;
		}
	}

	/** Stops n8n and removes its home (E2E_KEEP=1 keeps it, for a look at its database and logs). */
	async stop(): Promise<void> {
		await this.server.stop();
		if (process.env.E2E_KEEP) this.log(`n8n home kept: ${this.home.dir}`);
		else rmSync(this.home.dir, { recursive: true, force: true });
	}

	/** n8n's output so far (for a failure's message). */
	logs(): string {
		return this.server.logs();
	}

	/** Runs one fixture against a freshly seeded simulator and returns its normalised outcome. */
	async run(fixture: Fixture): Promise<FixtureOutcome> {
		const sim = new SpendeskSimulator(simulatorOptions(profileOf(fixture.workflow), this.ports));
		await sim.start();
		const origins: Array<[string, string]> = [
			[sim.fileBaseUrl, 'http://files.spendesk.simulator'],
			[sim.baseUrl, 'http://spendesk.simulator'],
		];
		const started = Date.now();
		try {
			const trigger = triggerOf(fixture.workflow);
			const runs =
				trigger.type === SPENDESK_WEBHOOK_TRIGGER
					? await this.runPublished(fixture.workflow, trigger, sim)
					: [await this.runManually(fixture.workflow, trigger)];
			const ctx: RunContext = { startedAt: started, endedAt: Date.now(), origins };
			this.log(`${fixture.name}: ${runs.length} execution(s) in ${Date.now() - started} ms`);
			return { executions: runs.map((run) => normaliseExecution(run, ctx)) };
		} finally {
			await sim.stop();
		}
	}

	/** As the editor's Execute Workflow: from the trigger, mode "manual". */
	private async runManually(workflow: Workflow, trigger: WorkflowNode) {
		const saved = await this.session.get<Record<string, unknown>>(`/workflows/${workflow.id}`);
		const { executionId } = await this.session.post<{ executionId?: string }>(
			`/workflows/${workflow.id}/run`,
			{ workflowData: saved, triggerToStartFrom: { name: trigger.name } },
		);
		if (!executionId)
			throw new Error(`n8n started no execution of "${workflow.name}" from "${trigger.name}"`);
		return await this.finishedExecution(String(executionId));
	}

	/**
	 * Published: the trigger registers its webhook at Spendesk; then each event it listens to
	 * happens in its company, one at a time, each waited for until its execution is over.
	 */
	private async runPublished(workflow: Workflow, trigger: WorkflowNode, sim: SpendeskSimulator) {
		const params = trigger.parameters as {
			companies?: string;
			company?: { value?: string };
			events?: string[];
		};
		const companyId = params.company?.value;
		if ((params.companies ?? 'one') !== 'one' || !companyId)
			throw new Error(
				`"${workflow.name}": a pinned Spendesk Webhook Trigger listens to one company given by ID`,
			);
		const events = params.events ?? ['payables:created'];
		await activateWorkflow(this.session, workflow.id);
		try {
			await waitFor(() => webhooksOf(sim, companyId).length > 0, {
				timeoutMs: 60_000,
				what: `the webhook of "${workflow.name}" registered at Spendesk`,
			});
			const runs = [];
			for (const eventType of events) {
				const before = new Set((await listExecutions(this.session, workflow.id)).map((e) => e.id));
				const answer = await fetch(`${sim.baseUrl}/_simulator/webhooks/events`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ companyId, eventType }),
				});
				if (answer.status !== 201)
					throw new Error(`the event ${eventType} could not be emitted: ${await answer.text()}`);
				const execution = await waitFor(
					async () =>
						(await listExecutions(this.session, workflow.id)).find(
							(e) => !before.has(e.id) && finished(e.status),
						),
					{ timeoutMs: 60_000, intervalMs: 300, what: `the execution of ${eventType}` },
				);
				await sim.whenWebhooksIdle();
				runs.push(await this.finishedExecution(execution.id));
			}
			return runs;
		} finally {
			await deactivateWorkflow(this.session, workflow.id);
		}
	}

	private async finishedExecution(id: string) {
		return await waitFor(
			async () => {
				const execution = await getExecution(this.session, this.home, id);
				return finished(execution.status) ? execution : undefined;
			},
			{ timeoutMs: 120_000, intervalMs: 300, what: `execution ${id}` },
		);
	}
}

/** An expected file, or undefined when it was never recorded. */
export function readExpected(fixture: Fixture): FixtureOutcome | undefined {
	try {
		return JSON.parse(readFileSync(fixture.expectedFile, 'utf8')) as FixtureOutcome;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}
}

/** The Spendesk nodes of a workflow (action nodes, not triggers). */
export function spendeskNodes(workflow: Workflow): WorkflowNode[] {
	return workflow.nodes.filter((n) => n.type === SPENDESK_NODE);
}
