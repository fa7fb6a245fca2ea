/**
 * Payable → Get Attachments through the node, over real HTTP: the attachments list from the API,
 * each file from its pre-signed link on the simulator's file host (another origin) with n8n's
 * plain request helper. The bearer token never reaches the file host (asserted from the
 * simulator's log); sizes, expired links, plain-HTTP links and Continue On Fail.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { presignedUrl } from '../../nodes/Spendesk/transport/presigned';
import type { SpendeskSimulator } from '../simulator';
import {
	contextFor,
	expectRefusedBeforeAnyRequest,
	failure,
	resetTransport,
	simulatorPerSuite,
} from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { expectNoCredentialOnFileHost, runNode } from '../support/node';
import { locatorById } from '../support/values';

const base = { resource: 'payable', operation: 'getAttachments', companies: 'one' };

async function run(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	parameters: IDataObject,
	extra: { continueOnFail?: boolean; items?: INodeExecutionData[] } = {},
) {
	const { out } = await runNode(sim, kind, { ...base, ...parameters }, extra);
	return out;
}

describe('payable getAttachments', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{ seed: { sizes: { invoices: 3, payables: 12 } } },
		(started) => (sim = started),
	);
	beforeEach(() => sim.configure({ fileUrlLifetimeSeconds: undefined }));

	test.each([
		['orgKey', 'cmp_002', 'cmp_002'],
		['oauthOrg', 'cmp_003', 'cmp_003'],
		['companyKey', '', 'cmp_001'],
		['oauthCompany', '', 'cmp_001'],
	] as const)(
		'%s: one item per attachment, the file as binary data (bytes, name and type kept), the token never on the file host',
		async (kind, company, target) => {
			const payableId = `pay_${target.slice(4)}_000002`;
			const out = await run(sim, kind, { company, payableId: locatorById(payableId) });
			const files = sim.files.attachmentsOf(payableId);
			expect(files).toHaveLength(2);
			expect(out).toHaveLength(2);
			out.forEach((item, i) => {
				expect(item.pairedItem).toEqual({ item: 0 });
				expect(item.json).toEqual({
					payableId,
					id: files[i].id,
					fileName: files[i].fileName,
					mimeType: files[i].mimeType,
					size: files[i].content.length,
					expiresAt: expect.any(String),
				});
				const binary = item.binary!.data;
				expect(Buffer.from(binary.data, 'base64').equals(files[i].content)).toBe(true);
				expect(binary).toMatchObject({ fileName: files[i].fileName, mimeType: files[i].mimeType });
			});
			const api = sim.log.filter(
				(r) => r.host === undefined && r.route === 'listPayableAttachments',
			);
			expect(api).toHaveLength(1);
			expect(api[0].headers.authorization).toBe('Bearer <redacted>');
			expect(api[0].companyId).toBe(target);
			const downloads = sim.log.filter((r) => r.route === 'fileDownload');
			expect(downloads).toHaveLength(2);
			for (const d of downloads) expect(d).toMatchObject({ host: 'files', status: 200 });
			expectNoCredentialOnFileHost(sim);
		},
	);

	test('Metadata Only: the attachments with their links, no file downloaded', async () => {
		const out = await run(sim, 'orgKey', {
			company: 'cmp_001',
			payableId: locatorById('pay_001_000005'),
			options: { metadataOnly: true },
		});
		expect(out).toHaveLength(2);
		for (const item of out) {
			expect(item.binary).toBeUndefined();
			expect(new URL(String(item.json.downloadUrl)).origin).toBe(sim.fileBaseUrl);
		}
		expect(sim.log.filter((r) => r.host === 'files')).toHaveLength(0);
	});

	test('Binary Property: the file goes under the name given; a payable without attachments gives no item', async () => {
		const out = await run(sim, 'orgKey', {
			company: 'cmp_001',
			payableId: locatorById('pay_001_000004'),
			options: { binaryPropertyName: 'receipt' },
		});
		expect(out).toHaveLength(1);
		expect(Object.keys(out[0].binary!)).toEqual(['receipt']);
		expect(
			await run(sim, 'orgKey', { company: 'cmp_001', payableId: locatorById('pay_001_000003') }),
		).toEqual([]);
	});

	describe('Max File Size', () => {
		const big = Buffer.alloc(2 * 1024 * 1024, 7);
		afterEach(() => sim.files.setAttachments('pay_001_000007', []));

		test('an attachment listed above the limit fails before its download', async () => {
			sim.files.setAttachments('pay_001_000007', [
				{ id: 'att_big', fileName: 'big.pdf', mimeType: 'application/pdf', content: big },
			]);
			const error = await failure(
				run(sim, 'orgKey', {
					company: 'cmp_001',
					payableId: locatorById('pay_001_000007'),
					options: { maxFileSize: 1 },
				}),
			);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				'The file of attachment "big.pdf" of the payable is larger than \'Max File Size (MB)\' allows (2.0 MB; the limit is 1.0 MB)',
			);
			expect(sim.log.filter((r) => r.host === 'files')).toHaveLength(0);
		});

		test('a listing that understates: the Content-Length above the limit stops the download', async () => {
			sim.files.setAttachments('pay_001_000007', [
				{
					id: 'att_big',
					fileName: 'big.pdf',
					mimeType: 'application/pdf',
					content: big,
					listedSize: 10,
				},
			]);
			const error = await failure(
				run(sim, 'orgKey', {
					company: 'cmp_001',
					payableId: locatorById('pay_001_000007'),
					options: { maxFileSize: 1 },
				}),
			);
			expect(error.message).toBe(
				'The file of attachment "big.pdf" of the payable is larger than \'Max File Size (MB)\' allows (2.0 MB; the limit is 1.0 MB)',
			);
		});

		test('no Content-Length either: the bytes received are counted and the download stops past the limit', async () => {
			sim.files.setAttachments('pay_001_000007', [
				{
					id: 'att_big',
					fileName: 'big.pdf',
					mimeType: 'application/pdf',
					content: big,
					listedSize: 10,
				},
			]);
			sim.injectFault({ route: 'fileDownload', kind: 'chunkedFile' });
			const error = await failure(
				run(sim, 'orgKey', {
					company: 'cmp_001',
					payableId: locatorById('pay_001_000007'),
					options: { maxFileSize: 1 },
				}),
			);
			expect(error.message).toBe(
				'The file of attachment "big.pdf" of the payable is larger than \'Max File Size (MB)\' allows (more than 1.0 MB received; the limit is 1.0 MB)',
			);
		});

		test('a file at the limit is downloaded whole without Content-Length', async () => {
			sim.files.setAttachments('pay_001_000007', [
				{ id: 'att_big', fileName: 'big.pdf', mimeType: 'application/pdf', content: big },
			]);
			sim.injectFault({ route: 'fileDownload', kind: 'chunkedFile' });
			const out = await run(sim, 'orgKey', {
				company: 'cmp_001',
				payableId: locatorById('pay_001_000007'),
				options: { maxFileSize: 2 },
			});
			expect(Buffer.from(out[0].binary!.data.data, 'base64').equals(big)).toBe(true);
		});
	});

	test('an expired link fails clearly (403 AccessDenied); Continue On Fail makes it an error item paired with its input', async () => {
		sim.configure({ fileUrlLifetimeSeconds: 0 });
		const params = { company: 'cmp_001', payableId: locatorById('pay_001_000004') };
		const error = await failure(run(sim, 'orgKey', params));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'The link for attachment "receipt-pay_001_000004.pdf" of the payable has expired or is not valid (403 AccessDenied)',
		);
		expect(JSON.stringify(error)).not.toContain('signature=');
		const out = await run(sim, 'orgKey', params, {
			continueOnFail: true,
			items: [{ json: {} }, { json: {} }],
		});
		expect(out).toHaveLength(2);
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(out[0].json.error).toContain('has expired or is not valid');
		expectNoCredentialOnFileHost(sim);
	});

	test.each([
		['drops the connection', 'dropMidBody', 'broke off'],
		['falls silent', 'stallMidBody', 'stalled'],
	] as const)(
		'a download whose file host %s mid-body fails naming the file and the host, never the signature',
		async (_how, kind, verb) => {
			resetTransport({ timeoutMs: 1500 });
			sim.injectFault({ route: 'fileDownload', kind });
			const params = { company: 'cmp_001', payableId: locatorById('pay_001_000004') };
			const file = sim.files.attachmentsOf('pay_001_000004')[0];
			const error = await failure(run(sim, 'orgKey', params));
			expect(error).toBeInstanceOf(NodeApiError);
			const host = new URL(sim.fileBaseUrl).origin;
			expect(error.message).toBe(
				`The download of attachment "${file.fileName}" of the payable from the file host ${host} ${verb} after ${Math.floor(file.content.length / 2)} of ${file.content.length} bytes`,
			);
			const { description } = error as NodeApiError;
			expect(description).toContain('Run the node again');
			expect(JSON.stringify(error)).not.toContain('signature=');
			expect(`${error.message} ${description}`).not.toMatch(/expires=|signature/);
			expect(error.message).not.toBe('terminated');
		},
	);

	test('an unknown payable is a 404 naming the call; IDs are checked before any request', async () => {
		const error = await failure(
			run(sim, 'orgKey', { company: 'cmp_001', payableId: locatorById('pay_001_999999') }),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			`Spendesk found nothing for Payable → Get Attachments in company "cmp_001" (404)`,
		);
		for (const bad of ['', '  ', '.', '..', 'a/b']) {
			const refused = await expectRefusedBeforeAnyRequest(
				sim,
				run(sim, 'orgKey', { company: 'cmp_001', payableId: locatorById(bad) }),
				/^'Payable' (is empty|holds ".*", which is not a valid ID)$/,
			);
			// The panel's words: where the ID comes from.
			expect(refused.description).toMatch(
				/Pick the payable from the list, or give its ID, usually from an expression such as \{\{ \$json\.id \}\} \(Payable → Get Many lists them\)\.$/,
			);
		}
	});

	test('a link is followed over HTTPS only (plain HTTP on loopback only), never with user info', async () => {
		const { context } = await contextFor(sim, 'orgKey');
		const ctx = context as unknown as IExecuteFunctions;
		expect(presignedUrl(ctx, 'https://files.example.com/a?sig=1', 'a file', 0).host).toBe(
			'files.example.com',
		);
		expect(presignedUrl(ctx, 'http://127.0.0.1:9/a', 'a file', 0).port).toBe('9');
		expect(presignedUrl(ctx, 'http://localhost:9/a', 'a file', 0).hostname).toBe('localhost');
		for (const bad of [
			'http://files.example.com/a',
			'ftp://127.0.0.1/a',
			'https://user:pw@files.example.com/a',
			'not a url',
			'',
		]) {
			expect(() => presignedUrl(ctx, bad, 'a file', 0)).toThrow(NodeOperationError);
		}
		expect(() => presignedUrl(ctx, 'http://files.example.com/a', 'a file', 0)).toThrow(
			'Refusing the link for a file: only HTTPS links are followed (http://files.example.com)',
		);
	});
});
