/**
 * `npm run bench`: the performance figures of the Spendesk node, each a ratio against a
 * baseline measured in the same run. Prints the table and writes bench/results.json.
 * `npm run bench -- --only requests,drain` runs some of the figures; `--only n8n` the
 * comparison inside a real n8n, which the default run leaves out.
 */
// Before any module of the node: the transport's settings and flow control as the benchmark sets them.
import '../test/support/seam';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drainThroughput } from './figures/drain';
import { fanOut } from './figures/fanout';
import { rateLimitBound } from './figures/ratelimit';
import { n8nComparison } from './figures/n8n';
import { requestMinimality } from './figures/requests';
import { tokenReuse } from './figures/tokens';
import { idleTriggerPoll } from './figures/trigger';
import { concurrentPages } from './figures/pages';
import { elapsed, table } from './support';
import type { Figure } from './support';

/** A figure module's result; `report` is printed after the table (e.g. a side-by-side comparison). */
type FigureRun = () => Promise<{ figures: Figure[]; details: unknown; report?: string }>;

/** `optIn`: run only when named with --only (it needs more than this repository, or many minutes). */
const FIGURES: Array<{ name: string; run: FigureRun; optIn?: boolean }> = [
	{ name: 'requests', run: requestMinimality },
	{ name: 'tokens', run: tokenReuse },
	{ name: 'drain', run: drainThroughput },
	{ name: 'fanout', run: fanOut },
	{ name: 'ratelimit', run: rateLimitBound },
	{ name: 'trigger', run: idleTriggerPoll },
	{ name: 'pages', run: concurrentPages },
	// The node against n8n's HTTP Request node inside a real n8n 2.8.4 (the end-to-end suite's install): 7–8 minutes.
	{ name: 'n8n', run: n8nComparison, optIn: true },
];

function selected(): Array<{ name: string; run: FigureRun }> {
	const at = process.argv.indexOf('--only');
	if (at < 0) return FIGURES.filter((f) => !f.optIn);
	const names = (process.argv[at + 1] ?? '').split(',').filter(Boolean);
	const unknown = names.filter((n) => !FIGURES.some((f) => f.name === n));
	if (unknown.length)
		throw new Error(
			`Unknown figure(s) ${unknown.join(', ')}; known: ${FIGURES.map((f) => f.name).join(', ')}`,
		);
	return FIGURES.filter((f) => names.includes(f.name));
}

async function main(): Promise<void> {
	const started = performance.now();
	// Timing ratios assume an otherwise idle machine; other load is recorded and warned about.
	const loadAtStart = os.loadavg()[0];
	const figures: Figure[] = [];
	const details: Record<string, unknown> = {};
	const timings: Record<string, number> = {};
	const reports: string[] = [];
	for (const { name, run } of selected()) {
		const t = performance.now();
		process.stdout.write(`running ${name}…\n`);
		const result = await run();
		timings[name] = Math.round(elapsed(t)) / 1000;
		figures.push(...result.figures);
		details[name] = result.details;
		if (result.report) reports.push(result.report);
		process.stdout.write(`  ${name}: ${timings[name].toFixed(1)} s\n`);
	}
	const runtime = Math.round(elapsed(started)) / 1000;
	const loadAtEnd = os.loadavg()[0];

	const verdict = (f: Figure) => (f.pass === undefined ? 'info' : f.pass ? 'pass' : 'MISS');
	process.stdout.write(
		`\n${table(
			['#', 'Figure', 'Value', 'Target', 'Result'],
			figures.map((f) => [f.id, f.figure, f.display, f.target, verdict(f)]),
		)}\n\n`,
	);
	for (const f of figures) if (f.note) process.stdout.write(`${f.id}: ${f.note}\n`);
	for (const report of reports) process.stdout.write(`\n${report}\n`);
	const misses = figures.filter((f) => f.pass === false);
	const cpus = os.cpus();
	process.stdout.write(
		`\n${figures.length} figures, ${misses.length} missed; ${runtime.toFixed(1)} s on ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, Node ${process.version}\n`,
	);
	if (loadAtStart > cpus.length / 2) {
		process.stdout.write(
			`Warning: the 1-minute load average was ${loadAtStart.toFixed(2)} before the benchmark started: other processes were busy, so the timing ratios (3-time, 4-speedup, 5-rate, and 7–9 of --only n8n) may be off. Run it again on an idle machine.\n`,
		);
	}

	const results = {
		date: new Date().toISOString(),
		machine: {
			cpus: cpus.length,
			model: cpus[0]?.model,
			memoryGb: Math.round(os.totalmem() / 2 ** 30),
			node: process.version,
			platform: `${os.platform()} ${os.release()}`,
		},
		runtimeSeconds: runtime,
		loadAverage: { start: loadAtStart, end: loadAtEnd },
		timings,
		figures: figures.map((f) => ({ ...f, result: verdict(f) })),
		details,
	};
	writeFileSync(path.join(__dirname, 'results.json'), `${JSON.stringify(results, null, '\t')}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
