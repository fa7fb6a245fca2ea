/**
 * What only a decision of this project says is never enforced by the node before Spendesk
 * answers (docs/api.md#sources), over real HTTP against the simulator: no source gives the
 * largest receipt (docs/api.md#receipt-upload), the largest number of lines of a payable
 * (docs/api.md#payable-accounting) or of webhook instances of a company (docs/api.md#webhooks).
 * The simulator keeps its decided limits; the node asks, and Spendesk's refusal is the error.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { payableDetail } from '../simulator/routes-reads';
import { MAX_WEBHOOKS_PER_COMPANY, webhooksOf } from '../simulator/webhooks';
import type { WebhookInstance } from '../simulator/webhooks';
import { failure, resetTransport, startSimulator } from '../support/fixtures';
import { apiRequests, runNode } from '../support/node';
import { startWebhookHarness } from '../support/webhook-harness';
import type { WebhookHarness } from '../support/webhook-harness';
import { locatorById, oneCompany } from '../support/values';

const C = 'cmp_001';
const SCOPES = ['experimental:accounting:update', 'experimental:payable-attachment:write'];
const PDF = Buffer.from('%PDF-1.4\n% a receipt\n%%EOF\n', 'latin1');

const fileItem = (): INodeExecutionData => ({
	json: {},
	binary: {
		data: {
			data: PDF.toString('base64'),
			mimeType: 'application/pdf',
			fileName: 'receipt.pdf',
			fileExtension: 'pdf',
		},
	},
});

describe('decided limits are not enforced by the node (docs/api.md#sources)', () => {
	let sim: SpendeskSimulator;
	const harnesses: WebhookHarness[] = [];
	beforeAll(async () => {
		sim = await startSimulator({
			rateLimit: 10_000,
			seed: { companies: 2, sizes: { invoices: 1, payables: 6 } },
			grantScopes: { 'sim-org-client': SCOPES },
		});
	});
	afterAll(async () => {
		await Promise.all(harnesses.map(async (h) => await h.close()));
		await sim.stop();
	});
	beforeEach(() => {
		resetTransport();
		sim.clearFaults();
	});
	const calls = () => apiRequests(sim).map((r) => `${r.method} ${r.path}`);

	test('Upload Receipt: Max File Size may be set above 50 MB, the simulator’s limit; the receipt is uploaded', async () => {
		const id = 'pay_001_000004';
		const before = sim.files.attachmentsOf(id).length;
		const { out } = await runNode(
			sim,
			'orgKey',
			{
				resource: 'payable',
				operation: 'uploadReceipt',
				...oneCompany(C),
				payableId: locatorById(id),
				binaryPropertyName: 'data',
				options: { maxFileSize: 200 },
			},
			{ items: [fileItem()] },
		);
		expect(out.map((o) => o.json)).toEqual([
			{ payableId: id, fileName: 'receipt.pdf', mimeType: 'application/pdf', size: PDF.length },
		]);
		expect(sim.files.attachmentsOf(id)).toHaveLength(before + 1);
	});

	test('Payable → Update: 101 lines are sent; the refusal is Spendesk’s, and nothing changed', async () => {
		const id = 'pay_001_000002';
		const payable = sim.data(C).payables.find((p) => p.id === id)!;
		const before = payableDetail(payable);
		const amount = before.amount;
		const line: IDataObject[] = Array.from({ length: 101 }, (_, i) => ({
			grossAmount: i === 0 ? amount - 100 : 1,
		}));
		const error = (await failure(
			runNode(sim, 'orgKey', {
				resource: 'payable',
				operation: 'update',
				...oneCompany(C),
				payableId: locatorById(id),
				version: before.version,
				lineItemsMode: 'replaceAll',
				lineItems: { line },
			}),
		)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('400');
		expect(error.message).toMatch(/^Spendesk refused the accounting of payable "pay_001_000002"/);
		expect(error.description).toMatch(/^Nothing was changed\./);
		expect(calls()).toEqual([`PATCH /v1/payables/${id}`]);
		expect((apiRequests(sim)[0].body as { lineItems: unknown[] }).lineItems).toHaveLength(101);
		expect(payableDetail(payable).version).toBe(before.version);
	});

	test('Webhook Trigger: a company with 50 instances is asked for one more; Spendesk’s refusal is the error, with advice', async () => {
		const company = C;
		const instances = webhooksOf(sim, company);
		const at = new Date(sim.clock.now()).toISOString();
		for (let i = 0; i < MAX_WEBHOOKS_PER_COMPANY; i++)
			instances.push({
				id: `whk_other_${i}`,
				companyId: company,
				url: `https://elsewhere.example/hook/${i}`,
				events: ['payables:created'],
				secret: 'x'.repeat(64),
				description: 'another tool',
				status: 'active',
				disabled: false,
				createdAt: at,
				updatedAt: at,
			} satisfies WebhookInstance);
		const h = await startWebhookHarness(sim, {
			events: ['payables:created'],
			...oneCompany(company),
		});
		harnesses.push(h);
		sim.clearLog();
		const error = await failure(h.activate());
		expect(error.message).toMatch(/^Could not register the webhook for company "cmp_001": /);
		expect((error as NodeApiError).description).toContain(
			'company "cmp_001" has 50 webhook instances already: if Spendesk limits their number, delete those no longer used',
		);
		// The node asked Spendesk: the create was sent, and refused there.
		const creates = sim.requestsTo('createWebhook');
		expect(creates).toHaveLength(1);
		expect(creates[0].status).toBe(400);
		expect(webhooksOf(sim, company)).toHaveLength(MAX_WEBHOOKS_PER_COMPANY);
	});
});
