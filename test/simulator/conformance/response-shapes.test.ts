/**
 * Response shapes (docs/api.md#response-shapes): every answer the simulator gives to a call of
 * the endpoint catalogue (nodes/Spendesk/transport/endpoints.ts), in both profiles, conforms to
 * the schemas of test/schemas/, read closed: each field the simulator sends is one a source
 * shows (or one decided here, and said so). A catalogue entry without a case here fails the
 * test, so a new endpoint cannot go unchecked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENDPOINTS } from '../../../nodes/Spendesk/transport/endpoints';
import type { EndpointName } from '../../../nodes/Spendesk/transport/endpoints';
import { violations } from '../../schemas';
import { SpendeskSimulator } from '../server';
import { ALL_SCOPES } from '../types';
import { api, oauthLogin, oauthRefreshCall, request, token, tokenResponse } from './helpers';
import type { ApiResponse } from './helpers';

const COMPANY = 'cmp_001';

/** What a case found: the answer and the schema checks it ran (schema → problems). */
interface Checked {
	status: number;
	problems: string[];
}

type Ctx = { sim: SpendeskSimulator; bearer: string; state: Record<string, string> };

/** The items of a list answer, or the list's own problem. */
function listed(
	res: ApiResponse,
	envelope: 'page' | 'cursor' | 'offset' | 'search' | 'list',
	item: string,
): string[] {
	const body: unknown = res.body;
	// A bare array is a list too (production client).
	const problems = Array.isArray(body)
		? violations('envelopes.json#/$defs/bareArray', body)
		: violations(`envelopes.json#/$defs/${envelope}`, body);
	const items: unknown[] = Array.isArray(body)
		? body
		: envelope === 'search'
			? (res.body?.payables ?? res.body?.data ?? [])
			: (res.body?.data ?? []);
	if (items.length === 0) problems.push('/data is empty: nothing to check the items against');
	items.forEach((one, i) =>
		problems.push(
			...violations(item, one).map((p) => `/data/${i}${p.slice(0, 1) === '/' ? '' : ' '}${p}`),
		),
	);
	return problems;
}

/** One object, bare or under `data`. */
function single(res: ApiResponse, schema: string): string[] {
	const body = res.body;
	const wrapped =
		body && typeof body === 'object' && !Array.isArray(body) && 'data' in body
			? violations('envelopes.json#/$defs/wrapped', body)
			: undefined;
	if (wrapped)
		return [
			...wrapped,
			...violations(schema, (body as { data: unknown }).data).map((p) => `/data${p}`),
		];
	return violations(schema, body);
}

/** Problems once each, the items of a list counted together: `/data/* … (×45)`. */
function summary(problems: string[]): string[] {
	const counts = new Map<string, number>();
	for (const p of problems) {
		const key = p.replace(/\/(data|result\/data)\/\d+/, '/$1/*');
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return [...counts].map(([p, n]) => (n > 1 ? `${p} (×${n})` : p));
}

const ok = (res: ApiResponse, problems: string[]): Checked => ({
	status: res.status,
	problems: res.status >= 300 ? [`HTTP ${res.status}: ${JSON.stringify(res.body)}`] : problems,
});

const get = (c: Ctx, path: string) => api(c.sim, c.bearer, path, { companyId: COMPANY });
const send = (c: Ctx, method: string, path: string, body?: unknown) =>
	api(c.sim, c.bearer, path, { method, companyId: COMPANY, body });

/**
 * Every catalogue entry: how the test calls it and what its answer must be. `null`: the entry
 * answers no JSON the package reads as a record (a redirect, a CSV, a 204), with the reason.
 */
const CASES: Record<EndpointName, ((c: Ctx) => Promise<Checked>) | { none: string }> = {
	token: async (c) => {
		const res = await tokenResponse(c.sim, c.sim.credentials.companyKey);
		return ok(res, violations('token.json#/$defs/apiKey', res.body));
	},
	oauth2Authorize: {
		none: 'a redirect to the redirect URI, no JSON (conformance: oauth2-documented)',
	},
	oauth2TokenCreate: async (c) => {
		const body = await oauthLogin(c.sim);
		c.state.refreshToken = body.refresh_token;
		return { status: 201, problems: violations('token.json#/$defs/oauth2', body) };
	},
	oauth2TokenRefresh: async (c) => {
		const res = await oauthRefreshCall(c.sim, c.state.refreshToken);
		return ok(res, violations('token.json#/$defs/oauth2', res.body));
	},
	getCompanies: async (c) => {
		const res = await api(c.sim, c.bearer, '/v2/companies');
		return ok(res, listed(res, 'page', 'company.json'));
	},
	walletSummary: async (c) => {
		const res = await get(c, '/v1/wallet-summary');
		return ok(res, single(res, 'wallet-summary.json'));
	},
	listSettlements: async (c) => {
		const res = await get(c, '/v1/settlements');
		c.state.settlementId = res.body?.data?.[0]?.id;
		return ok(res, listed(res, 'page', 'settlement.json'));
	},
	listInvoices: async (c) => {
		const res = await get(c, `/v2/companies/${COMPANY}/invoices?sortBy=updatedAt&sort=desc`);
		return ok(res, listed(res, 'cursor', 'invoice.json'));
	},
	listIntakes: async (c) => {
		const res = await get(c, `/v2/companies/${COMPANY}/intakes`);
		return ok(res, listed(res, 'cursor', 'intake.json'));
	},
	createIntake: async (c) => {
		const res = await send(c, 'POST', `/v2/companies/${COMPANY}/intakes`, {
			supplierName: 'Office Depot',
			amount: 12_050,
			currency: 'EUR',
		});
		c.state.intakeId = res.body?.data?.id ?? res.body?.id;
		return ok(res, single(res, 'intake.json'));
	},
	listAnalyticalFields: async (c) => {
		const res = await get(c, '/v2/analytical-fields');
		c.state.fieldId = res.body?.data?.[0]?.id;
		return ok(res, listed(res, 'cursor', 'analytical-field.json'));
	},
	listAnalyticalFieldValues: async (c) => {
		const res = await get(c, `/v2/analytical-fields/${c.state.fieldId}/values`);
		return ok(res, listed(res, 'cursor', 'analytical-field-value.json'));
	},
	listExpenseCategories: async (c) => {
		const res = await get(c, '/v2/expense-categories');
		return ok(res, listed(res, 'cursor', 'expense-category.json'));
	},
	listAnalyticalFieldsV1: async (c) => {
		const res = await get(c, '/v1/analytical-fields');
		return ok(res, listed(res, 'page', 'analytical-field.json'));
	},
	listAnalyticalFieldValuesV1: async (c) => {
		const res = await get(c, `/v1/analytical-fields/${c.state.fieldId}/values`);
		return ok(res, listed(res, 'page', 'analytical-field-value.json'));
	},
	listExpenseCategoriesV1: async (c) => {
		const res = await get(c, '/v1/expense-categories');
		return ok(res, listed(res, 'page', 'expense-category.json'));
	},
	getAccounts: async (c) => {
		const res = await get(c, '/v1/accounts');
		return ok(res, listed(res, 'offset', 'account.json'));
	},
	searchPayables: async (c) => {
		const res = await send(c, 'POST', '/v1/payables/search', { limit: 10 });
		c.state.payableId = (res.body?.payables ?? res.body?.data)?.[0]?.id;
		return ok(res, listed(res, 'search', 'payable.json'));
	},
	createPayablesSnapshot: async (c) => {
		const res = await send(c, 'POST', '/v1/snapshots/payables', {});
		c.state.snapshotKey = res.body?.key;
		return ok(res, violations('envelopes.json#/$defs/snapshotCreated', res.body));
	},
	getPayablesSnapshot: async (c) => {
		const res = await get(c, `/v1/snapshots/payables/${c.state.snapshotKey}`);
		const problems = violations('envelopes.json#/$defs/snapshot', res.body);
		if (res.body?.status !== 'COMPLETE') problems.push(`status ${res.body?.status}, not COMPLETE`);
		const items: unknown[] = res.body?.result?.data ?? [];
		if (items.length === 0) problems.push('/result/data is empty');
		items.forEach((p, i) =>
			problems.push(...violations('payable.json', p).map((v) => `/result/data/${i}${v}`)),
		);
		return ok(res, problems);
	},
	updateBookkeepingStatus: async (c) => {
		const payable = await get(c, `/v1/payables/${c.state.payableId}`);
		const version = (payable.body?.data ?? payable.body)?.version ?? 1;
		const res = await send(c, 'PUT', '/v1/payables/bookkeeping-status', {
			payables: [{ id: c.state.payableId, version, bookkeepingStatus: 'exported' }],
		});
		return ok(res, violations('write-answers.json#/$defs/bookkeepingStatus', res.body));
	},
	updateSettlementState: async (c) => {
		const res = await send(c, 'PUT', `/v1/settlements/${c.state.settlementId}/state`, {
			state: 'exported',
		});
		return ok(res, single(res, 'settlement.json'));
	},
	createSuppliers: async (c) => {
		const res = await send(c, 'POST', '/v1/suppliers', [{ name: 'Conformance Supplier' }]);
		return ok(res, violations('write-answers.json#/$defs/supplierCreate', res.body));
	},
	updateSupplier: async (c) => {
		const res = await send(c, 'PATCH', `/v1/suppliers/${c.state.supplierId}`, {
			primaryEmail: 'billing@example.com',
		});
		return ok(res, single(res, 'supplier.json'));
	},
	getPayable: async (c) => {
		const res = await get(c, `/v1/payables/${c.state.payableId}`);
		return ok(res, single(res, 'payable.json'));
	},
	listSuppliers: async (c) => {
		const res = await get(c, '/v1/suppliers');
		const list: Array<{ id: string }> = Array.isArray(res.body) ? res.body : (res.body?.data ?? []);
		c.state.supplierId = list[0]?.id;
		return ok(res, listed(res, 'page', 'supplier.json'));
	},
	getSupplier: async (c) => {
		const res = await get(c, `/v1/suppliers/${c.state.supplierId}`);
		return ok(res, single(res, 'supplier.json'));
	},
	listUsers: async (c) => {
		const res = await get(c, '/v1/users');
		c.state.userId = res.body?.data?.[0]?.id;
		return ok(res, listed(res, 'page', 'user.json'));
	},
	getUser: async (c) => {
		const res = await get(c, `/v1/users/${c.state.userId}`);
		return ok(res, single(res, 'user.json'));
	},
	listCostCenters: async (c) => {
		const res = await get(c, '/v1/cost-centers');
		return ok(res, listed(res, 'page', 'cost-center.json'));
	},
	listBankFees: async (c) => {
		const res = await get(c, '/v1/bank-fees');
		return ok(res, listed(res, 'page', 'bank-fee.json'));
	},
	listWalletLoads: async (c) => {
		const res = await get(c, '/v1/wallet-loads');
		return ok(res, listed(res, 'page', 'wallet-load.json'));
	},
	listPayableAttachments: async (c) => {
		const res = await get(c, `/v1/payables/${c.state.payableId}/attachments`);
		return ok(res, listed(res, 'list', 'attachment.json'));
	},
	startIntakeUpload: async (c) => {
		const res = await send(
			c,
			'POST',
			`/v2/companies/${COMPANY}/intakes/${c.state.intakeId}/files`,
			{
				fileName: 'receipt.pdf',
				mimeType: 'application/pdf',
				size: 4,
			},
		);
		const slot = res.body?.data ?? res.body;
		c.state.fileId = slot?.fileId;
		// The file itself, to the pre-signed URL, so that the upload can be confirmed.
		if (slot?.uploadUrl)
			await fetch(slot.uploadUrl, { method: 'PUT', headers: slot.headers, body: '%PDF' });
		return ok(res, single(res, 'intake.json#/$defs/uploadSlot'));
	},
	completeIntakeUpload: async (c) => {
		const res = await send(
			c,
			'POST',
			`/v2/companies/${COMPANY}/intakes/${c.state.intakeId}/files/${c.state.fileId}/complete`,
		);
		return ok(res, single(res, 'intake.json#/$defs/uploadComplete'));
	},
	createAccountingExport: async (c) => {
		const res = await send(c, 'POST', '/v1/accounting/exports', {
			from: '2026-01-01T00:00:00.000Z',
			to: '2026-02-01T00:00:00.000Z',
		});
		c.state.exportId = (res.body?.data ?? res.body)?.id;
		return ok(res, single(res, 'accounting-export.json'));
	},
	getAccountingExport: async (c) => {
		const res = await get(c, `/v1/accounting/exports/${c.state.exportId}`);
		return ok(res, single(res, 'accounting-export.json'));
	},
	getJournal: { none: 'a CSV file, not JSON (conformance: files)' },
	listWebhooks: async (c) => {
		const res = await get(c, '/v1/webhooks');
		return ok(res, listed(res, 'page', 'webhook-instance.json'));
	},
	getWebhook: async (c) => {
		const res = await get(c, `/v1/webhooks/${c.state.webhookId}`);
		return ok(res, single(res, 'webhook-instance.json'));
	},
	createWebhook: async (c) => {
		const res = await send(c, 'POST', '/v1/webhooks', {
			url: 'https://hooks.example.com/spendesk',
			events: ['payables:created'],
		});
		c.state.webhookId = (res.body?.data ?? res.body)?.id;
		return ok(res, single(res, 'webhook-instance.json'));
	},
	deleteWebhook: { none: '204 without a body (conformance: webhooks)' },
	updateWebhook: async (c) => {
		const res = await send(c, 'PATCH', `/v1/webhooks/${c.state.webhookId}`, {
			events: ['payables:created', 'settlements:created'],
		});
		return ok(res, single(res, 'webhook-instance.json'));
	},
	updatePayableAccounting: async (c) => {
		const read = await get(c, `/v1/payables/${c.state.payableId}`);
		const payable = read.body?.data ?? read.body;
		const res = await send(c, 'PATCH', `/v1/payables/${c.state.payableId}`, {
			version: payable?.version,
			lineItems: [{ grossAmount: payable?.amount }],
		});
		return ok(res, violations('write-answers.json#/$defs/payableAccountingUpdate', res.body));
	},
	startPayableAttachmentUpload: async (c) => {
		const res = await send(c, 'POST', `/v1/payables/${c.state.payableId}/attachments`, {
			mimeType: 'application/pdf',
			contentLength: 4,
		});
		return ok(res, violations('write-answers.json#/$defs/receiptUploadForm', res.body));
	},
	listPurchaseOrders: async (c) => {
		const res = await get(c, '/v1/purchase-orders');
		const list: Array<{ id: string }> = Array.isArray(res.body) ? res.body : (res.body?.data ?? []);
		c.state.purchaseOrderId = list[0]?.id;
		c.state.otherPurchaseOrderId = list[1]?.id;
		return ok(res, listed(res, 'page', 'purchase-order.json'));
	},
	getPurchaseOrder: async (c) => {
		const res = await get(c, `/v1/purchase-orders/${c.state.purchaseOrderId}`);
		return ok(res, single(res, 'purchase-order.json'));
	},
	createPurchaseOrder: async (c) => {
		const users = await get(c, '/v1/users');
		const costCenters = await get(c, '/v1/cost-centers');
		const money = (amount: number) => ({ amount, currency: 'EUR', precision: 2 });
		const res = await send(c, 'POST', '/v1/purchase-orders', {
			userId: users.body?.data?.[0]?.id,
			supplierName: 'Conformance Supplier',
			amount: money(1000),
			netAmount: money(1000),
			costCenterId: costCenters.body?.data?.[0]?.id,
			startDate: '2026-01-01T00:00:00.000Z',
			endDate: '2026-01-31T00:00:00.000Z',
			customFieldAssociations: [],
		});
		return ok(res, single(res, 'purchase-order.json'));
	},
	cancelPurchaseOrder: async (c) => {
		const res = await send(c, 'POST', `/v1/purchase-orders/${c.state.purchaseOrderId}/cancel`);
		return ok(res, single(res, 'purchase-order.json'));
	},
	closePurchaseOrder: async (c) => {
		const res = await send(c, 'POST', `/v1/purchase-orders/${c.state.otherPurchaseOrderId}/close`);
		return ok(res, single(res, 'purchase-order.json'));
	},
	listJournalTemplates: async (c) => {
		const res = await get(c, '/v1/accounting/journal-templates');
		return ok(res, listed(res, 'page', 'journal-template.json'));
	},
	updateSupplierStatus: async (c) => {
		const res = await send(c, 'PATCH', '/v1/experimental/suppliers/status', {
			supplierIds: [c.state.supplierId],
			isArchived: true,
		});
		return ok(res, violations('write-answers.json#/$defs/supplierItems', res.body));
	},
	updateOneSupplierStatus: async (c) => {
		const res = await send(c, 'PATCH', `/v1/experimental/suppliers/${c.state.supplierId}/status`, {
			isArchived: false,
		});
		return ok(res, single(res, 'supplier.json'));
	},
	updateSuppliers: async (c) => {
		const res = await send(c, 'PATCH', '/v1/suppliers', [
			{ id: c.state.supplierId, primaryEmail: 'accounts@example.com' },
		]);
		return ok(res, violations('write-answers.json#/$defs/supplierItems', res.body));
	},
};

/** The order the cases run in: the reads that find the IDs later cases use come first. */
const ORDER: EndpointName[] = [
	'token',
	'oauth2TokenCreate',
	'oauth2TokenRefresh',
	'getCompanies',
	'walletSummary',
	'listSettlements',
	'listInvoices',
	'listIntakes',
	'createIntake',
	'startIntakeUpload',
	'completeIntakeUpload',
	'listAnalyticalFields',
	'listAnalyticalFieldValues',
	'listExpenseCategories',
	'listAnalyticalFieldsV1',
	'listAnalyticalFieldValuesV1',
	'listExpenseCategoriesV1',
	'getAccounts',
	'searchPayables',
	'getPayable',
	'listPayableAttachments',
	'createPayablesSnapshot',
	'getPayablesSnapshot',
	'listSuppliers',
	'getSupplier',
	'listUsers',
	'getUser',
	'listCostCenters',
	'listBankFees',
	'listWalletLoads',
	'listJournalTemplates',
	'createAccountingExport',
	'getAccountingExport',
	'createWebhook',
	'listWebhooks',
	'getWebhook',
	'updateWebhook',
	'listPurchaseOrders',
	'getPurchaseOrder',
	'createPurchaseOrder',
	'cancelPurchaseOrder',
	'closePurchaseOrder',
	'updateSettlementState',
	'startPayableAttachmentUpload',
	'updatePayableAccounting',
	'updateBookkeepingStatus',
	'createSuppliers',
	'updateSupplier',
	'updateSuppliers',
	'updateSupplierStatus',
	'updateOneSupplierStatus',
];

test('response shapes (docs/api.md#response-shapes): every catalogue entry has a case, run in an order that finds its IDs', () => {
	const named = Object.keys(ENDPOINTS).sort();
	expect(Object.keys(CASES).sort()).toEqual(named);
	const called = named.filter((name) => typeof CASES[name as EndpointName] === 'function');
	expect([...ORDER].sort()).toEqual(called);
});

describe.each(['specification', 'documented'] as const)(
	'response shapes (docs/api.md#response-shapes), %s profile',
	(profile) => {
		let sim: SpendeskSimulator;
		const ctx = {} as Ctx;

		beforeAll(async () => {
			sim = new SpendeskSimulator({
				profile,
				snapshotPendingPolls: 0,
				exportPendingPolls: 0,
				rateLimit: 10_000,
			});
			await sim.start();
			const key = sim.credentials.orgKey;
			sim.grantScopes(key.clientId, ALL_SCOPES);
			sim.grantScopes(sim.credentials.companyKey.clientId, ALL_SCOPES);
			ctx.sim = sim;
			ctx.bearer = await token(sim, key);
			ctx.state = {};
		});
		afterAll(async () => {
			await sim.stop();
		});

		test.each(ORDER)('%s answers the shapes of test/schemas/', async (name) => {
			const run = CASES[name] as (c: Ctx) => Promise<Checked>;
			const { problems } = await run(ctx);
			expect(summary(problems)).toEqual([]);
		});

		test('webhook deliveries (docs/api.md#webhooks): the body POSTed for each event answers webhook-delivery.json', async () => {
			const bodies: unknown[] = [];
			const receiver = http.createServer((req, res) => {
				const chunks: Buffer[] = [];
				req.on('data', (c: Buffer) => chunks.push(c));
				req.on('end', () => {
					bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
					res.writeHead(200).end();
				});
			});
			await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
			try {
				const { port } = receiver.address() as AddressInfo;
				const created = await send(ctx, 'POST', '/v1/webhooks', {
					url: `http://127.0.0.1:${port}/hook`,
					events: ['payables:created', 'settlements:created'],
				});
				expect(created.status).toBe(201);
				sim.createPayable(COMPANY);
				sim.createSettlement(COMPANY);
				await sim.whenWebhooksIdle();
				expect(bodies).toHaveLength(2);
				expect(bodies.flatMap((body) => violations('webhook-delivery.json', body))).toEqual([]);
			} finally {
				await new Promise<void>((resolve) => receiver.close(() => resolve()));
			}
		});

		test.each([
			['401, no token', async () => request(sim, '/v1/settlements', { companyId: COMPANY })],
			[
				'403, a scope the key lacks',
				async () => {
					const t = await token(sim, sim.credentials.orgKeyNoExperimental);
					return api(sim, t, '/v1/payables/search', {
						method: 'POST',
						companyId: COMPANY,
						body: { limit: 1 },
					});
				},
			],
			['404, no such user', async () => get(ctx, '/v1/users/usr_none')],
			['400, pageSize above 30', async () => get(ctx, '/v1/settlements?pageSize=31')],
		])('errors (docs/api.md#errors): %s answers error.json', async (_what, call) => {
			const res = await call();
			expect(res.status).toBeGreaterThanOrEqual(400);
			expect(violations('error.json', res.body)).toEqual([]);
		});
	},
);
