/**
 * `npm run bench`: the performance figures of the Spendesk node, each a ratio against a
 * baseline measured in the same run. Prints the table and writes bench/results.json.
 * `npm run bench -- --only requests,drain` runs some of the figures; `--only n8n` the
 * comparison inside a real n8n, which the default run leaves out (docs/performance.md).
 */
// Before any module of the node: the transport's settings and flow control as the benchmark sets them.
import '../test/support/seam';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drainThroughput } from './figures/drain';
import { fanOut } from './figures/fanout';
import { n8nComparison } from './figures/n8n';
import { concurrentPages } from './figures/pages';
import { rateLimitBound } from './figures/ratelimit';
import { requestMinimality } from './figures/requests';
import { tokenReuse } from './figures/tokens';
import { idleTriggerPoll } from './figures/trigger';
import { elapsed, table } from './support';
import type { Figure } from './support';

type FigureRun = () => Promise<{ figures: Figure[]; details: unknown }>;

const FIGURES: Record<string, FigureRun> = {
	requests: requestMinimality,
	tokens: tokenReuse,
	drain: drainThroughput,
	fanout: fanOut,
	ratelimit: rateLimitBound,
	trigger: idleTriggerPoll,
	pages: concurrentPages,
	// Inside a real n8n 2.8.4 (the end-to-end suite's install): only when named, 7–8 minutes.
	n8n: n8nComparison,
};

function selected(): string[] {
	const at = process.argv.indexOf('--only');
	if (at < 0) return Object.keys(FIGURES).filter((name) => name !== 'n8n');
	const names = (process.argv[at + 1] ?? '').split(',').filter(Boolean);
	const unknown = names.filter((n) => !(n in FIGURES));
	if (unknown.length)
		throw new Error(
			`Unknown figure(s) ${unknown.join(', ')}; known: ${Object.keys(FIGURES).join(', ')}`,
		);
	return names;
}

async function main(): Promise<void> {
	const started = performance.now();
	// Timing ratios assume an otherwise idle machine; other load is recorded and warned about.
	const load = os.loadavg()[0];
	const figures: Figure[] = [];
	const details: Record<string, unknown> = {};
	for (const name of selected()) {
		const t = performance.now();
		process.stdout.write(`running ${name}…\n`);
		const result = await FIGURES[name]();
		figures.push(...result.figures);
		details[name] = result.details;
		process.stdout.write(`  ${name}: ${(elapsed(t) / 1000).toFixed(1)} s\n`);
	}
	const verdict = (f: Figure) => (f.pass === undefined ? 'info' : f.pass ? 'pass' : 'MISS');
	const rows = figures.map((f) => [f.id, f.figure, f.display, f.target, verdict(f)]);
	process.stdout.write(`\n${table(['#', 'Figure', 'Value', 'Target', 'Result'], rows)}\n\n`);
	for (const f of figures) if (f.note) process.stdout.write(`${f.id}: ${f.note}\n`);
	const cpus = os.cpus();
	const runtime = elapsed(started) / 1000;
	const misses = figures.filter((f) => f.pass === false).length;
	process.stdout.write(
		`\n${figures.length} figures, ${misses} missed; ${runtime.toFixed(1)} s on ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${load.toFixed(2)} before\n`,
	);
	if (load > cpus.length / 2)
		process.stdout.write(
			'Warning: other processes were busy when the benchmark started, so the timing ratios may be off. Run it again on an idle machine.\n',
		);
	const results = {
		date: new Date().toISOString(),
		machine: {
			cpus: cpus.length,
			model: cpus[0]?.model,
			node: process.version,
			platform: `${os.platform()} ${os.release()}`,
		},
		runtimeSeconds: runtime,
		loadAverage: { start: load, end: os.loadavg()[0] },
		figures: figures.map((f) => ({ ...f, result: verdict(f) })),
		details,
	};
	writeFileSync(path.join(__dirname, 'results.json'), `${JSON.stringify(results, null, '\t')}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});
