/**
 * Client process of figure 3 (drain): drains every invoice of one company from the simulator
 * (another process) through the Spendesk node (invoice → Get Many, Return All, through the n8n
 * execution-context double), through n8n's request helper alone (the double's, called in a loop
 * as the node calls it, no node code), or through a bare `fetch` loop; reports the wall time,
 * the CPU time and, with `memory`, the peak memory growth of this process.
 *
 * Started by bench/figures/drain.ts with `node --expose-gc --import tsx`; the job comes as a
 * JSON argument, the results go back over the IPC channel.
 */
// Before any module of the node: the transport's settings and flow control as the benchmark sets them.
import '../test/support/seam';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { transportSettings } from '../nodes/Spendesk/transport/settings';
import { createContext } from '../test/support/n8n-context';
import type { ApiKeyCredential } from '../test/simulator';
import { ROUND_ORDERS, STYLES, apiKeyStore, executeNode, freshTransport } from './support';
import type { DrainMode } from './support';

/**
 * One measured drain of `company` in this fresh process (with `memory`, sampled: a run of its
 * own, as sampling costs a little time), or `warm`: the rounds of every client in one
 * long-lived process. `warmCompany`, small, is drained first: warm code, an open connection.
 */
export interface DrainJob {
	url: string;
	orgKey: ApiKeyCredential;
	mode: DrainMode | 'warm';
	company: string;
	warmCompany: string;
	memory: boolean;
	rounds: number;
}

/**
 * `cpuMs`: this process's during the run; `jsonBytes`: the data as JSON; `peakGrowthBytes`:
 * the largest heapUsed + external during the run, and `retainedGrowthBytes` the same after a
 * full GC at the end with the result held, each minus the same after a full GC before it.
 */
export interface DrainResult {
	mode: DrainMode;
	process: 'fresh' | 'warm';
	ms: number;
	cpuMs: number;
	items: number;
	firstId: string;
	lastId: string;
	jsonBytes: number;
	peakGrowthBytes?: number;
	retainedGrowthBytes?: number;
}

interface InvoicePage {
	data: IDataObject[];
	meta: { pagination: { hasNextPage: boolean; nextCursor: string | null } };
}

/** The query of one page of the invoices list, as the node asks it. */
const pageQuery = (cursor: string | null) => ({
	sortBy: 'updatedAt',
	sort: 'desc',
	limit: '100',
	...(cursor ? { cursor } : {}),
});

/** The baseline: a token, then GET pages with the cursor until hasNextPage is false. */
async function bareDrain(job: DrainJob, company: string): Promise<IDataObject[]> {
	const basic = Buffer.from(`${job.orgKey.clientId}:${job.orgKey.clientSecret}`).toString('base64');
	const tokenResponse = await fetch(`${job.url}/v1/auth/token`, {
		method: 'POST',
		headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json' },
		body: JSON.stringify({ grant_type: 'client_credentials' }),
	});
	const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
	const items: IDataObject[] = [];
	for (let cursor: string | null = null; ; ) {
		const url = new URL(`/v2/companies/${company}/invoices`, job.url);
		for (const [k, v] of Object.entries(pageQuery(cursor))) url.searchParams.set(k, v);
		const response = await fetch(url, {
			headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
		});
		if (response.status !== 200) throw new Error(`bare loop: HTTP ${response.status}`);
		const body = (await response.json()) as InvoicePage;
		for (const item of body.data) items.push(item);
		if (!body.meta.pagination.hasNextPage) return items;
		cursor = body.meta.pagination.nextCursor;
	}
}

/**
 * n8n's request helper alone: the requests the node makes for this list (the same options, the
 * execution's cancel signal) through the same execution-context double, each record made an
 * output item as n8n keeps it, but none of the node's own work.
 */
async function helperDrain(job: DrainJob, company: string): Promise<INodeExecutionData[]> {
	const { context } = createContext({
		store: apiKeyStore(job.url, job.orgKey),
		parameters: { authentication: 'apiKey' },
	});
	const ctx = context as unknown as IExecuteFunctions;
	const items: INodeExecutionData[] = [];
	const pairedItem = { item: 0 };
	for (let cursor: string | null = null; ; ) {
		const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'spendeskApi', {
			method: 'GET',
			url: `${job.url}/v2/companies/${company}/invoices`,
			headers: { accept: 'application/json' },
			json: true,
			returnFullResponse: true,
			timeout: transportSettings.timeoutMs,
			qs: pageQuery(cursor),
			arrayFormat: 'repeat',
			ignoreHttpStatusErrors: true,
			abortSignal: ctx.getExecutionCancelSignal(),
			disableFollowRedirect: true,
		})) as { statusCode: number; body: InvoicePage };
		if (response.statusCode !== 200) throw new Error(`helper loop: HTTP ${response.statusCode}`);
		for (const json of response.body.data) items.push({ json, pairedItem });
		if (!response.body.meta.pagination.hasNextPage) return items;
		cursor = response.body.meta.pagination.nextCursor;
	}
}

/** The node: a new execution (new context, new credential store: its first request fetches the token). */
async function nodeDrain(job: DrainJob, company: string): Promise<INodeExecutionData[]> {
	freshTransport();
	return await executeNode(apiKeyStore(job.url, job.orgKey), STYLES.cursor.parameters(company));
}

const DRAINS: Record<DrainMode, (job: DrainJob, company: string) => Promise<unknown[]>> = {
	node: nodeDrain,
	bare: bareDrain,
	helper: helperDrain,
};

const inUse = () => {
	const m = process.memoryUsage();
	return m.heapUsed + m.external;
};

function fullGc(): void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('drain-client needs node --expose-gc');
	gc();
	gc();
}

/** One measured drain of the job's company (memory sampled when asked). */
async function measure(job: DrainJob, mode: DrainMode, memory: boolean): Promise<DrainResult> {
	fullGc();
	const baseline = inUse();
	let peak = baseline;
	const timer = memory ? setInterval(() => (peak = Math.max(peak, inUse())), 2) : undefined;
	const started = performance.now();
	const cpu = process.cpuUsage();
	let held: unknown[] | undefined = await DRAINS[mode](job, job.company);
	const ms = performance.now() - started;
	const { user, system } = process.cpuUsage(cpu);
	clearInterval(timer);
	peak = Math.max(peak, inUse());
	if (memory) fullGc();
	const retained = inUse() - baseline;
	const items =
		mode === 'bare' ? (held as IDataObject[]) : (held as INodeExecutionData[]).map((i) => i.json);
	held = undefined;
	return {
		mode,
		process: job.mode === 'warm' ? 'warm' : 'fresh',
		ms,
		cpuMs: (user + system) / 1000,
		items: items.length,
		firstId: String(items[0]?.id),
		lastId: String(items[items.length - 1]?.id),
		jsonBytes: Buffer.byteLength(JSON.stringify(items)),
		...(memory ? { peakGrowthBytes: peak - baseline, retainedGrowthBytes: retained } : {}),
	};
}

async function main(): Promise<void> {
	const job = JSON.parse(process.argv[2] ?? '{}') as DrainJob;
	const results: DrainResult[] = [];
	if (job.mode !== 'warm') {
		// A fresh process: a short warm-up, then one measured drain.
		await DRAINS[job.mode](job, job.warmCompany);
		results.push(await measure(job, job.mode, job.memory));
	} else {
		// One long-lived process: every client drains the whole company once, then the rounds.
		for (const mode of ROUND_ORDERS[0]) await DRAINS[mode](job, job.company);
		for (let round = 0; round < job.rounds; round++)
			for (const mode of ROUND_ORDERS[round % ROUND_ORDERS.length])
				results.push(await measure(job, mode, false));
	}
	process.send!(results, () => process.exit(0));
}

main().catch((error: unknown) => {
	process.stderr.write(`drain-client: ${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});
