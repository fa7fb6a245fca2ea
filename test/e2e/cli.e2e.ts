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
import type { Company, CompanySeed } from '../simulator';
import { createHome, ensureN8n, installedVersion, N8N_TARGETS, parseTargets, REPO_ROOT } from './runtime';
import type { N8nHome, N8nRuntime, N8nTarget } from './runtime';
import {
	apiKeyCredential,
	batchWorkflow,
	company,
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
	workflow,
} from './workflows';
import type { Execution, Workflow, WorkflowNode } from './workflows';

type Json = Record<string, unknown>;

/** The simulator's objects as they travel over JSON. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
/** Sorted like the simulator's keyset lists: by key, then id (string order). */
function sortedBy<T extends { id: string }>(list: readonly T[], key: (item: T) => string = () => ''): T[] {
	const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
	return [...list].sort((a, b) => cmp(key(a), key(b)) || cmp(a.id, b.id));
}

// ---------------------------------------------------------------- data

const BIG = 'cmp_002';
const OTHER = 'cmp_003';
const COMPANY_COUNT = 35; // 34 active: Get Companies needs two pages of 30
const DEACTIVATED = `cmp_0${COMPANY_COUNT}`;

/** Every company small, except cmp_002: more than one page of every list, whatever the style. */
function companySeeds(): CompanySeed[] {
	const seeds: CompanySeed[] = [];
	for (let i = 1; i <= COMPANY_COUNT; i++) {
		const id = `cmp_${String(i).padStart(3, '0')}`;
		seeds.push({
			id,
			active: id !== DEACTIVATED,
			sizes:
				id === BIG
					? {
							invoices: 230, // cursor, 100 a page: 3 pages
							accounts: 230, // offset, 100 a page: 3 pages
							payables: 130, // body cursor 100 a page: 2 pages; snapshot 30 a page: 5 pages
							settlements: 75, // page, 30 a page: 3 pages
							analyticalFields: 3,
							analyticalFieldValues: 1100, // cursor, 1,000 a page: 2 pages
							expenseCategories: 130, // cursor, 100 a page: 2 pages
							intakes: 130, // cursor, 100 a page: 2 pages
						}
					: undefined,
		});
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
	const lines = timings.map((t) => `  ${t.target.padEnd(7)} ${t.step.padEnd(48)} ${(t.ms / 1000).toFixed(1).padStart(7)} s`);
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
	const revokedOAuth = { id: 'e2eRevokedOAuth', name: 'Spendesk revoked OAuth2', type: 'spendeskOAuth2Api' as const };
	const tokenRequests = () => sim.requestsTo('token').length;

	// ------------------------------------------------------------ workflows

	const continueOnFail: Partial<WorkflowNode> = { onError: 'continueRegularOutput' };

	/** Every resource and operation, every pagination style past one page, list/expression/All Companies selection. */
	function operationsWorkflow(): Workflow {
		const s = (name: string, parameters: Json, extra: Partial<WorkflowNode> = {}) => spendeskNode(name, parameters, org, [0, 0], extra);
		return batchWorkflow('e2eOps', 'E2E every operation', [
			[s('Companies', { resource: 'company', operation: 'getAll', returnAll: true })],
			[s('Invoices', { resource: 'invoice', operation: 'getAll', company: company(BIG), sortBy: 'createdAt', sort: 'asc', returnAll: true })],
			[s('Invoices From List', { resource: 'invoice', operation: 'getAll', company: company(OTHER, 'list'), returnAll: true })],
			[s('Invoices Limit', { resource: 'invoice', operation: 'getAll', company: company(BIG), sortBy: 'createdAt', sort: 'desc', returnAll: false, limit: 7 })],
			[s('Invoices Paid', { resource: 'invoice', operation: 'getAll', company: company(BIG), sortBy: 'createdAt', sort: 'asc', filters: '{"status": "paid"}', returnAll: true })],
			[s('Invoices All Companies', { resource: 'invoice', operation: 'getAll', companyScope: 'all', sortBy: 'createdAt', sort: 'asc', returnAll: true })],
			[s('Accounts', { resource: 'account', operation: 'getAll', company: company(BIG), returnAll: true })],
			[s('Accounts All Companies Untagged', { resource: 'account', operation: 'getAll', companyScope: 'all', addCompanyFields: false, returnAll: true })],
			[s('Payables Search', { resource: 'payable', operation: 'search', company: company(BIG), returnAll: true })],
			[
				s('Payables Search Filtered', {
					resource: 'payable',
					operation: 'search',
					company: company(BIG),
					filterMode: 'fields',
					filters: { status: ['settled', 'prepared'], payableType: ['invoice'] },
					returnAll: true,
				}),
			],
			[s('Payables Snapshot', { resource: 'payable', operation: 'getAllSnapshot', company: company(BIG), returnAll: true, maxWait: 60 })],
			[s('Settlements', { resource: 'settlement', operation: 'getAll', company: company(BIG), returnAll: true })],
			[s('Wallet Summary', { resource: 'walletSummary', operation: 'get', company: company(BIG, 'list') })],
			[s('Analytical Fields', { resource: 'analyticalField', operation: 'getAll', company: company(BIG), returnAll: true })],
			[s('Analytical Field Values', { resource: 'analyticalField', operation: 'getValues', company: company(BIG), fieldId: '__FIELD__', returnAll: true })],
			[s('Expense Categories', { resource: 'expenseCategory', operation: 'getAll', company: company(BIG), returnAll: true })],
			[s('Intakes', { resource: 'intake', operation: 'getAll', company: company(BIG), returnAll: true })],
			[
				s('Create Intake', {
					resource: 'intake',
					operation: 'create',
					company: company(OTHER),
					intake: JSON.stringify({ supplierName: 'E2E Supplies', amount: 123.45, currency: 'EUR', description: 'created by the e2e suite' }),
				}),
			],
			[
				s('Custom Wallet', {
					resource: 'customApiCall',
					operation: 'request',
					company: company('cmp_004'),
					method: 'GET',
					path: '/v1/wallet-summary',
					scoping: 'header',
					pagination: 'none',
				}),
			],
			[
				s('Custom Companies Page', {
					resource: 'customApiCall',
					operation: 'request',
					method: 'GET',
					path: '/v2/companies',
					scoping: 'none',
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
					scoping: 'path',
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
					scoping: 'header',
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
					scoping: 'header',
					pagination: 'bodyCursor',
					body: '{"payableType": "card_purchase"}',
					returnAll: true,
				}),
			],
			[
				setNode('Pick Company', { companyId: { value: OTHER } }),
				s('Settlements By Expression', { resource: 'settlement', operation: 'getAll', company: company('={{ $json.companyId }}'), returnAll: true }),
			],
			[s('Foreign Company (continue)', { resource: 'settlement', operation: 'getAll', company: company('cmp_999'), returnAll: true }, continueOnFail)],
			[s('Deactivated Company (continue)', { resource: 'walletSummary', operation: 'get', company: company(DEACTIVATED) }, continueOnFail)],
			[s('No Company (continue)', { resource: 'walletSummary', operation: 'get', company: company('', 'list') }, continueOnFail)],
		]);
	}

	/** The company-level key (own company, no Company field) and the key without experimental scopes. */
	function otherCredentialsWorkflow(): Workflow {
		return batchWorkflow('e2eOtherKeys', 'E2E company-level and limited keys', [
			[spendeskNode('Own Invoices', { resource: 'invoice', operation: 'getAll', company: company('', 'list'), sortBy: 'createdAt', sort: 'asc', returnAll: true }, companyCred)],
			[spendeskNode('Own Wallet', { resource: 'walletSummary', operation: 'get', company: company('', 'list') }, companyCred)],
			[spendeskNode('Own Intakes', { resource: 'intake', operation: 'getAll', company: company('', 'list'), returnAll: true }, companyCred)],
			[spendeskNode('Companies With Company Key (continue)', { resource: 'company', operation: 'getAll', returnAll: true }, companyCred, [0, 0], continueOnFail)],
			[spendeskNode('Other Company With Company Key (continue)', { resource: 'settlement', operation: 'getAll', company: company(BIG), returnAll: true }, companyCred, [0, 0], continueOnFail)],
			[spendeskNode('Settlements With Limited Key', { resource: 'settlement', operation: 'getAll', company: company(BIG), returnAll: true }, limited)],
			[spendeskNode('Invoices With Limited Key (continue)', { resource: 'invoice', operation: 'getAll', company: company(BIG), returnAll: true }, limited, [0, 0], continueOnFail)],
			[spendeskNode('Wallet With Revoked OAuth2 (continue)', { resource: 'walletSummary', operation: 'get', company: company(BIG) }, revokedOAuth, [0, 0], continueOnFail)],
		]);
	}

	/** A node error that is not caught: the execution fails with the node's message. */
	const failingWorkflows = (): Workflow[] => [
		batchWorkflow('e2eFailForeign', 'E2E fails: foreign company', [
			[spendeskNode('Invoices Of A Foreign Company', { resource: 'invoice', operation: 'getAll', company: company('cmp_999'), returnAll: true }, org)],
		]),
		batchWorkflow('e2eFailCompanyKey', 'E2E fails: companies with a company key', [
			[spendeskNode('Companies With Company Key', { resource: 'company', operation: 'getAll', returnAll: true }, companyCred)],
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
				companyScope: trigger.parameters.companyScope,
				sortBy: 'updatedAt',
				sort: 'desc',
				returnAll: false,
				limit: 1,
			},
			org,
			trigger.position,
		);
		const nodes = [start, standIn, ...wf.nodes.filter((n) => n !== trigger)];
		const edges: Array<[string, string]> = [[start.name, standIn.name]];
		for (const [from, { main }] of Object.entries(wf.connections)) for (const to of main[0]) edges.push([from, to.node]);
		return { wf: workflow(wf.id, wf.name, nodes, edges), trigger };
	}

	// ------------------------------------------------------------ setup

	beforeAll(async () => {
		runtime = await timed(target, `install n8n ${N8N_TARGETS[target].n8n} (cached after the first run)`, () => ensureN8n(target));
		home = await timed(target, 'pack + install the package (createHome)', () => createHome(runtime));
		sim = new SpendeskSimulator({ snapshotPendingPolls: 1, seed: { companies: companySeeds(), sizes: SMALL_SIZES } });
		await sim.start();
		active = sim.companies().filter((c) => c.active);

		const ops = operationsWorkflow();
		const fieldId = sim.data(BIG).analyticalFields[0].id;
		ops.nodes.find((n) => n.name === 'Analytical Field Values')!.parameters.fieldId = fieldId;

		await timed(target, 'import 4 credentials', () =>
			importCredentials(home, [
				apiKeyCredential(org, sim.baseUrl, sim.credentials.orgKey),
				apiKeyCredential(companyCred, sim.baseUrl, sim.credentials.companyKey),
				apiKeyCredential(limited, sim.baseUrl, sim.credentials.orgKeyNoExperimental),
				// An OAuth2 connection whose tokens Spendesk no longer knows (revoked): n8n's refresh is refused.
				{
					...revokedOAuth,
					data: {
						environment: 'custom',
						baseUrl: sim.baseUrl,
						accessLevel: 'organisation',
						clientId: sim.credentials.oauthClient.clientId,
						clientSecret: sim.credentials.oauthClient.clientSecret,
						oauthTokenData: { access_token: 'revoked-access-token', refresh_token: 'revoked-refresh-token', token_type: 'Bearer' },
					},
				},
			]),
		);
		await timed(target, 'import 8 workflows', () =>
			importWorkflows(home, [
				ops,
				otherCredentialsWorkflow(),
				...failingWorkflows(),
				loadExample('export-invoices-to-spreadsheet.json', 'e2eExampleExport', org),
				notificationExample().wf,
				loadExample('monthly-settlements-per-company.json', 'e2eExampleMonthly', org),
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
		const installed = JSON.parse(readFileSync(path.join(home.dir, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-spendesk', 'package.json'), 'utf8')) as Json;
		expect(installed.name).toBe('n8n-nodes-spendesk');
	});

	describe('one execution of every operation (organisation key)', () => {
		let exec: Execution;
		const out = (node: string) => items(exec.run, node);

		beforeAll(async () => {
			sim.clearLog();
			sim.resetStats();
			exec = timedExecution(target, 'every operation (27 Spendesk nodes)', await execute(home, 'e2eOps'));
			tokensAfterOrgRun = tokenRequests();
		});

		it('Company → Get Many: every active company over two pages (page style)', () => {
			expect(active).toHaveLength(COMPANY_COUNT - 1);
			expect(out('Companies')).toEqual(active.map(({ id, name }) => ({ id, name })));
			expect(sim.requestsTo('getCompanies').filter((r) => r.query.page === '2').length).toBeGreaterThan(0);
		});

		it('Invoice → Get Many: Return All over three cursor pages, sort, Limit and filters', () => {
			expect(out('Invoices')).toEqual(plain(sim.invoicesSorted(BIG, 'createdAt', 'asc')));
			expect(out('Invoices')).toHaveLength(230);
			expect(out('Invoices Limit')).toEqual(plain(sim.invoicesSorted(BIG, 'createdAt', 'desc').slice(0, 7)));
			const paid = sim.invoicesSorted(BIG, 'createdAt', 'asc').filter((i) => i.status === 'paid');
			expect(paid.length).toBeGreaterThan(0);
			expect(out('Invoices Paid')).toEqual(plain(paid));
			const limited = sim.requestsTo('listInvoices').filter((r) => r.path.includes(BIG) && r.query.sort === 'desc');
			expect(limited.map((r) => r.query.limit)).toEqual(['7']);
			// The Limit hint shows where results were really cut, and only there.
			expect(nodeHints(exec.run, 'Invoices Limit')).toEqual(['Some results were cut off by the Limit. Turn on Return All to get every result.']);
			expect(nodeHints(exec.run, 'Invoices')).toEqual([]);
		});

		it('a company chosen from the list (mode "list") and the default sort (updatedAt, newest first)', () => {
			expect(out('Invoices From List')).toEqual(plain(sim.invoicesSorted(OTHER, 'updatedAt', 'desc')));
		});

		it('All Companies: every active company, concurrently, each item tagged with companyId and companyName', () => {
			const expected = active.flatMap((c) => sim.invoicesSorted(c.id, 'createdAt', 'asc').map((i) => ({ ...i, companyId: c.id, companyName: c.name })));
			expect(out('Invoices All Companies')).toEqual(plain(expected));
			expect(sim.requestsTo('listInvoices').some((r) => r.path.includes(DEACTIVATED))).toBe(false);
			expect(out('Accounts All Companies Untagged')).toEqual(plain(active.flatMap((c) => sim.data(c.id).accounts)));
			// The transport's cap: at most 5 requests of a credential in flight, even across 34 companies.
			expect(sim.stats.peakInFlight).toBeLessThanOrEqual(5);
		});

		it('Account → Get Many: offset pages', () => {
			expect(out('Accounts')).toEqual(plain(sim.data(BIG).accounts));
			expect(out('Accounts')).toHaveLength(230);
		});

		it('Payable → Search: body-cursor pages, with filters', () => {
			const payables = sortedBy(sim.data(BIG).payables, (p) => p.createdAt);
			expect(out('Payables Search')).toEqual(plain(payables));
			expect(out('Payables Search')).toHaveLength(130);
			const filtered = payables.filter((p) => ['settled', 'prepared'].includes(p.status) && p.payableType === 'invoice');
			expect(filtered.length).toBeGreaterThan(0);
			expect(out('Payables Search Filtered')).toEqual(plain(filtered));
		});

		it('Payable → Get Many (Snapshot): waits for the snapshot, then its result pages', () => {
			expect(out('Payables Snapshot')).toEqual(plain(sim.data(BIG).payables));
			const polls = sim.requestsTo('getPayablesSnapshot');
			expect(polls.length).toBeGreaterThanOrEqual(1 + Math.ceil(130 / 30));
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
			expect(out('Analytical Fields')).toEqual(sortedBy(fields).map(({ id, name }) => ({ id, name })));
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
			expect(created[0]).toMatchObject({ supplierName: 'E2E Supplies', amount: 123.45, currency: 'EUR', description: 'created by the e2e suite' });
			const stored = sim.data(OTHER).intakes.find((i) => i.id === created[0].id);
			expect(created[0]).toEqual(plain(stored));
			expect(sim.requestsTo('createIntake')).toHaveLength(1);
		});

		it('Custom API Call: no pagination, page, cursor (company in path), offset and body cursor', () => {
			// Without pagination the response's `data` is returned, like the built-in operations do.
			expect(out('Custom Wallet')).toEqual([plain(sim.data('cmp_004').walletSummary)]);
			expect(out('Custom Companies Page')).toEqual(active.map(({ id, name }) => ({ id, name })));
			expect(out('Custom Invoices Cursor')).toEqual(plain(sim.invoicesSorted(BIG, 'updatedAt', 'asc')));
			expect(out('Custom Accounts Offset')).toEqual(plain(sim.data(BIG).accounts));
			const cards = sortedBy(sim.data(BIG).payables, (p) => p.createdAt).filter((p) => p.payableType === 'card_purchase');
			expect(out('Custom Payables Body Cursor')).toEqual(plain(cards));
		});

		it('a company id from an expression ({{ $json.companyId }} set by an Edit Fields node)', () => {
			expect(out('Pick Company')).toEqual([{ companyId: OTHER }]);
			expect(out('Settlements By Expression')).toEqual(plain(sim.data(OTHER).settlements));
		});

		it('§7 errors as items with Continue On Fail: foreign company, deactivated company, no company', () => {
			expect(out('Foreign Company (continue)')).toEqual([expect.objectContaining({ error: 'Company "cmp_999" does not belong to your organisation' })]);
			expect(out('Deactivated Company (continue)')).toEqual([expect.objectContaining({ error: `Company "${DEACTIVATED}" is deactivated` })]);
			expect(out('No Company (continue)')).toEqual([
				expect.objectContaining({ error: 'Choose a company: organisation-level credentials must name the company on this call' }),
			]);
		});

		it('the token is requested once for the organisation key', () => {
			expect(tokensAfterOrgRun).toBe(1);
		});
	});

	describe('company-level key and a key without experimental scopes', () => {
		let exec: Execution;
		const out = (node: string) => items(exec.run, node);
		const own = () => sim.credentials.companyKey.companyId!;

		beforeAll(async () => {
			exec = timedExecution(target, 'company key, limited key, revoked OAuth2 (8 nodes)', await execute(home, 'e2eOtherKeys'));
		});

		it('a company key works on its own company with the Company field left empty', () => {
			expect(out('Own Invoices')).toEqual(plain(sim.invoicesSorted(own(), 'createdAt', 'asc')));
			expect(out('Own Wallet')).toEqual([plain(sim.data(own()).walletSummary)]);
			expect(out('Own Intakes')).toEqual(plain(sortedBy(sim.data(own()).intakes)));
		});

		it('§7 errors of a company key: Get Companies and another company', () => {
			expect(out('Companies With Company Key (continue)')).toEqual([
				expect.objectContaining({ error: '"Get companies" needs an organisation-level credential; "Spendesk company key" is company-level' }),
			]);
			expect(out('Other Company With Company Key (continue)')).toEqual([
				expect.objectContaining({ error: `The company-level credential "Spendesk company key" cannot reach company "${BIG}"` }),
			]);
		});

		it('a revoked OAuth2 connection: n8n\'s refresh is refused and the error says to reconnect the credential', () => {
			expect(out('Wallet With Revoked OAuth2 (continue)')).toEqual([
				expect.objectContaining({ error: 'Reconnect the credential "Spendesk revoked OAuth2": Spendesk refused to renew its OAuth2 access' }),
			]);
			expect(sim.requestsTo('oauthToken').map((r) => [r.status, (r.body as Record<string, unknown>).grant_type])).toEqual([[400, 'refresh_token']]);
		});

		it('a key without experimental scopes: v1 endpoints work, v2 fail naming the missing scope', () => {
			expect(out('Settlements With Limited Key')).toEqual(plain(sim.data(BIG).settlements));
			const [error] = out('Invoices With Limited Key (continue)');
			expect(String(error.error)).toContain('The credential "Spendesk limited key" lacks the scope "experimental:invoice:read"');
		});
	});

	describe('an uncaught node error fails the execution with the node message', () => {
		it('organisation key, company outside the organisation', async () => {
			const exec = timedExecution(target, 'failing workflow (foreign company)', await execute(home, 'e2eFailForeign', { expectSuccess: false }));
			expect(exec.code).not.toBe(0);
			expect(exec.run?.data.resultData.error?.message).toBe('Company "cmp_999" does not belong to your organisation');
			expect(nodeError(exec.run, 'Invoices Of A Foreign Company')?.message).toBe('Company "cmp_999" does not belong to your organisation');
			expect(printed(exec, 'Company "cmp_999" does not belong to your organisation')).toBe(true);
		});

		it('company key on Get Companies', async () => {
			const exec = timedExecution(target, 'failing workflow (company key)', await execute(home, 'e2eFailCompanyKey', { expectSuccess: false }));
			expect(exec.code).not.toBe(0);
			const message = '"Get companies" needs an organisation-level credential; "Spendesk company key" is company-level';
			expect(exec.run?.data.resultData.error?.message).toBe(message);
			expect(printed(exec, message)).toBe(true);
		});
	});

	describe('examples/', () => {
		it('export-invoices-to-spreadsheet.json: every invoice of every company as spreadsheet rows and a CSV file', async () => {
			const exec = timedExecution(target, 'example: export invoices', await execute(home, 'e2eExampleExport', { env: INLINE_BINARY }));
			const expected = active.flatMap((c) =>
				sim.invoicesSorted(c.id, 'createdAt', 'asc').map((i) => ({
					'Company ID': c.id,
					Company: c.name,
					'Invoice ID': i.id,
					'Invoice Number': i.invoiceNumber,
					Supplier: i.supplierName,
					Amount: i.amount,
					Currency: i.currency,
					Status: i.status,
					'Created At': i.createdAt,
					'Updated At': i.updatedAt,
				})),
			);
			expect(items(exec.run, 'Spreadsheet Columns')).toEqual(expected);
			const [file] = rawItems(exec.run, 'CSV File');
			expect(file.binary?.data).toMatchObject({ fileName: 'spendesk-invoices.csv', mimeType: 'text/csv' });
			const csv = readBinary(home, file.binary!.data!);
			const lines = csv.trim().split(/\r?\n/);
			expect(lines[0]).toBe('Company ID,Company,Invoice ID,Invoice Number,Supplier,Amount,Currency,Status,Created At,Updated At');
			expect(lines).toHaveLength(expected.length + 1);
			expect(lines[1].split(',').slice(0, 4)).toEqual([expected[0]['Company ID'], expected[0].Company, expected[0]['Invoice ID'], expected[0]['Invoice Number']]);
		});

		it('new-invoice-notification.json: a message per new invoice (trigger replaced by its manual-run equivalent, see notificationExample)', async () => {
			const exec = timedExecution(target, 'example: notification', await execute(home, 'e2eExampleNotify'));
			const { trigger } = notificationExample();
			expect(trigger.parameters).toMatchObject({ event: 'newInvoice', companyScope: 'all' });
			const newest = active.map((c) => ({ c, i: sim.invoicesSorted(c.id, 'updatedAt', 'desc')[0] }));
			expect(items(exec.run, trigger.name)).toEqual(plain(newest.map(({ c, i }) => ({ ...i, companyId: c.id, companyName: c.name }))));
			expect(items(exec.run, 'Format Notification')).toEqual(
				newest.map(({ c, i }) => ({
					title: `New invoice ${i.invoiceNumber} (${c.name})`,
					text: `New invoice ${i.invoiceNumber} from ${i.supplierName}: ${i.amount.toFixed(2)} ${i.currency} for ${c.name} (status: ${i.status}, received ${i.createdAt})`,
					invoiceId: i.id,
					companyId: c.id,
				})),
			);
		});

		it('monthly-settlements-per-company.json: settlement totals per company and month', async () => {
			const exec = timedExecution(target, 'example: monthly settlements', await execute(home, 'e2eExampleMonthly'));
			const expected: Json[] = [];
			for (const c of active) {
				const groups = new Map<string, { sum: number; count: number; currency: string }>();
				for (const s of sim.data(c.id).settlements) {
					const key = `${s.settledAt.slice(0, 7)}|${s.currency}`;
					const group = groups.get(key) ?? { sum: 0, count: 0, currency: s.currency };
					group.sum += s.amount;
					group.count += 1;
					groups.set(key, group);
				}
				for (const [key, g] of groups) {
					expected.push({ 'Company ID': c.id, Company: c.name, Month: key.split('|')[0], Currency: g.currency, Settlements: g.count, Total: Math.round(g.sum * 100) / 100 });
				}
			}
			expect(items(exec.run, 'Report Lines')).toEqual(expected);
			expect(items(exec.run, 'Get Settlements of Every Company')).toHaveLength(active.reduce((n, c) => n + sim.data(c.id).settlements.length, 0));
		});

		it('the examples reference a placeholder credential, not a real one', () => {
			for (const file of ['export-invoices-to-spreadsheet.json', 'new-invoice-notification.json', 'monthly-settlements-per-company.json']) {
				const wf = JSON.parse(readFileSync(path.join(REPO_ROOT, 'examples', file), 'utf8')) as Workflow;
				const refs = wf.nodes.flatMap((n) => Object.values(n.credentials ?? {}));
				expect(refs.length).toBeGreaterThan(0);
				expect(refs.every((r) => r.id === EXAMPLE_CREDENTIAL_ID)).toBe(true);
				expect(wf.nodes.some((n) => n.type === 'n8n-nodes-base.stickyNote')).toBe(true);
			}
		});
	});

	it('one token per credential across all executions of this n8n home (token kept by n8n between runs)', () => {
		// Three credentials made requests (org key, company key, limited key), over 7 executions.
		expect(tokensAfterOrgRun).toBe(1);
		expect(tokenRequests()).toBe(3);
	});
});

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
		if (!mode.startsWith('filesystem')) throw new Error(`binary data mode ${mode} is not readable here`);
		return readFileSync(path.join(home.dir, '.n8n', 'binaryData', location), 'utf8');
	}
	return Buffer.from(binary.data ?? '', 'base64').toString('utf8');
}
