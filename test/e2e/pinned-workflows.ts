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
 *   output (json, pairedItem, binary, item errors) and its error: `normaliseExecution`.
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
import type { CredentialExport, RunJson, Workflow, WorkflowNode } from './workflows';

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

// ---------------------------------------------------------------- the outcome and its normalisation

/** One item as the comparison sees it. */
export interface ItemOutcome {
	json: unknown;
	pairedItem?: unknown;
	/** Binary properties without n8n's storage id. */
	binary?: Record<string, Record<string, unknown>>;
	/** The item's error (On Error "Continue (using error output)"): what the editor shows of it. */
	error?: ErrorOutcome;
}

export interface ErrorOutcome {
	message?: string;
	description?: string | null;
}

export interface NodeRunOutcome {
	status?: string;
	error?: ErrorOutcome;
	/** Items of each output (`null`: the output did not run). */
	outputs: Array<ItemOutcome[] | null>;
}

export interface ExecutionOutcome {
	status: string;
	error?: ErrorOutcome & { node?: string };
	/** Every node that ran, by name (sorted), each with one entry per run. */
	nodes: Record<string, NodeRunOutcome[]>;
}

export interface FixtureOutcome {
	executions: ExecutionOutcome[];
}

/** What varies between two runs of the same workflow on the same seed, and nothing else. */
export interface RunContext {
	/** Wall-clock time (ms) when the run was started and when it was over. */
	startedAt: number;
	endedAt: number;
	/** Origins that change from run to run (free ports), each with the stable name it is shown as. */
	origins: Array<[string, string]>;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const RUN_DATE = '<date of the run>';
/** What the simulator's clock gives an instant taken during the run, up to an hour after it (links and tokens it times). */
export const RUN_TIME = '<time of the run>';
const AFTER_RUN_MS = 61 * 60_000;

/**
 * EXACTLY what is normalised, and why (everything else must be equal, byte for byte):
 *
 * 1. Origins: the simulator's API and file host listen on free ports chosen at each run, so
 *    `http://127.0.0.1:<port>` of each is replaced with a fixed name (`http://spendesk.simulator`,
 *    `http://files.spendesk.simulator`) wherever it appears in a string.
 * 2. Instants read from the clock during the run: the simulator stamps what a workflow creates
 *    or changes (`createdAt`, `updatedAt`, a webhook event's `timestamp`) and the expiry of its
 *    pre-signed links with the wall clock. A string that is a whole ISO 8601 date-time between
 *    2 s before the run started and 61 minutes after it ended becomes `<time of the run>`; a
 *    string that is a whole date (YYYY-MM-DD) of that window, in UTC, becomes `<date of the run>`
 *    (a payable created during the run is dated that day). The seeded data is dated from
 *    January to May 2026, never in that window.
 * 3. Pre-signed links: their query `expires=<unix seconds>&signature=<hex>` is made from the
 *    clock and from a key drawn at random when the simulator starts; it becomes
 *    `expires=<time of the run>&signature=<signature>`. The rest of the link (host, path) stays.
 * 4. Webhook event ids: the simulator draws them at random (`evt_` + 24 hex digits); they become
 *    `evt_<random>`.
 * 5. n8n's storage id of binary data (`binary.<property>.id`) is left out: n8n makes it up
 *    for every run. File name, MIME type, size, extension and the bytes (`data`) stay.
 * 6. Errors (a node's, an item's, the execution's) are compared on what the editor shows of
 *    them: `message` and `description` (and, for the execution, the node's name). Their stack
 *    (paths of this machine), timestamps and the copy of the node n8n attaches are left out.
 *
 * Left out as not being the workflow's behaviour: execution and node timings, execution ids,
 * the `source` bookkeeping of each run, and execution hints.
 */
export function normaliseExecution(
	run: RunJson & { status?: string },
	ctx: RunContext,
): ExecutionOutcome {
	const { runData, error } = run.data.resultData;
	const nodes: Record<string, NodeRunOutcome[]> = {};
	for (const name of Object.keys(runData).sort()) {
		nodes[name] = runData[name].map((task) => ({
			status: task.executionStatus,
			...(task.error ? { error: errorOutcome(task.error, ctx) } : {}),
			outputs: (task.data?.main ?? []).map((items) =>
				items === null || items === undefined ? null : items.map((item) => itemOutcome(item, ctx)),
			),
		}));
	}
	return {
		status: run.status ?? (error ? 'error' : 'success'),
		...(error
			? {
					error: {
						...errorOutcome(error, ctx),
						...(error.node?.name ? { node: error.node.name } : {}),
					},
				}
			: {}),
		nodes,
	};
}

function itemOutcome(item: Record<string, unknown>, ctx: RunContext): ItemOutcome {
	const known = new Set(['json', 'pairedItem', 'binary', 'error']);
	const unknown = Object.keys(item).filter((k) => !known.has(k));
	if (unknown.length > 0)
		// A new field of n8n's items: decide whether it is behaviour before comparing around it.
		throw new Error(`an item holds fields the comparison does not know: ${unknown.join(', ')}`);
	const outcome: ItemOutcome = { json: normaliseValue(item.json, ctx) };
	if (item.pairedItem !== undefined) outcome.pairedItem = item.pairedItem;
	if (item.binary && typeof item.binary === 'object') {
		outcome.binary = {};
		for (const [property, file] of Object.entries(item.binary as Record<string, unknown>)) {
			const rest = { ...(file as Record<string, unknown>) };
			delete rest.id;
			outcome.binary[property] = normaliseValue(rest, ctx) as Record<string, unknown>;
		}
	}
	if (item.error && typeof item.error === 'object') outcome.error = errorOutcome(item.error, ctx);
	return outcome;
}

function errorOutcome(error: unknown, ctx: RunContext): ErrorOutcome {
	const e = error as { message?: unknown; description?: unknown };
	const outcome: ErrorOutcome = {};
	if (typeof e.message === 'string') outcome.message = normaliseString(e.message, ctx);
	if (typeof e.description === 'string') outcome.description = normaliseString(e.description, ctx);
	else if (e.description === null) outcome.description = null;
	return outcome;
}

export function normaliseValue(value: unknown, ctx: RunContext): unknown {
	if (typeof value === 'string') return normaliseString(value, ctx);
	if (Array.isArray(value)) return value.map((v) => normaliseValue(v, ctx));
	if (value && typeof value === 'object')
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normaliseValue(v, ctx)]));
	return value;
}

function normaliseString(text: string, ctx: RunContext): string {
	let s = text;
	for (const [origin, name] of ctx.origins) s = s.split(origin).join(name);
	s = s.replace(/expires=\d+&signature=[0-9a-f]{64}/g, `expires=${RUN_TIME}&signature=<signature>`);
	s = s.replace(/\bevt_[0-9a-f]{24}\b/g, 'evt_<random>');
	const [from, to] = [ctx.startedAt - 2_000, ctx.endedAt + AFTER_RUN_MS];
	if (ISO_DATE_TIME.test(s)) {
		const at = Date.parse(s);
		if (at >= from && at <= to) return RUN_TIME;
	}
	if (ISO_DATE.test(s) && (s === utcDate(from) || s === utcDate(to))) return RUN_DATE;
	return s;
}

/**
 * Where two outcomes differ, one line per difference naming the path, e.g.
 * `executions[0].nodes["Settlements"][0].outputs[0][1].json.amount: expected 111.5, got 111.05`
 * (at most `max` lines). Empty when they are equal.
 */
export function differences(expected: unknown, actual: unknown, max = 40): string[] {
	const out: string[] = [];
	const show = (v: unknown) => {
		const text = JSON.stringify(v);
		return text === undefined ? 'nothing' : text.length > 200 ? `${text.slice(0, 200)}…` : text;
	};
	const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
	const walk = (e: unknown, a: unknown, at: string): void => {
		if (out.length >= max) return;
		if (kind(e) !== kind(a) || (kind(e) !== 'array' && kind(e) !== 'object')) {
			if (!Object.is(e, a)) out.push(`${at || '(whole)'}: expected ${show(e)}, got ${show(a)}`);
			return;
		}
		if (Array.isArray(e) && Array.isArray(a)) {
			if (e.length !== a.length) out.push(`${at}: expected ${e.length} entries, got ${a.length}`);
			for (let i = 0; i < Math.max(e.length, a.length); i++) walk(e[i], a[i], `${at}[${i}]`);
			return;
		}
		const eo = e as Record<string, unknown>;
		const ao = a as Record<string, unknown>;
		for (const key of new Set([...Object.keys(eo), ...Object.keys(ao)])) {
			const next = /^[A-Za-z_$][\w$]*$/.test(key)
				? `${at}${at ? '.' : ''}${key}`
				: `${at}[${JSON.stringify(key)}]`;
			if (!(key in ao)) out.push(`${next}: expected ${show(eo[key])}, got nothing`);
			else if (!(key in eo)) out.push(`${next}: expected nothing, got ${show(ao[key])}`);
			else walk(eo[key], ao[key], next);
			if (out.length >= max) return;
		}
	};
	walk(expected, actual, '');
	return out;
}

/** The expected file's text: the outcome as JSON (formatted by the recorder). */
export function outcomeJson(outcome: FixtureOutcome): string {
	return `${JSON.stringify(outcome, null, '\t')}\n`;
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
			companyScope?: string;
			company?: { value?: string };
			events?: string[];
		};
		const companyId = params.company?.value;
		if ((params.companyScope ?? 'one') !== 'one' || !companyId)
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
