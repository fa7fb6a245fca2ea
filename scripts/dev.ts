/**
 * `npm run dev`: a local sandbox with a real n8n and the Spendesk simulator, in one command.
 *
 * 1. builds and packs this package;
 * 2. starts the Spendesk API simulator with realistic seeded data on 127.0.0.1:8787;
 * 3. installs n8n once (the `node20` target of test/e2e/runtime.ts, into .cache/n8n/) and runs
 *    it on 127.0.0.1:5678 with a persistent user folder, .cache/dev-home, into which the freshly
 *    packed package is re-installed at every start;
 * 4. creates (if missing) the owner login, credentials against the simulator and example
 *    workflows, then prints what to try.
 *
 * `--profile documented` starts the simulator's documented profile (docs/api.md#the-documented-profile):
 * the main credential is then the company-level API key, as most Spendesk customers have.
 *
 * Ctrl-C stops n8n and the simulator. Type `i` + Enter to add a new invoice (for the polling
 * trigger), `p` + Enter to create a payable (the simulator delivers its webhook at once).
 * Ports: SIMULATOR_PORT (default 8787) and DEV_N8N_PORT (default 5678). n8n's log goes to
 * .cache/dev-home/n8n.log (or to the console with --verbose). Delete .cache/dev-home to start over.
 */
import {
	appendFileSync,
	existsSync,
	readFileSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { EXPERIMENTAL_FEATURES } from '../credentials/scopes';
import { SpendeskSimulator } from '../test/simulator';
import { webhooksOf } from '../test/simulator/webhooks';
import { CACHE_DIR, createHome, ensureN8n } from '../test/e2e/runtime';
import { DEFAULT_OWNER, ensureOwner, portOpen, RestError, startN8n } from '../test/e2e/server';
import type { N8nServer, RestSession } from '../test/e2e/server';
import {
	COMPANY_LEVEL_EXAMPLES,
	EXAMPLES_DIR,
	apiKeyCredential,
	loadExample,
} from '../test/e2e/workflows';

const SIMULATOR_PORT = Number(process.env.SIMULATOR_PORT ?? 8787);
const N8N_PORT = Number(process.env.DEV_N8N_PORT ?? 5678);
const HOME_DIR = path.join(CACHE_DIR, 'dev-home');
const LOG_FILE = path.join(HOME_DIR, 'n8n.log');
/** Process group of the n8n this script started, so that the next start can stop one left running. */
const PID_FILE = path.join(HOME_DIR, 'n8n.pid');
const VERBOSE = process.argv.includes('--verbose');
/** The simulator's profile: `--profile documented` (or `--profile=documented`); default specification. */
const PROFILE = profileArgument(process.argv.slice(2));

function profileArgument(argv: string[]): 'specification' | 'documented' {
	const at = argv.findIndex((a) => a === '--profile' || a.startsWith('--profile='));
	if (at < 0) return 'specification';
	const value = argv[at].includes('=') ? argv[at].split('=')[1] : argv[at + 1];
	if (value !== 'specification' && value !== 'documented')
		throw new Error('--profile must be specification or documented');
	return value;
}

const CREDENTIAL_NAMES = {
	org: 'Spendesk organisation key (simulator)',
	company: 'Spendesk company key cmp_001 (simulator)',
	oauth: 'Spendesk OAuth2 (simulator)',
} as const;

function say(line = ''): void {
	process.stdout.write(`${line}\n`);
}

function step(message: string): void {
	process.stdout.write(`[dev] ${message}\n`);
}

interface Named {
	id: string;
	name: string;
	type?: string;
}

/** True while `pid` is an n8n process (not a pid the system gave to something else since). */
function isN8n(pid: number): boolean {
	try {
		return /n8n/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
	} catch {
		return false;
	}
}

/**
 * An n8n left running by an earlier `npm run dev` that could not clean up (killed with
 * SIGKILL, or its terminal closed abruptly): stop its process group before taking the port.
 */
async function stopLeftoverN8n(): Promise<void> {
	if (!existsSync(PID_FILE)) return;
	const pid = Number(readFileSync(PID_FILE, 'utf8').trim());
	rmSync(PID_FILE, { force: true });
	if (!Number.isInteger(pid) || pid <= 1 || !isN8n(pid)) return;
	step(`stopping the n8n (pid ${pid}) left running by an earlier npm run dev…`);
	const signal = (name: NodeJS.Signals) => {
		try {
			process.kill(-pid, name);
		} catch {
			// already gone
		}
	};
	signal('SIGTERM');
	const pause = async () => await new Promise((resolve) => setTimeout(resolve, 250));
	for (let waited = 0; waited < 20_000 && isN8n(pid); waited += 250) await pause();
	signal('SIGKILL');
	// The port is released a moment after the process is gone.
	for (let waited = 0; waited < 10_000 && (await portOpen(N8N_PORT)); waited += 250) await pause();
}

/**
 * Calls `stop` once the leader of this process group (the `npm run dev` that started this
 * script) is gone: npm exits on SIGTERM without passing it on, which would leave this script,
 * the simulator and n8n running with the terminal given back.
 */
function stopWithLauncher(stop: () => void): void {
	let leader: number;
	try {
		leader = Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[2]);
	} catch {
		return; // not Linux: Ctrl-C still reaches the whole group
	}
	if (!Number.isInteger(leader) || leader <= 1 || leader === process.pid) return;
	setInterval(() => {
		try {
			process.kill(leader, 0);
		} catch {
			stop();
		}
	}, 1_000).unref();
}

async function main(): Promise<void> {
	const started = Date.now();
	await stopLeftoverN8n();
	for (const [port, what, variable] of [
		[SIMULATOR_PORT, 'the simulator', 'SIMULATOR_PORT'],
		[N8N_PORT, 'n8n', 'DEV_N8N_PORT'],
	] as const) {
		if (await portOpen(port))
			throw new Error(
				`Port ${port} (for ${what}) is already in use: stop what runs there, or set ${variable}`,
			);
	}

	let sim: SpendeskSimulator | undefined;
	let server: N8nServer | undefined;
	let stopping = false;
	const shutdown = async (code: number) => {
		if (stopping) return;
		stopping = true;
		step('stopping n8n and the simulator…');
		await server?.stop().catch(() => undefined);
		rmSync(PID_FILE, { force: true });
		await sim?.stop().catch(() => undefined);
		step('stopped');
		process.exit(code);
	};
	process.on('SIGINT', () => void shutdown(0));
	process.on('SIGTERM', () => void shutdown(0));
	process.on('SIGHUP', () => void shutdown(0));
	stopWithLauncher(() => void shutdown(0));

	try {
		step('installing n8n if needed (the first time takes a few minutes)…');
		const runtime = await ensureN8n('node20');

		step('building and packing the package, installing it into n8n…');
		// The same version is packed every time: remove the previous copy so the new build is installed.
		rmSync(path.join(HOME_DIR, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-spendesk'), {
			recursive: true,
			force: true,
		});
		const home = await createHome(runtime, { dir: HOME_DIR });

		sim = new SpendeskSimulator({
			profile: PROFILE,
			port: SIMULATOR_PORT,
			seed: {
				companies: 6,
				sizes: { invoices: 250, payables: 120, settlements: 80, accounts: 60 },
			},
		});
		await sim.start();
		step(`simulator listening on ${sim.baseUrl} (profile: ${sim.profile})`);

		step(
			`starting n8n ${runtime.version} on http://127.0.0.1:${N8N_PORT} (log: ${VERBOSE ? 'console' : LOG_FILE})…`,
		);
		writeFileSync(
			LOG_FILE,
			`--- n8n ${runtime.version} started ${new Date().toISOString()} ---\n`,
			{ flag: 'a' },
		);
		server = await startN8n(home, {
			port: N8N_PORT,
			onOutput: (chunk) =>
				VERBOSE ? process.stdout.write(chunk) : appendFileSync(LOG_FILE, chunk),
		});
		const n8n = server;
		writeFileSync(PID_FILE, `${n8n.process.pid ?? ''}\n`);
		n8n.process.once('exit', (code, signal) => {
			if (stopping) return;
			process.stderr.write(
				`[dev] n8n exited unexpectedly (${signal ?? code}); last output:\n${n8n.logs().slice(-3000)}\n`,
			);
			void shutdown(1);
		});

		let session: RestSession;
		try {
			session = await ensureOwner(n8n.baseUrl, DEFAULT_OWNER);
		} catch (error) {
			if (error instanceof RestError && error.status === 401) {
				throw new Error(
					`The owner of ${HOME_DIR} no longer has the sandbox password. Log in with yours, or delete ${HOME_DIR} to start over.`,
				);
			}
			throw error;
		}
		const credentials = await ensureCredentials(session, sim);
		const workflows = await ensureWorkflows(session, credentials);

		printWelcome(n8n, sim, workflows, Date.now() - started);
		listenForCommands(sim);
	} catch (error) {
		process.stderr.write(`[dev] ${error instanceof Error ? error.message : String(error)}\n`);
		await shutdown(1);
	}
}

/**
 * Credentials against the simulator, created when missing and reset at every start (the
 * simulator's URL or keys may have changed). The OAuth2 credential keeps its id, so workflows
 * using it keep working, but its token died with the previous simulator: Reconnect it.
 */
async function ensureCredentials(
	session: RestSession,
	sim: SpendeskSimulator,
): Promise<Record<keyof typeof CREDENTIAL_NAMES, Named>> {
	const existing = await session.get<Named[]>('/credentials');
	const { orgKey, companyKey, oauthClient } = sim.credentials;
	const apiKey = (key: typeof orgKey) => ({
		type: 'spendeskApi',
		data: apiKeyCredential({ id: '', name: '' }, sim.baseUrl, key).data,
	});
	const wanted = {
		org: apiKey(orgKey),
		company: apiKey(companyKey),
		oauth: {
			type: 'spendeskOAuth2Api',
			data: {
				environment: 'custom',
				baseUrl: sim.baseUrl,
				clientId: oauthClient.clientId,
				clientSecret: oauthClient.clientSecret,
				accessLevel: 'organisation',
				// The simulator's partner app holds every scope: ask for all of them on Connect.
				experimentalFeatures: EXPERIMENTAL_FEATURES.map((f) => f.value),
			},
		},
	};
	const result = {} as Record<keyof typeof CREDENTIAL_NAMES, Named>;
	for (const key of Object.keys(wanted) as Array<keyof typeof wanted>) {
		const name = CREDENTIAL_NAMES[key];
		const { type, data } = wanted[key];
		const found = existing.find((c) => c.name === name && c.type === type);
		if (!found) {
			result[key] = await session.post<Named>('/credentials', { name, type, data });
		} else {
			await session.patch(`/credentials/${found.id}`, { name, type, data });
			result[key] = found;
		}
	}
	return result;
}

interface WorkflowJson {
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
function quickStart(credentials: Record<keyof typeof CREDENTIAL_NAMES, Named>): WorkflowJson {
	const ref = (c: Named) => ({ spendeskApi: { id: c.id, name: c.name } });
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
				credentials: ref(credentials.org),
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
					companyScope: 'one',
					company: { __rl: true, mode: 'list', value: '' },
					sortBy: 'createdAt',
					sort: 'desc',
					returnAll: false,
					limit: 10,
				},
				credentials: ref(credentials.company),
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
function documentedQuickStart(
	credentials: Record<keyof typeof CREDENTIAL_NAMES, Named>,
): WorkflowJson {
	const ref = { spendeskApi: { id: credentials.company.id, name: credentials.company.name } };
	const node = (id: string, name: string, y: number, parameters: Record<string, unknown>) => ({
		id,
		name,
		type: 'n8n-nodes-spendesk.spendesk',
		typeVersion: 1,
		position: [260, y],
		parameters: {
			authentication: 'apiKey',
			companyScope: 'one',
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

/** The quick-start workflow and the workflows of examples/ (with the organisation key, or the company key for those made for one), created when missing. */
async function ensureWorkflows(
	session: RestSession,
	credentials: Record<keyof typeof CREDENTIAL_NAMES, Named>,
): Promise<Named[]> {
	const wanted: WorkflowJson[] = [
		PROFILE === 'documented' ? documentedQuickStart(credentials) : quickStart(credentials),
	];
	const files = existsSync(EXAMPLES_DIR)
		? readdirSync(EXAMPLES_DIR)
				.filter((f) => f.endsWith('.json'))
				.sort()
		: [];
	for (const file of files) {
		// The documented profile: the company-level key is the main credential (an organisation key
		// holds no experimental scope there, so it cannot list companies).
		const credential =
			PROFILE === 'documented' || COMPANY_LEVEL_EXAMPLES.includes(file)
				? credentials.company
				: credentials.org;
		wanted.push(
			loadExample(file, '', {
				id: credential.id,
				name: credential.name,
			}) as unknown as WorkflowJson,
		);
	}
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

function printWelcome(
	server: N8nServer,
	sim: SpendeskSimulator,
	workflows: Named[],
	ms: number,
): void {
	const active = sim.companies().filter((c) => c.active);
	const invoices = active.reduce((sum, c) => sum + sim.data(c.id).invoices.length, 0);
	const { orgKey, companyKey, oauthClient } = sim.credentials;
	say();
	say(`Spendesk sandbox ready in ${Math.round(ms / 1000)} s`);
	say();
	say(`  n8n        ${server.baseUrl}`);
	say(`  login      ${DEFAULT_OWNER.email} / ${DEFAULT_OWNER.password}`);
	say(
		`  simulator  ${sim.baseUrl}  (${active.length} active companies, ${invoices} invoices; ${sim.companies().length - active.length} deactivated)`,
	);
	say();
	say('Credentials in n8n (environment "Custom Base URL" = the simulator):');
	say(`  ${CREDENTIAL_NAMES.org.padEnd(44)} API key ${orgKey.clientId} / ${orgKey.clientSecret}`);
	say(
		`  ${CREDENTIAL_NAMES.company.padEnd(44)} API key ${companyKey.clientId} / ${companyKey.clientSecret}`,
	);
	say(
		`  ${CREDENTIAL_NAMES.oauth.padEnd(44)} OAuth2 client ${oauthClient.clientId}: open it, click Connect (or Reconnect after a restart)`,
	);
	say();
	say('Workflows:');
	for (const workflow of workflows)
		say(`  ${workflow.name.padEnd(60)} ${server.baseUrl}/workflow/${workflow.id}`);
	say();
	say('Try:');
	say(
		PROFILE === 'documented'
			? '  - "Spendesk sandbox (documented API): try me": Execute workflow, see the wallet summary and expense categories (company key, v1)'
			: '  - "Spendesk sandbox: try me": Execute workflow, see companies and the latest invoices',
	);
	if (PROFILE === 'documented')
		say(
			'  - documented profile: keys hold only the documented scopes; invoices, intakes and Get Companies answer the experimental-access error',
		);
	say(
		'  - add a Spendesk node to any workflow: pick a company from the Company list, change resources and operations',
	);
	say(
		'  - "Spendesk: notify about new invoices": publish it, then type  i  + Enter here to add an invoice;',
	);
	say('    the next poll (every 5 minutes) starts an execution with it (Executions tab)');
	say(
		'  - "Spendesk: react to new payables (webhook)": publish it (it registers a webhook per company at the',
	);
	say(
		'    simulator), then type  p  + Enter here: the simulator creates a payable and delivers the signed webhook,',
	);
	say('    and the workflow runs at once with the payable (Executions tab)');
	say(
		PROFILE === 'documented'
			? `  - OAuth2 in this profile: create a "Spendesk Partner OAuth2 API" credential (client ${oauthClient.clientId} / ${oauthClient.clientSecret}, any Redirect URI), click Test, open the address it gives, paste where you land (the older OAuth2 credential cannot connect here)`
			: '  - the OAuth2 credential: Connect, then switch a Spendesk node to Authentication = OAuth2',
	);
	say();
	say(
		`Commands: i [companyId] + Enter adds a new invoice, p [companyId] + Enter creates a payable (webhook), default cmp_001.  Ctrl-C stops n8n and the simulator.`,
	);
	say(
		`n8n log: ${VERBOSE ? 'console (--verbose)' : LOG_FILE}. Start over: rm -rf ${path.relative(process.cwd(), HOME_DIR) || HOME_DIR}`,
	);
}

function listenForCommands(sim: SpendeskSimulator): void {
	if (!process.stdin.isTTY && process.stdin.readableEnded) return;
	const rl = readline.createInterface({ input: process.stdin });
	rl.on('line', (line) => {
		const [command, arg] = line.trim().split(/\s+/);
		if (!command) return;
		if (command === 'i' || command === 'invoice') {
			const company = arg ?? 'cmp_001';
			try {
				const invoice = sim.insertInvoice(company);
				step(
					`added invoice ${invoice.id} (${invoice.supplierName}, ${invoice.amount} ${invoice.currency}) to ${company}`,
				);
			} catch (error) {
				step(`could not add an invoice to ${company}: ${(error as Error).message}`);
			}
		} else if (command === 'p' || command === 'payable') {
			const company = arg ?? 'cmp_001';
			try {
				const { payable } = sim.createPayable(company);
				const listening = webhooksOf(sim, company).filter((w) =>
					w.events.includes('payables:created'),
				).length;
				step(
					`created payable ${payable.id} (${payable.description}) in ${company}; ` +
						(listening
							? `delivering its webhook to ${listening} registered URL(s)`
							: 'no webhook registered for this company: publish the webhook workflow first'),
				);
			} catch (error) {
				step(`could not create a payable in ${company}: ${(error as Error).message}`);
			}
		} else {
			step(
				'commands: i [companyId] (add an invoice), p [companyId] (create a payable: webhook); Ctrl-C to stop',
			);
		}
	});
	// Without a terminal (stdin closed), keep running until a signal arrives.
	rl.on('close', () => undefined);
}

main().catch((error: unknown) => {
	process.stderr.write(`[dev] ${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
});
