/**
 * Payable → Get Attachments names every file it outputs (docs/api.md#files), over real HTTP
 * against the simulator: each binary gets a distinct file name that says what it is, so that a
 * workflow writing the files of one payable to disk keeps them all. In the documented profile
 * the attachments come as the vendor's older document shows them (`mimeType, checksum,
 * attachedAt, url`: no ID, no file name); in the specification profile with their own file
 * names, which may repeat.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { INodeExecutionData } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import type { StoredFile } from '../simulator/files';
import { failure, resetTransport, startSimulator, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { expectNoCredentialOnFileHost, runNode } from '../support/node';
import { locatorById } from '../support/values';

const base = { resource: 'payable', operation: 'getAttachments', companies: 'one' };

async function attachments(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	company: string,
	payableId: string,
): Promise<INodeExecutionData[]> {
	const { out } = await runNode(sim, kind, {
		...base,
		company,
		payableId: locatorById(payableId),
	});
	return out;
}

/** The file name and MIME type of each output item's binary. */
const named = (out: INodeExecutionData[]) =>
	out.map((item) => [item.binary!.data.fileName, item.binary!.data.mimeType]);

/** Each output item's file is, byte for byte, the stored file of the same position. */
function expectBytes(out: INodeExecutionData[], files: StoredFile[]): void {
	expect(out).toHaveLength(files.length);
	out.forEach((item, i) =>
		expect(Buffer.from(item.binary!.data.data, 'base64').equals(files[i].content)).toBe(true),
	);
}

const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`, 'latin1');

describe('attachment file names (docs/api.md#files): the documented profile', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			profile: 'documented',
			seed: { companies: 1, sizes: { invoices: 1, payables: 12 } },
		},
		(started) => (sim = started),
	);

	test('two PDFs and a JPEG of one payable, listed without ID or file name: three distinct names with the right extensions and types', async () => {
		const payableId = 'pay_001_000008';
		const files = sim.files.attachmentsOf(payableId);
		expect(files.map((f) => f.mimeType)).toEqual([
			'application/pdf',
			'application/pdf',
			'image/jpeg',
		]);
		const out = await attachments(sim, 'companyKey', '', payableId);
		expectBytes(out, files);
		// The link's last path segment names the file; the MIME type gives the extension.
		expect(named(out)).toEqual([
			['att_001_000008_1.pdf', 'application/pdf'],
			['att_001_000008_2.pdf', 'application/pdf'],
			['att_001_000008_3.jpg', 'image/jpeg'],
		]);
		expect(new Set(named(out).map(([name]) => name)).size).toBe(3);
		// The items as listed, the spent link left out.
		for (const item of out)
			expect(Object.keys(item.json).sort()).toEqual([
				'attachedAt',
				'checksum',
				'mimeType',
				'payableId',
			]);
		expectNoCredentialOnFileHost(sim, { atLeastOne: true });
	});

	test('a PDF and a PNG: each named after its own link, with its own extension', async () => {
		const out = await attachments(sim, 'companyKey', '', 'pay_001_000002');
		expectBytes(out, sim.files.attachmentsOf('pay_001_000002'));
		expect(named(out)).toEqual([
			['att_001_000002_1.pdf', 'application/pdf'],
			['att_001_000002_2.png', 'image/png'],
		]);
	});
});

describe('attachment file names (docs/api.md#files): the specification profile', () => {
	let sim: SpendeskSimulator;
	const payableId = 'pay_001_000007';
	beforeAll(async () => {
		sim = await startSimulator({ seed: { companies: 1, sizes: { invoices: 1, payables: 12 } } });
	});
	afterAll(async () => sim.stop());
	beforeEach(() => {
		resetTransport();
		sim.clearFaults();
	});
	afterEach(() => sim.files.setAttachments(payableId, []));

	test('the seeded files keep their own names', async () => {
		const files = sim.files.attachmentsOf('pay_001_000008');
		const out = await attachments(sim, 'orgKey', 'cmp_001', 'pay_001_000008');
		expectBytes(out, files);
		expect(named(out)).toEqual(files.map((f) => [f.fileName, f.mimeType]));
	});

	test('two attachments with the same file name (in any case): the second gets a number before its extension', async () => {
		const files: StoredFile[] = [
			{ id: 'att_a', fileName: 'receipt.pdf', mimeType: 'application/pdf', content: pdf('a') },
			{ id: 'att_b', fileName: 'receipt.pdf', mimeType: 'application/pdf', content: pdf('b') },
			{ id: 'att_c', fileName: 'Receipt.PDF', mimeType: 'application/pdf', content: pdf('c') },
			{ id: 'att_d', fileName: 'receipt (2).pdf', mimeType: 'application/pdf', content: pdf('d') },
		];
		sim.files.setAttachments(payableId, files);
		const out = await attachments(sim, 'orgKey', 'cmp_001', payableId);
		expectBytes(out, files);
		expect(named(out).map(([name]) => name)).toEqual([
			'receipt.pdf',
			'receipt (2).pdf',
			'Receipt (3).PDF',
			'receipt (2) (2).pdf',
		]);
		// The items keep the names Spendesk gave.
		expect(out.map((item) => item.json.fileName)).toEqual(files.map((f) => f.fileName));
	});

	test('a file name without extension gets the one of its MIME type; image/jpg is read as image/jpeg', async () => {
		const files: StoredFile[] = [
			{ id: 'att_a', fileName: 'scan', mimeType: 'image/png', content: pdf('png') },
			{ id: 'att_b', fileName: 'photo', mimeType: 'image/jpg', content: pdf('jpg') },
			{ id: 'att_c', fileName: 'notes.v2', mimeType: 'application/pdf', content: pdf('pdf') },
		];
		sim.files.setAttachments(payableId, files);
		const out = await attachments(sim, 'orgKey', 'cmp_001', payableId);
		expectBytes(out, files);
		expect(named(out)).toEqual([
			['scan.png', 'image/png'],
			['photo.jpg', 'image/jpeg'],
			['notes.v2.pdf', 'application/pdf'],
		]);
	});

	test('a listing without MIME type: the type, and so the extension, from the download Content-Type', async () => {
		const files: StoredFile[] = [
			{
				id: 'att_a',
				fileName: 'scan',
				mimeType: 'image/png',
				listedMimeType: null,
				content: pdf('png'),
			},
		];
		sim.files.setAttachments(payableId, files);
		const out = await attachments(sim, 'orgKey', 'cmp_001', payableId);
		expectBytes(out, files);
		expect(named(out)).toEqual([['scan.png', 'image/png']]);
	});

	test('without file name or ID, the link names the file; two links with the same last segment get numbers', async () => {
		sim.configure({ attachmentShape: 'documented' });
		try {
			const files: StoredFile[] = [
				{ id: 'scan', fileName: 'a.pdf', mimeType: 'application/pdf', content: pdf('a') },
				{ id: 'scan.pdf', fileName: 'b.pdf', mimeType: 'application/pdf', content: pdf('b') },
			];
			sim.files.setAttachments(payableId, files);
			const out = await attachments(sim, 'orgKey', 'cmp_001', payableId);
			expectBytes(out, files);
			expect(named(out).map(([name]) => name)).toEqual(['scan.pdf', 'scan (2).pdf']);
		} finally {
			sim.configure({ attachmentShape: 'decided' });
		}
	});

	test('the list as a bare array, or one attachment under data (as the older document declares it): read, not an empty list', async () => {
		sim.files.setAttachments(payableId, [
			{ id: 'att_a', fileName: 'a.pdf', mimeType: 'application/pdf', content: pdf('a') },
			{ id: 'att_b', fileName: 'b.pdf', mimeType: 'application/pdf', content: pdf('b') },
		]);
		sim.injectFault({ route: 'listPayableAttachments', kind: 'bareArray' });
		const bare = await attachments(sim, 'orgKey', 'cmp_001', payableId);
		expect(named(bare).map(([name]) => name)).toEqual(['a.pdf', 'b.pdf']);

		const { out: listed } = await runNode(sim, 'orgKey', {
			...base,
			company: 'cmp_001',
			payableId: locatorById(payableId),
			options: { metadataOnly: true },
		});
		const first = { ...listed[0].json };
		delete first.payableId;
		sim.injectFault({
			route: 'listPayableAttachments',
			kind: 'setFields',
			set: { data: first },
		});
		const one = await attachments(sim, 'orgKey', 'cmp_001', payableId);
		expect(named(one)).toEqual([['a.pdf', 'application/pdf']]);
	});

	test('an answer that is not a list of attachments is an error naming the operation and the company, never an empty list', async () => {
		sim.injectFault({
			route: 'listPayableAttachments',
			kind: 'setFields',
			set: { data: 'none' },
		});
		const error = await failure(attachments(sim, 'orgKey', 'cmp_001', payableId));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			'Spendesk answered Payable → Get Attachments for company "cmp_001" with something the node cannot read as a list (page 1: an object with "data" ("data" is not a list))',
		);
	});
});
