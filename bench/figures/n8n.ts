/**
 * Figures 7–9 — the node against what a user would build instead, inside a real n8n 2.8.4
 * (`npm run bench -- --only n8n`; not part of the default run, it takes 7–8 minutes and the
 * n8n install of the end-to-end suite).
 *
 * For each pagination style, one company's list read with Return All by (a) the Spendesk
 * node, (b) n8n's HTTP Request node set up as an expert would (bench/n8n-workflows.ts), each
 * as a workflow run through n8n's REST API, and (c) a bare `fetch` loop in a process of its
 * own (bench/bare-client.ts), the floor. Figures: execution time node ÷ HTTP Request and node
 * ÷ bare loop (medians of 3), requests ÷ the theoretical minimum, peak memory of the n8n
 * process, and whether the records are exactly the simulator's.
 *
 * Then the traps (empty cursor pages that say more follows, 404 past the last page, page
 * sizes capped silently, a repeated cursor, a rate limit of 50 per minute), each for the node,
 * the expert HTTP Request, and the HTTP Request as commonly set up; and All Companies (10 ×
 * 5,000 invoices, 50 ms latency, at most 5 requests in flight as Spendesk allows): the node's
 * one step against the HTTP Request node fed by the company list. Last, a page list of 20 pages
 * with 300 ms a response (7-latency): the node reads the pages after the first concurrently,
 * the HTTP Request node can only go page after page.
 *
 * `--profile` also records a CPU profile of n8n during one more run of the largest list with
 * each client (bench/profiles/, git-ignored) and prints where the time goes.
 */
import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { CompanySeed } from '../../test/simulator';
import type { Workflow } from '../../test/e2e/workflows';
import { apiKeyCredential } from '../../test/e2e/workflows';
import type { BareJob, BareResult } from '../bare-client';
import { BenchN8n } from '../n8n-harness';
import type { OutputOf, RunResult } from '../n8n-harness';
import { formatProfile, summarizeProfile } from '../n8n-profile';
import type { ProfileSummary } from '../n8n-profile';
import type { ListCase, StyleKey } from '../n8n-workflows';
import {
	HTTP_REQUEST_VERSION,
	httpAllCompaniesAtOnceWorkflow,
	httpAllCompaniesLoopWorkflow,
	httpRequestNode,
	chainWorkflow,
	httpWorkflow,
	listCase,
	minimumRequests,
	nodeAllCompaniesWorkflow,
	nodeWorkflow,
	STYLE_INFO,
} from '../n8n-workflows';
import { SimulatorHandle } from '../simulator-handle';
import { TOKEN_ROUTES } from '../simulator-protocol';
import type { WireRequest } from '../simulator-protocol';
import { median, ratio } from '../support';
import type { Figure } from '../support';
import { splitOutNode } from '../../test/e2e/workflows';

const ROUNDS = 3;
const STYLES: StyleKey[] = ['cursor', 'page', 'offset', 'bodyCursor', 'snapshot'];
/** Records per style: 100,000 invoices; 500 pages of the other lists. */
const SIZES: Record<StyleKey, number> = {
	cursor: 100_000,
	page: 15_000,
	offset: 50_000,
	bodyCursor: 50_000,
	snapshot: 15_000,
};
const TIME_TARGET = 1.0;
const FLOOR_TARGET = 1.2;

const NOTHING = {
	invoices: 0,
	settlements: 0,
	accounts: 0,
	payables: 0,
	analyticalFields: 0,
	expenseCategories: 0,
	intakes: 0,
	suppliers: 0,
	users: 0,
	costCenters: 0,
	bankFees: 0,
	walletLoads: 0,
};
const STYLE_COMPANY: Record<StyleKey, string> = {
	cursor: 'cmp_cursor',
	page: 'cmp_page',
	offset: 'cmp_offset',
	bodyCursor: 'cmp_body',
	snapshot: 'cmp_snap',
};
const SIZE_FIELD: Record<StyleKey, keyof typeof NOTHING> = {
	cursor: 'invoices',
	page: 'settlements',
	offset: 'accounts',
	bodyCursor: 'payables',
	snapshot: 'payables',
};
const WARM = 'cmp_warm';
const TRAP = 'cmp_trap';
/** Trap sizes: 20 invoice pages, settlements an exact multiple of the page size, 1,000 accounts. */
const TRAP_SIZES = { invoices: 2_000, settlements: 300, accounts: 1_000 };
/** Rate-limit trap: 50 requests per minute per company (Spendesk's published limit for API keys), 55 pages. */
const RATE = { limit: 50, windowMs: 60_000, invoices: 5_500 };
const ACCOUNTS_SERVED = 30;
/** All Companies: as figure 4. */
const ALL = { companies: 10, invoices: 5_000, latencyMs: 50, cap: 5 };

/** A page list of 20 pages, 300 ms a response: what reading ahead gains over page after page. */
const LATENT = { company: 'cmp_latent', settlements: 600, latencyMs: 300, target: 0.3 };

const credA = { id: 'benchKey', name: 'Spendesk API key (simulator)' };
const credC = { id: 'benchKeyLatent', name: 'Spendesk API key (300 ms simulator)' };
const credB = { id: 'benchKeyAll', name: 'Spendesk API key (All Companies simulator)' };

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const sec = (ms: number) => (ms / 1000).toFixed(2);

// ---------------------------------------------------------------- outcomes

interface Outcome {
	exact: boolean;
	/** "exact", "error: …", "120 missing", "100 duplicates" */
	text: string;
}

function outcomeOf(run: RunResult, expected: readonly string[]): Outcome {
	if (run.status !== 'success' || run.error)
		return { exact: false, text: `error: ${shorten(run.error ?? run.status)}` };
	const wanted = new Set(expected);
	const seen = new Set<string>();
	let duplicates = 0;
	let foreign = 0;
	for (const id of run.ids) {
		if (seen.has(id)) duplicates++;
		else seen.add(id);
		if (!wanted.has(id)) foreign++;
	}
	const missing = expected.filter((id) => !seen.has(id)).length;
	const parts = [
		missing
			? `${missing.toLocaleString('en')} of ${expected.length.toLocaleString('en')} missing`
			: '',
		duplicates ? `${duplicates.toLocaleString('en')} duplicates` : '',
		foreign ? `${foreign} not in the list` : '',
		run.withoutId ? `${run.withoutId} items without id` : '',
	].filter(Boolean);
	return parts.length ? { exact: false, text: parts.join(', ') } : { exact: true, text: 'exact' };
}

function shorten(message: string): string {
	const first = message.split(/(?<=[.!?])\s|\n/)[0];
	return first.length > 110 ? `${first.slice(0, 107)}…` : first;
}

function failuresOf(log: WireRequest[]): string {
	const by = new Map<number, number>();
	for (const r of log) if (r.status >= 400) by.set(r.status, (by.get(r.status) ?? 0) + 1);
	return [...by].map(([status, n]) => `${n} × ${status}`).join(', ');
}

function requestCounts(log: WireRequest[], routes: string[]) {
	const api = log.filter((r) => !TOKEN_ROUTES.has(r.route));
	return {
		list: api.filter((r) => routes.includes(r.route)).length,
		api: api.length,
		tokens: log.length - api.length,
		status429: api.filter((r) => r.status === 429).length,
		/** Error answers by status, e.g. "1 × 401". */
		failures: failuresOf(api),
		errors: api.filter((r) => r.status >= 400).length,
	};
}

// ---------------------------------------------------------------- bare loop

async function bare(job: BareJob): Promise<BareResult[]> {
	const child = fork(path.join(__dirname, '..', 'bare-client.ts'), [JSON.stringify(job)], {
		execArgv: ['--import', 'tsx'],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	return await new Promise<BareResult[]>((resolve, reject) => {
		let result: BareResult[] | undefined;
		child.once('message', (message: BareResult[]) => (result = message));
		child.once('exit', (code) =>
			result
				? resolve(result)
				: reject(new Error(`bare loop (${job.style}) exited with code ${code}`)),
		);
	});
}

// ---------------------------------------------------------------- the figure

interface ClientRun {
	client: 'node' | 'http';
	round: number;
	ms: number;
	nodeMs: Record<string, number>;
	requests: number;
	apiRequests: number;
	tokens: number;
	peakRssBytes: number;
	rssBeforeBytes: number;
	/** Peak resident sets of processes under n8n (its idle task runner), measured apart. */
	childPeakBytes: number;
	/** CPU time of the n8n process during the execution. */
	cpuMs: number;
	outcome: Outcome;
}

/** What one measured execution gives (the fields a ClientRun keeps). */
interface Measured {
	run: {
		ms: number;
		nodeMs: Record<string, number>;
		peakRssBytes: number;
		rssBeforeBytes: number;
		childPeakBytes: number;
		cpuMs: number;
	};
	counts: { list: number; api: number; tokens: number };
	outcome: Outcome;
}

function clientRun(client: ClientRun['client'], round: number, m: Measured): ClientRun {
	const { ms, nodeMs, peakRssBytes, rssBeforeBytes, childPeakBytes, cpuMs } = m.run;
	return {
		client,
		round,
		ms,
		nodeMs,
		requests: m.counts.list,
		apiRequests: m.counts.api,
		tokens: m.counts.tokens,
		peakRssBytes,
		rssBeforeBytes,
		childPeakBytes,
		cpuMs,
		outcome: m.outcome,
	};
}

interface StyleResult {
	style: StyleKey;
	items: number;
	minimum: number;
	runs: ClientRun[];
	bare: BareResult[];
}

interface TrapClient {
	label: string;
	setting: string;
	outcome: Outcome;
	requests: number;
	minimum: number;
	ms: number;
	status429?: number;
	/** Error answers by status ("1 × 401"), and token requests. */
	failures: string;
	tokens: number;
}

interface TrapResult {
	trap: string;
	what: string;
	/** No client can return the exact records: the right result is a clear error after a few requests. */
	expectError?: boolean;
	clients: TrapClient[];
}

/** `--profile`: the bare loop with a new connection per request, and how n8n's requests arrive. */
interface ConnectionCheck {
	bareNewConnectionsMs: number[];
	nodeRequests: number;
	/** Requests of the node that asked the server to close the connection after the answer. */
	nodeConnectionClose: number;
}

/** A CPU profile of one run: the whole of it (start, execution, saving) and the execution alone. */
interface ProfileRecord {
	client: string;
	whole: ProfileSummary;
	execution: ProfileSummary;
	file: string;
	ms: number;
}

type AllCompaniesRun = ClientRun & { variant: string; status429: number };

interface AllCompaniesResult {
	runs: AllCompaniesRun[];
	bare: BareResult[];
	minimum: number;
	items: number;
	/** The HTTP Request node reading every company at once (no loop). */
	once?: AllCompaniesRun;
}

export async function n8nComparison(): Promise<{
	figures: Figure[];
	details: unknown;
	report: string;
}> {
	const profile = process.argv.includes('--profile');
	const companies: CompanySeed[] = [
		...STYLES.map((s) => ({
			id: STYLE_COMPANY[s],
			sizes: { ...NOTHING, [SIZE_FIELD[s]]: SIZES[s] },
		})),
		{
			id: WARM,
			sizes: { ...NOTHING, invoices: 2_000, settlements: 300, accounts: 1_000, payables: 1_000 },
		},
		{ id: TRAP, sizes: { ...NOTHING, ...TRAP_SIZES } },
		...['cmp_rate_node', 'cmp_rate_http', 'cmp_rate_plain'].map((id) => ({
			id,
			sizes: { ...NOTHING, invoices: RATE.invoices },
		})),
	];
	const [sim, simAll, simLatent] = await Promise.all([
		// Throughput first: no rate limit until the rate-limit trap; snapshots COMPLETE at once.
		SimulatorHandle.start({
			seed: { companies },
			rateLimit: 1_000_000_000,
			snapshotPendingPolls: 0,
		}),
		SimulatorHandle.start({
			seed: {
				companies: ALL.companies,
				deactivated: [],
				sizes: { ...NOTHING, invoices: ALL.invoices },
			},
			latencyMs: ALL.latencyMs,
			maxInFlight: ALL.cap,
			rateLimit: 1_000_000_000,
		}),
		SimulatorHandle.start({
			seed: {
				companies: [
					{ id: LATENT.company, sizes: { ...NOTHING, settlements: LATENT.settlements } },
					{ id: WARM, sizes: { ...NOTHING, settlements: 60 } },
				],
			},
			latencyMs: LATENT.latencyMs,
			maxInFlight: ALL.cap,
			rateLimit: 1_000_000_000,
		}),
	]);
	const latentCase = listCase('page', LATENT.company);

	const cases = Object.fromEntries(STYLES.map((s) => [s, listCase(s, STYLE_COMPANY[s])])) as Record<
		StyleKey,
		ListCase
	>;
	const warmCases = Object.fromEntries(STYLES.map((s) => [s, listCase(s, WARM)])) as Record<
		StyleKey,
		ListCase
	>;
	const trapCursor = listCase('cursor', TRAP);
	const trapPage = listCase('page', TRAP);
	const trapOffset = listCase('offset', TRAP);
	const rateCase = (id: string) => listCase('cursor', id);

	const workflows: Workflow[] = [];
	for (const s of STYLES) {
		workflows.push(
			nodeWorkflow(`node-${s}`, cases[s], credA),
			httpWorkflow(`http-${s}`, cases[s], sim.url, credA),
		);
		workflows.push(
			nodeWorkflow(`node-${s}-warm`, warmCases[s], credA),
			httpWorkflow(`http-${s}-warm`, warmCases[s], sim.url, credA),
		);
	}
	workflows.push(
		nodeWorkflow('node-trap-cursor', trapCursor, credA),
		httpWorkflow('http-trap-cursor', trapCursor, sim.url, credA),
		commonWorkflow('common-trap-cursor', trapCursor, sim.url),
		nodeWorkflow('node-trap-page', trapPage, credA),
		httpWorkflow('http-trap-page', trapPage, sim.url, credA),
		commonWorkflow('common-trap-page', trapPage, sim.url),
		nodeWorkflow('node-trap-offset', trapOffset, credA),
		httpWorkflow('http-trap-offset', trapOffset, sim.url, credA),
		commonWorkflow('common-trap-offset', trapOffset, sim.url),
		nodeWorkflow('node-rate', rateCase('cmp_rate_node'), credA),
		httpWorkflow('http-rate', rateCase('cmp_rate_http'), sim.url, credA, {
			summary: 'expert',
			requestInterval: Math.ceil(RATE.windowMs / RATE.limit),
		}),
		httpWorkflow('common-rate', rateCase('cmp_rate_plain'), sim.url, credA),
		nodeAllCompaniesWorkflow('node-all', credB),
		httpAllCompaniesLoopWorkflow('http-all-loop', simAll.url, credB, ALL.cap),
		httpAllCompaniesAtOnceWorkflow('http-all-once', simAll.url, credB),
		nodeWorkflow('node-latent', latentCase, credC),
		httpWorkflow('http-latent', latentCase, simLatent.url, credC),
		nodeWorkflow('node-latent-warm', listCase('page', WARM), credC),
		httpWorkflow('http-latent-warm', listCase('page', WARM), simLatent.url, credC),
	);
	const latentRuns: Array<ClientRun & { peakInFlight?: number }> = [];

	let n8n: BenchN8n | undefined;
	const styleResults: StyleResult[] = [];
	const traps: TrapResult[] = [];
	let allCompanies: AllCompaniesResult | undefined;
	const profiles: ProfileRecord[] = [];
	let connections: ConnectionCheck | undefined;
	const started = Date.now();
	const log = (message: string) =>
		process.stdout.write(`  [n8n ${((Date.now() - started) / 1000).toFixed(0)} s] ${message}\n`);
	try {
		const orgKey = { ...sim.orgKey, level: 'organisation' as const };
		n8n = await BenchN8n.start({
			credentials: [
				apiKeyCredential(credA, sim.url, orgKey),
				apiKeyCredential(credB, simAll.url, { ...simAll.orgKey, level: 'organisation' }),
				apiKeyCredential(credC, simLatent.url, { ...simLatent.orgKey, level: 'organisation' }),
			],
			workflows,
		});
		log(
			`n8n ${n8n.version} started (pid ${n8n.pid}); processes under it: ${
				n8n
					.children()
					.map((c) => `${c.pid} ${c.command.slice(0, 120)} (${mib(c.rssBytes)} MiB)`)
					.join('; ') || 'none'
			}`,
		);
		const server = n8n;

		/** One run of a workflow, its requests counted on `handle`'s log. */
		const measure = async (
			handle: SimulatorHandle,
			workflowId: string,
			output: OutputOf,
			c: { routes: string[] },
			expected: readonly string[],
		) => {
			await handle.clearLog();
			const run = await server.run(workflowId, output);
			const counts = requestCounts(await handle.requests(), c.routes);
			return { run, counts, outcome: outcomeOf(run, expected) };
		};
		const out: OutputOf = { node: 'Spendesk' };
		const httpOut: OutputOf = { node: 'Split Out' };

		// Warm-up: every workflow's code path once (n8n loads node code lazily), the token fetched.
		for (const s of STYLES) {
			for (const [id, output] of [
				[`node-${s}-warm`, out],
				[`http-${s}-warm`, httpOut],
			] as const) {
				const result = await measure(
					sim,
					id,
					output,
					warmCases[s],
					await sim.ids(WARM, warmCases[s].list),
				);
				if (!result.outcome.exact) throw new Error(`warm-up ${id}: ${result.outcome.text}`);
			}
		}
		log('warm-up done');

		// ---- the styles
		for (const s of STYLES) {
			const c = cases[s];
			const expected = await sim.ids(c.company, c.list);
			const result: StyleResult = {
				style: s,
				items: expected.length,
				minimum: minimumRequests(c, expected.length),
				runs: [],
				bare: [],
			};
			for (let round = 0; round < ROUNDS; round++) {
				const order: Array<'node' | 'http'> = round % 2 === 0 ? ['node', 'http'] : ['http', 'node'];
				for (const client of order) {
					await server.pause();
					const m = await measure(
						sim,
						`${client}-${s}`,
						client === 'node' ? out : httpOut,
						c,
						expected,
					);
					result.runs.push(clientRun(client, round, m));
				}
			}
			result.bare = await bare({
				url: sim.url,
				orgKey: sim.orgKey,
				style: s,
				company: c.company,
				warmCompany: WARM,
				rounds: ROUNDS,
			});
			styleResults.push(result);
			const nodeRuns = result.runs.filter((r) => r.client === 'node').map((r) => sec(r.ms));
			const httpRuns = result.runs.filter((r) => r.client === 'http').map((r) => sec(r.ms));
			log(
				`${s}: node ${nodeRuns.join(' / ')} s, HTTP Request ${httpRuns.join(' / ')} s, bare ${result.bare.map((b) => sec(b.ms)).join(' / ')} s`,
			);
		}

		if (profile) {
			const dir = path.join(__dirname, '..', 'profiles');
			mkdirSync(dir, { recursive: true });
			for (const [client, output] of [
				['node', out],
				['http', httpOut],
			] as const) {
				const file = path.join(dir, `n8n-${client}-cursor.cpuprofile`);
				const {
					result,
					profile: cpu,
					execution,
				} = await server.runProfiled(`${client}-cursor`, output, file);
				profiles.push({
					client,
					whole: summarizeProfile(cpu),
					execution: summarizeProfile(cpu, execution),
					file: path.relative(process.cwd(), file),
					ms: result.ms,
				});
			}
			const fresh = await bare({
				url: sim.url,
				orgKey: sim.orgKey,
				style: 'cursor',
				company: cases.cursor.company,
				warmCompany: WARM,
				rounds: ROUNDS,
				newConnections: true,
			});
			await sim.clearLog();
			await server.run('node-cursor', out);
			const wire = await sim.requests({ detail: true });
			const pages = wire.filter((r) => r.route === 'listInvoices');
			connections = {
				bareNewConnectionsMs: fresh.map((b) => b.ms),
				nodeRequests: pages.length,
				nodeConnectionClose: pages.filter((r) => r.connection === 'close').length,
			};
			log('profiles recorded');
		}

		// ---- the traps
		const trapRun = async (
			workflowId: string,
			output: OutputOf,
			c: ListCase,
			label: string,
			setting: string,
			expected: readonly string[],
			before?: () => Promise<void>,
		): Promise<TrapClient> => {
			await sim.clearFaults();
			await before?.();
			const m = await measure(sim, workflowId, output, c, expected);
			await sim.clearFaults();
			return {
				label,
				setting,
				outcome: m.outcome,
				requests: m.counts.list,
				minimum: minimumRequests(c, expected.length),
				ms: m.run.ms,
				status429: m.counts.status429,
				failures: m.counts.failures,
				tokens: m.counts.tokens,
			};
		};
		const invoices = await sim.ids(TRAP, 'invoices');
		const emptyPages = () =>
			sim.injectFault({ route: 'listInvoices', kind: 'emptyPage', after: 5, times: 3 });
		traps.push({
			trap: 'emptyPage',
			what: `empty cursor pages that say more follows (3 after page 5 of 20)`,
			clients: [
				await trapRun(
					'node-trap-cursor',
					out,
					trapCursor,
					'Spendesk node',
					'Return All',
					invoices,
					emptyPages,
				),
				await trapRun(
					'http-trap-cursor',
					httpOut,
					trapCursor,
					'HTTP Request (expert)',
					'complete when hasNextPage is false',
					invoices,
					emptyPages,
				),
				await trapRun(
					'common-trap-cursor',
					httpOut,
					trapCursor,
					'HTTP Request (common)',
					'complete on a short page (fewer than 100)',
					invoices,
					emptyPages,
				),
			],
		});
		const repeat = () =>
			sim.injectFault({ route: 'listInvoices', kind: 'repeatCursor', after: 5, times: 1 });
		traps.push({
			trap: 'repeatCursor',
			what: 'a repeated cursor (page 6 hands back its own cursor once)',
			clients: [
				await trapRun(
					'node-trap-cursor',
					out,
					trapCursor,
					'Spendesk node',
					'Return All',
					invoices,
					repeat,
				),
				await trapRun(
					'http-trap-cursor',
					httpOut,
					trapCursor,
					'HTTP Request (expert)',
					'complete when hasNextPage is false',
					invoices,
					repeat,
				),
			],
		});
		const repeatAlways = () =>
			sim.injectFault({ route: 'listInvoices', kind: 'repeatCursor', after: 5, times: 1_000 });
		traps.push({
			trap: 'repeatCursorAlways',
			what: 'a cursor repeated for good (from page 6 on, every page hands back its own cursor)',
			expectError: true,
			clients: [
				await trapRun(
					'node-trap-cursor',
					out,
					trapCursor,
					'Spendesk node',
					'Return All',
					invoices,
					repeatAlways,
				),
				await trapRun(
					'http-trap-cursor',
					httpOut,
					trapCursor,
					'HTTP Request (expert)',
					'complete when hasNextPage is false',
					invoices,
					repeatAlways,
				),
			],
		});
		const settlements = await sim.ids(TRAP, 'settlements');
		traps.push({
			trap: 'notFound',
			what: `404 past the last page (${TRAP_SIZES.settlements} settlements: exactly ${TRAP_SIZES.settlements / 30} pages)`,
			clients: [
				await trapRun('node-trap-page', out, trapPage, 'Spendesk node', 'Return All', settlements),
				await trapRun(
					'http-trap-page',
					httpOut,
					trapPage,
					'HTTP Request (expert)',
					'complete when page × pageSize ≥ total, or on a 404',
					settlements,
				),
				await trapRun(
					'common-trap-page',
					httpOut,
					trapPage,
					'HTTP Request (common)',
					'complete on a short page (fewer than 30)',
					settlements,
				),
			],
		});
		const accounts = await sim.ids(TRAP, 'accounts');
		const capped = { ...trapOffset, pageSize: ACCOUNTS_SERVED };
		await sim.configure({ accountsMaxReturn: ACCOUNTS_SERVED });
		traps.push({
			trap: 'cappedPageSize',
			what: `page sizes capped silently (fetch=100 asked, ${ACCOUNTS_SERVED} served; ${TRAP_SIZES.accounts.toLocaleString('en')} accounts)`,
			clients: [
				await trapRun('node-trap-offset', out, capped, 'Spendesk node', 'Return All', accounts),
				await trapRun(
					'http-trap-offset',
					httpOut,
					capped,
					'HTTP Request (expert)',
					'next offset = currentOffset + items received, until totalResults',
					accounts,
				),
				await trapRun(
					'common-trap-offset',
					httpOut,
					capped,
					'HTTP Request (common)',
					'offset = pages × 100, complete on a short page',
					accounts,
				),
			],
		});
		await sim.configure({ accountsMaxReturn: undefined });
		// Not in the simulator's list of faults, but a fact of the API: tokens live 60 minutes, so
		// the token n8n saved in the credential has expired when a workflow runs an hour later.
		const expired = () => sim.expireTokens();
		traps.push({
			trap: 'expiredToken',
			what: 'the token saved in the credential has expired (Spendesk tokens live 60 minutes)',
			clients: [
				await trapRun(
					'node-trap-cursor',
					out,
					trapCursor,
					'Spendesk node',
					'Return All',
					invoices,
					expired,
				),
				await trapRun(
					'http-trap-cursor',
					httpOut,
					trapCursor,
					'HTTP Request (expert)',
					'complete when hasNextPage is false',
					invoices,
					expired,
				),
			],
		});
		// A valid token in the credential again for what follows.
		await server.run('node-cursor-warm', out);

		// Rate limit: the three clients at once, each on a company of its own (budgets are per company).
		await sim.configure({ rateLimit: RATE.limit, rateLimitWindowMs: RATE.windowMs });
		await sim.clearLog();
		const interval = Math.ceil(RATE.windowMs / RATE.limit);
		const rateRuns = await server.runTogether([
			{ workflowId: 'node-rate', output: out },
			{ workflowId: 'http-rate', output: httpOut },
			{ workflowId: 'common-rate', output: httpOut },
		]);
		const rateLog = await sim.requests();
		await sim.configure({ rateLimit: 1_000_000_000, rateLimitWindowMs: 60_000 });
		const rateClients: Array<[string, string, string]> = [
			['cmp_rate_node', 'Spendesk node', 'Return All'],
			[
				'cmp_rate_http',
				'HTTP Request (expert)',
				`Interval Between Requests ${interval} ms (${RATE.windowMs / 1000} s ÷ ${RATE.limit})`,
			],
			['cmp_rate_plain', 'HTTP Request (common)', 'no interval'],
		];
		const rateClientsResults: TrapClient[] = [];
		for (const [i, [companyId, label, setting]] of rateClients.entries()) {
			const c = rateCase(companyId);
			const counts = requestCounts(
				rateLog.filter((r) => r.companyId === companyId),
				c.routes,
			);
			const expected = await sim.ids(companyId, 'invoices');
			rateClientsResults.push({
				label,
				setting,
				outcome: outcomeOf(rateRuns[i], expected),
				requests: counts.list,
				minimum: minimumRequests(c, expected.length),
				ms: rateRuns[i].ms,
				status429: counts.status429,
				failures: counts.failures,
				tokens: 0,
			});
		}
		traps.push({
			trap: 'rateLimit',
			what: `rate limit of ${RATE.limit} requests per minute (${RATE.invoices.toLocaleString('en')} invoices: ${RATE.invoices / 100} pages)`,
			clients: rateClientsResults,
		});
		log('traps done');

		// ---- All Companies
		const allIds = (
			await Promise.all(
				Array.from({ length: ALL.companies }, (_, i) =>
					simAll.ids(`cmp_${String(i + 1).padStart(3, '0')}`, 'invoices'),
				),
			)
		).flat();
		const allMinimum = 1 + ALL.companies * Math.ceil(ALL.invoices / 100);
		const allRuns: AllCompaniesRun[] = [];
		const allRun = async (
			workflowId: string,
			client: 'node' | 'http',
			variant: string,
			output: OutputOf,
			round: number,
		): Promise<AllCompaniesRun> => {
			await server.pause();
			const m = await measure(
				simAll,
				workflowId,
				output,
				{ routes: ['listInvoices', 'getCompanies'] },
				allIds,
			);
			return { ...clientRun(client, round, m), variant, status429: m.counts.status429 };
		};
		const loopOut: OutputOf = { node: 'Loop Over Items', output: 0 };
		for (let round = 0; round < ROUNDS; round++) {
			const order = round % 2 === 0 ? (['node', 'http'] as const) : (['http', 'node'] as const);
			for (const client of order) {
				allRuns.push(
					client === 'node'
						? await allRun('node-all', 'node', 'All Companies', out, round)
						: await allRun(
								'http-all-loop',
								'http',
								`Loop Over Items, ${ALL.cap} at a time`,
								loopOut,
								round,
							),
				);
			}
		}
		const once = await allRun(
			'http-all-once',
			'http',
			'every company at once',
			{ node: 'Split Invoices' },
			0,
		);
		const bareAll = await bare({
			url: simAll.url,
			orgKey: simAll.orgKey,
			style: 'allCompanies',
			company: '',
			warmCompany: '',
			rounds: ROUNDS,
			cap: ALL.cap,
		});
		allCompanies = {
			runs: allRuns,
			bare: bareAll,
			minimum: allMinimum,
			items: allIds.length,
			once,
		};
		log('All Companies done');

		// ---- a page list at 300 ms a response: read ahead against page after page
		for (const [id, output] of [
			['node-latent-warm', out],
			['http-latent-warm', httpOut],
		] as const) {
			const warm = await measure(
				simLatent,
				id,
				output,
				latentCase,
				await simLatent.ids(WARM, 'settlements'),
			);
			if (!warm.outcome.exact) throw new Error(`warm-up ${id}: ${warm.outcome.text}`);
		}
		const latentIds = await simLatent.ids(LATENT.company, 'settlements');
		for (let round = 0; round < ROUNDS; round++) {
			const order: Array<'node' | 'http'> = round % 2 === 0 ? ['node', 'http'] : ['http', 'node'];
			for (const client of order) {
				await server.pause();
				await simLatent.resetStats();
				const m = await measure(
					simLatent,
					`${client}-latent`,
					client === 'node' ? out : httpOut,
					latentCase,
					latentIds,
				);
				const { peakInFlight } = await simLatent.stats();
				latentRuns.push({ ...clientRun(client, round, m), peakInFlight });
			}
		}
		log('page list at 300 ms done');
	} finally {
		await n8n?.stop();
		await Promise.all([sim.stop(), simAll.stop(), simLatent.stop()]);
	}

	const result = summarize(styleResults, traps, allCompanies!, profiles, connections, n8n!);
	const latent = latentFigure(latentRuns, minimumRequests(latentCase, LATENT.settlements));
	result.figures.push(latent.figure);
	result.report += `\n\n${latent.report}`;
	return { ...result, details: { ...(result.details as object), latent: latentRuns } };
}

/** 7-latency: the 20-page list at 300 ms a response, node (pages read ahead) ÷ HTTP Request (page after page). */
function latentFigure(
	runs: Array<ClientRun & { peakInFlight?: number }>,
	minimum: number,
): { figure: Figure; report: string } {
	const node = runs.filter((r) => r.client === 'node');
	const http = runs.filter((r) => r.client === 'http');
	const nodeMs = median(node.map((r) => r.ms));
	const httpMs = median(http.map((r) => r.ms));
	const value = nodeMs / httpMs;
	const exact = runs.every((r) => r.outcome.exact);
	const nodeRequests = Math.max(...node.map((r) => r.requests));
	const peak = (rs: typeof runs) => Math.max(...rs.map((r) => r.peakInFlight ?? 0));
	const text = `median node ${sec(nodeMs)} s (runs ${node.map((r) => sec(r.ms)).join(' / ')}, ${nodeRequests} requests, at most ${peak(node)} in flight) vs HTTP Request ${sec(httpMs)} s (runs ${http.map((r) => sec(r.ms)).join(' / ')}, at most ${peak(http)} in flight); minimum ${minimum} requests; records ${exact ? 'exact' : 'NOT exact'} for both`;
	return {
		figure: {
			id: '7-latency',
			figure: `n8n: page list of ${minimum} pages, ${LATENT.latencyMs} ms a response: node ÷ HTTP Request (expert)`,
			value,
			display: ratio(value),
			target: `≤ ${LATENT.target}`,
			pass: value <= LATENT.target && exact && nodeRequests === minimum,
			note: text,
		},
		report: `Page list of ${minimum} pages (${LATENT.settlements} settlements), ${LATENT.latencyMs} ms a response: ${text}.`,
	};
}

/** The HTTP Request node as commonly set up for the trap lists (pagination as the n8n docs' examples). */
function commonWorkflow(id: string, c: ListCase, baseUrl: string): Workflow {
	const header = { 'X-Company-Id': c.company };
	const nodes = {
		cursor: httpRequestNode(
			'HTTP Request',
			{
				url: `${baseUrl}/v2/companies/${c.company}/invoices`,
				query: { sortBy: 'updatedAt', sort: 'desc', limit: '100' },
				pagination: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: [
						{
							type: 'qs',
							name: 'cursor',
							value: '={{ $pageCount === 0 ? "" : $response.body.meta.pagination.nextCursor }}',
						},
					],
					completeExpression: '={{ $response.body.data.length < 100 }}',
				},
			},
			credA,
		),
		page: httpRequestNode(
			'HTTP Request',
			{
				url: `${baseUrl}/v1/settlements`,
				query: { pageSize: '30' },
				headers: header,
				pagination: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
					completeExpression: '={{ $response.body.data.length < 30 }}',
				},
			},
			credA,
		),
		offset: httpRequestNode(
			'HTTP Request',
			{
				url: `${baseUrl}/v1/accounts`,
				query: { fetch: '100' },
				headers: header,
				pagination: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: [{ type: 'qs', name: 'offset', value: '={{ $pageCount * 100 }}' }],
					completeExpression: '={{ $response.body.data.length < 100 }}',
				},
			},
			credA,
		),
	} as Partial<Record<StyleKey, ReturnType<typeof httpRequestNode>>>;
	return chainWorkflow(id, `HTTP Request (common setting): ${STYLE_INFO[c.style].label}`, [
		nodes[c.style]!,
		splitOutNode('Split Out', 'data', [500, 0]),
	]);
}

// ---------------------------------------------------------------- the results

function summarize(
	styles: StyleResult[],
	traps: TrapResult[],
	all: AllCompaniesResult,
	profiles: ProfileRecord[],
	connections: ConnectionCheck | undefined,
	n8n: BenchN8n,
): { figures: Figure[]; details: unknown; report: string } {
	const figures: Figure[] = [];
	const rows: string[][] = [];
	const of = (runs: ClientRun[], client: 'node' | 'http') =>
		runs.filter((r) => r.client === client);
	/** Median growth of the resident set during a run (peak − before). */
	const growth = (runs: ClientRun[]) => median(runs.map((r) => r.peakRssBytes - r.rssBeforeBytes));
	for (const s of styles) {
		const node = of(s.runs, 'node');
		const http = of(s.runs, 'http');
		const nodeMs = median(node.map((r) => r.ms));
		const httpMs = median(http.map((r) => r.ms));
		const bareMs = median(s.bare.map((b) => b.ms));
		const nodeCpu = median(node.map((r) => r.cpuMs));
		const httpCpu = median(http.map((r) => r.cpuMs));
		const bareCpu = median(s.bare.map((b) => b.cpuMs));
		const nodeReq = Math.max(...node.map((r) => r.requests));
		const httpReq = Math.max(...http.map((r) => r.requests));
		const nodePeak = median(node.map((r) => r.peakRssBytes));
		const httpPeak = median(http.map((r) => r.peakRssBytes));
		const exact = (runs: ClientRun[]) =>
			runs.every((r) => r.outcome.exact)
				? 'exact'
				: runs.find((r) => !r.outcome.exact)!.outcome.text;
		const label = STYLE_INFO[s.style].label;
		const bareExact = s.bare.every((b) => b.items === s.items && b.uniqueIds === s.items);
		figures.push(
			{
				id: `7-${s.style}-time`,
				figure: `n8n: ${label}, ${s.items.toLocaleString('en')} records: node ÷ HTTP Request, execution time`,
				value: nodeMs / httpMs,
				display: ratio(nodeMs / httpMs),
				target: `≤ ${TIME_TARGET.toFixed(2)}`,
				pass: nodeMs / httpMs <= TIME_TARGET,
				note:
					`median node ${sec(nodeMs)} s (runs ${node.map((r) => sec(r.ms)).join(' / ')}) vs HTTP Request + Split Out ${sec(httpMs)} s (runs ${http.map((r) => sec(r.ms)).join(' / ')}); ` +
					`n8n CPU time during the execution: node ${sec(nodeCpu)} s vs ${sec(httpCpu)} s (${ratio(nodeCpu / httpCpu)})`,
			},
			{
				id: `7-${s.style}-floor`,
				figure: `n8n: ${label}: node in n8n ÷ bare fetch loop`,
				value: nodeMs / bareMs,
				display: ratio(nodeMs / bareMs),
				target: `≤ ${FLOOR_TARGET.toFixed(2)}`,
				pass: nodeMs / bareMs <= FLOOR_TARGET,
				note:
					`bare loop median ${sec(bareMs)} s (runs ${s.bare.map((b) => sec(b.ms)).join(' / ')}), ${bareExact ? 'every record once' : 'NOT the exact records'}; HTTP Request ÷ bare ${ratio(httpMs / bareMs)}; ` +
					`CPU time: node in n8n ${sec(nodeCpu)} s ÷ bare loop process ${sec(bareCpu)} s = ${ratio(nodeCpu / bareCpu)}`,
			},
			{
				id: `7-${s.style}-requests`,
				figure: `n8n: ${label}: node requests ÷ minimum`,
				value: nodeReq / s.minimum,
				display: ratio(nodeReq / s.minimum),
				target: '1.00',
				pass: nodeReq <= s.minimum,
				note: `node ${nodeReq}, HTTP Request ${httpReq}, minimum ${s.minimum}; records: node ${exact(node)}, HTTP Request ${exact(http)}`,
			},
			{
				id: `7-${s.style}-memory`,
				figure: `n8n: ${label}: peak RSS of n8n, node ÷ HTTP Request`,
				value: nodePeak / httpPeak,
				display: ratio(nodePeak / httpPeak),
				target: 'report',
				note:
					`median peak node ${mib(nodePeak)} MiB (from ${mib(median(node.map((r) => r.rssBeforeBytes)))}), HTTP Request ${mib(httpPeak)} MiB (from ${mib(median(http.map((r) => r.rssBeforeBytes)))}); ` +
					`processes under n8n: ${s.runs.some((r) => r.childPeakBytes > 0) ? `up to ${mib(Math.max(...s.runs.map((r) => r.childPeakBytes)))} MiB` : 'none'}`,
			},
		);
		rows.push([
			label,
			s.items.toLocaleString('en'),
			sec(nodeMs),
			sec(httpMs),
			sec(bareMs),
			`**${ratio(nodeMs / httpMs)}**`,
			ratio(nodeMs / bareMs),
			`${ratio(nodeCpu / httpCpu)} / ${ratio(nodeCpu / bareCpu)}`,
			`${nodeReq} / ${httpReq} / ${s.minimum}`,
			`${mib(nodePeak)} (+${mib(growth(node))}) / ${mib(httpPeak)} (+${mib(growth(http))})`,
			`${exact(node)} / ${exact(http)}`,
		]);
	}

	// All Companies
	const allNode = of(all.runs, 'node');
	const allHttp = of(all.runs, 'http');
	const allNodeMs = median(allNode.map((r) => r.ms));
	const allHttpMs = median(allHttp.map((r) => r.ms));
	const allBareMs = median(all.bare.map((b) => b.ms));
	const allNodeCpu = median(allNode.map((r) => r.cpuMs));
	const allHttpCpu = median(allHttp.map((r) => r.cpuMs));
	const allBareCpu = median(all.bare.map((b) => b.cpuMs));
	const allNodeReq = Math.max(...allNode.map((r) => r.apiRequests));
	const allHttpReq = Math.max(...allHttp.map((r) => r.apiRequests));
	const allExact = (runs: ClientRun[]) =>
		runs.every((r) => r.outcome.exact) ? 'exact' : runs.find((r) => !r.outcome.exact)!.outcome.text;
	figures.push(
		{
			id: '9-all-time',
			figure: `n8n: All Companies (${ALL.companies} × ${ALL.invoices.toLocaleString('en')} invoices, ${ALL.latencyMs} ms, ≤ ${ALL.cap} in flight): node ÷ HTTP Request fed by the company list`,
			value: allNodeMs / allHttpMs,
			display: ratio(allNodeMs / allHttpMs),
			target: `≤ ${TIME_TARGET.toFixed(2)}`,
			pass: allNodeMs / allHttpMs <= TIME_TARGET,
			note: `median node ${sec(allNodeMs)} s (runs ${allNode.map((r) => sec(r.ms)).join(' / ')}) vs HTTP Request in Loop Over Items (${ALL.cap} at a time) ${sec(allHttpMs)} s (runs ${allHttp.map((r) => sec(r.ms)).join(' / ')}); every company at once: ${all.once ? `${all.once.outcome.text} after ${sec(all.once.ms)} s, ${all.once.status429 ?? 0} answers 429` : 'not run'}`,
		},
		{
			id: '9-all-floor',
			figure: 'n8n: All Companies: node in n8n ÷ bare fetch loop (5 companies at once)',
			value: allNodeMs / allBareMs,
			display: ratio(allNodeMs / allBareMs),
			target: `≤ ${FLOOR_TARGET.toFixed(2)}`,
			pass: allNodeMs / allBareMs <= FLOOR_TARGET,
			note: `bare loop median ${sec(allBareMs)} s (runs ${all.bare.map((b) => sec(b.ms)).join(' / ')})`,
		},
		{
			id: '9-all-requests',
			figure: 'n8n: All Companies: node requests ÷ minimum',
			value: allNodeReq / all.minimum,
			display: ratio(allNodeReq / all.minimum),
			target: '1.00',
			pass: allNodeReq <= all.minimum,
			note: `node ${allNodeReq}, HTTP Request ${allHttpReq}, minimum ${all.minimum} (Get Companies + ${all.minimum - 1} pages); records: node ${allExact(allNode)}, HTTP Request ${allExact(allHttp)}`,
		},
	);
	rows.push([
		`All Companies (${ALL.companies} × ${ALL.invoices.toLocaleString('en')}, ${ALL.latencyMs} ms)`,
		all.items.toLocaleString('en'),
		sec(allNodeMs),
		sec(allHttpMs),
		sec(allBareMs),
		`**${ratio(allNodeMs / allHttpMs)}**`,
		ratio(allNodeMs / allBareMs),
		`${ratio(allNodeCpu / allHttpCpu)} / ${ratio(allNodeCpu / allBareCpu)}`,
		`${allNodeReq} / ${allHttpReq} / ${all.minimum}`,
		`${mib(median(allNode.map((r) => r.peakRssBytes)))} (+${mib(growth(allNode))}) / ${mib(median(allHttp.map((r) => r.peakRssBytes)))} (+${mib(growth(allHttp))})`,
		`${allExact(allNode)} / ${allExact(allHttp)}`,
	]);

	// Traps
	const trapRows: string[][] = [];
	for (const t of traps) {
		const node = t.clients[0];
		const failedClearly = node.outcome.text.startsWith('error') && node.requests <= node.minimum;
		figures.push({
			id: `8-${t.trap}`,
			figure: `n8n trap: ${t.what}: node`,
			value: node.outcome.exact ? 1 : 0,
			display: node.outcome.exact
				? 'exact'
				: node.outcome.text.startsWith('error')
					? 'error'
					: 'not exact',
			target: t.expectError ? 'error, bounded' : 'exact',
			pass: t.expectError ? failedClearly : node.outcome.exact,
			note: t.clients
				.map(
					(c) =>
						`${c.label} (${c.setting}): ${c.outcome.text}, ${c.requests} requests (minimum ${c.minimum})${c.failures ? `, answered ${c.failures}` : ''}${c.tokens ? `, ${c.tokens} token requests` : ''}, ${sec(c.ms)} s`,
				)
				.join('; '),
		});
		const cell = (c: TrapClient | undefined) =>
			c
				? `${c.outcome.text}; ${c.requests} req.${c.failures ? ` (${c.failures})` : ''}${c.tokens ? `, ${c.tokens} token req.` : ''}${t.trap === 'rateLimit' ? `; ${sec(c.ms)} s` : ''}`
				: '—';
		const common = t.clients.find((c) => c.label === 'HTTP Request (common)');
		trapRows.push([
			t.what,
			cell(node),
			cell(t.clients.find((c) => c.label === 'HTTP Request (expert)')),
			common ? `${cell(common)} (${common.setting})` : 'same as expert',
		]);
	}

	const md = (headers: string[], body: string[][]) =>
		[
			`| ${headers.join(' | ')} |`,
			`|${headers.map(() => '---').join('|')}|`,
			...body.map((r) => `| ${r.join(' | ')} |`),
		].join('\n');
	const report = [
		`n8n ${n8n.version} on Node.js ${n8n.nodeVersion}, HTTP Request node version ${HTTP_REQUEST_VERSION}; times are medians of ${ROUNDS} executions (stoppedAt − startedAt), bare loop medians of ${ROUNDS} reads in a warm process; CPU: n8n's CPU time during the execution, the bare loop process's during its read`,
		'',
		md(
			[
				'List',
				'Records',
				'Node s',
				'HTTP Request s',
				'Bare loop s',
				'Node ÷ HTTP',
				'Node ÷ bare',
				'CPU: node ÷ HTTP / ÷ bare',
				'Requests node / HTTP / min.',
				'Peak RSS MiB (growth) node / HTTP',
				'Records node / HTTP',
			],
			rows,
		),
		'',
		'',
		'Snapshot: the HTTP Request node cannot wait for the snapshot to be built (a PENDING answer would count as a page); the simulator answers COMPLETE at once.',
		'',
		md(
			['Trap', 'Spendesk node', 'HTTP Request (expert)', 'HTTP Request (common setting)'],
			trapRows,
		),
		...(connections
			? [
					'',
					`Bare loop with a new connection per request (as n8n's request helpers), ${STYLE_INFO.cursor.label}: median ${sec(median(connections.bareNewConnectionsMs))} s (runs ${connections.bareNewConnectionsMs.map(sec).join(' / ')}); ` +
						`the node's requests in n8n: ${connections.nodeConnectionClose} of ${connections.nodeRequests} sent "Connection: close"`,
				]
			: []),
		...profiles.map((p) => {
			const who = `${p.client === 'node' ? 'Spendesk node' : 'HTTP Request + Split Out'}, ${STYLE_INFO.cursor.label}`;
			const pages = SIZES.cursor / 100;
			return `\n${formatProfile(`CPU profile, ${who}, execution alone (${sec(p.ms)} s)`, p.execution, pages)}\n${formatProfile(`CPU profile, ${who}, start to saved (${p.file})`, p.whole, pages)}`;
		}),
	].join('\n');
	return {
		figures,
		details: {
			n8n: n8n.version,
			node: n8n.nodeVersion,
			httpRequestVersion: HTTP_REQUEST_VERSION,
			rounds: ROUNDS,
			styles,
			traps,
			allCompanies: all,
			profiles,
			connections,
		},
		report,
	};
}
