/**
 * The documented operations served in both profiles (docs/api.md#payable-accounting,
 * #receipt-upload, #journal-templates, #supplier-management,
 * #webhooks): shapes, scope refusals, validation and state machines. In the documented
 * profile the keys hold the experimental scopes only because the test grants them.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpendeskSimulator } from '../server';
import { receiptUploads } from '../receipts';
import { api, err, request, token } from './helpers';

const GRANTED = [
	'experimental:accounting:update',
	'experimental:payable-attachment:write',
	'experimental:purchase-order:read',
	'experimental:purchase-order:write',
	'experimental:accounting-export:read',
	'experimental:supplier:manage',
	'experimental:webhooks:read',
	'experimental:webhooks:write',
];

describe.each(['specification', 'documented'] as const)(
	'documented operations (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		let org: string;
		let company: string;
		let limited: string;
		/** The error source as the profile writes it: `body.x` in the specification's, `x` in the documented one. */
		const source = (s: string) =>
			profile === 'documented' ? s.replace(/^(body|path|query)\./, '') : s;
		const badRequest =
			profile === 'documented' ? 'BAD_REQUEST_INCORRECT_OR_MISSING_FIELD' : 'invalid_body';

		beforeAll(async () => {
			sim = new SpendeskSimulator({
				profile,
				// The documented profile's published limits would slow the suite down: not what is tested here.
				rateLimit: 10_000,
				maxInFlight: undefined,
				seed: { companies: 3, sizes: { invoices: 2, payables: 12, suppliers: 12 } },
				grantScopes: { 'sim-org-client': GRANTED, 'sim-company-client': GRANTED },
			});
			await sim.start();
			org = await token(sim, sim.credentials.orgKey);
			company = await token(sim, sim.credentials.companyKey);
			limited = await token(sim, sim.credentials.orgKeyNoExperimental);
		});
		afterAll(async () => sim.stop());

		const refusedForScope = async (path: string, method: string, scope: string, body?: unknown) => {
			const res = await api(sim, limited, path, { method, companyId: 'cmp_001', body });
			expect(res.status).toBe(403);
			if (profile === 'specification') expect(err(res).detail).toBe(`Missing scope: ${scope}`);
			else expect(err(res).code).toBe('FORBIDDEN_ERROR');
		};

		describe('PATCH /v1/payables/{payableId}: accounting before export', () => {
			const payableId = 'pay_001_000003';
			const read = async () => (await api(sim, company, `/v1/payables/${payableId}`)).body;
			const patch = (body: unknown, t = company) =>
				api(sim, t, `/v1/payables/${payableId}`, { method: 'PATCH', body });

			test('the line items replace the whole list; the answer is {item: {version}}, one version on', async () => {
				const before = await read();
				const first = Math.floor(before.amount / 3);
				const res = await patch({
					version: before.version,
					lineItems: [
						{
							grossAmount: first,
							expenseAccountId: 'ea_6063',
							taxAccountId: 'ta_4456',
							costCenterId: 'cc_001_0002',
							analyticalFieldValues: [{ fieldId: 'af_001_001', valueId: 'afv_001_001_00002' }],
						},
						{
							grossAmount: before.amount - first,
							expenseAccountId: 'ea_6064',
							taxAccountId: null,
							costCenterId: 'cc_001_0002',
							analyticalFieldValues: [],
						},
					],
				});
				expect(res.status).toBe(200);
				expect(res.body).toEqual({ item: { version: before.version + 1 } });
				const after = await read();
				expect(after.version).toBe(before.version + 1);
				expect(after.costCenterId).toBe('cc_001_0002');
				// Read back in the documented line shape (docs/api.md#payables): the accounts as
				// objects (an ID the chart of accounts does not hold keeps its ID, without a code), the VAT
				// at the VAT account's rate.
				const vat = Math.round((first * 20) / 120);
				expect(after.lineItems).toEqual([
					{
						costCenterId: 'cc_001_0002',
						expenseAccount: { id: 'ea_6063', code: '', description: null },
						vatAccount: {
							id: 'ta_4456',
							code: '445660',
							description: 'Deductible VAT 20%',
							rate: 20,
						},
						financial: {
							netAmount: first - vat,
							vatAmount: vat,
							vatAdjustmentAmount: 0,
							grossAmount: first,
						},
						analyticalProperties: [{ fieldId: 'af_001_001', valueId: 'afv_001_001_00002' }],
					},
					expect.objectContaining({
						expenseAccount: { id: 'ea_6064', code: '', description: null },
						vatAccount: null,
					}),
				]);
				for (const line of after.lineItems) {
					expect(line).not.toHaveProperty('expenseAccountId');
					expect(line).not.toHaveProperty('taxAccountId');
				}
				// A second write with one line replaces both.
				const again = await patch({
					version: after.version,
					lineItems: [{ grossAmount: after.amount, costCenterId: null }],
				});
				expect(again.status).toBe(200);
				expect((await read()).lineItems).toHaveLength(1);
			});

			test('a stale version is a 409 and changes nothing', async () => {
				const before = await read();
				const res = await patch({
					version: before.version - 1,
					lineItems: [{ grossAmount: before.amount }],
				});
				expect(res.status).toBe(409);
				expect(err(res).detail).toContain(`version ${before.version}`);
				expect((await read()).version).toBe(before.version);
			});

			test.each([
				[
					'another top-level field',
					{ note: 'x' },
					'body.note',
					'must NOT have additional properties',
				],
				[
					'another line field',
					{ line: { vatAmount: 1 } },
					'body.lineItems[0].vatAmount',
					'must NOT have additional properties',
				],
				['no line', { lineItems: [] }, 'body.lineItems', 'lineItems'],
				['lines that do not add up', { line: { grossAmount: 1 } }, 'body.lineItems', 'add up'],
				[
					'an unknown cost center',
					{ line: { costCenterId: 'cc_999' } },
					'body.lineItems[0].costCenterId',
					'cost center',
				],
				[
					'an unknown analytical value',
					{ line: { analyticalFieldValues: [{ fieldId: 'af_001_001', valueId: 'nope' }] } },
					'body.lineItems[0].analyticalFieldValues[0].valueId',
					'No value',
				],
			])(
				'%s is a 400 in the documented error shape',
				async (_, change: Record<string, unknown>, at, detail) => {
					const before = await read();
					const { line, ...rest } = change as { line?: Record<string, unknown> };
					const res = await patch({
						version: before.version,
						lineItems: [{ grossAmount: before.amount, ...line }],
						...rest,
					});
					expect(res.status).toBe(400);
					expect(err(res)).toMatchObject({ code: badRequest, source: source(at) });
					expect(err(res).detail).toContain(detail);
					expect((await read()).version).toBe(before.version);
				},
			);

			test('an exported payable is a 409; an unknown one a 404; without experimental:accounting:update a 403', async () => {
				const exported = sim.data('cmp_001').payables[5];
				exported.bookkeepingStatus = 'exported';
				const res = await api(sim, company, `/v1/payables/${exported.id}`, {
					method: 'PATCH',
					body: { version: 1, lineItems: [{ grossAmount: exported.amount }] },
				});
				expect(res.status).toBe(409);
				expect(err(res).detail).toMatch(/already exported/);
				const missing = await api(sim, company, '/v1/payables/pay_nope', {
					method: 'PATCH',
					body: { version: 1, lineItems: [{ grossAmount: 1 }] },
				});
				expect(missing.status).toBe(404);
				await refusedForScope(
					`/v1/payables/${payableId}`,
					'PATCH',
					'experimental:accounting:update',
					{
						version: 1,
						lineItems: [{ grossAmount: 1 }],
					},
				);
			});
		});

		describe('POST /v1/payables/{payableId}/attachments: a receipt through a pre-signed form', () => {
			const payableId = 'pay_001_000004';
			const pdf = Buffer.from('%PDF-1.4\n% a receipt\n%%EOF\n', 'latin1');
			const start = (body: unknown, t = org) =>
				api(sim, t, `/v1/payables/${payableId}/attachments`, {
					method: 'POST',
					companyId: 'cmp_001',
					body,
				});
			const form = (fields: Record<string, string>, file: Buffer, fileFirst = false) => {
				const data = new FormData();
				const blob = new Blob([new Uint8Array(file)], { type: 'application/pdf' });
				if (fileFirst) data.append('file', blob, 'receipt.pdf');
				for (const [k, v] of Object.entries(fields)) data.append(k, v);
				if (!fileFirst) data.append('file', blob, 'receipt.pdf');
				return data;
			};
			const upload = (url: string, body: FormData, headers: Record<string, string> = {}) =>
				fetch(url, { method: 'POST', body, headers });

			test('answers {method: "POST", url, fields} on the file host; the form upload attaches the file to the payable', async () => {
				const res = await start({ mimeType: 'application/pdf', contentLength: pdf.length });
				expect(res.status).toBe(200);
				expect(res.body).toEqual({
					method: 'POST',
					url: `${sim.fileBaseUrl}/receipts`,
					fields: expect.any(Object),
				});
				expect(res.body.fields['Content-Type']).toBe('application/pdf');
				const sent = await upload(res.body.url, form(res.body.fields, pdf));
				expect(sent.status).toBe(204);
				const listed = await api(sim, org, `/v1/payables/${payableId}/attachments`, {
					companyId: 'cmp_001',
				});
				// The documented listing names no ID: the link's path is the attachment's key.
				const attachmentId = receiptUploads(sim).at(-1)!.attachmentId!;
				const added = listed.body.data.find((a: { downloadUrl?: string; url?: string }) =>
					new URL(a.downloadUrl ?? a.url ?? '').pathname.endsWith(`/${attachmentId}`),
				);
				expect(added).toMatchObject({ mimeType: 'application/pdf' });
				const file = await fetch(added.downloadUrl ?? added.url);
				expect(Buffer.from(await file.arrayBuffer())).toEqual(pdf);
				// The form works once.
				expect((await upload(res.body.url, form(res.body.fields, pdf))).status).toBe(403);
			});

			test('the file host refuses a bearer token (400) and the request log shows it arrived', async () => {
				const res = await start({ mimeType: 'application/pdf', contentLength: pdf.length });
				const sent = await upload(res.body.url, form(res.body.fields, pdf), {
					authorization: `Bearer ${org}`,
				});
				expect(sent.status).toBe(400);
				expect(await sent.text()).toContain('Authorization');
				const logged = sim.requestsTo('receiptUpload').at(-1)!;
				expect(logged).toMatchObject({ host: 'files', status: 400 });
				expect(logged.headers.authorization).toBe('Bearer <redacted>');
				expect(receiptUploads(sim).at(-1)!.attachmentId).toBeUndefined();
			});

			test('a file of another size than declared, a file before the fields, or a wrong signature are refused', async () => {
				const res = await start({ mimeType: 'application/pdf', contentLength: pdf.length + 1 });
				const short = await upload(res.body.url, form(res.body.fields, pdf));
				expect(short.status).toBe(400);
				expect(await short.text()).toContain('EntityTooSmall');
				const first = await upload(res.body.url, form(res.body.fields, pdf, true));
				expect(first.status).toBe(400);
				const forged = await upload(
					res.body.url,
					form({ ...res.body.fields, 'x-signature': 'f'.repeat(64) }, pdf),
				);
				expect(forged.status).toBe(403);
			});

			test.each([
				['another MIME type', { mimeType: 'text/html', contentLength: 10 }, 'body.mimeType'],
				['no size', { mimeType: 'application/pdf' }, 'body.contentLength'],
				[
					'another field',
					{ mimeType: 'application/pdf', contentLength: 10, fileName: 'x.pdf' },
					'body.fileName',
				],
			])('%s is a 400', async (_, body, at) => {
				const res = await start(body);
				expect(res.status).toBe(400);
				expect(err(res).source).toBe(source(at));
			});

			test('an unknown payable is a 404; without experimental:payable-attachment:write a 403', async () => {
				const res = await api(sim, org, '/v1/payables/pay_nope/attachments', {
					method: 'POST',
					companyId: 'cmp_001',
					body: { mimeType: 'application/pdf', contentLength: 10 },
				});
				expect(res.status).toBe(404);
				await refusedForScope(
					`/v1/payables/${payableId}/attachments`,
					'POST',
					'experimental:payable-attachment:write',
					{
						mimeType: 'application/pdf',
						contentLength: 10,
					},
				);
			});
		});

		describe('GET /v1/accounting/journal-templates', () => {
			test('lists {id, name}; an accounting export takes a known templateId and refuses an unknown one', async () => {
				const res = await api(sim, org, '/v1/accounting/journal-templates', {
					companyId: 'cmp_001',
				});
				expect(res.status).toBe(200);
				expect(res.body.data.length).toBeGreaterThan(0);
				for (const t of res.body.data) expect(Object.keys(t).sort()).toEqual(['id', 'name']);
				const range = { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' };
				const known = await api(sim, org, '/v1/accounting/exports', {
					method: 'POST',
					companyId: 'cmp_001',
					body: { ...range, templateId: res.body.data[1].id },
				});
				expect(known.status).toBe(201);
				const unknown = await api(sim, org, '/v1/accounting/exports', {
					method: 'POST',
					companyId: 'cmp_001',
					body: { ...range, templateId: 'tpl_nope' },
				});
				expect(unknown.status).toBe(400);
				expect(err(unknown).source).toBe(source('body.templateId'));
				await refusedForScope(
					'/v1/accounting/journal-templates',
					'GET',
					'experimental:accounting-export:read',
				);
			});
		});

		describe('supplier management', () => {
			test('PATCH /v1/experimental/suppliers/status archives and unarchives: {items: [{outcome, supplier}]}', async () => {
				const [a, b] = sim.data('cmp_001').suppliers;
				const res = await api(sim, company, '/v1/experimental/suppliers/status', {
					method: 'PATCH',
					body: { supplierIds: [a.id, 'sup_nope', b.id], isArchived: true },
				});
				expect(res.status).toBe(200);
				expect(res.body.items.map((i: { outcome: string }) => i.outcome)).toEqual([
					'updated',
					'notFound',
					'updated',
				]);
				expect(res.body.items[0].supplier).toMatchObject({ id: a.id, isArchived: true });
				expect(res.body.items[1].supplier).toEqual({ id: 'sup_nope' });
				expect([a.isArchived, b.isArchived]).toEqual([true, true]);
				await api(sim, company, '/v1/experimental/suppliers/status', {
					method: 'PATCH',
					body: { supplierIds: [a.id], isArchived: false },
				});
				expect(a.isArchived).toBe(false);
				for (const body of [
					{ supplierIds: [], isArchived: true },
					{ supplierIds: [a.id] },
					{ supplierIds: [a.id], isArchived: true, x: 1 },
				]) {
					const bad = await api(sim, company, '/v1/experimental/suppliers/status', {
						method: 'PATCH',
						body,
					});
					expect(bad.status).toBe(400);
				}
				await refusedForScope(
					'/v1/experimental/suppliers/status',
					'PATCH',
					'experimental:supplier:manage',
					{
						supplierIds: [a.id],
						isArchived: true,
					},
				);
			});

			test('PATCH /v1/suppliers updates several suppliers by id, validated whole first', async () => {
				const [, , c, d] = sim.data('cmp_001').suppliers;
				const res = await api(sim, company, '/v1/suppliers', {
					method: 'PATCH',
					body: [
						{ id: c.id, primaryEmail: 'billing@c.example' },
						{ id: d.id, bankInfo: { iban: 'DE89370400440532013000', bankCountry: 'DE' } },
					],
				});
				expect(res.status).toBe(200);
				expect(res.body.items).toEqual([
					{
						outcome: 'updated',
						supplier: expect.objectContaining({ id: c.id, primaryEmail: 'billing@c.example' }),
					},
					{
						outcome: 'updated',
						supplier: expect.objectContaining({ id: d.id, iban: 'DE89370400440532013000' }),
					},
				]);
				const bad = await api(sim, company, '/v1/suppliers', {
					method: 'PATCH',
					body: [
						{ id: c.id, primaryEmail: 'other@c.example' },
						{ id: d.id, externalId: 'x' },
					],
				});
				expect(bad.status).toBe(400);
				expect(err(bad)).toMatchObject({
					source: source('body[1].externalId'),
					detail: 'must NOT have additional properties',
				});
				expect(c.primaryEmail).toBe('billing@c.example');
				const noId = await api(sim, company, '/v1/suppliers', {
					method: 'PATCH',
					body: [{ name: 'X' }],
				});
				expect(err(noId).source).toBe(source('body[0].id'));
				await refusedForScope('/v1/suppliers', 'PATCH', 'experimental:supplier:manage', [
					{ id: c.id, name: 'X' },
				]);
			});
		});

		describe('PATCH /v1/webhooks/{webhookId}', () => {
			test('changes the events; the secret stays and deliveries go on, signed with it', async () => {
				const hits: Array<{ raw: Buffer; signature: string }> = [];
				const receiver = http.createServer((req, res) => {
					const chunks: Buffer[] = [];
					req.on('data', (c: Buffer) => chunks.push(c));
					req.on('end', () => {
						hits.push({
							raw: Buffer.concat(chunks),
							signature: String(req.headers['x-spendesk-webhook-signature']),
						});
						res.end('ok');
					});
				});
				await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
				try {
					const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
					const created = await api(sim, company, '/v1/webhooks', {
						method: 'POST',
						body: { url, events: ['payables:created'], secret: 'kept-secret' },
					});
					expect(created.status).toBe(201);
					const id = (created.body.data ?? created.body).id;
					const patched = await api(sim, company, `/v1/webhooks/${id}`, {
						method: 'PATCH',
						body: { events: ['payables:created', 'settlements:created'] },
					});
					expect(patched.status).toBe(200);
					expect(patched.body.data ?? patched.body).toMatchObject({
						id,
						events: ['payables:created', 'settlements:created'],
					});
					expect(JSON.stringify(patched.body)).not.toContain('kept-secret');
					sim.createSettlement('cmp_001');
					await sim.whenWebhooksIdle();
					expect(hits).toHaveLength(1);
					expect(JSON.parse(hits[0].raw.toString()).event.eventType).toBe('settlements:created');
					expect(hits[0].signature).toBe(
						createHmac('sha256', 'kept-secret').update(hits[0].raw).digest('hex'),
					);
					const bad = await api(sim, company, `/v1/webhooks/${id}`, {
						method: 'PATCH',
						body: { events: ['nope'] },
					});
					expect(bad.status).toBe(400);
					await refusedForScope(`/v1/webhooks/${id}`, 'PATCH', 'experimental:webhooks:write', {
						events: ['payables:created'],
					});
				} finally {
					await new Promise<void>((resolve) => receiver.close(() => resolve()));
				}
			});
		});

		test('the new routes answer 401 without a token', async () => {
			for (const [method, path] of [
				['GET', '/v1/purchase-orders'],
				['PATCH', '/v1/payables/pay_001_000001'],
				['GET', '/v1/accounting/journal-templates'],
			]) {
				const res = await request(sim, path, { method, body: method === 'GET' ? undefined : {} });
				expect(res.status).toBe(401);
			}
		});
	},
);
