/**
 * Figures 7–9 — the node against what a user would build instead, inside a real n8n 2.8.4
 * (`npm run bench -- --only n8n`; not part of the default run: it takes 7–8 minutes and the
 * n8n install of the end-to-end suite).
 *
 * 7: for each pagination style, one company's list read with Return All by the Spendesk node
 * and by n8n's HTTP Request node set up as an expert would (bench/n8n-workflows.ts), each as a
 * workflow run through n8n's REST API: execution time node ÷ HTTP Request (medians of 3),
 * requests ÷ the minimum, peak memory of the n8n process, records exactly the simulator's;
 * 7-latency: a page list of 20 pages at 300 ms a response (the node reads the pages after the
 * first concurrently, the HTTP Request node can only go page after page).
 * 8: the traps (empty cursor pages that say more follows, a repeated cursor, 404 past the last
 * page, page sizes capped silently, an expired saved token, a rate limit of 50 a minute), each
 * for the node, the expert HTTP Request and (for some) the HTTP Request as commonly set up.
 * 9: All Companies (10 × 5,000 invoices, 50 ms latency, at most 5 requests in flight as
 * Spendesk allows): the node's one step against the HTTP Request node fed by the company list.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { NO_DATA } from '../../test/simulator';
import type { Workflow } from '../../test/e2e/workflows';
import { apiKeyCredential } from '../../test/e2e/workflows';
import { BenchN8n } from '../n8n-harness';
import type { OutputOf, RunResult } from '../n8n-harness';
import {
	HTTP_REQUEST_VERSION,
	httpAllCompaniesAtOnceWorkflow,
	httpAllCompaniesLoopWorkflow,
	httpWorkflow,
	nodeWorkflow,
} from '../n8n-workflows';
import { SimulatorHandle, TOKEN_ROUTES } from '../simulator';
import type { WireRequest } from '../simulator';
import { STYLES, median, minimumRequests, ratio } from '../support';
import type { Figure, StyleKey } from '../support';

const ROUNDS = 3;
/** Records per style: 100,000 invoices; 500 pages of the other lists. */
const SIZES: Record<StyleKey, number> = {
	cursor: 100_000,
	page: 15_000,
	offset: 50_000,
	bodyCursor: 50_000,
	snapshot: 15_000,
};
const ORDER: StyleKey[] = ['cursor', 'page', 'offset', 'bodyCursor', 'snapshot'];
const NOTHING = { ...NO_DATA, users: 0, costCenters: 0, bankFees: 0, walletLoads: 0 };
const WARM = 'cmp_warm';
const TRAP = 'cmp_trap';
/** Trap sizes: 20 invoice pages, settlements an exact multiple of the page size, 1,000 accounts. */
const TRAP_SIZES = { invoices: 2_000, settlements: 300, accounts: 1_000 };
/** 50 requests per minute per company (Spendesk's published limit for API keys), 55 pages. */
const RATE = { limit: 50, windowMs: 60_000, invoices: 5_500 };
const ACCOUNTS_SERVED = 30;
const ALL = { companies: 10, invoices: 5_000, latencyMs: 50, cap: 5 };
const LATENT = { company: 'cmp_latent', settlements: 600, latencyMs: 300, target: 0.3 };

const credA = { id: 'benchKey', name: 'Spendesk API key (simulator)' };
const credB = { id: 'benchKeyAll', name: 'Spendesk API key (All Companies simulator)' };
const credC = { id: 'benchKeyLatent', name: 'Spendesk API key (300 ms simulator)' };

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const sec = (ms: number) => (ms / 1000).toFixed(2);
const OUT: OutputOf = { node: 'Spendesk' };
const HTTP_OUT: OutputOf = { node: 'Split Out' };

/** "exact", or what is wrong: "error: …", "120 of 2,000 missing", "100 duplicates". */
function outcomeOf(run: RunResult, expected: readonly string[]): string {
	if (run.status !== 'success' || run.error)
		return `error: ${(run.error ?? run.status).split(/(?<=[.!?])\s|\n/)[0].slice(0, 110)}`;
	const wanted = new Set(expected);
	const seen = new Set(run.ids);
	const missing = expected.filter((id) => !seen.has(id)).length;
	const parts = [
		missing
			? `${missing.toLocaleString('en')} of ${expected.length.toLocaleString('en')} missing`
			: '',
		run.ids.length > seen.size
			? `${(run.ids.length - seen.size).toLocaleString('en')} duplicates`
			: '',
		run.ids.some((id) => !wanted.has(id)) ? 'records not in the list' : '',
		run.withoutId ? `${run.withoutId} items without id` : '',
	].filter(Boolean);
	return parts.length ? parts.join(', ') : 'exact';
}

/** A list read by the clients: its simulator, the routes of its requests and its records' ids. */
interface List {
	sim: SimulatorHandle;
	routes: string[];
	expected: readonly string[];
}

/** A run of one client: its outcome and the requests of its list, token requests and error answers. */
interface Measured {
	run: RunResult;
	outcome: string;
	requests: number;
	tokens: number;
	failures: string;
}

function counted(
	run: RunResult,
	expected: readonly string[],
	log: WireRequest[],
	routes: string[],
): Measured {
	const api = log.filter((r) => !TOKEN_ROUTES.has(r.route));
	const by = new Map<number, number>();
	for (const r of api) if (r.status >= 400) by.set(r.status, (by.get(r.status) ?? 0) + 1);
	return {
		run,
		outcome: outcomeOf(run, expected),
		requests: api.filter((r) => routes.includes(r.route)).length,
		tokens: log.length - api.length,
		failures: [...by].map(([status, n]) => `${n} × ${status}`).join(', '),
	};
}

export async function n8nComparison(): Promise<{ figures: Figure[]; details: unknown }> {
	const [sim, simAll, simLatent] = await Promise.all([
		// Throughput first: no rate limit until the rate-limit trap; snapshots COMPLETE at once.
		SimulatorHandle.start({
			seed: {
				companies: [
					...ORDER.map((s) => ({
						id: `cmp_${s}`,
						sizes: { ...NOTHING, [STYLES[s].list]: SIZES[s] },
					})),
					{
						id: WARM,
						sizes: {
							...NOTHING,
							invoices: 2_000,
							settlements: 300,
							accounts: 1_000,
							payables: 1_000,
						},
					},
					{ id: TRAP, sizes: { ...NOTHING, ...TRAP_SIZES } },
					...['cmp_rate_node', 'cmp_rate_http', 'cmp_rate_plain'].map((id) => ({
						id,
						sizes: { ...NOTHING, invoices: RATE.invoices },
					})),
				],
			},
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
	const workflows: Workflow[] = [];
	for (const s of ORDER)
		for (const [suffix, company] of [
			['', `cmp_${s}`],
			['-warm', WARM],
		])
			workflows.push(
				nodeWorkflow(`node-${s}${suffix}`, s, company, credA),
				httpWorkflow(`http-${s}${suffix}`, s, company, sim.url, credA),
			);
	for (const s of ['cursor', 'page', 'offset'] as const)
		workflows.push(
			nodeWorkflow(`node-trap-${s}`, s, TRAP, credA),
			httpWorkflow(`http-trap-${s}`, s, TRAP, sim.url, credA),
			httpWorkflow(`common-trap-${s}`, s, TRAP, sim.url, credA, { common: true }),
		);
	const interval = Math.ceil(RATE.windowMs / RATE.limit);
	workflows.push(
		nodeWorkflow('node-rate', 'cursor', 'cmp_rate_node', credA),
		httpWorkflow('http-rate', 'cursor', 'cmp_rate_http', sim.url, credA, { interval }),
		httpWorkflow('common-rate', 'cursor', 'cmp_rate_plain', sim.url, credA),
		nodeWorkflow('node-all', 'cursor', undefined, credB),
		httpAllCompaniesLoopWorkflow('http-all', simAll.url, credB, ALL.cap),
		httpAllCompaniesAtOnceWorkflow('http-all-once', simAll.url, credB),
		nodeWorkflow('node-latent', 'page', LATENT.company, credC),
		httpWorkflow('http-latent', 'page', LATENT.company, simLatent.url, credC),
		nodeWorkflow('node-latent-warm', 'page', WARM, credC),
		httpWorkflow('http-latent-warm', 'page', WARM, simLatent.url, credC),
	);
	const organisation = (s: SimulatorHandle) => ({ ...s.orgKey, level: 'organisation' as const });
	const n8n = await BenchN8n.start(
		[
			apiKeyCredential(credA, sim.url, organisation(sim)),
			apiKeyCredential(credB, simAll.url, organisation(simAll)),
			apiKeyCredential(credC, simLatent.url, organisation(simLatent)),
		],
		workflows,
	);
	const started = Date.now();
	const log = (message: string) =>
		process.stdout.write(`  [n8n ${((Date.now() - started) / 1000).toFixed(0)} s] ${message}\n`);
	const figures: Figure[] = [];
	const details: Record<string, unknown> = {
		n8n: n8n.version,
		httpRequest: HTTP_REQUEST_VERSION,
	};
	/** One run of a workflow reading `list`, its requests counted on the list's simulator. */
	const measure = async (list: List, workflowId: string, output: OutputOf): Promise<Measured> => {
		await sleep(500); // n8n settles between runs (its own timers, garbage collection)
		await list.sim.clearLog();
		const run = await n8n.run(workflowId, output);
		return counted(run, list.expected, await list.sim.requests(), list.routes);
	};
	/** `node-${name}` and `http-${name}`, ROUNDS runs each, alternating which goes first. */
	const rounds = async (list: List, name: string, httpOut = HTTP_OUT) => {
		const runs = { node: [] as Measured[], http: [] as Measured[] };
		for (let round = 0; round < ROUNDS; round++)
			for (const client of round % 2 ? (['http', 'node'] as const) : (['node', 'http'] as const))
				runs[client].push(
					await measure(list, `${client}-${name}`, client === 'node' ? OUT : httpOut),
				);
		return runs;
	};
	const listOf = async (handle: SimulatorHandle, company: string, s: StyleKey): Promise<List> => ({
		sim: handle,
		routes: STYLES[s].routes,
		expected: await handle.ids(company, STYLES[s].list),
	});
	const times = (runs: Measured[]) => runs.map((r) => sec(r.run.ms)).join(' / ');
	const exact = (runs: Measured[]) => runs.find((r) => r.outcome !== 'exact')?.outcome ?? 'exact';
	/** The time figure of node ÷ HTTP Request runs, medians. */
	const timeFigure = (
		id: string,
		figure: string,
		runs: { node: Measured[]; http: Measured[] },
		target: number,
		extra = '',
	) => {
		const value = median(runs.node.map((r) => r.run.ms)) / median(runs.http.map((r) => r.run.ms));
		const allExact = [...runs.node, ...runs.http].every((r) => r.outcome === 'exact');
		return {
			id,
			figure,
			value,
			display: ratio(value),
			target: `≤ ${target.toFixed(2)}`,
			pass: value <= target && runs.node.every((r) => r.outcome === 'exact'),
			note: `node ${times(runs.node)} s vs HTTP Request ${times(runs.http)} s${extra}; records ${allExact ? 'exact for both' : `node ${exact(runs.node)}, HTTP Request ${exact(runs.http)}`}`,
		};
	};
	const requestsFigure = (
		id: string,
		figure: string,
		runs: { node: Measured[]; http: Measured[] },
		minimum: number,
	): Figure => {
		const most = (rs: Measured[]) => Math.max(...rs.map((r) => r.requests));
		return {
			id,
			figure,
			value: most(runs.node) / minimum,
			display: ratio(most(runs.node) / minimum),
			target: '1.00',
			pass: most(runs.node) <= minimum,
			note: `node ${most(runs.node)}, HTTP Request ${most(runs.http)}, minimum ${minimum}`,
		};
	};
	try {
		log(`n8n ${n8n.version} started`);
		// Warm-up: every workflow's code path once (n8n loads node code lazily), the token fetched.
		for (const s of ORDER)
			for (const [id, output] of [
				[`node-${s}-warm`, OUT],
				[`http-${s}-warm`, HTTP_OUT],
			] as const) {
				const m = await measure(await listOf(sim, WARM, s), id, output);
				if (m.outcome !== 'exact') throw new Error(`warm-up ${id}: ${m.outcome}`);
			}

		// ---- 7: the styles
		for (const s of ORDER) {
			const style = STYLES[s];
			const target = await listOf(sim, `cmp_${s}`, s);
			const { expected } = target;
			const runs = await rounds(target, s);
			const label = `n8n: ${style.label}, ${expected.length.toLocaleString('en')} records`;
			const peak = (rs: Measured[]) => median(rs.map((r) => r.run.peakRssBytes));
			const growth = (rs: Measured[]) =>
				median(rs.map((r) => r.run.peakRssBytes - r.run.rssBeforeBytes));
			figures.push(
				timeFigure(`7-${s}-time`, `${label}: node ÷ HTTP Request, execution time`, runs, 1),
				requestsFigure(
					`7-${s}-requests`,
					`${label}: node requests ÷ minimum`,
					runs,
					minimumRequests(style, expected.length),
				),
				{
					id: `7-${s}-memory`,
					figure: `${label}: peak RSS of n8n, node ÷ HTTP Request`,
					value: peak(runs.node) / peak(runs.http),
					display: ratio(peak(runs.node) / peak(runs.http)),
					target: 'report',
					note: `median peak node ${mib(peak(runs.node))} MiB (+${mib(growth(runs.node))}), HTTP Request ${mib(peak(runs.http))} MiB (+${mib(growth(runs.http))})`,
				},
			);
			details[s] = runs;
			log(`${s}: node ${times(runs.node)} s, HTTP Request ${times(runs.http)} s`);
		}

		// ---- 8: the traps
		const trap = async (
			name: string,
			what: string,
			s: 'cursor' | 'page' | 'offset',
			clients: Array<'node' | 'http' | 'common'>,
			fault?: () => Promise<unknown>,
			expectError = false,
			served = STYLES[s].pageSize,
		) => {
			const target = await listOf(sim, TRAP, s);
			const minimum = minimumRequests({ ...STYLES[s], pageSize: served }, target.expected.length);
			const results: Array<{ client: string } & Measured> = [];
			for (const client of clients) {
				await sim.clearFaults();
				await fault?.();
				const output = client === 'node' ? OUT : HTTP_OUT;
				results.push({ client, ...(await measure(target, `${client}-trap-${s}`, output)) });
			}
			await sim.clearFaults();
			trapFigure(name, what, results, minimum, expectError);
		};
		const trapFigure = (
			name: string,
			what: string,
			results: Array<{ client: string } & Measured>,
			minimum: number,
			expectError: boolean,
		) => {
			const node = results[0];
			const failedClearly = node.outcome.startsWith('error') && node.requests <= minimum;
			figures.push({
				id: `8-${name}`,
				figure: `n8n trap: ${what}: node`,
				value: node.outcome === 'exact' ? 1 : 0,
				display:
					node.outcome === 'exact'
						? 'exact'
						: node.outcome.startsWith('error')
							? 'error'
							: 'not exact',
				target: expectError ? 'error, bounded' : 'exact',
				pass: expectError ? failedClearly : node.outcome === 'exact',
				note: results
					.map(
						(r) =>
							`${r.client}: ${r.outcome}, ${r.requests} requests (minimum ${minimum})${r.failures ? `, answered ${r.failures}` : ''}${r.tokens ? `, ${r.tokens} token requests` : ''}, ${sec(r.run.ms)} s`,
					)
					.join('; '),
			});
			details[`trap-${name}`] = results.map(({ run, ...rest }) => ({ ...rest, ms: run.ms }));
		};
		const fault = (kind: 'emptyPage' | 'repeatCursor', times: number) => () =>
			sim.injectFault({ route: 'listInvoices', kind, after: 5, times });
		await trap(
			'emptyPage',
			'empty cursor pages that say more follows (3 after page 5 of 20)',
			'cursor',
			['node', 'http', 'common'],
			fault('emptyPage', 3),
		);
		await trap(
			'repeatCursor',
			'a repeated cursor (page 6 hands back its own cursor once)',
			'cursor',
			['node', 'http'],
			fault('repeatCursor', 1),
		);
		await trap(
			'repeatCursorAlways',
			'a cursor repeated for good (from page 6 on)',
			'cursor',
			['node', 'http'],
			fault('repeatCursor', 1_000),
			true,
		);
		await trap(
			'notFound',
			`404 past the last page (${TRAP_SIZES.settlements} settlements: exactly 10 pages)`,
			'page',
			['node', 'http', 'common'],
		);
		await sim.configure({ accountsMaxReturn: ACCOUNTS_SERVED });
		await trap(
			'cappedPageSize',
			`page sizes capped silently (fetch=100 asked, ${ACCOUNTS_SERVED} served; 1,000 accounts)`,
			'offset',
			['node', 'http', 'common'],
			undefined,
			false,
			ACCOUNTS_SERVED,
		);
		await sim.configure({ accountsMaxReturn: undefined });
		// A fact of the API: tokens live 60 minutes, so the token n8n saved in the credential has
		// expired when a workflow runs an hour later.
		await trap(
			'expiredToken',
			'the token saved in the credential has expired',
			'cursor',
			['node', 'http'],
			() => sim.expireTokens(),
		);
		// A valid token in the credential again for what follows.
		await n8n.run('node-cursor-warm', OUT);

		// Rate limit: the three clients at once, each on a company of its own (budgets are per company).
		await sim.configure({ rateLimit: RATE.limit, rateLimitWindowMs: RATE.windowMs });
		await sim.clearLog();
		const rateIds = ['cmp_rate_node', 'cmp_rate_http', 'cmp_rate_plain'];
		const rateRuns = await n8n.runTogether(
			['node-rate', 'http-rate', 'common-rate'].map((workflowId, i) => ({
				workflowId,
				output: i ? HTTP_OUT : OUT,
			})),
		);
		const rateLog = await sim.requests();
		await sim.configure({ rateLimit: 1_000_000_000, rateLimitWindowMs: 60_000 });
		const rateResults = await Promise.all(
			rateIds.map(async (company, i) => ({
				client: ['node', `http (interval ${interval} ms)`, 'http (no interval)'][i],
				...counted(
					rateRuns[i],
					await sim.ids(company, 'invoices'),
					rateLog.filter((r) => r.companyId === company),
					STYLES.cursor.routes,
				),
			})),
		);
		trapFigure(
			'rateLimit',
			`rate limit of ${RATE.limit} requests per minute (${RATE.invoices / 100} pages)`,
			rateResults,
			RATE.invoices / 100,
			false,
		);
		log('traps done');

		// ---- 9: All Companies
		const allIds = (
			await Promise.all(
				Array.from({ length: ALL.companies }, (_, i) =>
					simAll.ids(`cmp_${String(i + 1).padStart(3, '0')}`, 'invoices'),
				),
			)
		).flat();
		const allList = { sim: simAll, routes: ['listInvoices', 'getCompanies'], expected: allIds };
		const all = await rounds(allList, 'all', { node: 'Loop Over Items', output: 0 });
		const once = await measure(allList, 'http-all-once', { node: 'Split Invoices' });
		const label = `n8n: All Companies (${ALL.companies} × ${ALL.invoices.toLocaleString('en')} invoices, ${ALL.latencyMs} ms, ≤ ${ALL.cap} in flight)`;
		figures.push(
			timeFigure(
				'9-all-time',
				`${label}: node ÷ HTTP Request in Loop Over Items`,
				all,
				1,
				`; every company at once: ${once.outcome} after ${sec(once.run.ms)} s${once.failures ? `, answered ${once.failures}` : ''}`,
			),
			requestsFigure(
				'9-all-requests',
				`${label}: node requests ÷ minimum`,
				all,
				1 + ALL.companies * Math.ceil(ALL.invoices / 100),
			),
		);
		details.allCompanies = { ...all, once };
		log('All Companies done');

		// ---- 7-latency: a page list at 300 ms a response, read ahead against page after page
		const warmLatent = await listOf(simLatent, WARM, 'page');
		await measure(warmLatent, 'node-latent-warm', OUT);
		await measure(warmLatent, 'http-latent-warm', HTTP_OUT);
		const latent = await rounds(await listOf(simLatent, LATENT.company, 'page'), 'latent');
		const pages = LATENT.settlements / 30;
		const latency = timeFigure(
			'7-latency',
			`n8n: page list of ${pages} pages, ${LATENT.latencyMs} ms a response: node ÷ HTTP Request`,
			latent,
			LATENT.target,
		);
		figures.push({
			...latency,
			pass: latency.pass && latent.node.every((r) => r.requests === pages),
		});
		details.latent = latent;
	} finally {
		await n8n.stop();
		await Promise.all([sim.stop(), simAll.stop(), simLatent.stop()]);
	}
	return { figures, details };
}
