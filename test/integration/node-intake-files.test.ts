/**
 * Intake → Upload File and Intake → Create with Attach File, through the node over real HTTP:
 * start (API), PUT of the input item's binary file to the pre-signed link on the simulator's
 * file host WITHOUT the bearer token, confirm (API). Writes: refused on All Companies before any
 * request, the start never retried, errors saying how far the upload went.
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { expectRefusedBeforeAnyRequest, failure, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { AS_GIVEN, expectNoCredentialOnFileHost, runNode } from '../support/node';
import { locatorById } from '../support/values';

/** Bytes that are not UTF-8 text, so a client reading them as text would damage them. */
const CONTENT = Buffer.from([
	0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0xfe, 0x80, 0x0a, 0x7f, 0xc3,
]);

const fileItem = (content = CONTENT, property = 'data'): INodeExecutionData => ({
	json: { subject: 'Invoice attached' },
	binary: {
		[property]: {
			data: content.toString('base64'),
			mimeType: 'application/pdf',
			fileName: 'invoice march.pdf',
			fileExtension: 'pdf',
		},
	},
});

async function run(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	parameters: IDataObject,
	extra: { continueOnFail?: boolean; items?: INodeExecutionData[] } = {},
) {
	const { out } = await runNode(
		sim,
		kind,
		{ companies: 'one', ...parameters },
		{ items: [fileItem()], ...extra },
	);
	return out;
}

const upload = { resource: 'intake', operation: 'uploadFile' };
/** Intake → Create on cmp_001 with the input item's file attached. */
const CREATE_WITH_FILE = {
	resource: 'intake',
	operation: 'create',
	company: 'cmp_001',
	intake: '{"supplierName":"Mail"}',
	attachFile: true,
	binaryPropertyName: 'data',
};

describe('intake files', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{ seed: { sizes: { invoices: 3, payables: 3 } } },
		(started) => (sim = started),
	);

	test.each([
		['orgKey', 'cmp_002', 'cmp_002'],
		['oauthOrg', 'cmp_003', 'cmp_003'],
		['companyKey', '', 'cmp_001'],
		['oauthCompany', '', 'cmp_001'],
	] as const)(
		'%s: Upload File sends the binary file (start, PUT without the token, confirm) and the intake holds it',
		async (kind, company, target) => {
			const intakeId = `int_${target.slice(4)}_000003`;
			const out = await run(sim, kind, {
				...upload,
				company,
				intakeId: locatorById(intakeId),
				binaryPropertyName: 'data',
			});
			expect(out).toHaveLength(1);
			expect(out[0].pairedItem).toEqual({ item: 0 });
			const fileId = String(out[0].json.fileId);
			expect(out[0].json).toEqual({
				intakeId,
				fileId,
				fileName: 'invoice march.pdf',
				mimeType: 'application/pdf',
				size: CONTENT.length,
				status: 'uploaded',
			});
			expect(sim.files.uploads.get(fileId)!.content!.equals(CONTENT)).toBe(true);
			const stored = sim.data(target).intakes.find((i) => i.id === intakeId)!;
			expect(stored.files).toContainEqual({
				fileId,
				fileName: 'invoice march.pdf',
				mimeType: 'application/pdf',
				size: CONTENT.length,
			});
			expect(
				sim.log.map((r) => r.route).filter((r) => !['token', 'oauthToken'].includes(r)),
			).toEqual(['startIntakeUpload', 'fileUpload', 'completeIntakeUpload']);
			const start = sim.requestsTo('startIntakeUpload')[0];
			expect(start).toMatchObject({
				path: `/v2/companies/${target}/intakes/${intakeId}/files`,
				body: { fileName: 'invoice march.pdf', mimeType: 'application/pdf', size: CONTENT.length },
			});
			expect(start.headers.authorization).toBe('Bearer <redacted>');
			expect(sim.requestsTo('fileUpload')[0]).toMatchObject({
				host: 'files',
				status: 200,
				bytes: CONTENT.length,
			});
			expectNoCredentialOnFileHost(sim, { atLeastOne: true });
		},
	);

	test('Create with Attach File and an empty file: refused before the intake is created', async () => {
		const before = sim.data('cmp_001').intakes.length;
		const error = await failure(
			run(sim, 'orgKey', CREATE_WITH_FILE, { items: [fileItem(Buffer.alloc(0))] }),
		);
		expect(error.message).toBe('The file "invoice march.pdf" is empty');
		expect(sim.data('cmp_001').intakes).toHaveLength(before);
		expect(sim.log.filter((r) => r.route !== 'token')).toEqual([]);
	});

	test('Create with Attach File answered without an intake ID: says it was created, not to create it again', async () => {
		const before = sim.data('cmp_001').intakes.length;
		sim.injectFault({ route: 'createIntake', kind: 'setFields', set: { 'data.id': null } });
		const error = await failure(run(sim, 'orgKey', CREATE_WITH_FILE));
		expect(error.message).toBe(
			'The intake was created, but Spendesk did not say its ID: its file was not attached',
		);
		expect(sim.data('cmp_001').intakes).toHaveLength(before + 1);
		expect(sim.log.map((r) => r.route).filter((r) => r !== 'token')).toEqual(['createIntake']);
	});

	test('Create with Attach File: the intake is created, then the file uploaded to it, in the same run', async () => {
		const out = await run(sim, 'orgKey', {
			...CREATE_WITH_FILE,
			intake: '{"supplierName":"Mail","amount":12,"currency":"EUR"}',
		});
		expect(out).toHaveLength(1);
		const created = sim.data('cmp_001').intakes.find((i) => i.id === out[0].json.id)!;
		expect(created).toMatchObject({
			supplierName: 'Mail',
			files: [{ fileName: 'invoice march.pdf', size: CONTENT.length }],
		});
		expect(out[0].json.file).toMatchObject({ intakeId: created.id, status: 'uploaded' });
		expect(sim.log.map((r) => r.route).filter((r) => r !== 'token')).toEqual([
			'createIntake',
			'startIntakeUpload',
			'fileUpload',
			'completeIntakeUpload',
		]);
		expectNoCredentialOnFileHost(sim, { atLeastOne: true });
	});

	test.each([
		[
			{ ...upload, intakeId: locatorById('int_001_000001'), binaryPropertyName: 'data' },
			'Intake → Upload File',
		],
		[
			{ resource: 'intake', operation: 'create', intake: '{"supplierName":"X"}' },
			'Intake → Create',
		],
	])(
		'All Companies handed as given (not by n8n, which drops it) is refused before any request (%#)',
		async (params, action) => {
			await expectRefusedBeforeAnyRequest(
				sim,
				runNode(
					sim,
					'orgKey',
					{ ...params, companies: 'all' },
					{ items: [fileItem()], ...AS_GIVEN },
				),
				`${action} writes to one company at a time: All Companies is not allowed`,
			);
		},
	);

	test('a missing binary property fails before any request, naming it', async () => {
		await expectRefusedBeforeAnyRequest(
			sim,
			run(sim, 'orgKey', {
				...upload,
				company: 'cmp_001',
				intakeId: locatorById('int_001_000001'),
				binaryPropertyName: 'attachment',
			}),
			/binary file 'attachment'/,
		);
		await expectRefusedBeforeAnyRequest(
			sim,
			run(sim, 'orgKey', {
				...upload,
				company: 'cmp_001',
				intakeId: locatorById(' '),
				binaryPropertyName: 'data',
			}),
			"'Intake' is empty",
		);
	});

	test('a 500 on the start is not retried, and the error says no file was sent', async () => {
		sim.injectFault({ route: 'startIntakeUpload', kind: 'status', status: 500 });
		const error = (await failure(
			run(sim, 'orgKey', {
				...upload,
				company: 'cmp_001',
				intakeId: locatorById('int_001_000001'),
				binaryPropertyName: 'data',
			}),
		)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.description).toMatch(/^No file was sent: the upload did not start/);
		expect(sim.requestsTo('startIntakeUpload')).toHaveLength(1);
		expect(sim.requestsTo('fileUpload')).toHaveLength(0);
	});

	test('a refused PUT on the file host stops before the confirm, saying the file was not stored', async () => {
		sim.injectFault({ route: 'fileUpload', kind: 'status', status: 503 });
		const error = (await failure(
			run(sim, 'orgKey', {
				...upload,
				company: 'cmp_001',
				intakeId: locatorById('int_001_000001'),
				binaryPropertyName: 'data',
			}),
		)) as NodeApiError;
		expect(error.message).toBe(
			'The file host ' + sim.fileBaseUrl + ' answered 503 for the upload of "invoice march.pdf"',
		);
		expect(error.description).toMatch(
			/^The file was not stored \(upload fil_\d+ stays unconfirmed/,
		);
		expect(sim.requestsTo('fileUpload')).toHaveLength(1);
		expect(sim.requestsTo('completeIntakeUpload')).toHaveLength(0);
		expectNoCredentialOnFileHost(sim, { atLeastOne: true });
	});

	test('a dropped connection on the confirm is retried (the API makes a repeated confirm safe)', async () => {
		sim.injectFault({ route: 'completeIntakeUpload', kind: 'reset' });
		const out = await run(sim, 'orgKey', {
			...upload,
			company: 'cmp_001',
			intakeId: locatorById('int_001_000002'),
			binaryPropertyName: 'data',
		});
		expect(out[0].json.status).toBe('uploaded');
		expect(sim.requestsTo('completeIntakeUpload').map((r) => r.status)).toEqual([0, 200]);
		expect(sim.data('cmp_001').intakes.find((i) => i.id === 'int_001_000002')!.files).toHaveLength(
			1,
		);
	});

	test('Create with Attach File whose upload fails: the error names the created intake and says not to run Create again', async () => {
		sim.injectFault({
			route: 'startIntakeUpload',
			kind: 'status',
			status: 400,
			detail: 'fileName is not allowed',
		});
		const before = sim.data('cmp_001').intakes.length;
		const error = (await failure(run(sim, 'orgKey', CREATE_WITH_FILE))) as NodeApiError;
		const created = sim.data('cmp_001').intakes;
		expect(created).toHaveLength(before + 1);
		expect(error.description).toMatch(
			new RegExp(
				`^The intake ${created[before].id} was created, but its file was not attached\\. To attach it, use Intake → Upload File`,
			),
		);
	});

	test('Continue On Fail: an item without its file becomes an error item; the others are uploaded', async () => {
		const items = [fileItem(), { json: {} }, fileItem(Buffer.from('second'))];
		const out = await run(
			sim,
			'orgKey',
			{
				...upload,
				company: 'cmp_001',
				intakeId: locatorById('int_001_000004'),
				binaryPropertyName: 'data',
			},
			{ items, continueOnFail: true },
		);
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[0].json.status).toBe('uploaded');
		expect(String(out[1].json.error)).toContain("binary file 'data'");
		expect(out[2].json).toMatchObject({ status: 'uploaded', size: 6 });
	});
});
