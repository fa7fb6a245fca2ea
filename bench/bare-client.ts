/**
 * The floor of the n8n comparison (bench/figures/n8n.ts): bare `fetch` loops that read a list
 * the way the API is meant to be read, with nothing around them — a token, then every page
 * once, the records kept in an array. One loop per pagination style, and All Companies
 * (the company list, then the companies' invoices with `cap` of them read at once).
 *
 * Runs in a process of its own (started with `node --import tsx`, the job as a JSON argument,
 * the results back over IPC): it reads the warm-up company once, so that the code is warm and
 * the connection open as in a long-running n8n, then times `rounds` reads of the company.
 */
import http from 'node:http';
import type { ApiKeyCredential } from '../test/simulator';
import type { StyleKey } from './n8n-workflows';

export interface BareJob {
	url: string;
	orgKey: ApiKeyCredential;
	style: StyleKey | 'allCompanies';
	company: string;
	warmCompany: string;
	rounds: number;
	/** All Companies: companies read at once. */
	cap?: number;
	/**
	 * A new connection for every request (node:http with a new Agent each time, which is what
	 * n8n 2.8.4's request helpers do) instead of fetch's pooled, kept-alive connections.
	 */
	newConnections?: boolean;
}

export interface BareResult {
	ms: number;
	/** CPU time of this process during the read (user + system). */
	cpuMs: number;
	items: number;
	uniqueIds: number;
}

type Item = { id?: unknown } & Record<string, unknown>;

class Client {
	private token = '';

	constructor(private readonly job: BareJob) {}

	async authenticate(): Promise<void> {
		const basic = Buffer.from(
			`${this.job.orgKey.clientId}:${this.job.orgKey.clientSecret}`,
		).toString('base64');
		const response = await fetch(`${this.job.url}/v1/auth/token`, {
			method: 'POST',
			headers: {
				authorization: `Basic ${basic}`,
				'content-type': 'application/json',
				accept: 'application/json',
			},
			body: JSON.stringify({ grant_type: 'client_credentials' }),
		});
		this.token = ((await response.json()) as { access_token: string }).access_token;
	}

	async call<T>(
		path: string,
		options: { company?: string; query?: Record<string, string | number>; body?: unknown } = {},
	): Promise<T> {
		const url = new URL(path, this.job.url);
		for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
		const headers: Record<string, string> = {
			authorization: `Bearer ${this.token}`,
			accept: 'application/json',
		};
		if (options.company) headers['x-company-id'] = options.company;
		if (options.body !== undefined) headers['content-type'] = 'application/json';
		const method = options.body === undefined ? 'GET' : 'POST';
		const body = options.body === undefined ? undefined : JSON.stringify(options.body);
		if (this.job.newConnections)
			return await this.callOnNewConnection<T>(url, method, headers, body);
		const response = await fetch(url, { method, headers, body });
		if (response.status < 200 || response.status >= 300)
			throw new Error(`bare loop: ${path} answered HTTP ${response.status}`);
		return (await response.json()) as T;
	}

	private async callOnNewConnection<T>(
		url: URL,
		method: string,
		headers: Record<string, string>,
		body: string | undefined,
	): Promise<T> {
		return await new Promise<T>((resolve, reject) => {
			const request = http.request(
				url,
				{ method, headers, agent: new http.Agent() },
				(response) => {
					const chunks: Buffer[] = [];
					response.on('data', (chunk: Buffer) => chunks.push(chunk));
					response.on('end', () => {
						const status = response.statusCode ?? 0;
						if (status < 200 || status >= 300)
							reject(new Error(`bare loop: ${url.pathname} answered HTTP ${status}`));
						else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as T);
					});
					response.on('error', reject);
				},
			);
			request.on('error', reject);
			request.end(body);
		});
	}

	async cursor(company: string, out: Item[]): Promise<void> {
		let cursor: string | null = null;
		for (;;) {
			const query: Record<string, string | number> = {
				sortBy: 'updatedAt',
				sort: 'desc',
				limit: 100,
				...(cursor ? { cursor } : {}),
			};
			const body: {
				data: Item[];
				meta: { pagination: { hasNextPage: boolean; nextCursor: string | null } };
			} = await this.call(`/v2/companies/${company}/invoices`, { query });
			for (const item of body.data) out.push(item);
			if (!body.meta.pagination.hasNextPage) return;
			cursor = body.meta.pagination.nextCursor;
		}
	}

	/** Page lists (and a snapshot's result pages): until `total` says the last page was read. */
	async pages(
		path: string,
		company: string | undefined,
		out: Item[],
		inResult = false,
		firstPage?: Record<string, unknown>,
	): Promise<void> {
		for (let page = 1; ; page++) {
			const answer =
				page === 1 && firstPage
					? firstPage
					: await this.call<Record<string, unknown>>(path, {
							company,
							query: { page, pageSize: 30 },
						});
			const list = (inResult ? answer.result : answer) as {
				data: Item[];
				meta: { pagination: { total: number } };
			};
			for (const item of list.data) out.push(item);
			if (list.data.length === 0 || page * 30 >= list.meta.pagination.total) return;
		}
	}

	async offset(company: string, out: Item[]): Promise<void> {
		let offset = 0;
		for (;;) {
			const body = await this.call<{ data: Item[]; totalResults: number }>('/v1/accounts', {
				company,
				query: { offset, fetch: 100 },
			});
			for (const item of body.data) out.push(item);
			offset += body.data.length;
			if (body.data.length === 0 || offset >= body.totalResults) return;
		}
	}

	async bodyCursor(company: string, out: Item[]): Promise<void> {
		let cursor: string | null = null;
		for (;;) {
			// The search answers its list as `payables` (docs/api.md#body-cursor-lists).
			const body: { payables: Item[]; nextCursor: string | null } = await this.call(
				'/v1/payables/search',
				{ company, body: { limit: 100, ...(cursor ? { cursor } : {}) } },
			);
			for (const item of body.payables) out.push(item);
			if (!body.nextCursor) return;
			cursor = body.nextCursor;
		}
	}

	async snapshot(company: string, out: Item[]): Promise<void> {
		const { key } = await this.call<{ key: string }>('/v1/snapshots/payables', {
			company,
			body: {},
		});
		const path = `/v1/snapshots/payables/${key}`;
		for (;;) {
			// Page 1 until the snapshot is COMPLETE; the COMPLETE answer is the first page.
			const first = await this.call<{ status: string } & Record<string, unknown>>(path, {
				company,
				query: { page: 1, pageSize: 30 },
			});
			if (first.status === 'COMPLETE') return await this.pages(path, company, out, true, first);
			if (first.status === 'ERROR') throw new Error('bare loop: snapshot ERROR');
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}

	async allCompanies(cap: number, out: Item[]): Promise<void> {
		const companies: Item[] = [];
		await this.pages('/v2/companies', undefined, companies);
		const queue = companies.map((c) => String(c.id));
		const perCompany: Item[][] = [];
		await Promise.all(
			Array.from({ length: Math.min(cap, queue.length) }, async () => {
				for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
					const items: Item[] = [];
					perCompany.push(items);
					await this.cursor(id, items);
				}
			}),
		);
		for (const items of perCompany) for (const item of items) out.push(item);
	}

	async read(company: string): Promise<Item[]> {
		const out: Item[] = [];
		await this.authenticate();
		switch (this.job.style) {
			case 'cursor':
				await this.cursor(company, out);
				break;
			case 'page':
				await this.pages('/v1/settlements', company, out);
				break;
			case 'offset':
				await this.offset(company, out);
				break;
			case 'bodyCursor':
				await this.bodyCursor(company, out);
				break;
			case 'snapshot':
				await this.snapshot(company, out);
				break;
			case 'allCompanies':
				await this.allCompanies(this.job.cap ?? 5, out);
				break;
		}
		return out;
	}
}

async function main(): Promise<void> {
	const job = JSON.parse(process.argv[2] ?? '{}') as BareJob;
	const client = new Client(job);
	if (job.style !== 'allCompanies') await client.read(job.warmCompany);
	const results: BareResult[] = [];
	for (let round = 0; round < job.rounds; round++) {
		const started = performance.now();
		const cpu = process.cpuUsage();
		const items = await client.read(job.company);
		const ms = performance.now() - started;
		const used = process.cpuUsage(cpu);
		results.push({
			ms,
			cpuMs: (used.user + used.system) / 1000,
			items: items.length,
			uniqueIds: new Set(items.map((i) => i.id)).size,
		});
	}
	process.send!(results);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`bare-client: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
