/**
 * Every call of the package ends by its deadline, also when the answer never stops coming: the
 * simulator sends the headers at once and then one byte at a time (`trickleBody`), so n8n's
 * `timeout`, which only limits silence, never fires (docs/errors.md, rows 8 and 13). Token calls
 * (the API key's, the partner OAuth2 refresh and code exchange) end at the token time limit;
 * API calls of the operations added last (Payable → Update, Purchase Order, Supplier → Create)
 * at the attempt's, saying they may have been applied; a download and a receipt upload at the
 * transfer's, naming the file and the host. The limits are lowered here (tokens 600 ms, attempts
 * and transfers 800 ms); a trickled answer would take 10 s or more.
 */
import { callSpendesk } from '../../nodes/Spendesk/transport/request';
import type { SpendeskSimulator } from '../simulator';
import { ctxFor, failure, resetTransport, simulatorPerSuite } from '../support/fixtures';
import { runNode } from '../support/node';
import { locatorById, oneCompany, PDF_ITEM } from '../support/values';

const SCOPES = [
	'experimental:accounting:update',
	'experimental:payable-attachment:write',
	'experimental:purchase-order:write',
	'experimental:supplier:manage',
];
const TOKEN_MS = 600;
const ATTEMPT_MS = 800;
/** Well past the limits, well before a trickled answer would be done. */
const BOUND_MS = 3000;

describe('every call ends by its deadline, also an answer trickling byte by byte', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			seed: { companies: 2, sizes: { payables: 8, suppliers: 3 } },
			grantScopes: { 'sim-org-client': SCOPES, 'sim-oauth-client': SCOPES },
		},
		(started) => (sim = started),
	);
	beforeEach(() => {
		resetTransport({ tokenTimeoutMs: TOKEN_MS, timeoutMs: ATTEMPT_MS, maxRetries: 0 });
	});
	afterAll(() => resetTransport());

	/** The error a run ends with, and how long it took. */
	const timed = async (run: Promise<unknown>) => {
		const started = Date.now();
		const error = await failure(run);
		return { error: error as Error & { description?: string }, ms: Date.now() - started };
	};

	test("the API key's token answer trickles: the call fails as timed out at the token limit", async () => {
		const ctx = await ctxFor(sim, 'orgKey');
		sim.injectFault({ route: 'token', kind: 'trickleBody', intervalMs: 100 });
		const { error, ms } = await timed(callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }));
		expect(error.message).toBe(
			`Could not reach Spendesk at ${sim.baseUrl} for a call of the node "Spendesk" (timed out)`,
		);
		expect(ms).toBeLessThan(BOUND_MS);
	});

	test('the partner OAuth2 refresh trickles: timed out at the token limit, not a reconnect', async () => {
		const ctx = await ctxFor(sim, 'oauthOrg');
		sim.expireTokens();
		sim.injectFault({ route: 'oauthTokenRefresh', kind: 'trickleBody', intervalMs: 100 });
		const { error, ms } = await timed(callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' }));
		expect(error.message).toBe(
			`Could not reach Spendesk at ${sim.baseUrl} for a call of the node "Spendesk" (timed out)`,
		);
		expect(`${error.message} ${error.description}`).not.toMatch(/reconnect|approve/i);
		expect(sim.requestsTo('oauthTokenRefresh')).toHaveLength(1);
		expect(ms).toBeLessThan(BOUND_MS);
	});

	test.each([
		[
			'Payable → Update',
			'updatePayableAccounting',
			{
				resource: 'payable',
				operation: 'update',
				payableId: locatorById('pay_001_000001'),
				version: '',
				lineItemsMode: 'changeSome',
				lineChanges: { change: [{ applyTo: 'everyLine', taxAccountId: 'ta_9' }] },
			},
			'Payable → Update',
		],
		[
			'Purchase Order → Cancel',
			'cancelPurchaseOrder',
			{
				resource: 'purchaseOrder',
				operation: 'cancel',
				purchaseOrderId: locatorById('po_001_00001'),
			},
			'Purchase Order → Cancel',
		],
		[
			'Supplier → Create',
			'createSuppliers',
			{ resource: 'supplier', operation: 'create', name: 'Trickle Supplies' },
			'Supplier → Create',
		],
	] as const)(
		'%s answered byte by byte: timed out at the attempt limit, not retried, may have been applied',
		async (_title, route, params, label) => {
			sim.injectFault({ route, kind: 'trickleBody', intervalMs: 100 });
			const { error, ms } = await timed(
				runNode(sim, 'orgKey', { ...oneCompany('cmp_001'), ...params }),
			);
			expect(error.message).toContain(`for ${label} (timed out)`);
			expect(error.message).toMatch(/\(timed out\)|may have been applied/);
			expect(error.description).toMatch(/may have (reached Spendesk and )?been applied/i);
			expect(sim.requestsTo(route)).toHaveLength(1);
			expect(ms).toBeLessThan(BOUND_MS);
		},
	);

	test('an attachment download trickling: stopped at the transfer limit, naming the file and the host', async () => {
		sim.injectFault({ route: 'fileDownload', kind: 'trickleBody', intervalMs: 50 });
		const file = sim.files.attachmentsOf('pay_001_000004')[0];
		const { error, ms } = await timed(
			runNode(sim, 'orgKey', {
				resource: 'payable',
				operation: 'getAttachments',
				...oneCompany('cmp_001'),
				payableId: locatorById('pay_001_000004'),
			}),
		);
		const host = new URL(sim.fileBaseUrl).origin;
		expect(error.message).toMatch(
			new RegExp(
				`^The download of attachment "${file.fileName}" of the payable from the file host ${host} stalled after \\d+ of ${file.content.length} bytes$`,
			),
		);
		expect(error.description).toMatch(
			/^The download did not finish within 1 s \(the file host sent too little, or nothing, in that time\), so it was stopped\./,
		);
		expect(ms).toBeLessThan(BOUND_MS);
	});

	test('a receipt upload the file host does not answer in time: stopped at the transfer limit, saying so', async () => {
		sim.injectFault({ route: 'receiptUpload', kind: 'latency', latencyMs: 5000 });
		const host = new URL(sim.fileBaseUrl).origin;
		const { error, ms } = await timed(
			runNode(
				sim,
				'orgKey',
				{
					resource: 'payable',
					operation: 'uploadReceipt',
					...oneCompany('cmp_001'),
					payableId: locatorById('pay_001_000005'),
					binaryPropertyName: 'data',
				},
				{ items: [PDF_ITEM] },
			),
		);
		expect(error.message).toBe(
			`The file host ${host} did not answer within 1 s for receipt "receipt.pdf"`,
		);
		expect(error.description).toContain(
			'The receipt "receipt.pdf" may not be attached to payable "pay_001_000005"',
		);
		expect(error.description).not.toMatch(/ERR_CANCELED|connection failed/i);
		expect(ms).toBeLessThan(BOUND_MS);
	});
});
