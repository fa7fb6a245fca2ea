/**
 * The outcome of a pinned workflow's run (test/e2e/pinned-workflows.ts) as the expected files
 * hold it, its normalisation, and the differences between two outcomes.
 */
import type { RunJson } from './workflows';

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
	// Not followed by a digit: port 4000 is not the start of port 40001.
	for (const [origin, name] of ctx.origins)
		s = s.replace(new RegExp(`${origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\d)`, 'g'), name);
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
