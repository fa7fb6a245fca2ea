/**
 * Payable → Update (docs/api.md#payable-accounting) and Payable → Upload Receipt
 * (docs/api.md#receipt-upload) over real HTTP to the simulator, in both profiles: the
 * documented profile's keys hold the experimental scopes only once granted. Update replaces
 * every line (Replace All) or reads the payable and changes some (Change Some); a stale version,
 * an exported payable or a refused field is the item's error, saying nothing changed. A receipt
 * goes to the file host through the pre-signed form, never with a credential.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, ILoadOptionsFunctions, INodeExecutionData } from 'n8n-workflow';
import { searchCostCenters } from '../../nodes/Spendesk/methods/recordSearch';
import type { SpendeskSimulator } from '../simulator';
import { payableDetail } from '../simulator/routes-reads';
import {
	contextFor,
	expectRefusedBeforeAnyRequest,
	failure,
	simulatorPerSuite,
} from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { apiRequests, expectNoCredentialOnFileHost, runNode } from '../support/node';
import { locatorById, locatorFromList, oneCompany } from '../support/values';

const SCOPES = ['experimental:accounting:update', 'experimental:payable-attachment:write'];
const C = 'cmp_001';
const UPDATE = { resource: 'payable', operation: 'update' };
const UPLOAD = { resource: 'payable', operation: 'uploadReceipt' };

/** Bytes that are not UTF-8 text, so a client reading them as text would damage them. */
const PDF = Buffer.from([
	0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0x0d, 0x0a, 0x2d,
	0x2d, 0x7f, 0xc3, 0x0a,
]);

const fileItem = (content = PDF, mimeType = 'application/pdf'): INodeExecutionData => ({
	json: { supplier: 'Office Supplies' },
	binary: {
		data: {
			data: content.toString('base64'),
			mimeType,
			fileName: 'receipt march.pdf',
			fileExtension: 'pdf',
		},
	},
});

const lines = (...entries: IDataObject[]) => ({ line: entries });
const changes = (...entries: IDataObject[]) => ({ change: entries });
/** Update, Change Some, on the payable's current version (the node reads it). */
const changeSome = (id: string, ...entries: IDataObject[]): IDataObject => ({
	...UPDATE,
	payableId: locatorById(id),
	version: '',
	lineItemsMode: 'changeSome',
	lineChanges: changes(...entries),
});

describe.each(['specification', 'documented'] as const)(
	'node: payable accounting and receipts (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		simulatorPerSuite(
			{
				profile,
				rateLimit: 10_000,
				seed: { companies: 3, sizes: { invoices: 1, payables: 12, suppliers: 3, users: 3 } },
				grantScopes: { 'sim-org-client': SCOPES, 'sim-company-client': SCOPES },
			},
			(started) => (sim = started),
		);

		const detail = (id: string, company = C) =>
			payableDetail(sim.data(company).payables.find((p) => p.id === id)!);
		const run = (
			params: IDataObject,
			kind: CredentialKind = 'orgKey',
			extra: { items?: INodeExecutionData[]; continueOnFail?: boolean } = {},
		) => runNode(sim, kind, { ...oneCompany(kind === 'orgKey' ? C : ''), ...params }, extra);
		const calls = () => apiRequests(sim).map((r) => `${r.method} ${r.path}`);

		test('the Cost Center list: the chosen company’s cost centers, filtered by the text typed', async () => {
			const { context } = await contextFor(sim, 'orgKey', {
				parameters: oneCompany(locatorFromList('cmp_002')),
			});
			sim.clearLog();
			const search = (filter?: string) =>
				searchCostCenters.call(context as unknown as ILoadOptionsFunctions, filter);
			const all = await search();
			const centers = sim.data('cmp_002').costCenters;
			expect(all.results).toEqual(
				centers.map((c) => ({ name: `${c.name} (${c.id})`, value: c.id })),
			);
			expect(apiRequests(sim).every((r) => r.headers['x-company-id'] === 'cmp_002')).toBe(true);
			const one = await search(centers[1].id);
			expect(one.results.map((r) => r.value)).toEqual([centers[1].id]);
		});

		test('Replace All sends every line with the version given, in one PATCH, and Spendesk holds them', async () => {
			const id = 'pay_001_000003';
			const before = detail(id);
			const first = Math.floor(before.amount / 3);
			const { out } = await run({
				...UPDATE,
				payableId: locatorById(id),
				version: String(before.version),
				lineItemsMode: 'replaceAll',
				lineItems: lines(
					{
						grossAmount: first,
						costCenterId: { __rl: true, mode: 'list', value: 'cc_001_0002' },
						expenseAccountId: 'ea_6063',
						taxAccountId: ' ta_4456 ',
						analyticalValues: {
							value: [
								{
									fieldId: locatorById('af_001_001'),
									valueId: locatorById('afv_001_001_00002'),
								},
							],
						},
					},
					{ grossAmount: before.amount - first, expenseAccountId: 'ea_6064' },
				),
			});
			const sent = [
				{
					grossAmount: first,
					costCenterId: 'cc_001_0002',
					expenseAccountId: 'ea_6063',
					taxAccountId: 'ta_4456',
					analyticalFieldValues: [{ fieldId: 'af_001_001', valueId: 'afv_001_001_00002' }],
				},
				{ grossAmount: before.amount - first, expenseAccountId: 'ea_6064' },
			];
			expect(out).toEqual([
				{ json: { id, version: before.version + 1, lineItems: sent }, pairedItem: { item: 0 } },
			]);
			expect(calls()).toEqual([`PATCH /v1/payables/${id}`]);
			expect(apiRequests(sim)[0].body).toEqual({ version: before.version, lineItems: sent });
			const after = detail(id);
			expect(after.version).toBe(before.version + 1);
			// Get answers the lines in its own shape (docs/api.md#payables): accounts as objects.
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
					costCenterId: null,
				}),
			]);
		});

		test('Change Some reads the payable once, changes the lines given and keeps the rest, in one PATCH', async () => {
			const id = 'pay_001_000004';
			const start = detail(id);
			const half = Math.floor(start.amount / 2);
			await run({
				...UPDATE,
				payableId: locatorById(id),
				version: start.version,
				lineItemsMode: 'replaceAll',
				lineItems: lines(
					{ grossAmount: half, taxAccountId: 'ta_1', expenseAccountId: 'ea_1' },
					{ grossAmount: start.amount - half, taxAccountId: 'ta_2' },
				),
			});
			const before = detail(id);
			const { out } = await run(
				{
					...UPDATE,
					payableId: locatorById(id),
					version: '',
					lineItemsMode: 'changeSome',
					lineChanges: changes(
						{ applyTo: 'everyLine', costCenterId: locatorById('cc_001_0003') },
						{ applyTo: 'oneLine', lineNumber: 2, expenseAccountId: 'ea_6070' },
					),
				},
				'companyKey',
			);
			expect(calls()).toEqual([`GET /v1/payables/${id}`, `PATCH /v1/payables/${id}`]);
			const expected = [
				{
					grossAmount: half,
					costCenterId: 'cc_001_0003',
					expenseAccountId: 'ea_1',
					taxAccountId: 'ta_1',
				},
				{
					grossAmount: start.amount - half,
					costCenterId: 'cc_001_0003',
					expenseAccountId: 'ea_6070',
					taxAccountId: 'ta_2',
				},
			];
			expect(apiRequests(sim)[1].body).toEqual({
				version: before.version,
				lineItems: expected.map((line) => ({ ...line, analyticalFieldValues: [] })),
			});
			expect(out[0].json).toMatchObject({ id, version: before.version + 1 });
			const after = detail(id);
			expect(after.costCenterId).toBe('cc_001_0003');
			expect(after.lineItems.map((l) => [l.expenseAccount?.id, l.vatAccount?.id])).toEqual([
				['ea_1', 'ta_1'],
				['ea_6070', 'ta_2'],
			]);
		});

		test('Change Some on a payable whose lines come back as null: refused after the Get, naming it, before any PATCH', async () => {
			const id = 'pay_001_000006';
			sim.injectFault({ route: 'getPayable', kind: 'setFields', set: { lineItems: [null] } });
			const error = await failure(
				run(changeSome(id, { applyTo: 'everyLine', taxAccountId: 'ta_9' })),
			);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				`Spendesk gave line 1 of payable "${id}" without a readable gross amount (in minor units), so it cannot be updated`,
			);
			expect(calls()).toEqual([`GET /v1/payables/${id}`]);
		});

		test('Change Some on a payable Spendesk gives without a version: refused after the Get, saying to set Version, before any PATCH', async () => {
			const id = 'pay_001_000006';
			sim.injectFault({ route: 'getPayable', kind: 'setFields', set: { version: null } });
			const error = (await failure(
				run(changeSome(id, { applyTo: 'everyLine', taxAccountId: 'ta_9' })),
			)) as NodeOperationError;
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				`Spendesk gave no version for payable "${id}", so it cannot be updated`,
			);
			expect(error.description).toContain("Nothing was sent. Set 'Version' to the version");
			expect(calls()).toEqual([`GET /v1/payables/${id}`]);
		});

		test('Change Some keeps an analytical field without a value out of the PATCH, never as "null"', async () => {
			const id = 'pay_001_000006';
			const amount = detail(id).amount;
			sim.injectFault({
				route: 'getPayable',
				kind: 'setFields',
				set: {
					lineItems: [
						{
							financial: { grossAmount: amount },
							analyticalProperties: [
								{ fieldId: 'af_001_001', valueId: null },
								{ fieldId: 'af_001_002' },
							],
						},
					],
				},
			});
			await run(changeSome(id, { applyTo: 'everyLine', taxAccountId: 'ta_9' }));
			const patch = apiRequests(sim).find((r) => r.method === 'PATCH')!;
			expect(patch.body).toMatchObject({
				lineItems: [{ grossAmount: amount, taxAccountId: 'ta_9', analyticalFieldValues: [] }],
			});
			expect(JSON.stringify(patch.body)).not.toMatch(/"null"|"undefined"/);
		});

		test('Change Some on a line the payable lacks: refused after the Get, before any PATCH', async () => {
			const id = 'pay_001_000006';
			const error = await failure(
				run(changeSome(id, { applyTo: 'oneLine', lineNumber: 3, taxAccountId: 'ta_9' })),
			);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(`Change 1: payable "${id}" has no line 3 (it has 1)`);
			expect(calls()).toEqual([`GET /v1/payables/${id}`]);
		});

		test('Change Some: an Apply To the node does not know (from an expression) is refused before any request, never read as Every Line', async () => {
			const id = 'pay_001_000006';
			await expectRefusedBeforeAnyRequest(
				sim,
				run(changeSome(id, { applyTo: 'line', lineNumber: 1, taxAccountId: 'ta_9' })),
				`Change 1, 'Apply To': "line" is not one of the values Spendesk knows`,
			);
		});

		test('a stale version: the item’s error says the payable changed since it was read; nothing changes, nothing is retried', async () => {
			const id = 'pay_001_000007';
			const before = detail(id);
			await run({
				...UPDATE,
				payableId: locatorById(id),
				version: before.version,
				lineItemsMode: 'replaceAll',
				lineItems: lines({ grossAmount: before.amount, expenseAccountId: 'ea_1' }),
			});
			const error = (await failure(
				run({
					...UPDATE,
					payableId: locatorById(id),
					version: String(before.version),
					lineItemsMode: 'changeSome',
					lineChanges: changes({ applyTo: 'everyLine', expenseAccountId: 'ea_2' }),
				}),
			)) as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(
				`Payable "${id}" in company "${C}" has changed in Spendesk since it was read`,
			);
			expect(error.description).toContain(`after version ${before.version} was read`);
			expect(error.description).toContain('Payable → Get');
			expect(calls()).toEqual([`GET /v1/payables/${id}`, `PATCH /v1/payables/${id}`]);
			expect(detail(id).lineItems[0].expenseAccount?.id).toBe('ea_1');
		});

		test('a refused field (400) names the line and the field and says nothing changed; an exported payable is refused as such', async () => {
			const id = 'pay_001_000008';
			const before = detail(id);
			const error = (await failure(
				run({
					...UPDATE,
					payableId: locatorById(id),
					version: before.version,
					lineItemsMode: 'replaceAll',
					lineItems: lines(
						{ grossAmount: 1 },
						{ grossAmount: before.amount - 1, costCenterId: locatorById('cc_999') },
					),
				}),
			)) as NodeApiError;
			expect(error.message).toBe(
				`Spendesk refused the accounting of payable "${id}" in company "${C}" (line 2, 'Cost Center')`,
			);
			expect(error.description).toMatch(
				/^Nothing was changed\. Spendesk said: No cost center cc_999/,
			);
			expect(error.httpCode).toBe('400');
			expect(calls()).toEqual([`PATCH /v1/payables/${id}`]);
			expect(detail(id).version).toBe(before.version);

			const exported = sim.data(C).payables[9];
			exported.bookkeepingStatus = 'exported';
			const refused = await failure(
				run({
					...UPDATE,
					payableId: locatorById(exported.id),
					lineItemsMode: 'changeSome',
					version: '',
					lineChanges: changes({ costCenterId: locatorById('cc_001_0001') }),
				}),
			);
			expect(refused.message).toBe(
				`Payable "${exported.id}" in company "${C}" is already exported: its accounting can no longer change`,
			);
		});

		test("bad input fails before any request: no lines, a change that sets nothing, a line number or an amount that is not whole, a line's ID", async () => {
			const base = { ...UPDATE, payableId: locatorById('pay_001_000002'), version: 1 };
			// The input, the message and, when given, how the description ends.
			const cases: Array<[IDataObject, string, string?]> = [
				[
					{ lineItemsMode: 'replaceAll', lineItems: {} },
					"'Lines' must hold at least one line; got none",
				],
				[
					{ lineItemsMode: 'changeSome', lineChanges: {} },
					"'Changes' is empty: there is nothing to update",
				],
				[
					{
						lineItemsMode: 'changeSome',
						lineChanges: changes({ applyTo: 'everyLine', taxAccountId: ' ' }),
					},
					'Change 1 sets nothing',
				],
				[
					{
						lineItemsMode: 'changeSome',
						lineChanges: changes({ applyTo: 'oneLine', lineNumber: 0, taxAccountId: 'ta_7' }),
					},
					"Change 1, 'Line Number' must be a whole number from 1; got 0",
				],
				[
					{
						lineItemsMode: 'changeSome',
						lineChanges: changes({ applyTo: 'oneLine', lineNumber: 1.5, taxAccountId: 'ta_7' }),
					},
					"Change 1, 'Line Number' must be a whole number from 1; got 1.5",
				],
				[
					{ lineItemsMode: 'replaceAll', lineItems: lines({ grossAmount: 12.5 }) },
					"Line 1, 'Gross Amount (Minor Units)' must be a whole number of minor units; got 12.5",
				],
				// Left empty (or an expression giving ''): no amount, not 0.
				[
					{ lineItemsMode: 'replaceAll', lineItems: lines({ grossAmount: '' }) },
					`Line 1, 'Gross Amount (Minor Units)' must be a whole number of minor units; got ""`,
				],
				// A line's ID: the error names the line and the field; the hint, where the ID comes from.
				[
					{
						lineItemsMode: 'replaceAll',
						lineItems: lines({ grossAmount: 1, costCenterId: locatorById('a/b') }),
					},
					`Line 1, 'Cost Center' holds "a/b", which is not a valid ID`,
					'Pick it from the list, or enter its ID By ID.',
				],
				[
					{
						lineItemsMode: 'changeSome',
						lineChanges: changes({ applyTo: 'everyLine', expenseAccountId: 'x y' }),
					},
					`Change 1, 'Expense Account ID' holds "x y", which is not a valid ID`,
					'Enter the ID as Spendesk gives it.',
				],
			];
			for (const [params, message, hint] of cases) {
				const refused = await expectRefusedBeforeAnyRequest(
					sim,
					run({ ...base, ...params }),
					message,
				);
				if (hint) expect(refused.description?.slice(-hint.length)).toBe(hint);
			}
		});

		test('Continue On Fail: a stale item becomes an error item paired with it; the next item is updated', async () => {
			const id = 'pay_001_000011';
			const before = detail(id);
			const items: INodeExecutionData[] = [
				{ json: { version: before.version + 5 } },
				{ json: { version: before.version } },
			];
			const { out } = await run(
				{
					...UPDATE,
					payableId: locatorById(id),
					version: '={{ $json.version }}',
					lineItemsMode: 'replaceAll',
					lineItems: lines({ grossAmount: before.amount, taxAccountId: 'ta_7' }),
				},
				'orgKey',
				{ continueOnFail: true, items },
			);
			expect(out).toHaveLength(2);
			expect(out[0].pairedItem).toEqual({ item: 0 });
			expect(out[0].json.error).toBe(
				`Payable "${id}" in company "${C}" has changed in Spendesk since it was read`,
			);
			expect(out[1]).toEqual({
				json: {
					id,
					version: before.version + 1,
					lineItems: [{ grossAmount: before.amount, taxAccountId: 'ta_7' }],
				},
				pairedItem: { item: 1 },
			});
			expect(calls()).toEqual([`PATCH /v1/payables/${id}`, `PATCH /v1/payables/${id}`]);
			expect(detail(id).lineItems[0].vatAccount?.id).toBe('ta_7');
		});

		test('Upload Receipt: the file reaches the file host with its exact bytes, without any credential, and the payable lists it', async () => {
			const id = 'pay_001_000005';
			const before = sim.files.attachmentsOf(id).length;
			const { out } = await run(
				{ ...UPLOAD, payableId: locatorById(id), binaryPropertyName: 'data' },
				'companyKey',
				{ items: [fileItem()] },
			);
			expect(out).toEqual([
				{
					json: {
						payableId: id,
						fileName: 'receipt march.pdf',
						mimeType: 'application/pdf',
						size: PDF.length,
					},
					pairedItem: { item: 0 },
				},
			]);
			expect(calls()).toEqual([`POST /v1/payables/${id}/attachments`, 'POST /receipts']);
			expect(apiRequests(sim)[0].body).toEqual({
				mimeType: 'application/pdf',
				contentLength: PDF.length,
			});
			expectNoCredentialOnFileHost(sim, { atLeastOne: true });
			const attached = sim.files.attachmentsOf(id);
			expect(attached).toHaveLength(before + 1);
			expect(attached.at(-1)).toMatchObject({
				fileName: 'receipt march.pdf',
				mimeType: 'application/pdf',
			});
			expect(Buffer.compare(attached.at(-1)!.content, PDF)).toBe(0);
		});

		test('Upload Receipt refuses a file over Max File Size, or of another type, before any request', async () => {
			const big = Buffer.alloc(20 * 1024, 7);
			await expectRefusedBeforeAnyRequest(
				sim,
				run(
					{
						...UPLOAD,
						payableId: locatorById('pay_001_000005'),
						binaryPropertyName: 'data',
						options: { maxFileSize: 0.01 },
					},
					'orgKey',
					{ items: [fileItem(big)] },
				),
				'The file "receipt march.pdf" is larger than \'Max File Size (MB)\' (20.0 KB; the limit is 10.2 KB)',
			);
			await expectRefusedBeforeAnyRequest(
				sim,
				run(
					{ ...UPLOAD, payableId: locatorById('pay_001_000005'), binaryPropertyName: 'data' },
					'orgKey',
					{ items: [fileItem(PDF, 'text/plain')] },
				),
				'The file "receipt march.pdf" is text/plain: Spendesk takes PDF, JPEG and PNG receipts only',
			);
		});

		test('Upload Receipt refuses a form whose URL is plain HTTP off this machine: nothing reaches a file host', async () => {
			const internals = sim as unknown as { fileUrl: string };
			const real = internals.fileUrl;
			internals.fileUrl = 'http://files.example.com';
			try {
				const error = await failure(
					run(
						{ ...UPLOAD, payableId: locatorById('pay_001_000005'), binaryPropertyName: 'data' },
						'orgKey',
						{ items: [fileItem()] },
					),
				);
				expect(error).toBeInstanceOf(NodeOperationError);
				expect(error.message).toBe(
					'Refusing the link for receipt "receipt march.pdf": only HTTPS links are followed (http://files.example.com)',
				);
			} finally {
				internals.fileUrl = real;
			}
			expect(calls()).toEqual(['POST /v1/payables/pay_001_000005/attachments']);
			expect(sim.log.filter((r) => r.host === 'files')).toHaveLength(0);
		});

		test('Upload Receipt: a refusal of the file host is the item’s error with Continue On Fail; the next item is uploaded', async () => {
			const id = 'pay_001_000002';
			sim.injectFault({ route: 'receiptUpload', kind: 'status', status: 403, times: 1 });
			const before = sim.files.attachmentsOf(id).length;
			const { out } = await run(
				{ ...UPLOAD, payableId: locatorById(id), binaryPropertyName: 'data' },
				'orgKey',
				{ items: [fileItem(), fileItem()], continueOnFail: true },
			);
			expect(out).toHaveLength(2);
			expect(out[0].pairedItem).toEqual({ item: 0 });
			expect(String(out[0].json.error)).toMatch(/has expired or is not valid \(403/);
			expect(out[1]).toMatchObject({ json: { payableId: id }, pairedItem: { item: 1 } });
			expect(sim.files.attachmentsOf(id)).toHaveLength(before + 1);
		});
	},
);
