/**
 * Transport core, retries: 429 bursts, 5xx and connection resets in the middle of a drain
 * (exact items, no duplicate, bounded retries), non-idempotent calls never repeated, and
 * servers that never recover. Attempt counts come from the simulator's log; no test
 * asserts timing.
 */
import { collect } from '../../nodes/Spendesk/transport/paginate';
import { callSpendesk } from '../../nodes/Spendesk/transport/request';
import { transportSettings } from '../../nodes/Spendesk/transport/settings';
import type { SpendeskContext } from '../../nodes/Spendesk/transport/request';
import type { SpendeskSimulator } from '../simulator';
import { apiFailure, contextFor, resetTransport, simulatorPerSuite } from '../support/fixtures';

const INVOICES = { company: 'cmp_002', pageSize: 20, qs: { sortBy: 'updatedAt', sort: 'desc' } };

describe('transport: retries', () => {
	let sim: SpendeskSimulator;
	let ctx: SpendeskContext;
	let expected: string[];
	simulatorPerSuite({}, (started) => {
		sim = started;
		expected = sim.invoicesSorted('cmp_002', 'updatedAt', 'desc').map((i) => i.id);
	});
	beforeEach(async () => {
		ctx = (await contextFor(sim, 'orgKey')).context as unknown as SpendeskContext;
		// Warm up the token so the log holds only the calls under test.
		await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' });
		sim.clearLog();
	});
	afterEach(() => sim.clearFaults());

	const drain = async () => await collect(ctx, 'listInvoices', INVOICES);
	const statuses = () => sim.requestsTo('listInvoices').map((r) => r.status);

	test('a burst of 429s mid-drain is waited out: exact items, no duplicate, both 429s retried', async () => {
		sim.injectFault({
			route: 'listInvoices',
			kind: 'rateLimit',
			retryAfterSeconds: 1,
			times: 2,
			after: 1,
		});
		const items = await drain();
		const ids = items.map((i) => i.id);
		expect(ids).toEqual(expected);
		expect(new Set(ids).size).toBe(50);
		expect(statuses()).toEqual([200, 429, 429, 200, 200]);
		expect(sim.requestsTo('listInvoices').filter((r) => r.fault === 'rateLimit')).toHaveLength(2);
		// The retried page asks for the same cursor as the refused one.
		const log = sim.requestsTo('listInvoices');
		expect(log[3].query.cursor).toBe(log[1].query.cursor);
		expect(log[2].query.cursor).toBe(log[1].query.cursor);
	});

	test('503s mid-drain on GET are retried: exact items, bounded retries', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'status', status: 503, times: 2, after: 1 });
		const items = await drain();
		expect(items.map((i) => i.id)).toEqual(expected);
		expect(statuses()).toEqual([200, 503, 503, 200, 200]);
	});

	test('connection resets mid-drain on GET are retried: exact items, bounded retries', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'reset', times: 2, after: 1 });
		const items = await drain();
		expect(items.map((i) => i.id)).toEqual(expected);
		const log = sim.requestsTo('listInvoices');
		expect(log.map((r) => r.fault ?? 'none')).toEqual(['none', 'reset', 'reset', 'none', 'none']);
		expect(log.filter((r) => r.status === 200)).toHaveLength(3);
	});

	test('a POST that is not idempotent (createIntake) is NOT retried after a 503', async () => {
		sim.injectFault({ route: 'createIntake', kind: 'status', status: 503, times: 2 });
		const before = sim.data('cmp_001').intakes.length;
		const error = await apiFailure(
			callSpendesk(ctx, 'createIntake', { company: 'cmp_001', body: { description: 'Taxi' } }),
		);
		expect(error.message).toBe(
			'Spendesk could not complete a call of the node "Spendesk" for company "cmp_001" (503)',
		);
		expect(error.description).toContain('not safe to repeat');
		expect(error.httpCode).toBe('503');
		expect(sim.requestsTo('createIntake').map((r) => r.status)).toEqual([503]);
		expect(sim.data('cmp_001').intakes).toHaveLength(before);
	});

	test('a POST that is not idempotent (createIntake) is NOT retried after a connection reset', async () => {
		sim.injectFault({ route: 'createIntake', kind: 'reset', times: 2 });
		const error = await apiFailure(
			callSpendesk(ctx, 'createIntake', { company: 'cmp_001', body: { description: 'Taxi' } }),
		);
		expect(sim.requestsTo('createIntake')).toHaveLength(1);
		expect(error.description).toBe(
			"This call is not safe to repeat, so it was not retried. It may have reached Spendesk and been applied: check in Spendesk before running it again. Check 'Environment' (or 'Base URL') in the credential and the network of your n8n instance, then run the node again. (ECONNRESET)",
		);
		expect(error.message).toBe(
			`Could not reach Spendesk at ${sim.baseUrl} for a call of the node "Spendesk" (connection reset)`,
		);
	});

	test('an idempotent POST (searchPayables) is retried after a 503', async () => {
		sim.injectFault({ route: 'searchPayables', kind: 'status', status: 503, times: 1 });
		const items = await collect(ctx, 'searchPayables', { company: 'cmp_001' });
		expect(items.map((p) => p.id)).toEqual(
			sim
				.data('cmp_001')
				.payables.slice()
				.sort((a, b) =>
					a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
				)
				.map((p) => p.id),
		);
		expect(sim.requestsTo('searchPayables').map((r) => r.status)).toEqual([503, 200]);
	});

	test('a server that never recovers gives a clear error after exactly maxRetries+1 attempts', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'status', status: 503, times: 100 });
		const error = await apiFailure(drain());
		expect(error.message).toBe(
			'Spendesk could not complete a call of the node "Spendesk" for company "cmp_002" (503)',
		);
		expect(error.httpCode).toBe('503');
		expect(transportSettings.maxRetries).toBe(4);
		expect(statuses()).toEqual([503, 503, 503, 503, 503]);
	});

	test('maxRetries is honoured when changed', async () => {
		resetTransport({ maxRetries: 2 });
		sim.injectFault({ route: 'walletSummary', kind: 'status', status: 500, times: 100 });
		const error = await apiFailure(callSpendesk(ctx, 'walletSummary', { company: 'cmp_003' }));
		expect(error.message).toBe(
			'Spendesk could not complete a call of the node "Spendesk" for company "cmp_003" (500)',
		);
		expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([500, 500, 500]);
	});

	test('connections that never recover give "Could not reach Spendesk" after exactly maxRetries+1 attempts', async () => {
		sim.injectFault({ route: 'listInvoices', kind: 'reset', times: 100 });
		const error = await apiFailure(drain());
		expect(sim.requestsTo('listInvoices')).toHaveLength(5);
		expect(error.description).toBe(
			"The node tried 5 times. Check 'Environment' (or 'Base URL') in the credential and the network of your n8n instance, then run the node again. (ECONNRESET)",
		);
		expect(error.message).toBe(
			`Could not reach Spendesk at ${sim.baseUrl} for a call of the node "Spendesk" (connection reset)`,
		);
	});

	test('a never-ending 429 gives the rate-limit error within maxWaitMs (attempts counted, not time)', async () => {
		resetTransport({ maxWaitMs: 2500 });
		sim.injectFault({ route: 'listInvoices', kind: 'rateLimit', retryAfterSeconds: 1, times: 100 });
		const error = await apiFailure(drain());
		expect(error.message).toBe(
			'Spendesk rate limit reached for company "cmp_002" and did not reset in time',
		);
		expect(error.httpCode).toBe('429');
		// Attempts at ~0 s, ~1 s and ~2 s; the next one (~3 s) would pass the 2.5 s bound.
		expect(statuses()).toEqual([429, 429, 429]);
	});

	test('a fractional Retry-After ("0.001") is waited at least a second: no request storm', async () => {
		resetTransport({ maxWaitMs: 2500 });
		sim.injectFault({
			route: 'listInvoices',
			kind: 'rateLimit',
			retryAfterSeconds: 0.001,
			times: 1000,
		});
		const error = await apiFailure(drain());
		expect(error.httpCode).toBe('429');
		// Attempts at ~0 s, ~1 s and ~2 s, not hundreds within the 2.5 s bound.
		expect(statuses()).toEqual([429, 429, 429]);
	});
});
