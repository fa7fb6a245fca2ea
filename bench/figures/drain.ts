/**
 * Figure 3 — drain. Return All of 100,000 invoices of one company (page size 100) through
 * the node, against a bare `fetch` loop draining the same data from the same simulator in
 * the same run. The simulator runs in its own process; the drains run in client processes
 * (bench/drain-client.ts) so the client's memory is measured alone.
 *
 * - wall time, fresh process: each drain alone in a new process after a 20-page warm-up, in 6
 *   rounds of one node run, one bare run and one run of n8n's request helper alone, back to
 *   back (each client first in 2 of them); best of the node runs ÷ best of the bare runs;
 * - wall time, warm process: one process drains the data once with each client, then 6
 *   rounds in the same orders; best ÷ best (no heap growth left to pay, so per-page costs
 *   show more);
 * - the note under each also gives every round's node ÷ bare and their median. `--aa` runs the
 *   bare loop in the node's place: how far from 1.00 the method reads two identical clients
 *   on this machine (docs/performance.md#how-it-is-measured);
 * - 3-time-helper and 3-time-warm-helper (reported, no target): n8n's request helper alone (the
 *   node's requests through the same execution-context double, no node code) ÷ the bare loop,
 *   the part of the node's ratio that is n8n's per-request work as the double reproduces it;
 * - memory: peak growth of the client's heapUsed + external during a fresh node run (sampled
 *   every 2 ms) ÷ the size of the drained data as JSON; the median of 3 runs of each client
 *   (where the last young-generation collection falls moves one run's peak by a few percent).
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import type { DrainJob, DrainResult } from '../drain-client';
import { SimulatorHandle } from '../simulator-handle';
import { TOKEN_ROUTES } from '../simulator-protocol';
import { INVOICES_ONLY, ROUND_ORDERS, median, ratio } from '../support';
import type { DrainMode, Figure } from '../support';

const INVOICES = 100_000;
/** Rounds of one timed drain of each client, fresh and warm: a multiple of 3, so each client goes first as often. */
const ROUNDS = 6;
const COMPANY = 'cmp_001';
const WARM_COMPANY = 'cmp_002';
const TARGET = 1.15;
/** Peak growth ÷ the data (the bare loop itself peaks at about 2.5), and what stays after a full GC. */
const PEAK_TARGET = 2.75;
const RETAINED_TARGET = 1.5;
/** `npm run bench -- --only drain --aa`: the bare loop in the node's place too (the method's own spread). */
const AA = process.argv.includes('--aa');
/** Memory runs of each client; the figure is the median run. */
const MEMORY_RUNS = 3;

async function runClient(job: DrainJob): Promise<DrainResult[]> {
	const child = fork(path.join(__dirname, '..', 'drain-client.ts'), [JSON.stringify(job)], {
		execArgv: ['--expose-gc', '--import', 'tsx'],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	return await new Promise<DrainResult[]>((resolve, reject) => {
		let result: DrainResult[] | undefined;
		child.once('message', (message: DrainResult[]) => (result = message));
		child.once('exit', (code) =>
			result
				? resolve(result)
				: reject(new Error(`drain client (${job.mode}) exited with code ${code}`)),
		);
	});
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const seconds = (ms: number) => (ms / 1000).toFixed(2);

type Run = DrainResult & { pageRequests: number; tokenRequests: number; errors: number };

export async function drainThroughput(): Promise<{ figures: Figure[]; details: unknown }> {
	const sim = await SimulatorHandle.start({
		seed: {
			companies: [
				{ id: COMPANY, sizes: { ...INVOICES_ONLY, invoices: INVOICES } },
				{ id: WARM_COMPANY, sizes: { ...INVOICES_ONLY, invoices: 2_000 } },
			],
		},
		// Throughput, not rate limits, is measured here: no budget runs out across the drains.
		rateLimit: 1_000_000_000,
	});
	const runs: Run[] = [];
	const job = (mode: DrainJob['mode'], memory: boolean): DrainJob => ({
		url: sim.url,
		orgKey: sim.orgKey,
		mode,
		company: COMPANY,
		warmCompany: WARM_COMPANY,
		memory,
		rounds: ROUNDS,
		aa: AA,
	});
	try {
		const plan: DrainJob[] = [];
		for (let round = 0; round < ROUNDS; round++)
			for (const mode of ROUND_ORDERS[round % ROUND_ORDERS.length]) plan.push(job(mode, false));
		if (!AA)
			for (let run = 0; run < MEMORY_RUNS; run++) plan.push(job('node', true), job('bare', true));
		plan.push(job('warm', false));
		for (const j of plan) {
			await sim.clearLog();
			const results = await runClient(j);
			const log = await sim.requests();
			const pages = log.filter((r) => r.route === 'listInvoices' && r.companyId === COMPANY).length;
			const tokens = log.filter((r) => TOKEN_ROUTES.has(r.route)).length;
			const errors = log.filter((r) => r.status >= 400).length;
			for (const result of results) {
				if (result.items !== INVOICES)
					throw new Error(
						`drain (${result.mode}): ${result.items} invoices instead of ${INVOICES}`,
					);
				runs.push({
					...result,
					pageRequests: pages / results.length,
					tokenRequests: tokens / results.length,
					errors,
				});
			}
			if (errors) throw new Error(`drain (${j.mode}): ${errors} error responses`);
		}
	} finally {
		await sim.stop();
	}

	const first = runs[0];
	if (
		runs.some(
			(r) =>
				r.firstId !== first.firstId || r.lastId !== first.lastId || r.jsonBytes !== first.jsonBytes,
		)
	) {
		throw new Error('drain: the clients did not return the same data');
	}
	const timed = (kind: DrainResult['process'], mode: string) =>
		runs.filter((r) => r.process === kind && r.mode === mode && r.peakGrowthBytes === undefined);
	const best = (values: number[]) => Math.min(...values);
	const list = (values: number[], format: (v: number) => string) => values.map(format).join(' / ');
	const who = AA ? 'A' : 'node';
	/** `mode`'s wall time ÷ the bare loop's, best ÷ best, with every round's ratio in the note. */
	const timeFigure = (
		kind: DrainResult['process'],
		mode: Exclude<DrainMode, 'bare'>,
		id: string,
		label: string,
	): Figure => {
		// Each client's runs are in the order they ran: the i-th of each belong to round i.
		const client = timed(kind, mode);
		const bare = timed(kind, 'bare');
		const clientMs = client.map((r) => r.ms);
		const bareMs = bare.map((r) => r.ms);
		const rounds = clientMs.map((ms, i) => ms / bareMs[i]);
		const value = best(clientMs) / best(bareMs);
		const name = mode === 'helper' ? 'helper' : who;
		const reported = AA || mode === 'helper';
		return {
			id,
			figure:
				mode === 'helper'
					? `Drain: n8n's request helper alone (no node code) wall time ÷ bare fetch loop, ${label}`
					: `Drain ${INVOICES.toLocaleString('en')} invoices: ${AA ? 'bare loop (A/A check)' : 'node'} wall time ÷ bare fetch loop, ${label}`,
			value,
			display: ratio(value),
			target: mode === 'helper' ? 'report' : AA ? '≈ 1.00' : `≤ ${TARGET}`,
			pass: reported ? undefined : value <= TARGET,
			note: `best ${name} ${seconds(best(clientMs))} s (runs ${list(clientMs, seconds)}) vs best bare ${seconds(best(bareMs))} s (runs ${list(bareMs, seconds)}); each round's ${name} ÷ bare ${list(rounds, ratio)} (median ${ratio(median(rounds))}); client CPU best ${name} ${seconds(best(client.map((r) => r.cpuMs)))} s vs bare ${seconds(best(bare.map((r) => r.cpuMs)))} s`,
		};
	};
	const timeFigures = [
		timeFigure('fresh', 'node', '3-time', 'fresh process'),
		timeFigure('warm', 'node', '3-time-warm', 'warm process'),
		timeFigure('fresh', 'helper', '3-time-helper', 'fresh process'),
		timeFigure('warm', 'helper', '3-time-warm-helper', 'warm process'),
	];
	if (AA) return { figures: timeFigures, details: runs };

	/** The memory run of `mode` with the median peak, and every run's peak ratio. */
	const medianMemory = (mode: DrainResult['mode']) => {
		const measured = runs
			.filter((r) => r.mode === mode && r.peakGrowthBytes !== undefined)
			.sort((a, b) => a.peakGrowthBytes! - b.peakGrowthBytes!);
		const all = measured.map((r) => ratio(r.peakGrowthBytes! / r.jsonBytes)).join(' / ');
		return { run: measured[Math.floor(measured.length / 2)], all };
	};
	const { run: memoryRun, all: nodePeaks } = medianMemory('node');
	const { run: bareMemory, all: barePeaks } = medianMemory('bare');
	const memoryRatio = memoryRun.peakGrowthBytes! / memoryRun.jsonBytes;
	const of = (bytes: number, r: Run) => `${mb(bytes)} (${ratio(bytes / r.jsonBytes)}×)`;
	return {
		figures: [
			...timeFigures,
			{
				id: '3-memory',
				figure: 'Drain: node peak memory growth ÷ JSON size of the data',
				value: memoryRatio,
				display: ratio(memoryRatio),
				target: `≤ ${PEAK_TARGET}`,
				pass: memoryRatio <= PEAK_TARGET,
				note: `data ${mb(memoryRun.jsonBytes)} as JSON, ${first.pageRequests} page requests per drain; median of ${MEMORY_RUNS} runs: node peak +${of(memoryRun.peakGrowthBytes!, memoryRun)} (runs ${nodePeaks}), retained after GC +${of(memoryRun.retainedGrowthBytes!, memoryRun)}; bare loop peak +${of(bareMemory.peakGrowthBytes!, bareMemory)} (runs ${barePeaks}), retained +${of(bareMemory.retainedGrowthBytes!, bareMemory)}`,
			},
			{
				id: '3-retained',
				figure: 'Drain: node memory retained after a full GC (output held) ÷ JSON size of the data',
				value: memoryRun.retainedGrowthBytes! / memoryRun.jsonBytes,
				display: ratio(memoryRun.retainedGrowthBytes! / memoryRun.jsonBytes),
				target: `≤ ${RETAINED_TARGET}`,
				pass: memoryRun.retainedGrowthBytes! / memoryRun.jsonBytes <= RETAINED_TARGET,
				note: `bare loop ${of(bareMemory.retainedGrowthBytes!, bareMemory)}`,
			},
		],
		details: runs,
	};
}
