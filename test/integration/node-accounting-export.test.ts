/**
 * Accounting Export → Create and → Get Journal through the node, over real HTTP:
 * the export polled until COMPLETE (bounded by Max Wait), its journal as a CSV file in binary
 * data, the CSV accepted only on the journal endpoint (a proxy's HTML page is refused).
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { expectRefusedBeforeAnyRequest, failure, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { AS_GIVEN, apiRequests, runNode } from '../support/node';
import { locatorById } from '../support/values';

const create = {
	resource: 'accountingExport',
	operation: 'create',
	from: '2026-01-01T00:00:00.000Z',
	to: '2026-01-01T02:00:00.000Z',
	options: { maxWait: 30 },
};

async function run(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	parameters: IDataObject,
	continueOnFail = false,
	timezone?: string,
) {
	const { out } = await runNode(
		sim,
		kind,
		{ companies: 'one', ...parameters },
		{ continueOnFail, timezone },
	);
	return out;
}

const apiRoutes = (sim: SpendeskSimulator) => apiRequests(sim).map((r) => r.route);

describe('accounting export', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			exportPendingPolls: 1,
			seed: { sizes: { invoices: 3, payables: 30 } },
		},
		(started) => (sim = started),
	);
	beforeEach(() => sim.configure({ exportPendingPolls: 1 }));

	test.each([
		['orgKey', 'cmp_002', 'cmp_002'],
		['oauthOrg', 'cmp_003', 'cmp_003'],
		['companyKey', '', 'cmp_001'],
		['oauthCompany', '', 'cmp_001'],
	] as const)(
		'%s: Create polls until COMPLETE; Get Journal gives the CSV as binary data',
		async (kind, company, target) => {
			const out = await run(sim, kind, {
				...create,
				company,
				options: { ...create.options, templateId: locatorById(' tpl_default ') },
			});
			expect(out).toHaveLength(1);
			expect(out[0].pairedItem).toEqual({ item: 0 });
			const exportId = String(out[0].json.id);
			expect(out[0].json).toEqual({
				id: exportId,
				status: 'COMPLETE',
				from: create.from,
				to: create.to,
				templateId: 'tpl_default',
			});
			expect(apiRoutes(sim)).toEqual([
				'createAccountingExport',
				'getAccountingExport',
				'getAccountingExport',
			]);
			expect(sim.requestsTo('createAccountingExport')[0]).toMatchObject({
				companyId: target,
				body: { from: create.from, to: create.to, templateId: 'tpl_default' },
			});

			const journal = await run(sim, kind, {
				resource: 'accountingExport',
				operation: 'getJournal',
				company,
				exportId: locatorById(exportId),
			});
			expect(journal).toHaveLength(1);
			expect(journal[0].pairedItem).toEqual({ item: 0 });
			const file = journal[0].binary!.data;
			expect(file).toMatchObject({ fileName: `journal-${exportId}.csv`, mimeType: 'text/csv' });
			const csv = Buffer.from(file.data, 'base64').toString('utf8');
			const lines = csv.trim().split('\r\n');
			expect(lines[0]).toBe('date,payableId,description,amount,currency');
			const expected = sim
				.data(target)
				.payables.filter((p) => p.createdAt >= create.from && p.createdAt < create.to);
			expect(expected.length).toBeGreaterThan(0);
			expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(expected.map((p) => p.id));
			expect(journal[0].json).toEqual({
				exportId,
				fileName: `journal-${exportId}.csv`,
				mimeType: 'text/csv',
				size: Buffer.byteLength(csv),
			});
			expect(sim.requestsTo('getJournal')[0].headers.accept).toBe(
				'text/csv, application/json;q=0.5',
			);
		},
	);

	test("From and To are date fields: a date-time without zone is read in the workflow's time zone and sent as an ISO instant", async () => {
		await run(
			sim,
			'orgKey',
			{ ...create, company: 'cmp_001', from: '2026-01-01T00:00:00', to: '2026-07-31T23:59:59' },
			false,
			'Europe/Paris',
		);
		expect(sim.requestsTo('createAccountingExport')[0].body).toEqual({
			from: '2025-12-31T23:00:00.000Z',
			to: '2026-07-31T21:59:59.000Z',
		});
		await run(sim, 'orgKey', {
			...create,
			company: 'cmp_001',
			from: '2026-01-01T00:00:00',
			to: '2026-01-31T23:59:59',
		});
		expect(sim.requestsTo('createAccountingExport')[0].body).toEqual({
			from: '2026-01-01T00:00:00.000Z',
			to: '2026-01-31T23:59:59.000Z',
		});
	});

	test('From and To with a zone, or as a date from an expression, are taken as they are', async () => {
		await run(
			sim,
			'orgKey',
			{
				...create,
				company: 'cmp_001',
				from: '2026-01-01T00:00:00+01:00',
				to: new Date('2026-01-02T00:00:00Z'),
			},
			false,
			'America/New_York',
		);
		expect(sim.requestsTo('createAccountingExport')[0].body).toEqual({
			from: '2025-12-31T23:00:00.000Z',
			to: '2026-01-02T00:00:00.000Z',
		});
	});

	test.each([
		[{ from: '' }, "'From' must be a date and time; got nothing"],
		[{ to: 'next week' }, `'Before' must be a date and time; got "next week"`],
		[
			{ from: '2026-02-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' },
			"'From' (2026-02-01T00:00:00.000Z) is after 'Before' (2026-01-01T00:00:00.000Z)",
		],
		[
			{ options: { maxWait: 0 } },
			"'Max Wait (Seconds)' must be a number of seconds from 1 to 3600; got 0",
		],
	])('bad input %j fails before any request', async (params, message) => {
		await expectRefusedBeforeAnyRequest(
			sim,
			run(sim, 'orgKey', { ...create, company: 'cmp_001', ...params }),
			message,
		);
	});

	test('an export ending in ERROR fails naming it', async () => {
		sim.injectFault({ route: 'getAccountingExport', kind: 'exportError' });
		const error = await failure(run(sim, 'orgKey', { ...create, company: 'cmp_001' }));
		expect(error.message).toMatch(/^Spendesk could not build the accounting export exp_\d+$/);
	});

	test('Max Wait bounds the wait; the error says to get the journal later rather than create another export', async () => {
		sim.configure({ exportPendingPolls: 1000 });
		const error = (await failure(
			run(sim, 'orgKey', { ...create, company: 'cmp_001', options: { maxWait: 1 } }),
		)) as NodeOperationError;
		expect(error.message).toMatch(/^The accounting export (exp_\d+) was not ready after 1 s$/);
		expect(error.description).toContain('Accounting Export → Get Journal');
		const polls = sim.requestsTo('getAccountingExport');
		expect(polls.length).toBeGreaterThanOrEqual(2);
		expect(polls.length).toBeLessThanOrEqual(4);
		expect(sim.requestsTo('createAccountingExport')).toHaveLength(1);
	});

	test('a 500 on the create is not retried (each call starts a new export)', async () => {
		sim.injectFault({ route: 'createAccountingExport', kind: 'status', status: 500 });
		const error = await failure(run(sim, 'orgKey', { ...create, company: 'cmp_001' }));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(sim.requestsTo('createAccountingExport')).toHaveLength(1);
	});

	test('the journal of an export not yet COMPLETE is a clear error; Continue On Fail makes it an error item', async () => {
		sim.configure({ exportPendingPolls: 1000 });
		await failure(run(sim, 'orgKey', { ...create, company: 'cmp_001', options: { maxWait: 1 } }));
		const exportId = sim.requestsTo('getAccountingExport')[0].path.split('/').pop()!;
		const params = {
			resource: 'accountingExport',
			operation: 'getJournal',
			company: 'cmp_001',
			exportId: locatorById(exportId),
		};
		const error = await failure(run(sim, 'orgKey', params));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			`Spendesk rejected Accounting Export → Get Journal for company "cmp_001" (409)`,
		);
		const out = await run(sim, 'orgKey', params, true);
		expect(out).toEqual([
			{ json: expect.objectContaining({ error: error.message }), pairedItem: { item: 0 } },
		]);
	});

	test('the CSV is accepted only as text/csv: a proxy page (text/html) on the journal is refused, naming what came', async () => {
		const created = await run(sim, 'orgKey', { ...create, company: 'cmp_001' });
		sim.injectFault({ route: 'getJournal', kind: 'htmlBody' });
		const error = await failure(
			run(sim, 'orgKey', {
				resource: 'accountingExport',
				operation: 'getJournal',
				company: 'cmp_001',
				exportId: locatorById(String(created[0].json.id)),
			}),
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			`Spendesk answered Accounting Export → Get Journal for company "cmp_001" with text/html instead of text/csv (200)`,
		);
	});

	test('JSON endpoints of the same resource still refuse what is not JSON', async () => {
		sim.injectFault({ route: 'getAccountingExport', kind: 'htmlBody' });
		const error = await failure(run(sim, 'orgKey', { ...create, company: 'cmp_001' }));
		expect(error.message).toBe(
			`Spendesk answered Accounting Export → Create for company "cmp_001" with text/html instead of JSON (200)`,
		);
	});

	test('Export ID is checked before any request', async () => {
		for (const exportId of ['', '..', 'a b']) {
			await expectRefusedBeforeAnyRequest(
				sim,
				run(sim, 'orgKey', {
					resource: 'accountingExport',
					operation: 'getJournal',
					company: 'cmp_001',
					exportId: locatorById(exportId),
				}),
				/^'Export' (is empty|holds ".*", which is not a valid ID)$/,
			);
		}
	});

	test('an export is made for one company: the node offers no All Companies, and refuses it when handed it anyway', async () => {
		const error = await failure(runNode(sim, 'orgKey', { ...create, companies: 'all' }, AS_GIVEN));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			'Accounting Export → Create writes to one company at a time: All Companies is not allowed',
		);
		const journal = await failure(
			runNode(
				sim,
				'orgKey',
				{
					resource: 'accountingExport',
					operation: 'getJournal',
					companies: 'all',
					exportId: locatorById('exp_000001'),
				},
				AS_GIVEN,
			),
		);
		expect(journal.message).toBe(
			'Accounting Export → Get Journal reads from one company at a time: All Companies is not allowed',
		);
		expect(sim.log).toHaveLength(0);
	});
});
