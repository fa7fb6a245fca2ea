/**
 * Files (docs/api.md#files, #accounting-exports): a payable's attachments with pre-signed download
 * URLs on the file host (another origin), intake file uploads (start, pre-signed PUT, confirm),
 * accounting exports and their journal CSV.
 */
import { createHash } from 'node:crypto';
import { SpendeskSimulator } from '../server';
import { api, err, token } from './helpers';

async function raw(
	url: string,
	init: RequestInit = {},
): Promise<{ status: number; headers: Headers; bytes: Buffer; text: string }> {
	const res = await fetch(url, init);
	const bytes = Buffer.from(await res.arrayBuffer());
	return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') };
}

describe('files', () => {
	let sim: SpendeskSimulator;
	let org: string;

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 3, payables: 12 } } });
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
	});
	afterAll(async () => {
		await sim.stop();
	});
	beforeEach(() => sim.clearFaults());

	describe('payable attachments', () => {
		test('the list gives id, fileName, mimeType, size, downloadUrl and expiresAt; the seeded count follows the payable number (n mod 3)', async () => {
			const counts = [];
			for (const n of [3, 4, 5]) {
				const res = await api(sim, org, `/v1/payables/pay_001_00000${n}/attachments`, {
					companyId: 'cmp_001',
				});
				expect(res.status).toBe(200);
				counts.push(res.body.data.length);
				for (const a of res.body.data) {
					expect(Object.keys(a).sort()).toEqual([
						'downloadUrl',
						'expiresAt',
						'fileName',
						'id',
						'mimeType',
						'size',
					]);
					expect(new Date(a.expiresAt).getTime()).toBeGreaterThan(sim.clock.now());
				}
			}
			expect(counts).toEqual([0, 1, 2]);
		});

		test('option attachmentShape "documented": items carry mimeType, checksum, attachedAt and url (no ID or file name); the url serves the file without a token', async () => {
			sim.configure({ attachmentShape: 'documented' });
			try {
				const res = await api(sim, org, '/v1/payables/pay_001_000005/attachments', {
					companyId: 'cmp_001',
				});
				expect(res.status).toBe(200);
				const files = sim.files.attachmentsOf('pay_001_000005');
				expect(res.body.data).toHaveLength(2);
				for (const [i, a] of res.body.data.entries()) {
					expect(Object.keys(a).sort()).toEqual(['attachedAt', 'checksum', 'mimeType', 'url']);
					expect(a.mimeType).toBe(files[i].mimeType);
					expect(a.checksum).toBe(createHash('md5').update(files[i].content).digest('hex'));
					expect(new Date(a.attachedAt).toISOString()).toBe(a.attachedAt);
					expect(new URL(a.url).origin).toBe(sim.fileBaseUrl);
					const file = await raw(a.url);
					expect(file.status).toBe(200);
					expect(file.bytes).toEqual(files[i].content);
				}
			} finally {
				sim.configure({ attachmentShape: 'decided' });
			}
		});

		test('the seeded receipt types (docs/api.md#files): a payable numbered 8 mod 9 has two PDFs and a JPEG, each served with its type', async () => {
			const res = await api(sim, org, '/v1/payables/pay_001_000008/attachments', {
				companyId: 'cmp_001',
			});
			expect(res.status).toBe(200);
			expect(res.body.data.map((a: { mimeType: string }) => a.mimeType)).toEqual([
				'application/pdf',
				'application/pdf',
				'image/jpeg',
			]);
			for (const a of res.body.data) {
				const file = await raw(a.downloadUrl);
				expect(file.status).toBe(200);
				expect(file.headers.get('content-type')).toBe(a.mimeType);
			}
			const jpeg = await raw(res.body.data[2].downloadUrl);
			expect([...jpeg.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
		});

		test('the download URL is on the file host, another origin than the API', async () => {
			const res = await api(sim, org, '/v1/payables/pay_001_000002/attachments', {
				companyId: 'cmp_001',
			});
			const url = new URL(res.body.data[0].downloadUrl);
			expect(url.origin).toBe(sim.fileBaseUrl);
			expect(url.origin).not.toBe(sim.baseUrl);
		});

		test('the file is served without any token, byte for byte, with its type and length; the log shows no authorization', async () => {
			const res = await api(sim, org, '/v1/payables/pay_001_000002/attachments', {
				companyId: 'cmp_001',
			});
			const png = res.body.data.find((a: { mimeType: string }) => a.mimeType === 'image/png');
			sim.clearLog();
			const file = await raw(png.downloadUrl);
			expect(file.status).toBe(200);
			expect(file.headers.get('content-type')).toBe('image/png');
			expect(file.headers.get('content-length')).toBe(String(png.size));
			expect(file.bytes.equals(sim.files.blob(png.id)!.content)).toBe(true);
			expect(sim.log).toHaveLength(1);
			expect(sim.log[0]).toMatchObject({ route: 'fileDownload', host: 'files', status: 200 });
			expect(sim.log[0].headers).not.toHaveProperty('authorization');
		});

		test('an expired URL is a 403 AccessDenied (storage XML)', async () => {
			const res = await api(sim, org, '/v1/payables/pay_001_000001/attachments', {
				companyId: 'cmp_001',
			});
			sim.clock.advance(16 * 60_000);
			const file = await raw(res.body.data[0].downloadUrl);
			expect(file.status).toBe(403);
			expect(file.headers.get('content-type')).toBe('application/xml');
			expect(file.text).toContain('<Code>AccessDenied</Code>');
		});

		test('a wrong signature, or a signature for another file, is a 403 SignatureDoesNotMatch', async () => {
			const res = await api(sim, org, '/v1/payables/pay_001_000002/attachments', {
				companyId: 'cmp_001',
			});
			const [first, second] = res.body.data.map(
				(a: { downloadUrl: string }) => new URL(a.downloadUrl),
			);
			const tampered = new URL(first);
			tampered.searchParams.set('signature', '0'.repeat(64));
			expect((await raw(tampered.toString())).text).toContain('<Code>SignatureDoesNotMatch</Code>');
			const swapped = new URL(first);
			swapped.search = second.search;
			const other = await raw(swapped.toString());
			expect(other.status).toBe(403);
			expect(other.text).toContain('SignatureDoesNotMatch');
		});

		test('the file host serves no API route, and the API serves no file', async () => {
			const onFiles = await raw(`${sim.fileBaseUrl}/v1/payables/pay_001_000002/attachments`, {
				headers: { authorization: `Bearer ${org}`, 'x-company-id': 'cmp_001' },
			});
			expect(onFiles.status).toBe(404);
			const res = await api(sim, org, '/v1/payables/pay_001_000002/attachments', {
				companyId: 'cmp_001',
			});
			const url = new URL(res.body.data[0].downloadUrl);
			expect((await raw(`${sim.baseUrl}${url.pathname}${url.search}`)).status).toBe(404);
		});

		test('fault chunkedFile: the file comes without Content-Length', async () => {
			const res = await api(sim, org, '/v1/payables/pay_001_000001/attachments', {
				companyId: 'cmp_001',
			});
			sim.injectFault({ route: 'fileDownload', kind: 'chunkedFile' });
			const file = await raw(res.body.data[0].downloadUrl);
			expect(file.status).toBe(200);
			expect(file.headers.get('content-length')).toBeNull();
			expect(file.bytes.length).toBe(res.body.data[0].size);
		});

		test('a payable of another company is a 404; the scope is payable-attachment:read', async () => {
			const other = await api(sim, org, '/v1/payables/pay_002_000001/attachments', {
				companyId: 'cmp_001',
			});
			expect(other.status).toBe(404);
			expect(err(other)).toMatchObject({ code: 'not_found', source: 'path.payableId' });
			sim.addApiKey({
				clientId: 'k-payables',
				clientSecret: 's-payables',
				level: 'organisation',
				scopes: ['payable:read'],
			});
			const limited = await token(sim, { clientId: 'k-payables', clientSecret: 's-payables' });
			const denied = await api(sim, limited, '/v1/payables/pay_001_000001/attachments', {
				companyId: 'cmp_001',
			});
			expect(denied.status).toBe(403);
			expect(err(denied).detail).toBe('Missing scope: payable-attachment:read');
		});
	});

	describe('intake file upload', () => {
		const start = (body: unknown, intake = 'int_001_000001') =>
			api(sim, org, `/v2/companies/cmp_001/intakes/${intake}/files`, { method: 'POST', body });

		test('start, PUT without a token, confirm: the file is attached to the intake', async () => {
			const content = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);
			const started = await start({
				fileName: 'bill.pdf',
				mimeType: 'application/pdf',
				size: content.length,
			});
			expect(started.status).toBe(201);
			const { fileId, uploadUrl, method, headers } = started.body.data;
			expect(method).toBe('PUT');
			expect(new URL(uploadUrl).origin).toBe(sim.fileBaseUrl);
			const put = await raw(uploadUrl, { method: 'PUT', headers, body: content });
			expect(put.status).toBe(200);
			const done = await api(
				sim,
				org,
				`/v2/companies/cmp_001/intakes/int_001_000001/files/${fileId}/complete`,
				{ method: 'POST' },
			);
			expect(done.status).toBe(200);
			expect(done.body.data).toEqual({ fileId, status: 'uploaded' });
			expect(sim.files.uploads.get(fileId)!.content!.equals(content)).toBe(true);
			const intake = sim.data('cmp_001').intakes.find((i) => i.id === 'int_001_000001')!;
			expect(intake.files).toEqual([
				{ fileId, fileName: 'bill.pdf', mimeType: 'application/pdf', size: content.length },
			]);
			const upload = sim.log.find((e) => e.route === 'fileUpload')!;
			expect(upload).toMatchObject({ host: 'files', bytes: content.length });
			expect(upload.headers).not.toHaveProperty('authorization');
		});

		test('confirming twice answers the same and attaches the file once (confirm is safe to repeat)', async () => {
			const started = await start(
				{ fileName: 'a.txt', mimeType: 'text/plain', size: 2 },
				'int_001_000002',
			);
			await raw(started.body.data.uploadUrl, {
				method: 'PUT',
				headers: started.body.data.headers,
				body: 'ok',
			});
			const path = `/v2/companies/cmp_001/intakes/int_001_000002/files/${started.body.data.fileId}/complete`;
			const first = await api(sim, org, path, { method: 'POST' });
			const second = await api(sim, org, path, { method: 'POST' });
			expect(second.status).toBe(200);
			expect(second.body).toEqual(first.body);
			expect(
				sim.data('cmp_001').intakes.find((i) => i.id === 'int_001_000002')!.files,
			).toHaveLength(1);
		});

		test('confirming before the PUT is a 409 upload_incomplete', async () => {
			const started = await start({ fileName: 'a.txt', mimeType: 'text/plain', size: 2 });
			const res = await api(
				sim,
				org,
				`/v2/companies/cmp_001/intakes/int_001_000001/files/${started.body.data.fileId}/complete`,
				{ method: 'POST' },
			);
			expect(res.status).toBe(409);
			expect(err(res).code).toBe('upload_incomplete');
		});

		test.each([
			[{ mimeType: 'text/plain', size: 2 }, 'body.fileName'],
			[{ fileName: 'a/b.txt', mimeType: 'text/plain', size: 2 }, 'body.fileName'],
			[{ fileName: 'a.txt', mimeType: 'text', size: 2 }, 'body.mimeType'],
			[{ fileName: 'a.txt', mimeType: 'text/plain', size: 0 }, 'body.size'],
			[{ fileName: 'a.txt', mimeType: 'text/plain', size: 60 * 1024 * 1024 }, 'body.size'],
		])('start refuses %j (400, %s)', async (body, source) => {
			const res = await start(body);
			expect(res.status).toBe(400);
			expect(err(res).source).toBe(source);
		});

		test('an unknown intake is a 404', async () => {
			const res = await start(
				{ fileName: 'a.txt', mimeType: 'text/plain', size: 2 },
				'int_001_999999',
			);
			expect(res.status).toBe(404);
			expect(err(res).source).toBe('path.intakeId');
		});

		test('the PUT must carry the declared content type (403) and size (400); an expired upload URL is a 403', async () => {
			const started = await start({ fileName: 'a.txt', mimeType: 'text/plain', size: 2 });
			const { uploadUrl } = started.body.data;
			expect(
				(
					await raw(uploadUrl, {
						method: 'PUT',
						headers: { 'content-type': 'image/png' },
						body: 'ok',
					})
				).status,
			).toBe(403);
			const short = await raw(uploadUrl, {
				method: 'PUT',
				headers: { 'content-type': 'text/plain' },
				body: 'o',
			});
			expect(short.status).toBe(400);
			expect(short.text).toContain('IncompleteBody');
			sim.clock.advance(16 * 60_000);
			const late = await raw(uploadUrl, {
				method: 'PUT',
				headers: { 'content-type': 'text/plain' },
				body: 'ok',
			});
			expect(late.status).toBe(403);
			expect(late.text).toContain('AccessDenied');
		});
	});

	describe('accounting exports', () => {
		const create = (body: unknown, companyId = 'cmp_001') =>
			api(sim, org, '/v1/accounting/exports', { method: 'POST', companyId, body });

		test('create answers PENDING; polls answer PENDING twice, then COMPLETE; the journal is the CSV of the period', async () => {
			const created = await create({
				from: '2026-01-01T00:00:00.000Z',
				to: '2026-01-01T01:00:00.000Z',
				templateId: 'tpl_default',
			});
			expect(created.status).toBe(201);
			expect(created.body.data).toMatchObject({ status: 'PENDING', templateId: 'tpl_default' });
			const id = created.body.data.id;
			const early = await api(sim, org, `/v1/accounting/journal/${id}/content`, {
				companyId: 'cmp_001',
			});
			expect(early.status).toBe(409);
			expect(err(early).code).toBe('export_not_ready');
			const statuses = [];
			for (let i = 0; i < 3; i++)
				statuses.push(
					(await api(sim, org, `/v1/accounting/exports/${id}`, { companyId: 'cmp_001' })).body.data
						.status,
				);
			expect(statuses).toEqual(['PENDING', 'PENDING', 'COMPLETE']);
			const csv = await api(sim, org, `/v1/accounting/journal/${id}/content`, {
				companyId: 'cmp_001',
			});
			expect(csv.status).toBe(200);
			expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
			const lines = (csv.body as string).trim().split('\r\n');
			expect(lines[0]).toBe('date,payableId,description,amount,currency');
			const inPeriod = sim
				.data('cmp_001')
				.payables.filter((p) => p.createdAt < '2026-01-01T01:00:00.000Z');
			expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(inPeriod.map((p) => p.id));
		});

		test.each([
			[{ to: '2026-02-01T00:00:00Z' }, 'body.from'],
			[{ from: 'yesterday', to: '2026-02-01T00:00:00Z' }, 'body.from'],
			[{ from: '2026-03-01T00:00:00Z', to: '2026-02-01T00:00:00Z' }, 'body.from'],
			[
				{ from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z', templateId: '' },
				'body.templateId',
			],
		])('create refuses %j (400, %s)', async (body, source) => {
			const res = await create(body);
			expect(res.status).toBe(400);
			expect(err(res).source).toBe(source);
		});

		test('fault exportError: the export ends in ERROR and has no journal', async () => {
			const id = (await create({ from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' })).body
				.data.id;
			sim.injectFault({ route: 'getAccountingExport', kind: 'exportError' });
			expect(
				(await api(sim, org, `/v1/accounting/exports/${id}`, { companyId: 'cmp_001' })).body.data
					.status,
			).toBe('ERROR');
			expect(
				(await api(sim, org, `/v1/accounting/journal/${id}/content`, { companyId: 'cmp_001' }))
					.status,
			).toBe(409);
		});

		test("another company's export is a 404; the scope is experimental:accounting-export:read", async () => {
			const id = (await create({ from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' })).body
				.data.id;
			expect(
				(await api(sim, org, `/v1/accounting/exports/${id}`, { companyId: 'cmp_002' })).status,
			).toBe(404);
			const limited = await token(sim, sim.credentials.orgKeyNoExperimental);
			const denied = await api(sim, limited, '/v1/accounting/exports', {
				method: 'POST',
				companyId: 'cmp_001',
				body: {},
			});
			expect(denied.status).toBe(403);
			expect(err(denied).detail).toBe('Missing scope: experimental:accounting-export:read');
		});
	});
});
