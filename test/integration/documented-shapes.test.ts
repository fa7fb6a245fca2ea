/**
 * The documented shapes (docs/api.md#variations, #files, #snapshots, #scopes) through the node,
 * over real HTTP: the scopes the catalogue names are the ones the API asks for; single objects
 * read wrapped or bare; attachments listed with `url` and without a file name; the payables
 * snapshot polled at Spendesk's pace.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { ENDPOINTS } from '../../nodes/Spendesk/transport/endpoints';
import { transportSeam } from '../support/seam';
import type { SpendeskSimulator } from '../simulator';
import { payableDetail } from '../simulator/routes-reads';
import { searchRow } from '../simulator/routes';
import { apiKeyStore, simulatorPerSuite } from '../support/fixtures';
import { createContext } from '../support/n8n-context';
import { expectNoCredentialOnFileHost, runNode } from '../support/node';
import { locatorById, oneCompany, plain } from '../support/values';

describe('node: the documented shapes', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{ seed: { sizes: { invoices: 3, payables: 12 } } },
		(started) => (sim = started),
	);
	beforeEach(() => {
		sim.clearLog();
		sim.configure({ attachmentShape: 'decided', snapshotPendingPolls: 2 });
	});

	test('a key holding exactly the scopes the catalogue names reaches bank fees, wallet loads and the payables search', async () => {
		const scopes = [
			ENDPOINTS.listBankFees.scope,
			ENDPOINTS.listWalletLoads.scope,
			ENDPOINTS.searchPayables.scope,
		];
		expect(scopes).toEqual([
			'bank-fee:read',
			'wallet-load:read',
			'experimental:payable-search:read',
		]);
		const key = {
			clientId: 'catalogue-scopes',
			clientSecret: 'catalogue-scopes-secret',
			level: 'organisation' as const,
			scopes,
		};
		sim.addApiKey(key);
		const store = apiKeyStore(sim.baseUrl, key);
		const run = async (parameters: IDataObject) => {
			const { context } = createContext({
				store,
				parameters: {
					authentication: 'apiKey',
					...oneCompany('cmp_001'),
					returnAll: true,
					...parameters,
				},
			});
			const [out] = await new Spendesk().execute.call(context as unknown as IExecuteFunctions);
			return out.map((o) => o.json);
		};
		expect(await run({ resource: 'bankFee', operation: 'getAll' })).toEqual(
			plain(sim.data('cmp_001').bankFees),
		);
		expect(await run({ resource: 'walletLoad', operation: 'getAll' })).toEqual(
			plain(sim.data('cmp_001').walletLoads),
		);
		expect(
			await run({
				resource: 'payable',
				operation: 'getAll',
				filterMode: 'json',
				filtersJson: '{}',
			}),
		).toEqual(plain(sim.data('cmp_001').payables.map(searchRow)));
	});

	test('Payable → Get reads the payable answered at the top level, with its documented fields', async () => {
		const payable = sim.data('cmp_002').payables[5];
		const { out } = await runNode(sim, 'orgKey', {
			resource: 'payable',
			operation: 'get',
			...oneCompany('cmp_002'),
			payableId: locatorById(payable.id),
		});
		expect(out.map((o) => o.json)).toEqual([plain(payableDetail(payable))]);
		expect(out[0].json).toMatchObject({
			amount: payable.amount,
			type: payable.type,
			payableDate: payable.createdAt.slice(0, 10),
		});
		// Its lines in the documented shape: accounts as objects, amounts in minor units.
		const lines = out[0].json.lineItems as IDataObject[];
		expect(lines.length).toBeGreaterThan(0);
		for (const line of lines)
			expect(Object.keys(line).sort()).toEqual([
				'analyticalProperties',
				'costCenterId',
				'expenseAccount',
				'financial',
				'vatAccount',
			]);
	});

	test('single objects answered bare are read as when wrapped: Supplier → Get, User → Get, Wallet Summary, Accounting Export', async () => {
		const data = sim.data('cmp_001');
		const cases: Array<[Parameters<typeof sim.injectFault>[0]['route'], IDataObject, unknown]> = [
			[
				'getSupplier',
				{ resource: 'supplier', operation: 'get', supplierId: locatorById(data.suppliers[2].id) },
				data.suppliers[2],
			],
			[
				'getUser',
				{ resource: 'user', operation: 'get', userId: locatorById(data.users[3].id) },
				data.users[3],
			],
			['walletSummary', { resource: 'walletSummary', operation: 'get' }, data.walletSummary],
		];
		for (const [route, parameters, expected] of cases) {
			sim.injectFault({ route, kind: 'bareObject' });
			const { out } = await runNode(sim, 'orgKey', {
				...oneCompany('cmp_001'),
				...parameters,
			});
			expect(sim.log.find((r) => r.route === route)?.fault).toBe('bareObject');
			expect(out.map((o) => o.json)).toEqual([plain(expected)]);
		}
		sim.configure({ exportPendingPolls: 0 });
		sim.injectFault({ route: 'createAccountingExport', kind: 'bareObject' });
		sim.injectFault({ route: 'getAccountingExport', kind: 'bareObject' });
		const { out } = await runNode(sim, 'orgKey', {
			resource: 'accountingExport',
			operation: 'create',
			...oneCompany('cmp_001'),
			from: '2026-01-01T00:00:00Z',
			to: '2026-01-02T00:00:00Z',
		});
		expect(sim.requestsTo('getAccountingExport').map((r) => r.fault)).toEqual(['bareObject']);
		expect(out[0].json).toMatchObject({ status: 'COMPLETE' });
	});

	test('attachments listed as the older document shows them (no ID, file name or size): downloaded from url without the token, named from the link and the type', async () => {
		sim.configure({ attachmentShape: 'documented' });
		const payableId = 'pay_001_000005';
		const files = sim.files.attachmentsOf(payableId);
		expect(files).toHaveLength(2);
		const { out } = await runNode(sim, 'orgKey', {
			resource: 'payable',
			operation: 'getAttachments',
			...oneCompany('cmp_001'),
			payableId: locatorById(payableId),
		});
		const extension: Record<string, string> = {
			'application/pdf': 'pdf',
			'image/png': 'png',
			'image/jpeg': 'jpg',
		};
		expect(out).toHaveLength(2);
		out.forEach((item, i) => {
			expect(item.json).toEqual({
				payableId,
				mimeType: files[i].mimeType,
				checksum: expect.any(String),
				attachedAt: expect.any(String),
			});
			const binary = item.binary!.data;
			expect(Buffer.from(binary.data, 'base64').equals(files[i].content)).toBe(true);
			// The link's last path segment is the file's key on the file host.
			expect(binary).toMatchObject({
				fileName: `${files[i].id}.${extension[files[i].mimeType]}`,
				mimeType: files[i].mimeType,
			});
		});
		expect(sim.requestsTo('fileDownload')).toHaveLength(2);
		expectNoCredentialOnFileHost(sim, { atLeastOne: true });
	});

	test('Metadata Only with url items: the items as listed, url kept', async () => {
		sim.configure({ attachmentShape: 'documented' });
		const { out } = await runNode(sim, 'orgKey', {
			resource: 'payable',
			operation: 'getAttachments',
			...oneCompany('cmp_001'),
			payableId: locatorById('pay_001_000004'),
			options: { metadataOnly: true },
		});
		expect(out.map((o) => Object.keys(o.json).sort())).toEqual([
			['attachedAt', 'checksum', 'mimeType', 'payableId', 'url'],
		]);
		expect(sim.requestsTo('fileDownload')).toHaveLength(0);
	});

	test('the payables snapshot status is polled snapshotPollIntervalMs apart after the first check (Spendesk: once a minute)', async () => {
		transportSeam.settings.snapshotPollIntervalMs = 1200;
		const { out } = await runNode(sim, 'orgKey', {
			resource: 'payable',
			operation: 'getAllSnapshot',
			...oneCompany('cmp_003'),
			filterMode: 'fields',
			filters: {},
			returnAll: true,
		});
		expect(out).toHaveLength(12);
		const polls = sim.requestsTo('getPayablesSnapshot').map((r) => r.at);
		// Two PENDING answers, then COMPLETE with the only page.
		expect(polls).toHaveLength(3);
		const gaps = polls.slice(1).map((at, i) => at - polls[i]);
		// Timers may fire a little early; never a poll well inside the interval.
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1200 - 50);
	});

	test('Max Wait of the payables snapshot (in Options) defaults to 10 minutes', () => {
		const options = new Spendesk().description.properties.find(
			(p) =>
				p.name === 'options' &&
				(p.displayOptions?.show?.operation as string[] | undefined)?.includes('getAllSnapshot'),
		);
		const maxWait = (options?.options as INodeProperties[] | undefined)?.find(
			(o) => o.name === 'maxWait',
		);
		expect(maxWait?.default).toBe(600);
	});
});
