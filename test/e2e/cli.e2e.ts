/**
 * The package inside a real n8n, driven by its CLI: for each n8n target the package is packed
 * and installed as a community package, credentials and workflows are imported, and the
 * workflows run with `n8n execute` against the Spendesk simulator. Every item a Spendesk node
 * returns is compared with the simulator's own data.
 *
 * Few executions, many nodes: one workflow holds a branch per operation (each branch gets the
 * manual trigger's single item), so the whole API surface costs one `n8n execute`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SpendeskSimulator } from '../simulator';
import type { Company, CompanySeed, LoggedRequest, Payable } from '../simulator';
import { journalCsv } from '../simulator/files';
import { searchRow } from '../simulator/routes';
import { payableDetail } from '../simulator/routes-reads';
import { plain } from '../support/values';
import {
	createHome,
	ensureN8n,
	installedVersion,
	N8N_TARGETS,
	parseTargets,
	REPO_ROOT,
} from './runtime';
import type { N8nHome, N8nRuntime, N8nTarget } from './runtime';
import {
	apiKeyCredential,
	batchWorkflow,
	byId,
	company,
	COMPANY_LEVEL_EXAMPLES,
	convertToFileNode,
	EXAMPLE_CREDENTIAL_ID,
	execute,
	importCredentials,
	importWorkflows,
	items,
	loadExample,
	manualTrigger,
	nodeError,
	nodeHints,
	rawItems,
	setNode,
	SPENDESK_TRIGGER_NODE,
	spendeskNode,
	splitOutNode,
	workflow,
} from './workflows';
import type { BinaryRef, Execution, Workflow, WorkflowNode } from './workflows';

type Json = Record<string, unknown>;

/** Sorted like the simulator's keyset lists: by key, then id (string order). */
function sortedBy<T extends { id: string }>(
	list: readonly T[],
	key: (item: T) => string = () => '',
): T[] {
	const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
	return [...list].sort((a, b) => cmp(key(a), key(b)) || cmp(a.id, b.id));
}

// ---------------------------------------------------------------- data

const BIG = 'cmp_002';
const OTHER = 'cmp_003';
const COMPANY_COUNT = 35; // 34 active: Get Companies needs two pages of 30
const DEACTIVATED = `cmp_0${COMPANY_COUNT}`;
/** The company the accounting loop writes to (bookkeeping status, suppliers, settlement state, intake files). */
const LOOP = 'cmp_005';
const LOOP_PAYABLES = 250; // Update Bookkeeping Status: 100 a call, 3 calls
/** The time zone of the workflows: date fields without a zone are read in it. */
const WORKFLOW_TIMEZONE = 'Europe/Paris';
/** A file that is not UTF-8 text (a NUL, 0xff 0xfe…): damaged visibly if any step reads it as text. */
const SCAN = Buffer.from([
	0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0x0a, 0x7f, 0xc3,
	0x25, 0x25, 0x45, 0x4f, 0x46, 0x0a,
]);

/** Payable → Get Many, Fields mode: Payable IDs, comma-separated. */
const SEARCH_IDS = ['pay_002_000004', 'pay_002_000017', 'pay_002_000121'];
/** The card payable types (docs/api.md#payables). */
const CARD_TYPES = ['singlePurchaseCard', 'subscriptionCard', 'physicalCard'];
/** The search filters of the Custom API Call (body cursor), in Spendesk's grammar. */
const CARD_PURCHASES = {
	operator: 'and',
	subfilters: [{ field: 'type', operator: '=', value: CARD_TYPES }],
};
/**
 * Payable → Get Many, JSON mode: the `filters` object sent as the user wrote it. An OR of two
 * amounts (major units, as filters take them, where payables carry minor units) and a type.
 */
function searchJson(payables: readonly Payable[]): Json {
	return {
		operator: 'or',
		subfilters: [
			{
				field: 'amount',
				operator: '=',
				value: [payables[20].amount / 100, payables[45].amount / 100],
			},
			{ field: 'type', operator: '=', value: ['expenseClaim'] },
		],
	};
}

/** Every company small, except cmp_002 (more than one page of every list, whatever the style) and the loop's company. */
function companySeeds(): CompanySeed[] {
	const sizes: Record<string, CompanySeed['sizes']> = {
		[BIG]: {
			invoices: 230, // cursor, 100 a page: 3 pages
			accounts: 230, // offset, 100 a page: 3 pages
			payables: 130, // body cursor 100 a page: 2 pages; snapshot 30 a page: 5 pages
			settlements: 75, // page, 30 a page: 3 pages
			analyticalFields: 3,
			analyticalFieldValues: 1100, // cursor, 1,000 a page: 2 pages
			expenseCategories: 130, // cursor, 100 a page: 2 pages
			intakes: 130, // cursor, 100 a page: 2 pages
		},
		[LOOP]: { payables: LOOP_PAYABLES },
	};
	const seeds: CompanySeed[] = [];
	for (let i = 1; i <= COMPANY_COUNT; i++) {
		const id = `cmp_${String(i).padStart(3, '0')}`;
		seeds.push({ id, active: id !== DEACTIVATED, sizes: sizes[id] });
	}
	return seeds;
}

const SMALL_SIZES = {
	invoices: 7,
	accounts: 4,
	payables: 6,
	settlements: 5,
	analyticalFields: 2,
	analyticalFieldValues: 3,
	expenseCategories: 3,
	intakes: 2,
};

// ---------------------------------------------------------------- timings

interface Timing {
	target: string;
	step: string;
	ms: number;
}
const timings: Timing[] = [];
async function timed<T>(target: string, step: string, fn: () => Promise<T>): Promise<T> {
	const started = Date.now();
	try {
		return await fn();
	} finally {
		timings.push({ target, step, ms: Date.now() - started });
	}
}
function timedExecution(target: string, name: string, execution: Execution): Execution {
	timings.push({ target, step: `execute ${name}`, ms: execution.ms });
	return execution;
}

afterAll(() => {
	if (timings.length === 0) return;
	const dir = path.join(REPO_ROOT, 'test-output');
	mkdirSync(dir, { recursive: true });
	writeFileSync(path.join(dir, 'e2e-cli-timings.json'), JSON.stringify(timings, null, 2));
	const lines = timings.map(
		(t) => `  ${t.target.padEnd(7)} ${t.step.padEnd(48)} ${(t.ms / 1000).toFixed(1).padStart(7)} s`,
	);
	process.stderr.write(`\nE2E (CLI) timings:\n${lines.join('\n')}\n`);
});

// ---------------------------------------------------------------- suite

describe.each(parseTargets())('n8n %s: the package in a real n8n (CLI)', (target: N8nTarget) => {
	let runtime: N8nRuntime;
	let home: N8nHome;
	let sim: SpendeskSimulator;
	let active: Company[];
	let tokensAfterOrgRun = -1;

	const org = { id: 'e2eOrgKey', name: 'Spendesk org key' };
	const companyCred = { id: 'e2eCompanyKey', name: 'Spendesk company key' };
	const limited = { id: 'e2eLimitedKey', name: 'Spendesk limited key' };
	const revokedOAuth = {
		id: 'e2eRevokedOAuth',
		name: 'Spendesk revoked OAuth2',
		type: 'spendeskOAuth2Api' as const,
	};
	const tokenRequests = () => sim.requestsTo('token').length;

	// ------------------------------------------------------------ workflows

	const continueOnFail: Partial<WorkflowNode> = { onError: 'continueRegularOutput' };

	/** Every resource and operation, every pagination style past one page, list/expression/All Companies selection. */
	function operationsWorkflow(): Workflow {
		const s = (name: string, parameters: Json, extra: Partial<WorkflowNode> = {}) =>
			spendeskNode(name, parameters, org, [0, 0], extra);
		const wf = batchWorkflow('e2eOps', 'E2E every operation', [
			[s('Companies', { resource: 'company', operation: 'getAll', returnAll: true })],
			[
				s('Invoices', {
					resource: 'invoice',
					operation: 'getAll',
					company: company(BIG),
					sort: { rule: { field: 'createdAt', direction: 'asc' } },
					returnAll: true,
				}),
			],
			[
				s('Invoices From List', {
					resource: 'invoice',
					operation: 'getAll',
					company: company(OTHER, 'list'),
					returnAll: true,
				}),
			],
			[
				s('Invoices Limit', {
					resource: 'invoice',
					operation: 'getAll',
					company: company(BIG),
					sort: { rule: { field: 'createdAt', direction: 'desc' } },
					returnAll: false,
					limit: 7,
				}),
			],
			[
				s('Invoices Paid', {
					resource: 'invoice',
					operation: 'getAll',
					company: company(BIG),
					sort: { rule: { field: 'createdAt', direction: 'asc' } },
					filters: '{"status": "paid"}',
					returnAll: true,
				}),
			],
			[
				s('Invoices All Companies', {
					resource: 'invoice',
					operation: 'getAll',
					companies: 'all',
					sort: { rule: { field: 'createdAt', direction: 'asc' } },
					returnAll: true,
				}),
			],
			[
				s('Accounts', {
					resource: 'account',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
				}),
			],
			[
				s('Accounts All Companies Untagged', {
					resource: 'account',
					operation: 'getAll',
					companies: 'all',
					addCompanyFields: false,
					returnAll: true,
				}),
			],
			[
				s('Payables Search', {
					resource: 'payable',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
				}),
			],
			[
				s('Payables Search Filtered', {
					resource: 'payable',
					operation: 'getAll',
					company: company(BIG),
					filterMode: 'fields',
					filters: { bookkeepingStatus: ['toPrepare'], type: ['invoicePurchase', 'creditNote'] },
					returnAll: true,
				}),
			],
			[
				s('Payables Search By IDs', {
					resource: 'payable',
					operation: 'getAll',
					company: company(BIG),
					filterMode: 'fields',
					filters: { id: SEARCH_IDS.join(', ') },
					returnAll: true,
				}),
			],
			[
				s('Payables Search JSON', {
					resource: 'payable',
					operation: 'getAll',
					company: company(BIG),
					filterMode: 'json',
					filtersJson: JSON.stringify(searchJson(sim.data(BIG).payables), null, 2),
					returnAll: true,
				}),
			],
			[
				s('Payables Snapshot', {
					resource: 'payable',
					operation: 'getAllSnapshot',
					company: company(BIG),
					returnAll: true,
					options: { maxWait: 60 },
				}),
			],
			[
				s('Settlements', {
					resource: 'settlement',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
				}),
			],
			[
				s('Wallet Summary', {
					resource: 'walletSummary',
					operation: 'get',
					company: company(BIG, 'list'),
				}),
			],
			[
				s('Analytical Fields', {
					resource: 'analyticalField',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
				}),
			],
			[
				s('Analytical Field Values', {
					resource: 'analyticalField',
					operation: 'getValues',
					company: company(BIG),
					fieldId: byId('__FIELD__'),
					returnAll: true,
				}),
			],
			[
				s('Expense Categories', {
					resource: 'expenseCategory',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
				}),
			],
			[
				s('Intakes', {
					resource: 'intake',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
				}),
			],
			[
				s('Create Intake', {
					resource: 'intake',
					operation: 'create',
					company: company(OTHER),
					intake: JSON.stringify({
						supplierName: 'E2E Supplies',
						amount: 123.45,
						currency: 'EUR',
						description: 'created by the e2e suite',
					}),
				}),
			],
			[
				s('Custom Wallet', {
					resource: 'customApiCall',
					operation: 'request',
					company: company('cmp_004'),
					method: 'GET',
					path: '/v1/wallet-summary',
					companyPlacement: 'header',
					pagination: 'none',
				}),
			],
			[
				s('Custom Companies Page', {
					resource: 'customApiCall',
					operation: 'request',
					method: 'GET',
					path: '/v2/companies',
					companyPlacement: 'none',
					pagination: 'page',
					returnAll: true,
				}),
			],
			[
				s('Custom Invoices Cursor', {
					resource: 'customApiCall',
					operation: 'request',
					company: company(BIG),
					method: 'GET',
					path: '/v2/companies/{companyId}/invoices',
					companyPlacement: 'path',
					pagination: 'cursor',
					query: '{"sortBy": "updatedAt", "sort": "asc"}',
					returnAll: true,
				}),
			],
			[
				s('Custom Accounts Offset', {
					resource: 'customApiCall',
					operation: 'request',
					company: company(BIG),
					method: 'GET',
					path: '/v1/accounts',
					companyPlacement: 'header',
					pagination: 'offset',
					returnAll: true,
				}),
			],
			[
				s('Custom Payables Body Cursor', {
					resource: 'customApiCall',
					operation: 'request',
					company: company(BIG),
					method: 'POST',
					path: '/v1/payables/search',
					companyPlacement: 'header',
					pagination: 'bodyCursor',
					body: JSON.stringify({ filters: CARD_PURCHASES }),
					returnAll: true,
				}),
			],
			[
				setNode('Pick Company', { companyId: { value: OTHER } }),
				s('Settlements By Expression', {
					resource: 'settlement',
					operation: 'getAll',
					company: company('={{ $json.companyId }}'),
					returnAll: true,
				}),
			],
			[
				s(
					'Foreign Company (continue)',
					{
						resource: 'settlement',
						operation: 'getAll',
						company: company('cmp_999'),
						returnAll: true,
					},
					continueOnFail,
				),
			],
			[
				s(
					'Deactivated Company (continue)',
					{ resource: 'walletSummary', operation: 'get', company: company(DEACTIVATED) },
					continueOnFail,
				),
			],
			[
				s(
					'No Company (continue)',
					{ resource: 'walletSummary', operation: 'get', company: company('', 'list') },
					continueOnFail,
				),
			],
			[
				setNode('Two Companies', {
					companyIds: { value: `={{ ["${OTHER}", "cmp_999"] }}`, type: 'array' },
				}),
				splitOutNode('One Item per Company', 'companyIds'),
				s(
					'Wallets (error output)',
					{
						resource: 'walletSummary',
						operation: 'get',
						company: company('={{ $json.companyIds }}'),
					},
					{ onError: 'continueErrorOutput' },
				),
			],
			...accountingLoopBranches(s),
		]);
		// The error output (output 1) of "Wallets (error output)" goes to a No Operation node.
		wf.nodes.push({
			id: 'e2e-wallet-errors',
			name: 'Wallet Errors',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [1250, -150],
			parameters: {},
		});
		wf.connections['Wallets (error output)'] ??= { main: [[]] };
		wf.connections['Wallets (error output)'].main[1] = [
			{ node: 'Wallet Errors', type: 'main', index: 0 },
		];
		wf.settings.timezone = WORKFLOW_TIMEZONE;
		return wf;
	}

	/**
	 * The accounting loop's operations: reads of BIG (not written to in this run) and writes to
	 * LOOP. Files go out and in through n8n's binary data: Get Attachments' files are uploaded to
	 * an intake by the next node, and a file made by Convert to File (standing in for a mail's
	 * attachment) is uploaded and attached to a new intake; the simulator keeps the bytes it got.
	 * This execution keeps n8n's default binary data mode (files in its store, `filesystem-v2`),
	 * so the bytes are checked where they arrive; the examples run with the bytes inline.
	 */
	function accountingLoopBranches(
		s: (name: string, parameters: Json, extra?: Partial<WorkflowNode>) => WorkflowNode,
	): WorkflowNode[][] {
		const big = sim.data(BIG);
		const loop = sim.data(LOOP);
		const scan = (prefix: string, property: string) => [
			setNode(`${prefix} Content`, { content: { value: SCAN.toString('base64') } }),
			convertToFileNode(`${prefix} File`, {
				sourceProperty: 'content',
				binaryPropertyName: property,
				fileName: 'scan 03.pdf',
				mimeType: 'application/pdf',
			}),
		];
		return [
			[
				s('Payable Get', {
					resource: 'payable',
					operation: 'get',
					company: company(BIG),
					payableId: byId(big.payables[7].id),
				}),
			],
			[
				s('Payable Attachments', {
					resource: 'payable',
					operation: 'getAttachments',
					company: company(LOOP),
					payableId: byId('pay_005_000002'),
				}),
				s('Forward Attachments To Intake', {
					resource: 'intake',
					operation: 'uploadFile',
					company: company(LOOP),
					intakeId: byId(loop.intakes[0].id),
					binaryPropertyName: 'data',
				}),
			],
			[
				s('Payable Attachments None', {
					resource: 'payable',
					operation: 'getAttachments',
					company: company(LOOP),
					payableId: byId('pay_005_000003'),
				}),
			],
			[
				s('Payable Attachments Metadata', {
					resource: 'payable',
					operation: 'getAttachments',
					company: company(LOOP),
					payableId: byId('pay_005_000004'),
					options: { metadataOnly: true },
				}),
			],
			[
				...scan('Scan', 'data'),
				s('Upload Scan To Intake', {
					resource: 'intake',
					operation: 'uploadFile',
					company: company(LOOP),
					intakeId: byId(loop.intakes[1].id),
					binaryPropertyName: 'data',
				}),
			],
			[
				...scan('Mail Attachment', 'attachment_0'),
				s('Create Intake With File', {
					resource: 'intake',
					operation: 'create',
					company: company(LOOP),
					intake: JSON.stringify({
						supplierName: 'E2E Mail Supplier',
						amount: 42.5,
						currency: 'EUR',
						description: 'from a mail',
					}),
					attachFile: true,
					binaryPropertyName: 'attachment_0',
				}),
			],
			[
				s('Payables To Mark', {
					resource: 'payable',
					operation: 'getAll',
					company: company(LOOP),
					returnAll: true,
				}),
				s('Mark Exported', {
					resource: 'payable',
					operation: 'updateBookkeepingStatus',
					company: company(LOOP),
					payableId: byId('={{ $json.id }}'),
					version: '={{ $json.version || 1 }}',
					bookkeepingStatus: 'exported',
				}),
			],
			[
				setNode('Stale Payable', { id: { value: 'pay_005_000010' }, version: { value: 1 } }),
				s(
					'Mark Failed Export (continue)',
					{
						resource: 'payable',
						operation: 'updateBookkeepingStatus',
						company: company(LOOP),
						payableId: byId('={{ $json.id }}'),
						version: '={{ $json.version }}',
						bookkeepingStatus: 'failedToExport',
						failureReason: 'Unknown supplier account in the ledger',
					},
					continueOnFail,
				),
			],
			[
				s('Settlement Update State', {
					resource: 'settlement',
					operation: 'updateBookkeepingStatus',
					company: company(LOOP),
					settlementId: byId(loop.settlements[0].id),
					bookkeepingStatus: 'failedToExport',
				}),
			],
			[
				// The value of development builds, from an expression or a hand-written workflow.
				s(
					'Settlement Update State failedExport (continue)',
					{
						resource: 'settlement',
						operation: 'updateBookkeepingStatus',
						company: company(LOOP),
						settlementId: byId(loop.settlements[1].id),
						bookkeepingStatus: 'failedExport',
					},
					continueOnFail,
				),
			],
			[
				s('Settlement Exported', {
					resource: 'settlement',
					operation: 'updateBookkeepingStatus',
					company: company(LOOP),
					settlementId: byId(loop.settlements[2].id),
					bookkeepingStatus: 'exported',
				}),
			],
			[
				s('Suppliers', {
					resource: 'supplier',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
				}),
			],
			[
				s('Suppliers Archived Since', {
					resource: 'supplier',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
					filters: { archived: 'archived', updatedAfter: '2026-01-20T00:00:00' },
				}),
			],
			[
				s('Supplier Get', {
					resource: 'supplier',
					operation: 'get',
					company: company(BIG),
					supplierId: byId(big.suppliers[3].id),
				}),
			],
			[
				setNode('Supplier Names', {
					names: {
						value: '={{ ["E2E Supplier A", "E2E Supplier B", "E2E Supplier C"] }}',
						type: 'array',
					},
				}),
				splitOutNode('One Item per Supplier', 'names'),
				s('Create Suppliers', {
					resource: 'supplier',
					operation: 'create',
					company: company(LOOP),
					name: '={{ $json.names }}',
					additionalFields: {
						primaryEmail:
							'={{ "billing-" + $json.names.slice(-1).toLowerCase() + "@supplier.example" }}',
						legalName: '={{ $json.names + " SAS" }}',
						registrationNumber: '303265045',
						address: '1 rue de la Paix',
						zipcode: '75002',
						city: 'Paris',
						country: 'fr',
						iban: 'FR76 3000 6000 0112 3456 7890 189',
						bic: 'BNPAFRPP',
						bankCountry: 'FR',
					},
				}),
				s('Update Suppliers', {
					resource: 'supplier',
					operation: 'update',
					company: company(LOOP),
					supplierId: byId('={{ $json.id }}'),
					// A field added and left empty is cleared (BIC).
					updateFields: { vatNumber: 'fr 40303265045', city: 'Lyon', bic: '' },
				}),
			],
			[
				s('Users', {
					resource: 'user',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
				}),
			],
			[
				s('User Get', {
					resource: 'user',
					operation: 'get',
					company: company(BIG),
					userId: byId(big.users[31].id),
				}),
			],
			[
				s('Cost Centers', {
					resource: 'costCenter',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
				}),
			],
			[
				s('Bank Fees Between', {
					resource: 'bankFee',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
					filters: { from: '2026-01-03T01:00:00', to: '2026-01-09T13:00:00' },
				}),
			],
			[
				s('Wallet Loads', {
					resource: 'walletLoad',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
				}),
			],
			[
				s('Wallet Loads Since', {
					resource: 'walletLoad',
					operation: 'getAll',
					company: company(BIG),
					returnAll: true,
					filters: { from: '2026-01-16T01:00:00' },
				}),
			],
			[
				s('Accounting Export', {
					resource: 'accountingExport',
					operation: 'create',
					company: company(BIG),
					from: '2026-01-01T03:00:00',
					to: '2026-01-01T06:00:00',
					options: { maxWait: 60 },
				}),
				s('Journal', {
					resource: 'accountingExport',
					operation: 'getJournal',
					company: company(BIG),
					exportId: byId('={{ $json.id }}'),
				}),
			],
		];
	}

	/** The company-level key (own company, no Company field) and the key without experimental scopes. */
	function otherCredentialsWorkflow(): Workflow {
		return batchWorkflow('e2eOtherKeys', 'E2E company-level and limited keys', [
			[
				spendeskNode(
					'Own Invoices',
					{
						resource: 'invoice',
						operation: 'getAll',
						company: company('', 'list'),
						sort: { rule: { field: 'createdAt', direction: 'asc' } },
						returnAll: true,
					},
					companyCred,
				),
			],
			[
				spendeskNode(
					'Own Wallet',
					{ resource: 'walletSummary', operation: 'get', company: company('', 'list') },
					companyCred,
				),
			],
			[
				spendeskNode(
					'Own Intakes',
					{
						resource: 'intake',
						operation: 'getAll',
						company: company('', 'list'),
						returnAll: true,
					},
					companyCred,
				),
			],
			[
				spendeskNode(
					'Companies With Company Key (continue)',
					{ resource: 'company', operation: 'getAll', returnAll: true },
					companyCred,
					[0, 0],
					continueOnFail,
				),
			],
			[
				spendeskNode(
					'Other Company With Company Key (continue)',
					{ resource: 'settlement', operation: 'getAll', company: company(BIG), returnAll: true },
					companyCred,
					[0, 0],
					continueOnFail,
				),
			],
			[
				spendeskNode(
					'Settlements With Limited Key',
					{ resource: 'settlement', operation: 'getAll', company: company(BIG), returnAll: true },
					limited,
				),
			],
			[
				spendeskNode(
					'Invoices With Limited Key (continue)',
					{ resource: 'invoice', operation: 'getAll', company: company(BIG), returnAll: true },
					limited,
					[0, 0],
					continueOnFail,
				),
			],
			[
				spendeskNode(
					'Wallet With Revoked OAuth2 (continue)',
					{ resource: 'walletSummary', operation: 'get', company: company(BIG) },
					revokedOAuth,
					[0, 0],
					continueOnFail,
				),
			],
		]);
	}

	/** A node error that is not caught: the execution fails with the node's message. */
	const failingWorkflows = (): Workflow[] => [
		batchWorkflow('e2eFailForeign', 'E2E fails: foreign company', [
			[
				spendeskNode(
					'Invoices Of A Foreign Company',
					{
						resource: 'invoice',
						operation: 'getAll',
						company: company('cmp_999'),
						returnAll: true,
					},
					org,
				),
			],
		]),
		batchWorkflow('e2eFailCompanyKey', 'E2E fails: companies with a company key', [
			[
				spendeskNode(
					'Companies With Company Key',
					{ resource: 'company', operation: 'getAll', returnAll: true },
					companyCred,
				),
			],
		]),
	];

	/**
	 * examples/new-invoice-notification.json with its Spendesk Trigger swapped for a manual
	 * trigger and a Spendesk node of the same name returning what the trigger's manual run
	 * ("Fetch Test Event") returns: the newest invoice of every company, tagged. `n8n execute`
	 * cannot run a polling trigger (it starts only at a manual trigger, and in CLI mode n8n does
	 * not poll); the trigger's polling itself is covered by the server-based e2e tests.
	 */
	function notificationExample(): { wf: Workflow; trigger: WorkflowNode } {
		const wf = loadExample('new-invoice-notification.json', 'e2eExampleNotify', org);
		const trigger = wf.nodes.find((n) => n.type === SPENDESK_TRIGGER_NODE)!;
		const start = manualTrigger('Manual Start', [trigger.position[0] - 220, trigger.position[1]]);
		const standIn = spendeskNode(
			trigger.name,
			{
				resource: 'invoice',
				operation: 'getAll',
				companies: trigger.parameters.companies,
				sort: { rule: { field: 'updatedAt', direction: 'desc' } },
				returnAll: false,
				limit: 1,
			},
			org,
			trigger.position,
		);
		const nodes = [start, standIn, ...wf.nodes.filter((n) => n !== trigger)];
		const edges: Array<[string, string]> = [[start.name, standIn.name]];
		for (const [from, { main }] of Object.entries(wf.connections))
			for (const to of main[0]) edges.push([from, to.node]);
		return { wf: workflow(wf.id, wf.name, nodes, edges), trigger };
	}

	// ------------------------------------------------------------ setup

	beforeAll(async () => {
		runtime = await timed(
			target,
			`install n8n ${N8N_TARGETS[target].n8n} (cached after the first run)`,
			() => ensureN8n(target),
		);
		home = await timed(target, 'pack + install the package (createHome)', () =>
			createHome(runtime),
		);
		sim = new SpendeskSimulator({
			// Snapshots complete at the first check: the node checks at most once a minute after it.
			snapshotPendingPolls: 0,
			exportPendingPolls: 1,
			seed: { companies: companySeeds(), sizes: SMALL_SIZES },
		});
		await sim.start();
		active = sim.companies().filter((c) => c.active);
		// Payables prepared for export (the seed creates them all `created`): every fourth from
		// the first, and one that failed to export, for the example that exports them.
		for (const c of active) {
			const payables = sim.data(c.id).payables;
			payables.forEach((p, i) => {
				if (i % 4 === 0) p.bookkeepingStatus = i === 4 ? 'failedToExport' : 'prepared';
			});
		}

		const ops = operationsWorkflow();
		const fieldId = sim.data(BIG).analyticalFields[0].id;
		ops.nodes.find((n) => n.name === 'Analytical Field Values')!.parameters.fieldId = byId(fieldId);

		await timed(target, 'import 4 credentials', () =>
			importCredentials(home, [
				apiKeyCredential(org, sim.baseUrl, sim.credentials.orgKey),
				apiKeyCredential(companyCred, sim.baseUrl, sim.credentials.companyKey),
				apiKeyCredential(limited, sim.baseUrl, sim.credentials.orgKeyNoExperimental),
				// An OAuth2 connection whose tokens Spendesk no longer knows (revoked): the refresh is refused.
				{
					...revokedOAuth,
					data: {
						environment: 'custom',
						baseUrl: sim.baseUrl,
						accessLevel: 'organisation',
						clientId: sim.credentials.oauthClient.clientId,
						clientSecret: sim.credentials.oauthClient.clientSecret,
						redirectUri: 'https://example.com/spendesk/callback',
						connection: 'connected',
						accessToken: 'revoked-access-token',
						refreshToken: 'revoked-refresh-token',
					},
				},
			]),
		);
		await timed(target, 'import 10 workflows', () =>
			importWorkflows(home, [
				ops,
				otherCredentialsWorkflow(),
				...failingWorkflows(),
				loadExample('export-invoices-to-spreadsheet.json', 'e2eExampleExport', org),
				notificationExample().wf,
				loadExample('monthly-settlements-per-company.json', 'e2eExampleMonthly', org),
				loadExample('export-payables-with-receipts.json', 'e2eExamplePayables', org),
				// Made for a company-level key: the example's Company is left empty, the intake goes to the key's company.
				loadExample('email-attachment-to-intake.json', 'e2eExampleMailIntake', companyCred),
			]),
		);
	});

	afterAll(async () => {
		await sim?.stop();
		// E2E_KEEP=1 keeps the n8n home (database, logs) for a look after the run.
		if (home && !process.env.E2E_KEEP) rmSync(home.dir, { recursive: true, force: true });
		else if (home) process.stderr.write(`n8n home kept: ${home.dir}\n`);
	});

	// ------------------------------------------------------------ tests

	it(`runs n8n ${N8N_TARGETS[target].n8n} with the packed package installed as a community package`, () => {
		expect(installedVersion(runtime)).toBe(N8N_TARGETS[target].n8n);
		const installed = JSON.parse(
			readFileSync(
				path.join(home.dir, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-spendesk', 'package.json'),
				'utf8',
			),
		) as Json;
		expect(installed.name).toBe('n8n-nodes-spendesk');
	});

	describe('one execution of every operation (organisation key)', () => {
		let exec: Execution;
		const out = (node: string) => items(exec.run, node);
		/** The settlement the node given failedExport acts on, as seeded. */
		let refusedBefore: Json;

		beforeAll(async () => {
			sim.clearLog();
			sim.resetStats();
			refusedBefore = plain<Json>(sim.data(LOOP).settlements[1]);
			exec = timedExecution(
				target,
				'every operation (55 Spendesk nodes)',
				await execute(home, 'e2eOps'),
			);
			tokensAfterOrgRun = tokenRequests();
		});

		it('Company → Get Many: every active company over two pages (page style)', () => {
			expect(active).toHaveLength(COMPANY_COUNT - 1);
			expect(out('Companies')).toEqual(active.map(({ id, name }) => ({ id, name })));
			expect(
				sim.requestsTo('getCompanies').filter((r) => r.query.page === '2').length,
			).toBeGreaterThan(0);
		});

		it('Invoice → Get Many: Return All over three cursor pages, sort, Limit and filters', () => {
			expect(out('Invoices')).toEqual(plain(sim.invoicesSorted(BIG, 'createdAt', 'asc')));
			expect(out('Invoices')).toHaveLength(230);
			expect(out('Invoices Limit')).toEqual(
				plain(sim.invoicesSorted(BIG, 'createdAt', 'desc').slice(0, 7)),
			);
			const paid = sim.invoicesSorted(BIG, 'createdAt', 'asc').filter((i) => i.status === 'paid');
			expect(paid.length).toBeGreaterThan(0);
			expect(out('Invoices Paid')).toEqual(plain(paid));
			const limited = sim
				.requestsTo('listInvoices')
				.filter((r) => r.path.includes(BIG) && r.query.sort === 'desc');
			expect(limited.map((r) => r.query.limit)).toEqual(['7']);
			// One company: n8n shows its own Limit hint; the node adds one only for All Companies.
			expect(nodeHints(exec.run, 'Invoices Limit')).toEqual([]);
			expect(nodeHints(exec.run, 'Invoices')).toEqual([]);
		});

		it('a company chosen from the list (mode "list") and the default sort (updatedAt, newest first)', () => {
			expect(out('Invoices From List')).toEqual(
				plain(sim.invoicesSorted(OTHER, 'updatedAt', 'desc')),
			);
		});

		it('All Companies: every active company, concurrently, each item tagged with companyId and companyName', () => {
			const expected = active.flatMap((c) =>
				sim
					.invoicesSorted(c.id, 'createdAt', 'asc')
					.map((i) => ({ ...i, companyId: c.id, companyName: c.name })),
			);
			expect(out('Invoices All Companies')).toEqual(plain(expected));
			expect(sim.requestsTo('listInvoices').some((r) => r.path.includes(DEACTIVATED))).toBe(false);
			expect(out('Accounts All Companies Untagged')).toEqual(
				plain(active.flatMap((c) => sim.data(c.id).accounts)),
			);
			// The transport's cap: at most 5 requests of a credential in flight, even across 34 companies.
			expect(sim.stats.peakInFlight).toBeLessThanOrEqual(5);
		});

		it('Account → Get Many: offset pages', () => {
			expect(out('Accounts')).toEqual(plain(sim.data(BIG).accounts));
			expect(out('Accounts')).toHaveLength(230);
		});

		it("Payable → Get Many: body-cursor pages of `payables` (amounts in minor units), Fields and JSON filters in Spendesk's grammar", () => {
			const payables = sortedBy(sim.data(BIG).payables, (p) => p.createdAt);
			const found = (match: (p: Payable) => boolean) =>
				plain(payables.filter(match).map(searchRow));
			expect(out('Payables Search')).toEqual(found(() => true));
			expect(out('Payables Search')).toHaveLength(130);
			expect(out('Payables Search')[7].amount).toBe(payables[7].amount);

			const filtered = found(
				(p) =>
					searchRow(p).state === 'toPrepare' && ['invoicePurchase', 'creditNote'].includes(p.type),
			);
			expect(filtered.length).toBeGreaterThan(0);
			expect(out('Payables Search Filtered')).toEqual(filtered);
			expect(out('Payables Search By IDs')).toEqual(found((p) => SEARCH_IDS.includes(p.id)));
			expect(out('Payables Search By IDs')).toHaveLength(SEARCH_IDS.length);

			const json = searchJson(sim.data(BIG).payables);
			const amounts = [sim.data(BIG).payables[20].amount, sim.data(BIG).payables[45].amount];
			const either = found((p) => amounts.includes(p.amount) || p.type === 'expenseClaim');
			expect(either.length).toBeGreaterThan(2);
			expect(either.length).toBeLessThan(130);
			expect(out('Payables Search JSON')).toEqual(either);

			// What each node sent: no filters, an AND of equalities built from the fields, the JSON as written.
			const sent = sim
				.requestsTo('searchPayables')
				.filter((r) => r.companyId === BIG)
				.map((r) => r.body as Json);
			const filters = sent.map((b) => b.filters as Json | undefined);
			expect(filters).toContainEqual(undefined);
			// The Fields mode's subfilters, in whatever order n8n keeps the fields.
			const bySubfilterField = (f: Json | undefined) =>
				f && {
					...f,
					subfilters: [...(f.subfilters as Json[])].sort((a, b) =>
						String(a.field).localeCompare(String(b.field)),
					),
				};
			expect(filters.map(bySubfilterField)).toContainEqual({
				operator: 'and',
				subfilters: [
					{ field: 'bookkeepingStatus', operator: '=', value: ['toPrepare'] },
					{ field: 'type', operator: '=', value: ['invoicePurchase', 'creditNote'] },
				],
			});
			expect(filters).toContainEqual({
				operator: 'and',
				subfilters: [{ field: 'id', operator: '=', value: SEARCH_IDS }],
			});
			expect(filters).toContainEqual(json);
			expect(filters).toContainEqual(CARD_PURCHASES);
			// Return All over two pages: the unfiltered search asked once with the cursor of page 1.
			expect(sent.filter((b) => b.filters === undefined && b.cursor)).toHaveLength(1);
		});

		it('Payable → Get Many as Snapshot: the snapshot created, complete at the first check, then its result pages', () => {
			// The simulator builds the snapshot at once (snapshotPendingPolls 0): after the first
			// check the node waits a minute between checks, as Spendesk asks (integration tests).
			expect(out('Payables Snapshot')).toEqual(plain(sim.data(BIG).payables.map(payableDetail)));
			expect(sim.requestsTo('createPayablesSnapshot')).toHaveLength(1);
			const polls = sim.requestsTo('getPayablesSnapshot');
			expect(polls.length).toBeGreaterThanOrEqual(Math.ceil(130 / 30));
			expect([...new Set(polls.map((r) => r.query.page))].sort()).toEqual([
				'1',
				'2',
				'3',
				'4',
				'5',
			]);
		});

		it('Settlement → Get Many: page style', () => {
			expect(out('Settlements')).toEqual(plain(sim.data(BIG).settlements));
			expect(out('Settlements')).toHaveLength(75);
		});

		it('Wallet Summary → Get', () => {
			expect(out('Wallet Summary')).toEqual([plain(sim.data(BIG).walletSummary)]);
		});

		it('Analytical Field → Get Many and Get Many Values (two pages of up to 1,000)', () => {
			const fields = sim.data(BIG).analyticalFields;
			expect(out('Analytical Fields')).toEqual(
				sortedBy(fields).map(({ id, name }) => ({ id, name })),
			);
			expect(out('Analytical Field Values')).toEqual(plain(sortedBy(fields[0].values)));
			expect(out('Analytical Field Values')).toHaveLength(1100);
		});

		it('Expense Category → Get Many and Intake → Get Many: cursor pages', () => {
			expect(out('Expense Categories')).toEqual(plain(sortedBy(sim.data(BIG).expenseCategories)));
			expect(out('Expense Categories')).toHaveLength(130);
			expect(out('Intakes')).toEqual(plain(sortedBy(sim.data(BIG).intakes)));
			expect(out('Intakes')).toHaveLength(130);
		});

		it('Intake → Create: the intake is created in the company and returned', () => {
			const created = out('Create Intake');
			expect(created).toHaveLength(1);
			expect(created[0]).toMatchObject({
				supplierName: 'E2E Supplies',
				amount: 123.45,
				currency: 'EUR',
				description: 'created by the e2e suite',
			});
			const stored = sim.data(OTHER).intakes.find((i) => i.id === created[0].id);
			expect(created[0]).toEqual(plain(stored));
			expect(sim.requestsTo('createIntake').filter((r) => r.companyId === OTHER)).toHaveLength(1);
		});

		it('Custom API Call: no pagination, page, cursor (company in path), offset and body cursor', () => {
			// Without pagination the response's `data` is returned, like the built-in operations do.
			expect(out('Custom Wallet')).toEqual([plain(sim.data('cmp_004').walletSummary)]);
			expect(out('Custom Companies Page')).toEqual(active.map(({ id, name }) => ({ id, name })));
			expect(out('Custom Invoices Cursor')).toEqual(
				plain(sim.invoicesSorted(BIG, 'updatedAt', 'asc')),
			);
			expect(out('Custom Accounts Offset')).toEqual(plain(sim.data(BIG).accounts));
			// The search's `payables`, as Spendesk answers them (amounts in minor units).
			const cards = sortedBy(sim.data(BIG).payables, (p) => p.createdAt)
				.filter((p) => CARD_TYPES.includes(p.type))
				.map(searchRow);
			expect(cards.length).toBeGreaterThan(0);
			expect(out('Custom Payables Body Cursor')).toEqual(plain(cards));
		});

		it('a company id from an expression ({{ $json.companyId }} set by an Edit Fields node)', () => {
			expect(out('Pick Company')).toEqual([{ companyId: OTHER }]);
			expect(out('Settlements By Expression')).toEqual(plain(sim.data(OTHER).settlements));
		});

		it('errors (docs/api.md#errors) as items with Continue On Fail: foreign company, deactivated company, no company', () => {
			expect(out('Foreign Company (continue)')).toEqual([
				expect.objectContaining({
					error: 'Company "cmp_999" does not belong to your organisation',
				}),
			]);
			expect(out('Deactivated Company (continue)')).toEqual([
				expect.objectContaining({ error: `Company "${DEACTIVATED}" is deactivated` }),
			]);
			expect(out('No Company (continue)')).toEqual([
				expect.objectContaining({
					error:
						'Choose a company: organisation-level credentials must name the company on this call',
				}),
			]);
		});

		it('On Error "Continue (using error output)": the error item goes to the error output, the main output holds only successes', () => {
			expect(out('Wallets (error output)')).toEqual([plain(sim.data(OTHER).walletSummary)]);
			const errors = items(exec.run, 'Wallets (error output)', 1);
			expect(errors).toEqual([
				expect.objectContaining({
					error: 'Company "cmp_999" does not belong to your organisation',
				}),
			]);
			expect(out('Wallet Errors')).toEqual(errors);
		});

		it('On Error "Continue": the error item stays on the main output, json unchanged', () => {
			expect(rawItems(exec.run, 'Foreign Company (continue)', 1)).toEqual([]);
			expect(out('Foreign Company (continue)')).toEqual([
				{
					error: 'Company "cmp_999" does not belong to your organisation',
					description: expect.stringContaining('Check the company ID'),
					companyId: 'cmp_999',
				},
			]);
		});

		it('the token is requested once for the organisation key', () => {
			expect(tokensAfterOrgRun).toBe(1);
		});

		// ---------------------------------------------------------- the accounting loop

		it('Payable → Get: the payable in full (version, bookkeeping status, supplier), one GET', () => {
			const payable = sim.data(BIG).payables[7];
			expect(out('Payable Get')).toEqual([plain(payableDetail(payable))]);
			expect(sim.requestsTo('getPayable').map((r) => [r.path, r.companyId, r.status])).toEqual([
				[`/v1/payables/${payable.id}`, BIG, 200],
			]);
		});

		it('Payable → Get Attachments: one item per file, the file as n8n binary data (name, MIME type, size); none for a payable without files; Metadata Only downloads nothing', () => {
			const files = sim.files.attachmentsOf('pay_005_000002');
			expect(files.map((f) => f.mimeType)).toEqual(['application/pdf', 'image/png']);
			const attachments = rawItems(exec.run, 'Payable Attachments');
			expect(attachments.map((i) => i.json)).toEqual(
				files.map((f) => ({
					payableId: 'pay_005_000002',
					id: f.id,
					fileName: f.fileName,
					mimeType: f.mimeType,
					size: f.content.length,
					expiresAt: expect.any(String),
				})),
			);
			attachments.forEach((item, i) => {
				const file = item.binary?.data;
				expect(file).toMatchObject({ fileName: files[i].fileName, mimeType: files[i].mimeType });
				expect(binarySize(file!)).toBe(files[i].content.length);
			});
			expect(out('Payable Attachments None')).toEqual([]);
			const [metadata] = sim.files.attachmentsOf('pay_005_000004');
			expect(rawItems(exec.run, 'Payable Attachments Metadata')).toEqual([
				expect.objectContaining({
					json: {
						payableId: 'pay_005_000004',
						id: metadata.id,
						fileName: metadata.fileName,
						mimeType: metadata.mimeType,
						size: metadata.content.length,
						downloadUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/),
						expiresAt: expect.any(String),
					},
				}),
			]);
			expect(rawItems(exec.run, 'Payable Attachments Metadata')[0].binary).toBeUndefined();
			// Two files downloaded (the PDF and the PNG), each once, from the file host.
			expect(sim.requestsTo('fileDownload').map((r) => [r.path, r.status, r.host])).toEqual(
				files.map((f) => [`/files/${f.id}`, 200, 'files']),
			);
		});

		it("Intake → Upload File: the files of Get Attachments uploaded byte for byte from n8n's binary data to an intake", () => {
			const files = sim.files.attachmentsOf('pay_005_000002');
			const intakeId = sim.data(LOOP).intakes[0].id;
			const uploaded = out('Forward Attachments To Intake');
			expect(uploaded).toEqual(
				files.map((f) => ({
					intakeId,
					fileId: expect.any(String),
					fileName: f.fileName,
					mimeType: f.mimeType,
					size: f.content.length,
					status: 'uploaded',
				})),
			);
			uploaded.forEach((item, i) =>
				expect(sim.files.uploads.get(String(item.fileId))?.content?.equals(files[i].content)).toBe(
					true,
				),
			);
			expect(sim.data(LOOP).intakes[0].files).toEqual(
				uploaded.map(({ fileId, fileName, mimeType, size }) => ({
					fileId,
					fileName,
					mimeType,
					size,
				})),
			);
		});

		it('Intake → Upload File and Create with Attach File: a file made by Convert to File (binary input) reaches the intake unchanged', () => {
			const scan = { fileName: 'scan 03.pdf', mimeType: 'application/pdf', size: SCAN.length };
			const intakeId = sim.data(LOOP).intakes[1].id;
			const [uploaded] = out('Upload Scan To Intake');
			expect(uploaded).toEqual({
				intakeId,
				fileId: expect.any(String),
				...scan,
				status: 'uploaded',
			});
			expect(sim.files.uploads.get(String(uploaded.fileId))?.content?.equals(SCAN)).toBe(true);

			const [created] = out('Create Intake With File');
			expect(created).toMatchObject({
				supplierName: 'E2E Mail Supplier',
				amount: 42.5,
				currency: 'EUR',
				description: 'from a mail',
				file: { intakeId: created.id, ...scan, status: 'uploaded' },
			});
			const stored = sim.data(LOOP).intakes.find((i) => i.id === created.id);
			expect(stored?.files).toEqual([{ fileId: (created.file as Json).fileId, ...scan }]);
			expect(
				sim.files.uploads.get(String((created.file as Json).fileId))?.content?.equals(SCAN),
			).toBe(true);
		});

		it('file transfers: the pre-signed links are used without the bearer token (nor any credential) on the file host', () => {
			const onFiles = sim.log.filter((r) => r.host === 'files');
			expect(onFiles.map((r) => r.route).sort()).toEqual([
				'fileDownload',
				'fileDownload',
				'fileUpload',
				'fileUpload',
				'fileUpload',
				'fileUpload',
			]);
			expectNoCredential(onFiles);
			for (const r of sim.requestsTo('fileUpload')) expect(r.status).toBe(200);
			// The API calls around them carry the token as usual.
			for (const route of [
				'listPayableAttachments',
				'startIntakeUpload',
				'completeIntakeUpload',
			] as const) {
				for (const r of sim.requestsTo(route))
					expect(r.headers.authorization).toBe('Bearer <redacted>');
			}
		});

		it("Payable → Update Bookkeeping Status: 250 items in 3 bulk calls (100, 100, 50), one result item per input item; a stale version is that item's error", () => {
			const payables = sim.data(LOOP).payables;
			expect(payables).toHaveLength(LOOP_PAYABLES);
			const marked = rawItems(exec.run, 'Mark Exported');
			const searched = sortedBy(payables, (p) => p.createdAt);
			expect(marked.map((i) => i.json)).toEqual(
				searched.map((p) => ({
					id: p.id,
					status: 'updated',
					version: 2,
					bookkeepingStatus: 'exported',
				})),
			);
			expect(marked.map((i) => i.pairedItem)).toEqual(searched.map((_, item) => ({ item })));
			for (const p of payables)
				expect(p).toMatchObject({ bookkeepingStatus: 'exported', version: 2 });
			const calls = sim.requestsTo('updateBookkeepingStatus');
			const sizes = calls.map((r) => ((r.body as Json).payables as unknown[]).length);
			expect(sizes).toEqual([100, 100, 50, 1]);
			for (const r of calls)
				expect(r).toMatchObject({ method: 'PUT', companyId: LOOP, status: 200 });

			expect(out('Mark Failed Export (continue)')).toEqual([
				expect.objectContaining({
					error: 'Payable "pay_005_000010" has changed in Spendesk since it was read',
				}),
			]);
			expect((calls[3].body as Json).payables).toEqual([
				{
					id: 'pay_005_000010',
					version: 1,
					bookkeepingStatus: 'failedToExport',
					failureReason: 'Unknown supplier account in the ledger',
				},
			]);
			expect(payables.find((p) => p.id === 'pay_005_000010')).toMatchObject({
				bookkeepingStatus: 'exported',
				version: 2,
			});
		});

		it("Settlement → Update Bookkeeping Status: Spendesk's values (failedToExport, exported); failedExport refused before any request", () => {
			const [failed, refused, exported] = sim.data(LOOP).settlements;
			expect(failed).toMatchObject({ state: 'failedToExport' });
			expect(refusedBefore.state).not.toBe('failedToExport');
			expect(plain(refused)).toEqual(refusedBefore);
			expect(exported).toMatchObject({ state: 'exported' });
			expect(out('Settlement Update State')).toEqual([plain(failed)]);
			expect(out('Settlement Update State failedExport (continue)')).toEqual([
				expect.objectContaining({
					error: `'Bookkeeping Status' must be "Exported" or "Failed to Export"; got "failedExport"`,
				}),
			]);
			expect(out('Settlement Exported')).toEqual([plain(exported)]);
			const calls = sim.requestsTo('updateSettlementState');
			expect(calls.map((r) => [r.method, r.path, r.body, r.status]).sort()).toEqual(
				[
					['PUT', `/v1/settlements/${failed.id}/state`, { state: 'failedToExport' }, 200],
					['PUT', `/v1/settlements/${exported.id}/state`, { state: 'exported' }, 200],
				].sort(),
			);
		});

		it("Supplier → Get Many (two pages; Archived and Updated After in the workflow's time zone) and Get", () => {
			const suppliers = sim.data(BIG).suppliers;
			expect(out('Suppliers')).toEqual(plain(suppliers));
			expect(out('Suppliers')).toHaveLength(40);
			const since = '2026-01-19T23:00:00.000Z'; // 2026-01-20 00:00 in Paris
			const filtered = suppliers.filter((s) => s.isArchived && s.updatedAt > since);
			expect(filtered.length).toBeGreaterThan(0);
			expect(out('Suppliers Archived Since')).toEqual(plain(filtered));
			const queries = sim
				.requestsTo('listSuppliers')
				.filter((r) => r.companyId === BIG)
				.map((r) => r.query);
			expect(queries).toContainEqual(
				expect.objectContaining({ updatedAfter: since, isArchived: 'true' }),
			);
			expect(queries.filter((q) => q.page === '2').length).toBeGreaterThan(0);
			expect(out('Supplier Get')).toEqual([plain(suppliers[3])]);
		});

		it("Supplier → Create (3 items, one bulk call of Spendesk's nested suppliers) and → Update (each created supplier, nested)", () => {
			const names = ['E2E Supplier A', 'E2E Supplier B', 'E2E Supplier C'];
			const bankInfo = { iban: 'FR7630006000011234567890189', bic: 'BNPAFRPP', bankCountry: 'FR' };
			const sentSupplier = (name: string) => ({
				name,
				primaryEmail: `billing-${name.slice(-1).toLowerCase()}@supplier.example`,
				supplierDetails: {
					legalName: `${name} SAS`,
					country: 'FR',
					city: 'Paris',
					zipcode: '75002',
					address: '1 rue de la Paix',
					registrationNumber: '303265045',
				},
				bankInfo,
			});
			// One call, its body a JSON array of the nested suppliers (checked and normalised by the node).
			const creates = sim.requestsTo('createSuppliers');
			expect(creates.map((r) => [r.method, r.companyId, r.status, r.body])).toEqual([
				['POST', LOOP, 201, names.map(sentSupplier)],
			]);
			// Each item the supplier of its `{ outcome: "created", supplier }`, as created then, in
			// the shape Spendesk reads it (docs/api.md#suppliers-as-read).
			const created = out('Create Suppliers');
			expect(created).toEqual(
				names.map((name) =>
					expect.objectContaining({
						name,
						primaryEmail: sentSupplier(name).primaryEmail,
						legalName: `${name} SAS`,
						registrationNo: '303265045',
						vatNo: null,
						address: {
							line1: '1 rue de la Paix',
							city: 'Paris',
							postalCode: '75002',
							country: 'FR',
						},
						id: expect.any(String),
						iban: bankInfo.iban,
						bic: bankInfo.bic,
						bankCountry: 'FR',
						isArchived: false,
					}),
				),
			);
			const stored = sim.data(LOOP).suppliers.filter((s) => names.includes(s.name));
			expect(stored.map((s) => s.id)).toEqual(created.map((s) => s.id));

			// Update: the VAT number normalised, the city changed, the BIC added empty cleared; the rest kept.
			const change = {
				supplierDetails: { vatNumber: 'FR40303265045', city: 'Lyon' },
				bankInfo: { bic: null },
			};
			// Several items: one bulk call with every supplier and its ID (docs/api.md#supplier-management).
			expect(sim.requestsTo('updateSupplier')).toEqual([]);
			expect(
				sim.requestsTo('updateSuppliers').map((r) => [r.method, r.path, r.body, r.status]),
			).toEqual([['PATCH', '/v1/suppliers', stored.map((s) => ({ id: s.id, ...change })), 200]]);
			expect(out('Update Suppliers')).toEqual(plain(stored));
			for (const s of stored) {
				const sent = sentSupplier(s.name);
				expect(s).toMatchObject({
					primaryEmail: sent.primaryEmail,
					legalName: sent.supplierDetails.legalName,
					vatNo: 'FR40303265045',
					address: { line1: '1 rue de la Paix', city: 'Lyon', postalCode: '75002', country: 'FR' },
					iban: bankInfo.iban,
					bic: null,
					bankCountry: 'FR',
				});
			}
		});

		it('User → Get Many and Get, Cost Center → Get Many', () => {
			const data = sim.data(BIG);
			expect(out('Users')).toEqual(plain(data.users));
			expect(out('Users')).toHaveLength(35);
			expect(out('User Get')).toEqual([plain(data.users[31])]);
			expect(out('Cost Centers')).toEqual(plain(data.costCenters));
		});

		it("Bank Fee and Wallet Load → Get Many: From / To date fields read in the workflow's time zone, sent in UTC", () => {
			const data = sim.data(BIG);
			const [from, to] = ['2026-01-03T00:00:00.000Z', '2026-01-09T12:00:00.000Z'];
			const fees = data.bankFees.filter((f) => f.createdAt >= from && f.createdAt <= to);
			expect(fees.length).toBeGreaterThan(0);
			expect(out('Bank Fees Between')).toEqual(plain(fees));
			expect(sim.requestsTo('listBankFees')[0].query).toMatchObject({ from, to });
			expect(out('Wallet Loads')).toEqual(plain(data.walletLoads));
			const since = '2026-01-16T00:00:00.000Z';
			expect(out('Wallet Loads Since')).toEqual(
				plain(data.walletLoads.filter((l) => l.createdAt >= since)),
			);
			expect(sim.requestsTo('listWalletLoads').map((r) => r.query.from)).toContain(since);
		});

		it('Accounting Export → Create (polled until COMPLETE) and Get Journal: the CSV as binary data', () => {
			const [from, to] = ['2026-01-01T02:00:00.000Z', '2026-01-01T05:00:00.000Z']; // 03:00 and 06:00 in Paris
			const [created] = out('Accounting Export');
			expect(created).toEqual({ id: expect.any(String), status: 'COMPLETE', from, to });
			expect(sim.requestsTo('createAccountingExport').map((r) => r.body)).toEqual([{ from, to }]);
			expect(sim.requestsTo('getAccountingExport').length).toBeGreaterThanOrEqual(2);
			const rows = sim.data(BIG).payables.filter((p) => p.createdAt >= from && p.createdAt < to);
			expect(rows.length).toBeGreaterThan(0);
			const csv = Buffer.from(journalCsv(rows));
			const [journal] = rawItems(exec.run, 'Journal');
			const fileName = `journal-${String(created.id)}.csv`;
			expect(journal.json).toEqual({
				exportId: created.id,
				fileName,
				mimeType: 'text/csv',
				size: csv.length,
			});
			expect(journal.binary?.data).toMatchObject({ fileName, mimeType: 'text/csv' });
			expect(binarySize(journal.binary!.data!)).toBe(csv.length);
		});
	});

	describe('company-level key and a key without experimental scopes', () => {
		let exec: Execution;
		const out = (node: string) => items(exec.run, node);
		const own = () => sim.credentials.companyKey.companyId!;

		beforeAll(async () => {
			exec = timedExecution(
				target,
				'company key, limited key, revoked OAuth2 (8 nodes)',
				await execute(home, 'e2eOtherKeys'),
			);
		});

		it('a company key works on its own company with the Company field left empty', () => {
			expect(out('Own Invoices')).toEqual(plain(sim.invoicesSorted(own(), 'createdAt', 'asc')));
			expect(out('Own Wallet')).toEqual([plain(sim.data(own()).walletSummary)]);
			expect(out('Own Intakes')).toEqual(plain(sortedBy(sim.data(own()).intakes)));
		});

		it('errors (docs/api.md#errors) of a company key: Get Companies and another company', () => {
			expect(out('Companies With Company Key (continue)')).toEqual([
				expect.objectContaining({
					error:
						'Company → Get Many needs an organisation-level credential; "Spendesk company key" is company-level',
				}),
			]);
			expect(out('Other Company With Company Key (continue)')).toEqual([
				expect.objectContaining({
					error: `The company-level credential "Spendesk company key" cannot reach company "${BIG}"`,
				}),
			]);
		});

		it('a revoked OAuth2 connection: the refresh is refused and the error says to reconnect the credential', () => {
			expect(out('Wallet With Revoked OAuth2 (continue)')).toEqual([
				expect.objectContaining({
					error:
						'Reconnect the credential "Spendesk revoked OAuth2" to Spendesk: approve at the link below, then paste the address you land on into the credential and save',
				}),
			]);
			expect(
				sim
					.requestsTo('oauthTokenRefresh')
					.map((r) => [r.status, (r.body as Record<string, unknown>).grant_type]),
			).toEqual([[400, 'refresh_token']]);
		});

		it('a key without experimental scopes: v1 endpoints work, v2 fail with the experimental-access error', () => {
			expect(out('Settlements With Limited Key')).toEqual(plain(sim.data(BIG).settlements));
			const [error] = out('Invoices With Limited Key (continue)');
			expect(String(error.error)).toContain(
				'Invoice → Get Many uses Spendesk\'s experimental API, and the credential "Spendesk limited key" has no access to it',
			);
			expect(String(error.error)).not.toContain('lacks the scope');
		});
	});

	describe('an uncaught node error fails the execution with the node message', () => {
		it('organisation key, company outside the organisation', async () => {
			const exec = timedExecution(
				target,
				'failing workflow (foreign company)',
				await execute(home, 'e2eFailForeign', { expectSuccess: false }),
			);
			expect(exec.code).not.toBe(0);
			expect(exec.run?.data.resultData.error?.message).toBe(
				'Company "cmp_999" does not belong to your organisation',
			);
			expect(nodeError(exec.run, 'Invoices Of A Foreign Company')?.message).toBe(
				'Company "cmp_999" does not belong to your organisation',
			);
			expect(printed(exec, 'Company "cmp_999" does not belong to your organisation')).toBe(true);
		});

		it('company key on Get Companies', async () => {
			const exec = timedExecution(
				target,
				'failing workflow (company key)',
				await execute(home, 'e2eFailCompanyKey', { expectSuccess: false }),
			);
			expect(exec.code).not.toBe(0);
			const message =
				'Company → Get Many needs an organisation-level credential; "Spendesk company key" is company-level';
			expect(exec.run?.data.resultData.error?.message).toBe(message);
			expect(printed(exec, message)).toBe(true);
		});
	});

	describe('examples/', () => {
		it('export-invoices-to-spreadsheet.json: every invoice of every company as spreadsheet rows and a CSV file', async () => {
			const exec = timedExecution(
				target,
				'example: export invoices',
				await execute(home, 'e2eExampleExport', { env: INLINE_BINARY }),
			);
			const expected = active.flatMap((c) =>
				sim.invoicesSorted(c.id, 'createdAt', 'asc').map((i) => ({
					'Company ID': c.id,
					Company: c.name,
					'Invoice ID': i.id,
					'Invoice Number': i.invoiceNumber,
					Supplier: i.supplierName,
					// The example's column in the currency's units; Spendesk gives minor units.
					Amount: i.amount / 100,
					Currency: i.currency,
					Status: i.status,
					'Created At': i.createdAt,
					'Updated At': i.updatedAt,
				})),
			);
			expect(items(exec.run, 'Spreadsheet Columns')).toEqual(expected);
			const [file] = rawItems(exec.run, 'CSV File');
			expect(file.binary?.data).toMatchObject({
				fileName: 'spendesk-invoices.csv',
				mimeType: 'text/csv',
			});
			const csv = readBinary(home, file.binary!.data!);
			const lines = csv.trim().split(/\r?\n/);
			expect(lines[0]).toBe(
				'Company ID,Company,Invoice ID,Invoice Number,Supplier,Amount,Currency,Status,Created At,Updated At',
			);
			expect(lines).toHaveLength(expected.length + 1);
			expect(lines[1].split(',').slice(0, 4)).toEqual([
				expected[0]['Company ID'],
				expected[0].Company,
				expected[0]['Invoice ID'],
				expected[0]['Invoice Number'],
			]);
		});

		it('new-invoice-notification.json: a message per new invoice (trigger replaced by its manual-run equivalent, see notificationExample)', async () => {
			const exec = timedExecution(
				target,
				'example: notification',
				await execute(home, 'e2eExampleNotify'),
			);
			const { trigger } = notificationExample();
			expect(trigger.parameters).toMatchObject({ event: 'newInvoice', companies: 'all' });
			const newest = active.map((c) => ({
				c,
				i: sim.invoicesSorted(c.id, 'updatedAt', 'desc')[0],
			}));
			expect(items(exec.run, trigger.name)).toEqual(
				plain(newest.map(({ c, i }) => ({ ...i, companyId: c.id, companyName: c.name }))),
			);
			expect(items(exec.run, 'Format Notification')).toEqual(
				newest.map(({ c, i }) => ({
					title: `New invoice ${i.invoiceNumber} (${c.name})`,
					text: `New invoice ${i.invoiceNumber} from ${i.supplierName}: ${(i.amount / 100).toFixed(2)} ${i.currency} for ${c.name} (status: ${i.status}, received ${i.createdAt})`,
					invoiceId: i.id,
					companyId: c.id,
				})),
			);
		});

		it('monthly-settlements-per-company.json: settlement totals per company and month', async () => {
			const exec = timedExecution(
				target,
				'example: monthly settlements',
				await execute(home, 'e2eExampleMonthly'),
			);
			const expected: Json[] = [];
			for (const c of active) {
				const groups = new Map<string, { sum: number; count: number; currency: string }>();
				for (const s of sim.data(c.id).settlements) {
					const key = `${s.createdAt.slice(0, 7)}|${s.currency}`;
					const group = groups.get(key) ?? { sum: 0, count: 0, currency: s.currency };
					group.sum += s.amount;
					group.count += 1;
					groups.set(key, group);
				}
				for (const [key, g] of groups) {
					expected.push({
						'Company ID': c.id,
						Company: c.name,
						Month: key.split('|')[0],
						Currency: g.currency,
						Settlements: g.count,
						// Settlement amounts are minor units; the report gives the currency's units.
						Total: g.sum / 100,
					});
				}
			}
			expect(items(exec.run, 'Report Lines')).toEqual(expected);
			expect(items(exec.run, 'Get Settlements of Every Company')).toHaveLength(
				active.reduce((n, c) => n + sim.data(c.id).settlements.length, 0),
			);
		});

		it('export-payables-with-receipts.json: the receipts of the prepared payables as binary files, then those payables marked exported in bulk', async () => {
			const prepared = active.flatMap((c) =>
				sortedBy(sim.data(c.id).payables, (p) => p.createdAt)
					.filter((p) => ['prepared', 'failedToExport'].includes(p.bookkeepingStatus ?? 'created'))
					.map((p) => ({ c, p })),
			);
			const withFiles = prepared.filter(({ p }) => sim.files.attachmentsOf(p.id).length > 0);
			const without = prepared.filter(({ p }) => sim.files.attachmentsOf(p.id).length === 0);
			expect(withFiles.length).toBeGreaterThan(0);
			expect(without.length).toBeGreaterThan(0);
			const before = new Map(
				prepared.map(({ p }) => [
					p.id,
					{ version: p.version ?? 1, bookkeepingStatus: p.bookkeepingStatus },
				]),
			);
			const from = sim.log.length;

			const exec = timedExecution(
				target,
				'example: export payables with receipts',
				await execute(home, 'e2eExamplePayables', { env: INLINE_BINARY }),
			);

			// Every receipt arrived as a file: bytes, name and MIME type as stored in Spendesk.
			const files = withFiles.flatMap(({ p }) =>
				sim.files.attachmentsOf(p.id).map((f) => ({ payableId: p.id, f })),
			);
			const receipts = rawItems(exec.run, 'Get Receipts');
			expect(receipts.map((r) => [r.json.payableId, r.json.id])).toEqual(
				files.map(({ payableId, f }) => [payableId, f.id]),
			);
			receipts.forEach((r, i) => {
				expect(r.binary?.data).toMatchObject({
					fileName: files[i].f.fileName,
					mimeType: files[i].f.mimeType,
				});
				expect(Buffer.from(r.binary!.data!.data ?? '', 'base64').equals(files[i].f.content)).toBe(
					true,
				);
			});
			// Each receipt with the payable's fields as Get read them (amount in minor units).
			const payableOf = new Map(withFiles.map(({ c, p }) => [p.id, { c, p }]));
			expect(
				items(exec.run, 'Accounting Entry').map((e) => [
					e.companyId,
					e.payableId,
					e.version,
					e.description,
					e.supplier,
					e.amount,
					e.currency,
				]),
			).toEqual(
				files.map(({ payableId }) => {
					const { c, p } = payableOf.get(payableId)!;
					const detail = payableDetail(p);
					return [
						c.id,
						p.id,
						before.get(p.id)!.version,
						p.description,
						detail.counterparty.name,
						p.amount,
						p.currency,
					];
				}),
			);
			expect(items(exec.run, 'Send to Accounting System')).toHaveLength(files.length);
			expect(
				rawItems(exec.run, 'Send to Accounting System').every((r) => r.binary?.data?.data),
			).toBe(true);

			// Each payable with receipts marked exported once, at the version Get read; the others untouched.
			expect(items(exec.run, 'Mark Exported in Spendesk')).toEqual(
				withFiles.map(({ p }) => ({
					id: p.id,
					status: 'updated',
					version: before.get(p.id)!.version + 1,
					bookkeepingStatus: 'exported',
				})),
			);
			for (const { p } of withFiles)
				expect(p).toMatchObject({
					bookkeepingStatus: 'exported',
					version: before.get(p.id)!.version + 1,
				});
			for (const { p } of without)
				expect({ version: p.version ?? 1, bookkeepingStatus: p.bookkeepingStatus }).toEqual(
					before.get(p.id),
				);

			// One bulk call per company (none has 100 such payables), each with that company's payables.
			const log = sim.log.slice(from);
			const calls = log.filter((r) => r.route === 'updateBookkeepingStatus');
			const companies = [...new Set(withFiles.map(({ c }) => c.id))];
			expect(calls.map((r) => r.companyId).sort()).toEqual([...companies].sort());
			for (const call of calls) {
				const sent = ((call.body as Json).payables as Json[]).map((e) => e.id);
				expect(sent).toEqual(
					withFiles.filter(({ c }) => c.id === call.companyId).map(({ p }) => p.id),
				);
			}
			expect(log.filter((r) => r.route === 'getPayable')).toHaveLength(prepared.length);
			expect(log.filter((r) => r.route === 'fileDownload')).toHaveLength(files.length);
			expectNoCredential(log.filter((r) => r.host === 'files'));
		});

		it('email-attachment-to-intake.json: an intake created from the mail with its attachment uploaded (company-level key)', async () => {
			const example = JSON.parse(
				readFileSync(path.join(REPO_ROOT, 'examples', 'email-attachment-to-intake.json'), 'utf8'),
			) as Workflow;
			const mailFields = (
				example.nodes.find((n) => n.name === 'Incoming Mail (Stand-in)')!.parameters
					.assignments as { assignments: Array<{ name: string; value: string }> }
			).assignments;
			const pdf = Buffer.from(
				mailFields.find((a) => a.name === 'attachmentBase64')!.value,
				'base64',
			);
			const own = sim.credentials.companyKey.companyId!;
			expect(COMPANY_LEVEL_EXAMPLES).toContain('email-attachment-to-intake.json'); // npm run dev gives it the company key too
			const from = sim.log.length;

			const exec = timedExecution(
				target,
				'example: mail attachment to intake',
				await execute(home, 'e2eExampleMailIntake'),
			);

			const [file] = rawItems(exec.run, 'Attachment as File');
			expect(file.binary?.attachment_0).toMatchObject({
				fileName: 'INV-2026-0042.pdf',
				mimeType: 'application/pdf',
			});
			const [created] = items(exec.run, 'Create Intake with the Attachment');
			const upload = {
				fileName: 'INV-2026-0042.pdf',
				mimeType: 'application/pdf',
				size: pdf.length,
			};
			expect(created).toMatchObject({
				supplierName: 'Example Supplies',
				description: 'Invoice INV-2026-0042',
				file: { intakeId: created.id, ...upload, status: 'uploaded' },
			});
			const stored = sim.data(own).intakes.find((i) => i.id === created.id);
			expect(stored).toMatchObject({
				supplierName: 'Example Supplies',
				description: 'Invoice INV-2026-0042',
			});
			expect(stored?.files).toEqual([{ fileId: (created.file as Json).fileId, ...upload }]);
			expect(
				sim.files.uploads.get(String((created.file as Json).fileId))?.content?.equals(pdf),
			).toBe(true);
			const log = sim.log.slice(from);
			expect(log.filter((r) => r.route !== 'token').map((r) => r.route)).toEqual([
				'createIntake',
				'startIntakeUpload',
				'fileUpload',
				'completeIntakeUpload',
			]);
			expect(log.find((r) => r.route === 'createIntake')?.path).toBe(
				`/v2/companies/${own}/intakes`,
			);
			expectNoCredential(log.filter((r) => r.host === 'files'));
		});

		it('the examples reference a placeholder credential, not a real one', () => {
			for (const file of [
				'export-invoices-to-spreadsheet.json',
				'new-invoice-notification.json',
				'monthly-settlements-per-company.json',
				'export-payables-with-receipts.json',
				'email-attachment-to-intake.json',
			]) {
				const wf = JSON.parse(
					readFileSync(path.join(REPO_ROOT, 'examples', file), 'utf8'),
				) as Workflow;
				const refs = wf.nodes.flatMap((n) => Object.values(n.credentials ?? {}));
				expect(refs.length).toBeGreaterThan(0);
				expect(refs.every((r) => r.id === EXAMPLE_CREDENTIAL_ID)).toBe(true);
				expect(wf.nodes.some((n) => n.type === 'n8n-nodes-base.stickyNote')).toBe(true);
			}
		});
	});

	it('one token per credential across all executions of this n8n home (token kept by n8n between runs)', () => {
		// Three credentials made requests (org key, company key, limited key), over 9 executions.
		expect(tokensAfterOrgRun).toBe(1);
		expect(tokenRequests()).toBe(3);
	});
});

/** Size of a binary property: n8n's `bytes` (file kept in its store) or the inline data's. */
function binarySize(binary: BinaryRef): number {
	if (typeof binary.bytes === 'number') return binary.bytes;
	if (binary.data !== undefined) return Buffer.from(binary.data, 'base64').length;
	throw new Error(`binary data without bytes or data: ${JSON.stringify(binary)}`);
}

/** Requests that carry no credential of any kind (bearer token, basic auth, company header, token in a header value). */
function expectNoCredential(requests: LoggedRequest[]): void {
	expect(requests.length).toBeGreaterThan(0);
	for (const r of requests) {
		expect(r.headers).not.toHaveProperty('authorization');
		expect(r.headers).not.toHaveProperty('x-company-id');
		for (const value of Object.values(r.headers)) expect(value).not.toMatch(/bearer|basic |sat_/i);
	}
}

/** Whether n8n printed the message, as text or inside the run JSON it logs. */
function printed(exec: Execution, message: string): boolean {
	const output = exec.stdout + exec.stderr;
	return output.includes(message) || output.includes(JSON.stringify(message).slice(1, -1));
}

/**
 * n8n ≥ 2 keeps binary data in files (`filesystem` mode) and deletes an execution's files when
 * `n8n execute` ends; in `default` mode the bytes travel inside the item (base64).
 */
const INLINE_BINARY = { N8N_DEFAULT_BINARY_DATA_MODE: 'default' };

/** The bytes of a binary item: inline (`data`) or in n8n's filesystem store (`id` = "filesystem-v2:<path>"). */
function readBinary(home: N8nHome, binary: { data?: string; id?: string }): string {
	if (binary.id) {
		const [mode, location] = binary.id.split(/:(.*)/s);
		if (!mode.startsWith('filesystem'))
			throw new Error(`binary data mode ${mode} is not readable here`);
		return readFileSync(path.join(home.dir, '.n8n', 'binaryData', location), 'utf8');
	}
	return Buffer.from(binary.data ?? '', 'base64').toString('utf8');
}
