/**
 * Figure 3 — drain. Return All of 100,000 invoices of one company (page size 100) through the
 * node, against n8n's request helper alone (the node's requests through the same
 * execution-context double, no node code) and a bare `fetch` loop, from the same simulator in
 * the same run. The simulator runs in its own process, each client in one of its own
 * (bench/drain-client.ts), so that a client's memory is measured alone.
 *
 * - 3-time: each drain alone in a new process after a 20-page warm-up, in 6 rounds of one run
 *   of each client back to back (each first in 2 of them); the node's best ÷ the helper's best;
 * - 3-time-warm: one process drains the data once with each client, then the same 6 rounds;
 * - 3-time-bare, 3-time-warm-bare (reported): the node's best ÷ the bare loop's best;
 * - 3-memory, 3-retained: peak growth of heapUsed + external during a fresh node run (sampled
 *   every 2 ms), and what stays after a full GC with the output held, ÷ the size of the data as
 *   JSON; the median of 3 runs.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import type { DrainJob, DrainResult } from '../drain-client';
import { SimulatorHandle, TOKEN_ROUTES } from '../simulator';
import { INVOICES_ONLY, ROUND_ORDERS, ratio } from '../support';
import type { DrainMode, Figure } from '../support';

const INVOICES = 100_000;
/** A multiple of 3, so that each client goes first as often. */
const ROUNDS = 6;
const MEMORY_RUNS = 3;
const COMPANY = 'cmp_001';
const WARM_COMPANY = 'cmp_002';
const TIME_TARGET = 1.1;
/** Peak growth ÷ the data (the bare loop itself peaks at about 2.5), and what stays after a full GC. */
const PEAK_TARGET = 2.75;
const RETAINED_TARGET = 1.5;

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
const list = (values: number[], format: (v: number) => string) => values.map(format).join(' / ');

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
	const { url, orgKey } = sim;
	const job = (mode: DrainJob['mode'], memory = false): DrainJob => ({
		url,
		orgKey,
		mode,
		company: COMPANY,
		warmCompany: WARM_COMPANY,
		memory,
		rounds: ROUNDS,
	});
	const plan: DrainJob[] = [];
	for (let round = 0; round < ROUNDS; round++)
		for (const mode of ROUND_ORDERS[round % ROUND_ORDERS.length]) plan.push(job(mode));
	for (let run = 0; run < MEMORY_RUNS; run++) plan.push(job('node', true), job('bare', true));
	plan.push(job('warm'));
	const runs: DrainResult[] = [];
	let pageRequests = 0;
	try {
		for (const j of plan) {
			await sim.clearLog();
			const results = await runClient(j);
			const log = await sim.requests();
			const errors = log.filter((r) => r.status >= 400).length;
			if (errors) throw new Error(`drain (${j.mode}): ${errors} error responses`);
			const pages = log.filter((r) => !TOKEN_ROUTES.has(r.route) && r.companyId === COMPANY);
			if (j.mode !== 'warm') pageRequests = pages.length;
			for (const result of results) {
				if (result.items !== INVOICES)
					throw new Error(
						`drain (${result.mode}): ${result.items} invoices instead of ${INVOICES}`,
					);
				runs.push(result);
			}
		}
	} finally {
		await sim.stop();
	}
	const first = runs[0];
	if (new Set(runs.map((r) => `${r.firstId} ${r.lastId} ${r.jsonBytes}`)).size > 1)
		throw new Error('drain: the clients did not return the same data');

	// Each client's timed runs in the order they ran: the i-th of each belong to round i.
	const timed = (kind: DrainResult['process'], mode: DrainMode) =>
		runs.filter((r) => r.process === kind && r.mode === mode && r.peakGrowthBytes === undefined);
	const timeFigure = (
		kind: DrainResult['process'],
		against: Exclude<DrainMode, 'node'>,
		id: string,
	): Figure => {
		const node = timed(kind, 'node');
		const base = timed(kind, against);
		const best = (rs: DrainResult[]) => Math.min(...rs.map((r) => r.ms));
		const value = best(node) / best(base);
		const name = against === 'helper' ? "n8n's request helper alone" : 'a bare fetch loop';
		return {
			id,
			figure: `Drain ${INVOICES.toLocaleString('en')} invoices, ${kind} process: node wall time ÷ ${name}`,
			value,
			display: ratio(value),
			target: against === 'helper' ? `≤ ${TIME_TARGET.toFixed(2)}` : 'report',
			pass: against === 'helper' ? value <= TIME_TARGET : undefined,
			note: `best node ${seconds(best(node))} s (runs ${list(
				node.map((r) => r.ms),
				seconds,
			)}) vs ${seconds(best(base))} s (runs ${list(
				base.map((r) => r.ms),
				seconds,
			)}); each round ${list(
				node.map((r, i) => r.ms / base[i].ms),
				ratio,
			)}; client CPU best ${seconds(Math.min(...node.map((r) => r.cpuMs)))} s vs ${seconds(Math.min(...base.map((r) => r.cpuMs)))} s`,
		};
	};

	/** The memory run of `mode` with the median peak, and every run's peak ratio. */
	const memory = (mode: DrainMode) => {
		const measured = runs
			.filter((r) => r.mode === mode && r.peakGrowthBytes !== undefined)
			.sort((a, b) => a.peakGrowthBytes! - b.peakGrowthBytes!);
		const run = measured[Math.floor(measured.length / 2)];
		const of = (bytes: number) => `${mb(bytes)} (${ratio(bytes / run.jsonBytes)}×)`;
		return {
			peak: run.peakGrowthBytes! / run.jsonBytes,
			retained: run.retainedGrowthBytes! / run.jsonBytes,
			text: `peak +${of(run.peakGrowthBytes!)} (runs ${list(
				measured.map((r) => r.peakGrowthBytes! / r.jsonBytes),
				ratio,
			)}), retained after GC +${of(run.retainedGrowthBytes!)}`,
		};
	};
	const node = memory('node');
	const bare = memory('bare');
	return {
		figures: [
			timeFigure('fresh', 'helper', '3-time'),
			timeFigure('warm', 'helper', '3-time-warm'),
			timeFigure('fresh', 'bare', '3-time-bare'),
			timeFigure('warm', 'bare', '3-time-warm-bare'),
			{
				id: '3-memory',
				figure: 'Drain: node peak memory growth ÷ JSON size of the data',
				value: node.peak,
				display: ratio(node.peak),
				target: `≤ ${PEAK_TARGET}`,
				pass: node.peak <= PEAK_TARGET,
				note: `data ${mb(first.jsonBytes)} as JSON, ${pageRequests} page requests per drain; median of ${MEMORY_RUNS} runs: node ${node.text}; bare loop ${bare.text}`,
			},
			{
				id: '3-retained',
				figure: 'Drain: node memory retained after a full GC (output held) ÷ JSON size of the data',
				value: node.retained,
				display: ratio(node.retained),
				target: `≤ ${RETAINED_TARGET}`,
				pass: node.retained <= RETAINED_TARGET,
			},
		],
		details: runs,
	};
}
