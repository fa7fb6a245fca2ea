/**
 * Fault matrix of the lists and the transport: servers that misbehave (lists that never end,
 * rate-limit waits nobody can honour, responses that never finish, bodies that are not JSON)
 * and parameters that are not what they claim. Each case must end with a clear error or the
 * right items, never with a loop, a credential blocked until restart, or a slot held forever.
 *
 * Over real HTTP to the simulator; the behaviours no real server has (a token endpoint that
 * never answers, bytes trickling one by one) come from a small loopback server in this file.
 * No test asserts timing: request counts come from the server logs.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { collect } from '../../nodes/Spendesk/transport/paginate';
import { callSpendesk } from '../../nodes/Spendesk/transport/request';
import type { SpendeskContext } from '../../nodes/Spendesk/transport/request';
import type { SpendeskSimulator } from '../simulator';
import {
	apiKeyStore,
	contextFor,
	ctxFor,
	failure,
	resetTransport,
	startSimulator,
	simulatorPerSuite,
} from '../support/fixtures';
import { drainBounded } from '../support/lists';
import { createContext } from '../support/n8n-context';
import { apiRequests } from '../support/node';
import { oneCompany } from '../support/values';

/** Runs the Spendesk node with these parameters; returns its items or the error it stopped with. */
async function runNodeSettled(
	sim: SpendeskSimulator,
	parameters: IDataObject,
	extra: { continueOnFail?: boolean } = {},
) {
	const { context } = await contextFor(sim, 'orgKey', { parameters, ...extra });
	try {
		const [out] = await new Spendesk().execute.call(context as unknown as IExecuteFunctions);
		return { out, error: undefined };
	} catch (error) {
		return { out: [] as INodeExecutionData[], error: error as Error & { description?: string } };
	}
}

// ------------------------------------------------------------------------ lists that never end

describe('transport faults: lists that never end', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			seed: {
				companies: 3,
				deactivated: [],
				sizes: { invoices: 90, accounts: 250, settlements: 75, payables: 60 },
			},
		},
		(started) => (sim = started),
	);
	beforeEach(() => sim.clearLog());

	test('ever-new cursors over the same items stop with a clear error', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'ignorePosition', after: 1, times: 100_000 });
		const { error, pages } = await drainBounded(await ctxFor(sim, 'orgKey'), 'listInvoices', {
			company: 'cmp_001',
			pageSize: 20,
		});
		expect(pages).toBeLessThan(40);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe(
			'Spendesk sent the same items again for a call of the node "Spendesk": the list is not moving forward',
		);
		expect(sim.requestsTo('listInvoices')).toHaveLength(2);
	});

	test('empty cursor pages forever stop after a bounded number of pages', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'emptyPage', after: 1, times: 100_000 });
		const { error, pages } = await drainBounded(await ctxFor(sim, 'orgKey'), 'listInvoices', {
			company: 'cmp_001',
			pageSize: 20,
		});
		expect(pages).toBeLessThan(40);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe(
			'Spendesk sent 10 empty pages in a row for a call of the node "Spendesk" while saying more would follow',
		);
		// The first page, then the bound of empty pages.
		expect(sim.requestsTo('listInvoices')).toHaveLength(11);
	});

	test('an offset list that does not advance stops instead of repeating items', async () => {
		sim.injectFault({ route: 'getAccounts', kind: 'ignorePosition', after: 1, times: 100_000 });
		const error = await failure(
			collect(await ctxFor(sim, 'orgKey'), 'getAccounts', { company: 'cmp_001' }),
		);
		expect(error.message).toBe(
			'Spendesk sent the same items again for a call of the node "Spendesk": the list is not moving forward',
		);
		// Page 1, then the pages totalResults says are left, read ahead (at most the in-flight cap):
		// the first of them ends the list.
		const offsets = sim
			.requestsTo('getAccounts')
			.map((r) => Number(r.query.offset))
			.sort((a, b) => a - b);
		expect(offsets.slice(0, 2)).toEqual([0, 100]);
		expect(offsets.length).toBeLessThanOrEqual(1 + 5);
		expect(offsets.slice(1).every((o) => o % 100 === 0 && o > 0)).toBe(true);
	});

	test('a body-cursor list handing out new cursors over the same items stops', async () => {
		sim.injectFault({ route: 'searchPayables', kind: 'ignorePosition', after: 1, times: 100_000 });
		const { error } = await drainBounded(await ctxFor(sim, 'orgKey'), 'searchPayables', {
			company: 'cmp_001',
			pageSize: 20,
		});
		expect((error as Error).message).toBe(
			'Spendesk sent the same items again for a call of the node "Spendesk": the list is not moving forward',
		);
		expect(sim.requestsTo('searchPayables')).toHaveLength(2);
	});

	test('a Custom API Call with Page style on a cursor endpoint (pages never empty) stops', async () => {
		const { error } = await runNodeSettled(sim, {
			resource: 'customApiCall',
			operation: 'request',
			...oneCompany('cmp_001'),
			method: 'GET',
			path: '/v2/companies/{companyId}/invoices',
			companyPlacement: 'path',
			pagination: 'page',
			returnAll: true,
		});
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toMatch(
			'Spendesk sent the same items again for Custom API Call (GET /v2/companies/{companyId}/invoices): the list is not moving forward',
		);
		expect(error!.description).toMatch(/Pagination/);
		expect(sim.requestsTo('listInvoices')).toHaveLength(2);
	});

	test('a Custom API Call with Offset style on a list that ignores the offset stops', async () => {
		const { error } = await runNodeSettled(sim, {
			resource: 'customApiCall',
			operation: 'request',
			...oneCompany('cmp_001'),
			method: 'GET',
			path: '/v2/expense-categories',
			companyPlacement: 'header',
			pagination: 'offset',
			returnAll: true,
		});
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toMatch(
			'Spendesk sent the same items again for Custom API Call (GET /v2/expense-categories): the list is not moving forward',
		);
		expect(sim.requestsTo('listExpenseCategories')).toHaveLength(2);
	});

	test('a Custom API Call on a page list serving fewer items than asked gives every item', async () => {
		sim.injectFault({ route: 'listSettlements', kind: 'cappedPages', pageCap: 20, times: 100 });
		const { out, error } = await runNodeSettled(sim, {
			resource: 'customApiCall',
			operation: 'request',
			...oneCompany('cmp_001'),
			method: 'GET',
			path: '/v1/settlements',
			companyPlacement: 'header',
			pagination: 'page',
			returnAll: true,
		});
		expect(error).toBeUndefined();
		expect(out.map((i) => i.json.id)).toEqual(sim.data('cmp_001').settlements.map((s) => s.id));
	});

	test('a page list whose total is wrong but whose pages are full keeps going', async () => {
		const ctx = await ctxFor(sim, 'orgKey');
		sim.injectFault({ route: 'listSettlements', kind: 'understatedTotal', total: 45, times: 100 });
		const items = await collect(ctx, 'listSettlements', { company: 'cmp_001' });
		expect(items.map((s) => s.id)).toEqual(sim.data('cmp_001').settlements.map((s) => s.id));
		expect(sim.requestsTo('listSettlements').map((r) => r.query.page)).toEqual(['1', '2', '3']);

		sim.clearLog();
		sim.injectFault({ route: 'listSettlements', kind: 'understatedTotal', total: 10, times: 100 });
		const again = await collect(ctx, 'listSettlements', { company: 'cmp_002' });
		expect(again.map((s) => s.id)).toEqual(sim.data('cmp_002').settlements.map((s) => s.id));
		expect(sim.requestsTo('listSettlements')).toHaveLength(3);
	});
});

// ------------------------------------------------------------- waits that poison the limiter

describe('transport faults: waits that poison the limiter', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({}, (started) => (sim = started));
	beforeEach(() => sim.clearLog());

	test.each([
		{
			retryAfterSeconds: 100_000_000,
			says: `Spendesk asked to wait until ${new Date(Date.now() + 100_000_000_000).toISOString().slice(0, 10)}`,
		},
		// Past the last date a Date can hold: said in words, not "Invalid time value".
		{
			retryAfterSeconds: 1e300,
			says: 'Spendesk asked to wait longer than any date can show before the next request of a call of the node "Spendesk"',
		},
	])(
		'a 429 with Retry-After $retryAfterSeconds fails saying when to retry, and the next call is sent',
		async ({ retryAfterSeconds, says }) => {
			const ctx = await ctxFor(sim, 'orgKey');
			sim.injectFault({ route: 'walletSummary', kind: 'rateLimit', retryAfterSeconds });
			const error = (await failure(
				callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }),
			)) as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(
				'Spendesk rate limit reached for company "cmp_001" and did not reset in time',
			);
			expect(error.description).toContain(says);
			expect(error.description).not.toMatch(/Infinity|NaN|Invalid/);

			// The wait was not believed for later calls: the next call goes out and succeeds.
			const next = await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' });
			expect(next.status).toBe(200);
			expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([429, 200]);
		},
	);

	test('a 200 with remaining 0 and a reset years ahead does not block the next call', async () => {
		const ctx = await ctxFor(sim, 'orgKey');
		sim.injectFault({
			route: 'walletSummary',
			kind: 'spentBudget',
			retryAfterSeconds: 3 * 365 * 24 * 3600,
		});
		expect((await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' })).status).toBe(200);
		expect((await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' })).status).toBe(200);
		expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([200, 200]);
	});
});

// ------------------------------------------------------------------ slots held forever

interface Loopback {
	url: string;
	/** Requests received, as "METHOD path". */
	seen: string[];
	close: () => Promise<void>;
}

/** A loopback server answering with `handle`; close() drops every open connection. */
async function loopback(
	handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<Loopback> {
	const seen: string[] = [];
	const server = http.createServer((req, res) => {
		seen.push(`${req.method} ${req.url}`);
		req.resume();
		req.on('end', () => handle(req, res));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		seen,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

const TOKEN_BODY = JSON.stringify({
	access_token: 'loopback-token',
	token_type: 'Bearer',
	expires_in: 3600,
});
const WALLET_BODY = JSON.stringify({ data: { companyId: 'cmp_001', currency: 'EUR', balance: 1 } });
const LOOPBACK_KEY = {
	clientId: 'loop-client',
	clientSecret: 'loop-secret',
	level: 'organisation' as const,
	scopes: [],
};

describe('transport faults: slots held forever', () => {
	const servers: Loopback[] = [];
	const timers: NodeJS.Timeout[] = [];
	beforeEach(() => resetTransport({ maxRetries: 0 }));
	afterEach(async () => {
		for (const timer of timers.splice(0)) clearInterval(timer);
		for (const server of servers.splice(0)) await server.close();
	});

	const contextOn = (url: string) => createLoopbackContext(url);

	test('a token endpoint that never answers fails with a clear error and frees the credential', async () => {
		resetTransport({ maxRetries: 0, tokenTimeoutMs: 300 });
		let answerToken = false;
		const server = await loopback((req, res) => {
			if (req.url === '/v1/auth/token' && !answerToken) return; // never answers
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(req.url === '/v1/auth/token' ? TOKEN_BODY : WALLET_BODY);
		});
		servers.push(server);
		const ctx = contextOn(server.url);
		const error = (await failure(
			callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }),
		)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			`Could not reach Spendesk at ${server.url} for a call of the node "Spendesk" (timed out)`,
		);

		// Nothing is left holding the credential: once the token endpoint answers, calls go through.
		answerToken = true;
		const results = await Promise.all(
			[1, 2, 3, 4, 5, 6].map(
				async () => await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }),
			),
		);
		expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
	});

	test('five responses trickling one byte every 200 ms lose their slots at the attempt deadline', async () => {
		resetTransport({ maxRetries: 0, timeoutMs: 1000 });
		const dropped: string[] = [];
		let allDropped = () => {};
		const fiveDropped = new Promise<void>((resolve) => (allDropped = resolve));
		const server = await loopback((req, res) => {
			if (req.url === '/v1/auth/token') {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(TOKEN_BODY);
				return;
			}
			if (req.headers['x-company-id'] !== 'cmp_slow') {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(WALLET_BODY);
				return;
			}
			// Headers at once, then one byte every 200 ms, forever: never idle, never done.
			res.writeHead(200, { 'content-type': 'application/json' });
			res.write('{"data":"');
			const timer = setInterval(() => res.write('x'), 200);
			timers.push(timer);
			res.on('close', () => {
				clearInterval(timer);
				dropped.push(req.url ?? '');
				if (dropped.length === 5) allDropped();
			});
		});
		servers.push(server);
		const ctx = contextOn(server.url);
		await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }); // token and a warm credential

		const slow = [1, 2, 3, 4, 5].map(
			async () => await failure(callSpendesk(ctx, 'walletSummary', { company: 'cmp_slow' })),
		);
		// Every slot of the credential is taken by a trickling response; this call still gets one.
		const quick = await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' });
		expect(quick.status).toBe(200);
		for (const error of await Promise.all(slow)) {
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(
				`Could not reach Spendesk at ${server.url} for a call of the node "Spendesk" (timed out)`,
			);
		}
		// The requests were aborted, not just abandoned: the client closed all five connections.
		await fiveDropped;
		expect(dropped).toHaveLength(5);
		// And every slot came back.
		const after = await Promise.all(
			[1, 2, 3, 4, 5].map(
				async () => await callSpendesk(ctx, 'walletSummary', { company: 'cmp_002' }),
			),
		);
		expect(after.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
	});

	test('cancelling the execution aborts a request still waiting for its answer and frees its slot', async () => {
		resetTransport({ maxRetries: 0, timeoutMs: 60_000 });
		let arrived = () => {};
		const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
		let closed = () => {};
		const slowClosed = new Promise<void>((resolve) => (closed = resolve));
		const server = await loopback((req, res) => {
			if (req.headers['x-company-id'] === 'cmp_slow') {
				res.on('close', () => closed()); // never answered: only the client can end it
				arrived();
				return;
			}
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(req.url === '/v1/auth/token' ? TOKEN_BODY : WALLET_BODY);
		});
		servers.push(server);
		const cancel = new AbortController();
		const store = apiKeyStore(server.url, LOOPBACK_KEY);
		const ctx = createContext({
			store,
			parameters: { authentication: 'apiKey' },
			cancelSignal: cancel.signal,
		}).context as unknown as SpendeskContext;
		await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }); // token and a warm credential

		const slow = failure(callSpendesk(ctx, 'walletSummary', { company: 'cmp_slow' }));
		// The request is on the wire (the server holds it) before the execution is cancelled.
		await slowArrived;
		cancel.abort();
		const error = (await slow) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			'The execution was cancelled while a call of the node "Spendesk" waited for Spendesk',
		);
		// Not retried: the server saw the slow call once.
		expect(server.seen.filter((r) => r.startsWith('GET')).length).toBe(2);
		// The connection was dropped, not left open until the 60 s deadline.
		await slowClosed;
		// Another execution on the same credential still gets its slots.
		const other = createLoopbackContext(server.url);
		expect((await callSpendesk(other, 'walletSummary', { company: 'cmp_002' })).status).toBe(200);
	});

	test("one execution's 200 queued calls do not put another execution's single call last", async () => {
		const sim = await startSimulator({ latencyMs: 2 });
		try {
			const store = apiKeyStore(sim.baseUrl, sim.credentials.orgKey);
			const busy = (await contextFor(sim, 'orgKey', { store, executionId: 'busy' }))
				.context as unknown as SpendeskContext;
			const other = (await contextFor(sim, 'orgKey', { store, executionId: 'other' }))
				.context as unknown as SpendeskContext;
			// Both executions have read the credential and hold a token.
			await callSpendesk(busy, 'walletSummary', { company: 'cmp_001' });
			await callSpendesk(other, 'walletSummary', { company: 'cmp_001' });
			sim.clearLog();

			const many = Promise.all(
				Array.from(
					{ length: 200 },
					async () => await callSpendesk(busy, 'walletSummary', { company: 'cmp_001' }),
				),
			);
			const single = callSpendesk(other, 'walletSummary', { company: 'cmp_002' });
			await Promise.all([many, single]);

			const order = apiRequests(sim).map((r) => r.companyId);
			expect(order).toHaveLength(201);
			// The single call is served as soon as a slot frees after it queued: within the first
			// rounds of 5, not after the other execution's 200.
			expect(order.indexOf('cmp_002')).toBeLessThan(15);
		} finally {
			await sim.stop();
		}
	});
});

/** An execution context whose API-key credential points at a loopback server. */
function createLoopbackContext(url: string): SpendeskContext {
	const store = apiKeyStore(url, LOOPBACK_KEY);
	return createContext({ store, parameters: { authentication: 'apiKey' } })
		.context as unknown as SpendeskContext;
}

// ------------------------------------------------------------------------- snapshot wait

describe('transport faults: snapshot wait', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			seed: { companies: 2, deactivated: [], sizes: { payables: 10 } },
		},
		(started) => (sim = started),
	);
	beforeEach(() => {
		sim.clearLog();
		sim.configure({ snapshotPendingPolls: 2 });
		sim.clock.advance(13 * 3600 * 1000);
	});

	test('Max Wait "abc" fails naming the field, before any request', async () => {
		const { error } = await runNodeSettled(sim, {
			resource: 'payable',
			operation: 'getAllSnapshot',
			...oneCompany('cmp_001'),
			filterMode: 'fields',
			filters: {},
			options: { maxWait: 'abc' },
			returnAll: true,
		});
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe(
			`'Max Wait (Seconds)' must be a number of seconds from 1 to 3600; got "abc"`,
		);
		expect(apiRequests(sim)).toEqual([]);
	});

	test('status polls are spaced even with a zero or broken pause, and the wait is bounded', async () => {
		sim.configure({ snapshotPendingPolls: 1_000_000 });
		const ctx = await ctxFor(sim, 'orgKey');
		for (const snapshotPollMs of [0, Number.NaN]) {
			sim.clearLog();
			const error = await failure(
				collect(ctx, 'getPayablesSnapshot', {
					company: 'cmp_001',
					snapshotMaxWaitMs: 1000,
					snapshotPollMs,
				}),
			);
			expect(error.message).toMatch(/^The payables snapshot was not ready after \d+ s$/);
			// Polls at least 200 ms apart within a 1 s wait: the first and at most five more.
			expect(sim.requestsTo('getPayablesSnapshot').length).toBeLessThanOrEqual(7);
		}
	});
});

// ----------------------------------------------------------------- bodies that are not JSON

describe('transport faults: a 200 whose body is not JSON', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({ seed: { companies: 3, deactivated: [] } }, (started) => (sim = started));
	beforeEach(() => sim.clearLog());

	test('an HTML page from a proxy fails naming the endpoint and the content type', async () => {
		sim.injectFault({ route: 'walletSummary', kind: 'htmlBody' });
		const { error } = await runNodeSettled(sim, {
			resource: 'walletSummary',
			operation: 'get',
			...oneCompany('cmp_001'),
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error!.message).toBe(
			'Spendesk answered Wallet Summary → Get for company "cmp_001" with text/html instead of JSON (200)',
		);
		expect(error!.description).toMatch(/proxy/);
	});

	test('with All Companies the HTML page is one error item, never characters spread into fields', async () => {
		sim.injectFault({ route: 'walletSummary', kind: 'htmlBody' });
		const { out, error } = await runNodeSettled(
			sim,
			{ resource: 'walletSummary', operation: 'get', companies: 'all' },
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(out).toHaveLength(3);
		const failed = out.filter((item) => item.json.error !== undefined);
		expect(failed).toHaveLength(1);
		expect(String(failed[0].json.error)).toMatch(/with text\/html instead of JSON \(200\)/);
		for (const item of out) expect(item.json).not.toHaveProperty('0');
	});

	test('a Custom API Call other than GET answered 204 gives one empty item, a GET fails', async () => {
		const call = (method: string) => ({
			resource: 'customApiCall',
			operation: 'request',
			...oneCompany('cmp_001'),
			method,
			path: method === 'GET' ? '/v1/wallet-summary' : '/v2/companies/{companyId}/intakes',
			companyPlacement: method === 'GET' ? 'header' : 'path',
			pagination: 'none',
			body: '{"supplierName":"ACME"}',
		});
		sim.injectFault({ route: 'createIntake', kind: 'noContent' });
		const posted = await runNodeSettled(sim, call('POST'));
		expect(posted.error).toBeUndefined();
		expect(posted.out.map((item) => item.json)).toEqual([{}]);

		sim.injectFault({ route: 'walletSummary', kind: 'noContent' });
		const got = await runNodeSettled(sim, call('GET'));
		expect(got.error!.message).toBe(
			'Spendesk answered Custom API Call (GET /v1/wallet-summary) for company "cmp_001" with no content instead of JSON (204)',
		);
	});

	test('a 204 with no body on a list fails naming the endpoint', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'noContent' });
		const error = await failure(
			collect(await ctxFor(sim, 'orgKey'), 'listInvoices', { company: 'cmp_001' }),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'Spendesk answered a call of the node "Spendesk" for company "cmp_001" with no content instead of JSON (204)',
		);
	});
});
