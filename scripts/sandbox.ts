/**
 * What `npm run dev` (scripts/dev.ts) puts into its n8n, shared with the end-to-end test that
 * runs it (test/e2e/examples.e2e.ts): the simulator's data, the credentials (each through
 * n8n's own credential test) and the workflows (the quick start and every file of examples/,
 * each with a credential it runs with as it is). Everything goes through n8n's REST API, as
 * the editor does.
 */
import { existsSync, readdirSync } from 'node:fs';
import type { SimulatorOptions, SpendeskSimulator } from '../test/simulator';
import type { RestSession } from '../test/e2e/server';
import { EXAMPLES_DIR, apiKeyCredential, loadExample } from '../test/e2e/workflows';
import type { Workflow } from '../test/e2e/workflows';

export type Profile = 'specification' | 'documented';

/** The sandbox's simulator: several companies with enough data to page through. */
export function simulatorOptions(profile: Profile, port = 0): SimulatorOptions {
	return {
		profile,
		port,
		seed: {
			companies: 6,
			sizes: { invoices: 250, payables: 120, settlements: 80, accounts: 60 },
		},
	};
}

/**
 * Payables waiting for the accounting export, as any company using Spendesk has some (the seed
 * makes every payable `created`): in every active company, of the nine newest payables, those
 * whose lines carry accounts are `prepared` and the others `failedToExport` (an export refused
 * them). export-payables-with-receipts.json lists them (Bookkeeping Status *To Export*): the
 * prepared ones have receipts, the failed ones none, so it exports some and leaves others.
 */
export function preparePayablesForExport(sim: SpendeskSimulator): void {
	for (const company of sim.companies().filter((c) => c.active)) {
		const newest = [...sim.data(company.id).payables]
			.sort((a, b) => b.createdAt.localeCompare(a.createdAt))
			.slice(0, 9);
		for (const payable of newest) {
			const prepared = (payable.lineItems ?? []).every((line) => line.expenseAccount);
			payable.bookkeepingStatus = prepared ? 'prepared' : 'failedToExport';
		}
	}
}

/** The company the company key belongs to, where the examples made for one company work. */
export const SANDBOX_COMPANY = 'cmp_001';

/** A member of the sandbox's company whose email the welcome suggests for the purchase request form. */
export function sandboxWelcomeUser(sim: SpendeskSimulator): { email: string; name: string } {
	const [user] = sim.data(SANDBOX_COMPANY).users;
	if (!user) throw new Error(`The simulator's ${SANDBOX_COMPANY} has no users`);
	return { email: user.email, name: `${user.firstName} ${user.lastName}` };
}

export const CREDENTIAL_NAMES = {
	org: 'Spendesk organisation key (simulator)',
	company: 'Spendesk company key cmp_001 (simulator)',
} as const;
export type CredentialKey = keyof typeof CREDENTIAL_NAMES;
/** The credentials of a sandbox, by key (a profile has only some: SANDBOX_CREDENTIALS). */
export type SandboxCredentials = Partial<Record<CredentialKey, Named>>;

/**
 * The credentials of a profile's sandbox, the main one last (n8n offers the newest credential
 * first in a new Spendesk node). The documented profile has the company key alone: an
 * organisation key holds no experimental scope there, so it cannot even pass its test (Get
 * Companies is experimental), as most customers have company keys only.
 */
export const SANDBOX_CREDENTIALS: Record<Profile, CredentialKey[]> = {
	specification: ['company', 'org'],
	documented: ['company'],
};

/**
 * The examples that need experimental access (scopes beyond Spendesk's documented API), with
 * what they use of it: the documented profile, whose keys hold the documented scopes only,
 * leaves them out of its sandbox (the end-to-end test runs each of them there and sees it
 * refused). Keep in step with examples/README.md.
 */
export const EXPERIMENTAL_EXAMPLES: Readonly<Record<string, string>> = {
	'code-payables-then-export.json': 'payable search, accounting, receipts, accounting exports',
	'email-attachment-to-intake.json': 'intakes',
	'export-invoices-to-spreadsheet.json': 'invoices',
	'export-payables-with-receipts.json': 'payable search',
	'new-invoice-notification.json': 'invoices',
	'payable-created-webhook.json': 'webhooks',
	'purchase-order-from-form.json': 'purchase orders',
};
/** The OAuth2 credential earlier versions of this script made, never connected: removed at start. */
const STALE_CREDENTIALS = ['Spendesk OAuth2 (simulator)'];

export interface Named {
	id: string;
	name: string;
	type?: string;
}

/**
 * The API key credentials of the profile (SANDBOX_CREDENTIALS) against the simulator, created
 * when missing and reset at every start (the simulator's URL or keys may have changed), in
 * their order. The never-connected OAuth2 credential of earlier versions of this script is
 * removed.
 */
export async function ensureCredentials(
	session: RestSession,
	sim: SpendeskSimulator,
	say: (line: string) => void = () => undefined,
): Promise<SandboxCredentials> {
	const existing = await session.get<Named[]>('/credentials');
	for (const stale of existing.filter((c) => STALE_CREDENTIALS.includes(c.name))) {
		await session.request('DELETE', `/credentials/${stale.id}`);
		say(`removed the credential "${stale.name}" made by an earlier npm run dev (never connected)`);
	}
	const { orgKey, companyKey } = sim.credentials;
	const data = (key: typeof orgKey) =>
		apiKeyCredential({ id: '', name: '' }, sim.baseUrl, key).data;
	const wanted: Record<CredentialKey, Record<string, unknown>> = {
		org: data(orgKey),
		company: data(companyKey),
	};
	const result: SandboxCredentials = {};
	for (const key of SANDBOX_CREDENTIALS[sim.profile]) {
		const name = CREDENTIAL_NAMES[key];
		const body = { name, type: 'spendeskApi', data: wanted[key] };
		const found = existing.find((c) => c.name === name && c.type === 'spendeskApi');
		if (!found) {
			result[key] = await session.post<Named>('/credentials', body);
		} else {
			await session.patch(`/credentials/${found.id}`, body);
			result[key] = found;
		}
	}
	return result;
}

/** Each credential through n8n's own test (its Test button): "OK", or n8n's message. */
export async function testCredentials(
	session: RestSession,
	credentials: SandboxCredentials,
	say: (line: string) => void = () => undefined,
): Promise<Partial<Record<CredentialKey, string>>> {
	const result: Partial<Record<CredentialKey, string>> = {};
	for (const [key, credential] of Object.entries(credentials) as Array<[CredentialKey, Named]>) {
		const { id, name } = credential;
		try {
			const stored = await session.get<{ data?: Record<string, unknown> }>(
				`/credentials/${id}?includeData=true`,
			);
			const answer = await session.post<{ status?: string; message?: string }>(
				'/credentials/test',
				{ credentials: { id, name, type: 'spendeskApi', data: stored.data ?? {} } },
			);
			result[key] = answer.status === 'OK' ? 'OK' : (answer.message ?? 'failed');
		} catch (error) {
			result[key] = (error as Error).message;
		}
		if (result[key] !== 'OK') say(`the credential "${name}" fails its test: ${result[key]}`);
	}
	return result;
}

export interface WorkflowJson {
	name: string;
	nodes: Array<
		{
			name: string;
			type: string;
			credentials?: Record<string, { id: string; name: string }>;
		} & Record<string, unknown>
	>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

/** A quick-start workflow: one run lists the companies (organisation key) and the latest invoices (company key). */
export function quickStart(credentials: SandboxCredentials): WorkflowJson {
	const ref = (key: CredentialKey) => {
		const { id, name } = need(credentials, key);
		return { spendeskApi: { id, name } };
	};
	return {
		name: 'Spendesk sandbox: try me',
		nodes: [
			{
				id: 'dev-start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 100],
				parameters: {},
			},
			{
				id: 'dev-companies',
				name: 'Get Companies (organisation key)',
				type: 'n8n-nodes-spendesk.spendesk',
				typeVersion: 1,
				position: [260, 0],
				parameters: {
					authentication: 'apiKey',
					resource: 'company',
					operation: 'getAll',
					returnAll: true,
				},
				credentials: ref('org'),
			},
			{
				id: 'dev-invoices',
				name: 'Latest Invoices (company key)',
				type: 'n8n-nodes-spendesk.spendesk',
				typeVersion: 1,
				position: [260, 200],
				parameters: {
					authentication: 'apiKey',
					resource: 'invoice',
					operation: 'getAll',
					companies: 'one',
					company: { __rl: true, mode: 'list', value: '' },
					returnAll: false,
					limit: 10,
				},
				credentials: ref('company'),
			},
		],
		connections: {
			Start: {
				main: [
					[
						{ node: 'Get Companies (organisation key)', type: 'main', index: 0 },
						{ node: 'Latest Invoices (company key)', type: 'main', index: 0 },
					],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The documented profile's quick start: the company-level key reads the wallet summary and the expense categories (v1). */
export function documentedQuickStart(credentials: SandboxCredentials): WorkflowJson {
	const { id: credentialId, name: credentialName } = need(credentials, 'company');
	const ref = { spendeskApi: { id: credentialId, name: credentialName } };
	const node = (id: string, name: string, y: number, parameters: Record<string, unknown>) => ({
		id,
		name,
		type: 'n8n-nodes-spendesk.spendesk',
		typeVersion: 1,
		position: [260, y],
		parameters: {
			authentication: 'apiKey',
			companies: 'one',
			company: { __rl: true, mode: 'list', value: '' },
			...parameters,
		},
		credentials: ref,
	});
	return {
		name: 'Spendesk sandbox (documented API): try me',
		nodes: [
			{
				id: 'dev-start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 100],
				parameters: {},
			},
			node('dev-wallet', 'Wallet Summary (company key)', 0, {
				resource: 'walletSummary',
				operation: 'get',
			}),
			node('dev-categories', 'Expense Categories (company key)', 200, {
				resource: 'expenseCategory',
				operation: 'getAll',
				returnAll: true,
			}),
		],
		connections: {
			Start: {
				main: [
					[
						{ node: 'Wallet Summary (company key)', type: 'main', index: 0 },
						{ node: 'Expense Categories (company key)', type: 'main', index: 0 },
					],
				],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Which credential an example runs with as it is: the company key when every Spendesk node of
 * it works on one company left empty (the credential's own company: an organisation key would
 * have to be told which); the organisation key otherwise (All Companies, or a company from an
 * expression). In the documented profile, always the company key: an organisation key holds no
 * experimental scope there, so it cannot list companies.
 */
export function exampleCredential(example: Workflow, profile: Profile): CredentialKey {
	if (profile === 'documented') return 'company';
	const spendesk = example.nodes.filter((n) => n.type.startsWith('n8n-nodes-spendesk.'));
	const emptyCompany = (parameters: Record<string, unknown>) => {
		const company = parameters.company as { value?: unknown } | undefined;
		return parameters.companies !== 'all' && (company?.value ?? '') === '';
	};
	return spendesk.length > 0 && spendesk.every((n) => emptyCompany(n.parameters))
		? 'company'
		: 'org';
}

/** A credential of the sandbox, which the caller knows its profile has. */
function need(credentials: SandboxCredentials, key: CredentialKey): Named {
	const credential = credentials[key];
	if (!credential) throw new Error(`The sandbox has no credential "${CREDENTIAL_NAMES[key]}"`);
	return credential;
}

/** The workflow files of examples/, sorted. */
export function exampleFiles(): string[] {
	return existsSync(EXAMPLES_DIR)
		? readdirSync(EXAMPLES_DIR)
				.filter((f) => f.endsWith('.json'))
				.sort()
		: [];
}

/** The examples a profile's sandbox leaves out, with what they need (see EXPERIMENTAL_EXAMPLES). */
export function leftOutExamples(profile: Profile): Array<{ file: string; needs: string }> {
	if (profile !== 'documented') return [];
	return exampleFiles()
		.filter((file) => file in EXPERIMENTAL_EXAMPLES)
		.map((file) => ({ file, needs: EXPERIMENTAL_EXAMPLES[file] }));
}

/**
 * The cost center of SANDBOX_COMPANY the sandbox picks where an example's sticky note asks the
 * builder to pick one (a seeded cost center; the end-to-end test checks that it exists).
 */
export const SANDBOX_COST_CENTER = { id: 'cc_001_0001', name: 'Engineering' } as const;

/**
 * What a builder does after importing an example, before its first run, where its sticky note
 * asks for it: Create Purchase Order (purchase-order-from-form.json) leaves its Cost Center
 * empty, as Spendesk requires one to be picked; the sandbox picks SANDBOX_COST_CENTER, as from
 * the list.
 */
function setUpAsBuilder(example: Workflow): void {
	for (const node of example.nodes) {
		const { resource, operation, costCenterId } = node.parameters as {
			resource?: unknown;
			operation?: unknown;
			costCenterId?: { value?: unknown };
		};
		if (resource !== 'purchaseOrder' || operation !== 'create') continue;
		if ((costCenterId?.value ?? '') !== '') continue;
		node.parameters.costCenterId = {
			__rl: true,
			mode: 'list',
			value: SANDBOX_COST_CENTER.id,
			cachedResultName: SANDBOX_COST_CENTER.name,
		};
	}
}

/**
 * An example as the sandbox makes it: with the credential it runs with as it is
 * (exampleCredential), and what its sticky note asks the builder to pick (setUpAsBuilder).
 */
export function sandboxExample(
	file: string,
	credentials: SandboxCredentials,
	profile: Profile,
): WorkflowJson {
	const example = loadExample(file, '', { id: '', name: '' });
	const { id, name } = need(credentials, exampleCredential(example, profile));
	const workflow = loadExample(file, '', { id, name });
	setUpAsBuilder(workflow);
	return workflow as unknown as WorkflowJson;
}

/** The quick-start workflow and the examples the profile keeps, each with the credential it runs with. */
export function sandboxWorkflows(
	credentials: SandboxCredentials,
	profile: Profile,
): WorkflowJson[] {
	const left = new Set(leftOutExamples(profile).map((e) => e.file));
	return [
		profile === 'documented' ? documentedQuickStart(credentials) : quickStart(credentials),
		...exampleFiles()
			.filter((file) => !left.has(file))
			.map((file) => sandboxExample(file, credentials, profile)),
	];
}

/** The sandbox's workflows (sandboxWorkflows), created when missing; one of the same name is kept as it is. */
export async function ensureWorkflows(
	session: RestSession,
	credentials: SandboxCredentials,
	profile: Profile,
): Promise<Named[]> {
	const wanted = sandboxWorkflows(credentials, profile);
	const existing = await session.get<Named[]>('/workflows');
	const result: Named[] = [];
	for (const workflow of wanted) {
		const found = existing.find((w) => w.name === workflow.name);
		if (found) {
			result.push(found);
			continue;
		}
		const { name, nodes, connections, settings, pinData, meta } = workflow;
		result.push(
			await session.post<Named>('/workflows', {
				name,
				nodes,
				connections,
				settings: settings ?? {},
				pinData,
				meta,
				active: false,
			}),
		);
	}
	return result;
}
