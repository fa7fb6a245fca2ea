/**
 * Client process of figure 3 (drain): drains every invoice of one company from the simulator
 * (which runs in another process) through the Spendesk node (invoice → Get Many, Return All,
 * through the n8n execution-context double), through a bare `fetch` loop, or through n8n's
 * request helper alone (the double's, called in a loop as the node calls it, no node code),
 * and reports the wall time and, with `memory`, the peak memory growth of this process.
 *
 * Started by bench/figures/drain.ts with `node --expose-gc --import tsx`; the job comes as a
 * JSON argument, the result goes back over the IPC channel.
 */
// Before any module of the node: the transport's settings and flow control as the benchmark sets them.
import '../test/support/seam';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { transportSettings } from '../nodes/Spendesk/transport/settings';
import { createContext } from '../test/support/n8n-context';
import type { ApiKeyCredential } from '../test/simulator';
import { ROUND_ORDERS, apiKeyStore, executeNode, freshTransport, invoiceGetAll } from './support';
import type { DrainMode } from './support';

export interface DrainJob {
	url: string;
	orgKey: ApiKeyCredential;
	/** One measured drain in this fresh process, or `warm`: the rounds of all three in one long-lived process. */
	mode: DrainMode | 'warm';
	company: string;
	/** A small company drained first, so both clients run with warm code and an open connection. */
	warmCompany: string;
	/** Sample memory during the run (a separate run: sampling costs a little time). */
	memory: boolean;
	/** Warm process: the alternating rounds of both clients. */
	rounds: number;
	/** The A/A check of the method: the bare loop runs in the node's place too. */
	aa?: boolean;
}

export interface DrainResult {
	mode: DrainMode;
	/** fresh: the only measured drain of a new process; warm: a process that has drained the data before. */
	process: 'fresh' | 'warm';
	ms: number;
	/** CPU time of this process during the run (user + system). */
	cpuMs: number;
	items: number;
	firstId: string;
	lastId: string;
	/** Size of the drained data as JSON (UTF-8 bytes). */
	jsonBytes: number;
	/** heapUsed + external after a full GC, before the run. */
	baselineBytes: number;
	/** Largest heapUsed + external seen during the run, minus the baseline. */
	peakGrowthBytes?: number;
	/** heapUsed + external after a full GC at the end, while the result is still held, minus the baseline. */
	retainedGrowthBytes?: number;
	samples?: number;
}

type Invoice = IDataObject;
/** A page of the invoices list, as the loops without the node read it. */
interface InvoicePage {
	data: Invoice[];
	meta: { pagination: { hasNextPage: boolean; nextCursor: string | null } };
}

/** The baseline client: a token, then GET pages with the cursor until hasNextPage is false. */
async function bareDrain(job: DrainJob, company: string): Promise<Invoice[]> {
	const basic = Buffer.from(`${job.orgKey.clientId}:${job.orgKey.clientSecret}`).toString('base64');
	const tokenResponse = await fetch(`${job.url}/v1/auth/token`, {
		method: 'POST',
		headers: {
			authorization: `Basic ${basic}`,
			'content-type': 'application/json',
			accept: 'application/json',
		},
		body: JSON.stringify({ grant_type: 'client_credentials' }),
	});
	const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
	const items: Invoice[] = [];
	let cursor: string | null = null;
	for (;;) {
		const url = new URL(`/v2/companies/${company}/invoices`, job.url);
		url.searchParams.set('sortBy', 'updatedAt');
		url.searchParams.set('sort', 'desc');
		url.searchParams.set('limit', '100');
		if (cursor) url.searchParams.set('cursor', cursor);
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
 * n8n's request helper alone: the requests the node makes for this list (the same options,
 * the execution's cancel signal), through the same execution-context double, each record
 * made an output item as n8n keeps it, but none of the node's own work. What is left between
 * it and the bare loop is n8n's per-request work as the double reproduces it.
 */
async function helperDrain(job: DrainJob, company: string): Promise<INodeExecutionData[]> {
	const { context } = createContext({
		store: apiKeyStore(job.url, job.orgKey),
		parameters: { authentication: 'apiKey' },
	});
	const ctx = context as unknown as IExecuteFunctions;
	const items: INodeExecutionData[] = [];
	const pairedItem = { item: 0 };
	let cursor: string | null = null;
	for (;;) {
		const qs: Record<string, string | number> = { sortBy: 'updatedAt', sort: 'desc', limit: 100 };
		if (cursor) qs.cursor = cursor;
		const options: IHttpRequestOptions = {
			method: 'GET',
			url: `${job.url}/v2/companies/${company}/invoices`,
			headers: { accept: 'application/json' },
			json: true,
			returnFullResponse: true,
			timeout: transportSettings.timeoutMs,
			qs,
			arrayFormat: 'repeat',
			ignoreHttpStatusErrors: true,
			abortSignal: ctx.getExecutionCancelSignal(),
			disableFollowRedirect: true,
		};
		const response = (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			'spendeskApi',
			options,
		)) as { statusCode: number; body: InvoicePage };
		if (response.statusCode !== 200) throw new Error(`helper loop: HTTP ${response.statusCode}`);
		const body = response.body;
		for (const json of body.data) items.push({ json, pairedItem });
		if (!body.meta.pagination.hasNextPage) return items;
		cursor = body.meta.pagination.nextCursor;
	}
}

/**
 * The node: a new execution (new context, new credential store: its first request fetches
 * the token). Its output items ({json, pairedItem}) are what n8n keeps, so they are what is held.
 */
async function nodeDrain(job: DrainJob, company: string): Promise<INodeExecutionData[]> {
	freshTransport();
	return await executeNode(apiKeyStore(job.url, job.orgKey), invoiceGetAll(company));
}

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

async function main(): Promise<void> {
	const job = JSON.parse(process.argv[2] ?? '{}') as DrainJob;
	if (job.mode !== 'warm') {
		// A fresh process: a short warm-up, then one measured drain.
		await DRAINS[job.mode](job, job.warmCompany);
		const result = await measure(job, job.mode, job.memory);
		process.send!([result], () => process.exit(0));
		return;
	}
	// One long-lived process: every client drains the whole company once, then the rounds.
	for (const mode of ROUND_ORDERS[0]) await DRAINS[mode](job, job.company);
	const results: DrainResult[] = [];
	for (let round = 0; round < job.rounds; round++) {
		for (const mode of ROUND_ORDERS[round % ROUND_ORDERS.length])
			results.push(await measure(job, mode, false));
	}
	process.send!(results, () => process.exit(0));
}

const DRAINS: Record<DrainMode, (job: DrainJob, company: string) => Promise<unknown[]>> = {
	node: (job, company) => (job.aa ? bareDrain(job, company) : nodeDrain(job, company)),
	bare: bareDrain,
	helper: helperDrain,
};

/** One measured drain of the job's company (memory sampled when asked). */
async function measure(job: DrainJob, mode: DrainMode, memory: boolean): Promise<DrainResult> {
	const drain = DRAINS[mode];
	const invoices = (held: unknown[]): Invoice[] =>
		mode === 'helper' || (mode === 'node' && !job.aa)
			? (held as INodeExecutionData[]).map((i) => i.json)
			: (held as Invoice[]);
	fullGc();
	const baselineBytes = inUse();
	let peak = baselineBytes;
	let samples = 0;
	const sample = () => {
		samples++;
		peak = Math.max(peak, inUse());
	};
	const timer = memory ? setInterval(sample, 2) : undefined;
	const started = performance.now();
	const cpu = process.cpuUsage();
	let held: unknown[] | undefined = await drain(job, job.company);
	const ms = performance.now() - started;
	const { user, system } = process.cpuUsage(cpu);
	if (timer) {
		clearInterval(timer);
		sample();
	}
	let retained: number | undefined;
	if (memory) {
		fullGc();
		retained = inUse() - baselineBytes;
	}
	const items = invoices(held);
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
		baselineBytes,
		...(memory
			? { peakGrowthBytes: peak - baselineBytes, retainedGrowthBytes: retained, samples }
			: {}),
	};
}

main().catch((error: unknown) => {
	process.stderr.write(
		`drain-client: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
