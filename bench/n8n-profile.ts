/**
 * Where an n8n process spends its CPU during one run: a CPU profile (bench/n8n-harness.ts
 * `runProfiled`) summed up by who does the work. A sample goes to n8n's credential handling
 * or REST API when one of those is on its stack; otherwise to the innermost frame that
 * belongs to a known package, frames of Node.js itself (sockets, streams, timers) being
 * looked through to the package that called them, or counted as Node.js internals.
 */
import type { CpuProfile } from './n8n-harness';

/** Package (from a script URL) → what it does here. */
const GROUPS: Array<[RegExp, string]> = [
	[/n8n-nodes-spendesk/, 'Spendesk node (this package)'],
	[/n8n-nodes-base/, 'n8n nodes (HTTP Request, Split Out…)'],
	[
		/\/(axios|follow-redirects|proxy-from-env|form-data|agent-base|https-proxy-agent|http-proxy-agent)\//,
		"n8n's HTTP client (axios)",
	],
	[
		/\/(@n8n\/typeorm|typeorm|sqlite3|@n8n\/db|tarn|reflect-metadata)\//,
		'database (queries answered asynchronously; the execution saved)',
	],
	[/\/flatted\//, 'serialising the execution for saving (flatted)'],
	[
		/\/(n8n-workflow|@n8n\/tournament|luxon|jmespath|@n8n\/expression-runtime|lodash)\//,
		'n8n-workflow: expressions, parameters, deep copies',
	],
	[/\/n8n-core\//, 'n8n-core: execution engine, request helpers'],
	[/\/n8n\/dist\//, 'n8n server (execution hooks, push, other)'],
];

/**
 * Work done on behalf of something found further up the stack, whatever package does it:
 * n8n's credential handling (read from the database, decrypt, resolve the credential's
 * expressions, on every authenticated request) and n8n's REST API (the benchmark asking for
 * the executions list while it waits).
 */
const CONTEXTS: Array<[RegExp, string]> = [
	[
		/n8n\/dist\/credentials-helper\.js|n8n-core\/dist\/credentials\.js/,
		"n8n's credential handling per request (read, decrypt, resolve)",
	],
	[
		/n8n\/dist\/(auth\/|executions\/|workflows\/workflow-sharing|controller)/,
		"n8n's REST API (the benchmark polling the executions)",
	],
];

const NATIVE = new Map([
	['(garbage collector)', 'garbage collection'],
	['(idle)', 'idle (waiting for the simulator)'],
	['(program)', 'V8/Node.js native (program)'],
	['(root)', 'V8/Node.js native (program)'],
]);

function groupOf(url: string): string | undefined {
	if (!url) return undefined;
	for (const [pattern, group] of GROUPS) if (pattern.test(url)) return group;
	if (url.startsWith('node:') || !url.includes('/')) return undefined;
	return 'other packages';
}

export interface ProfileSummary {
	/** Milliseconds of samples in the profile. */
	totalMs: number;
	/** Self time by group, largest first. */
	groups: Array<{ group: string; ms: number; share: number }>;
	/** Inclusive time of some functions of n8n's request path. */
	inclusive: Array<{ what: string; ms: number }>;
}

/** Inclusive measures: a sample counts when any frame of its stack matches. */
const INCLUSIVE: Array<[string, RegExp]> = [
	['n8n reads and decrypts the credential (getCredentials)', /^getCredentials$/],
	[
		"n8n's authenticated request helper (httpRequestWithAuthentication / requestWithAuthentication)",
		/^(httpRequestWithAuthentication|requestWithAuthentication)$/,
	],
	[
		'expressions and parameters (getNodeParameter, getParameterValue)',
		/^(getNodeParameter|getParameterValue)$/,
	],
	['saving the execution (flatted stringify)', /^stringify$/],
];

/**
 * The summary of a profile, or of the samples between `window.fromMs` and `window.toMs`
 * (milliseconds from the profile's start).
 */
export function summarizeProfile(
	profile: CpuProfile,
	window?: { fromMs: number; toMs: number },
): ProfileSummary {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const selfUs = new Map<number, number>();
	let at = 0;
	profile.samples.forEach((id, i) => {
		const delta = profile.timeDeltas[i] ?? 0;
		at += delta;
		if (window && (at / 1000 < window.fromMs || at / 1000 > window.toMs)) return;
		selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
	});
	let total = 0;
	const groups = new Map<string, number>();
	const inclusive = new Map<string, number>();
	for (const [id, us] of selfUs) {
		total += us;
		const frame = byId.get(id)!.callFrame;
		let group = NATIVE.get(frame.functionName);
		for (let at: number | undefined = id; !group && at !== undefined; at = parent.get(at)) {
			const url = byId.get(at)!.callFrame.url;
			group = CONTEXTS.find(([pattern]) => pattern.test(url))?.[1];
		}
		for (let at: number | undefined = id; !group && at !== undefined; at = parent.get(at))
			group = groupOf(byId.get(at)!.callFrame.url);
		group ??= 'Node.js internals (sockets, streams, timers)';
		groups.set(group, (groups.get(group) ?? 0) + us);
		const matched = new Set<string>();
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
			const name = byId.get(at)!.callFrame.functionName;
			for (const [what, pattern] of INCLUSIVE) if (pattern.test(name)) matched.add(what);
		}
		for (const what of matched) inclusive.set(what, (inclusive.get(what) ?? 0) + us);
	}
	return {
		totalMs: total / 1000,
		groups: [...groups]
			.sort((a, b) => b[1] - a[1])
			.map(([group, us]) => ({ group, ms: us / 1000, share: us / total })),
		inclusive: INCLUSIVE.map(([what]) => ({ what, ms: (inclusive.get(what) ?? 0) / 1000 })),
	};
}

/** The summary as lines of text. */
export function formatProfile(title: string, summary: ProfileSummary, pages: number): string {
	const lines = [
		`${title}: ${summary.totalMs.toFixed(0)} ms of samples (${((summary.totalMs * 1000) / pages).toFixed(0)} µs per page)`,
	];
	for (const g of summary.groups)
		lines.push(
			`  ${g.ms.toFixed(0).padStart(6)} ms ${(100 * g.share).toFixed(1).padStart(5)} %  ${g.group}`,
		);
	lines.push('  inclusive:');
	for (const i of summary.inclusive) lines.push(`  ${i.ms.toFixed(0).padStart(6)} ms  ${i.what}`);
	return lines.join('\n');
}
