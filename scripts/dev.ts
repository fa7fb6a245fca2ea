/**
 * `npm run dev`: a local sandbox with a real n8n and the Spendesk simulator, in one command.
 *
 * 1. builds and packs this package;
 * 2. starts the Spendesk API simulator with realistic seeded data on 127.0.0.1:8787, some
 *    payables waiting for the accounting export among it;
 * 3. installs n8n once (the `node20` target of test/e2e/runtime.ts, into .cache/n8n/) and runs
 *    it on 127.0.0.1:5678 with a persistent user folder, .cache/dev-home, into which the freshly
 *    packed package is re-installed at every start;
 * 4. creates (if missing) the owner login, the API key credentials against the simulator
 *    (each checked with n8n's own credential test) and the example workflows, each with a
 *    credential it runs with as it is, then prints what to try.
 *
 * A first start on a fresh clone installs the dependencies (scripts/ensure-deps.js) and n8n
 * (minutes: npm, then sqlite3 built from source where no prebuilt binary fits): a line at least
 * every 10 s says what is going on, and "ready in …" counts from the start of `npm run dev`.
 *
 * No OAuth2 credential is created: one that is not connected would be the one n8n picks in
 * new nodes, and fail at the first run (README, "Try it", says how to make one).
 *
 * `--profile documented` starts the simulator's documented profile (docs/api.md#the-documented-profile)
 * in its own user folder, .cache/dev-home-documented: the one credential is then the
 * company-level API key, as most Spendesk customers have, and the examples that need
 * experimental access are left out (scripts/sandbox.ts).
 *
 * Ctrl-C stops n8n and the simulator. Type `i` + Enter to add a new invoice (for the polling
 * trigger), `p` + Enter to create a payable (the simulator delivers its webhook at once).
 * Ports: SIMULATOR_PORT (default 8787) and DEV_N8N_PORT (default 5678). n8n's log goes to
 * .cache/dev-home/n8n.log (or to the console with --verbose). Delete .cache/dev-home to start over.
 */
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { SpendeskSimulator } from '../test/simulator';
import { webhooksOf } from '../test/simulator/webhooks';
import { formatDuration, withHeartbeat } from '../test/e2e/progress';
import { CACHE_DIR, REPO_ROOT, createHome, ensureN8n } from '../test/e2e/runtime';
import {
	DEFAULT_OWNER,
	ensureOwner,
	freePort,
	portOpen,
	readinessOk,
	RestError,
	spawnN8n,
	waitUntilReady,
} from '../test/e2e/server';
import type { N8nProcess, RestSession } from '../test/e2e/server';
import {
	CREDENTIAL_NAMES,
	ensureCredentials,
	ensureWorkflows,
	leftOutExamples,
	preparePayablesForExport,
	SANDBOX_COMPANY,
	SANDBOX_COST_CENTER,
	sandboxWelcomeUser,
	simulatorOptions,
	testCredentials,
} from './sandbox';
import type { CredentialKey, Named } from './sandbox';

const SIMULATOR_PORT = Number(process.env.SIMULATOR_PORT ?? 8787);
const N8N_PORT = Number(process.env.DEV_N8N_PORT ?? 5678);
const VERBOSE = process.argv.includes('--verbose');
/** The simulator's profile: `--profile documented` (or `--profile=documented`); default specification. */
const PROFILE = profileArgument(process.argv.slice(2));
/** n8n's user folder: one per profile, as each has its own credentials and workflows. */
const HOME_DIR = path.join(
	CACHE_DIR,
	PROFILE === 'documented' ? 'dev-home-documented' : 'dev-home',
);
const LOG_FILE = path.join(HOME_DIR, 'n8n.log');
/** Process group of the n8n this script started, so that the next start can stop one left running. */
const PID_FILE = path.join(HOME_DIR, 'n8n.pid');

function profileArgument(argv: string[]): 'specification' | 'documented' {
	const at = argv.findIndex((a) => a === '--profile' || a.startsWith('--profile='));
	if (at < 0) return 'specification';
	const value = argv[at].includes('=') ? argv[at].split('=')[1] : argv[at + 1];
	if (value !== 'specification' && value !== 'documented')
		throw new Error('--profile must be specification or documented');
	return value;
}

/** Where scripts/ensure-deps.js records its last run (it runs first in `npm run dev`). */
const ENSURE_DEPS_RECORD = path.join(
	REPO_ROOT,
	'node_modules',
	'.cache',
	'n8n-nodes-spendesk',
	'ensure-deps.json',
);

/**
 * When `npm run dev` started: ensure-deps.js ran just before this script (and maybe `npm ci`),
 * so its start counts when it ended moments before this process began.
 */
function launchStart(): { at: number; dependenciesMs?: number } {
	const self = Math.round(performance.timeOrigin);
	try {
		const run = JSON.parse(readFileSync(ENSURE_DEPS_RECORD, 'utf8')) as {
			startedAt?: unknown;
			endedAt?: unknown;
			installed?: unknown;
		};
		if (
			typeof run.startedAt === 'number' &&
			typeof run.endedAt === 'number' &&
			run.endedAt <= self + 1000 &&
			self - run.endedAt < 60_000
		)
			return {
				at: run.startedAt,
				dependenciesMs: run.installed === true ? run.endedAt - run.startedAt : undefined,
			};
	} catch {
		// run without ensure-deps.js (tsx scripts/dev.ts): count from this process
	}
	return { at: self };
}

/** How long each slow step took, for the "ready in …" line. */
const timings: Array<[string, number]> = [];

/**
 * A slow step: announced, a line every 10 s while it runs (what it is doing, for how long),
 * and its time kept for the "ready in …" line.
 */
async function phase<T>(
	label: string,
	task: () => Promise<T>,
	{
		detail,
		timing,
		announce = `${label}…`,
	}: { detail?: () => string | undefined; timing?: string; announce?: string } = {},
): Promise<T> {
	step(announce);
	const started = Date.now();
	const result = await withHeartbeat(`[dev] ${label}`, task, {
		detail,
		write: (line) => void process.stdout.write(`${line}\n`),
	});
	if (timing) timings.push([timing, Date.now() - started]);
	return result;
}

function say(line = ''): void {
	process.stdout.write(`${line}\n`);
}

function step(message: string): void {
	process.stdout.write(`[dev] ${message}\n`);
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
	const launch = launchStart();
	if (launch.dependenciesMs !== undefined)
		timings.push(['dependencies (npm ci)', launch.dependenciesMs]);
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
	/** Known from the moment it is spawned, so that a Ctrl-C while it starts stops it too. */
	let n8nProcess: N8nProcess | undefined;
	let stopping = false;
	const shutdown = async (code: number) => {
		if (stopping) return;
		stopping = true;
		step('stopping n8n and the simulator…');
		await n8nProcess?.stop().catch(() => undefined);
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
		const installStarted = Date.now();
		// Its own progress lines (npm, then the native build) come from runtime.ts.
		const runtime = await ensureN8n('node20');
		if (Date.now() - installStarted > 5000)
			timings.push([`n8n ${runtime.version} install`, Date.now() - installStarted]);

		// The same version is packed every time: remove the previous copy so the new build is installed.
		rmSync(path.join(HOME_DIR, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-spendesk'), {
			recursive: true,
			force: true,
		});
		const home = await phase(
			'building the package (TypeScript) and installing it into n8n',
			async () => await createHome(runtime, { dir: HOME_DIR }),
			{ timing: 'build and pack' },
		);

		sim = new SpendeskSimulator(simulatorOptions(PROFILE, SIMULATOR_PORT));
		preparePayablesForExport(sim);
		await sim.start();
		step(`simulator listening on ${sim.baseUrl} (profile: ${sim.profile})`);

		writeFileSync(
			LOG_FILE,
			`--- n8n ${runtime.version} started ${new Date().toISOString()} ---\n`,
			{ flag: 'a' },
		);
		let lastLine = '';
		const baseUrl = `http://127.0.0.1:${N8N_PORT}`;
		const spawned = spawnN8n(
			home,
			['start'],
			{
				...home.env,
				N8N_PORT: String(N8N_PORT),
				N8N_EDITOR_BASE_URL: baseUrl,
				WEBHOOK_URL: `${baseUrl}/`,
				// n8n's task broker listens on 5679 by default: a free port lets it run beside another n8n.
				N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			},
			(chunk) => {
				const lines = chunk.split('\n').filter((l) => l.trim());
				if (lines.length) lastLine = lines[lines.length - 1].trim();
				if (VERBOSE) process.stdout.write(chunk);
				else appendFileSync(LOG_FILE, chunk);
			},
		);
		n8nProcess = spawned;
		writeFileSync(PID_FILE, `${spawned.process.pid ?? ''}\n`);
		await phase(
			`starting n8n ${runtime.version}`,
			async () =>
				await waitUntilReady(
					spawned,
					async () =>
						/Editor is now accessible via/.test(spawned.logs()) && (await readinessOk(N8N_PORT)),
					`n8n on ${baseUrl}`,
				),
			{
				detail: () =>
					lastLine
						? `n8n says: ${lastLine.length > 100 ? `${lastLine.slice(0, 100)}…` : lastLine}`
						: 'n8n is loading (the first start also creates its database)',
				timing: 'n8n start',
				announce: `starting n8n ${runtime.version} on ${baseUrl} (log: ${VERBOSE ? 'console' : LOG_FILE})…`,
			},
		);
		const n8n = { baseUrl, ...spawned };
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
		const credentials = await ensureCredentials(session, sim, step);
		const tests = await testCredentials(session, credentials, step);
		const workflows = await ensureWorkflows(session, credentials, PROFILE);

		printWelcome(n8n, sim, workflows, tests, Date.now() - launch.at);
		listenForCommands(sim);
	} catch (error) {
		process.stderr.write(`[dev] ${error instanceof Error ? error.message : String(error)}\n`);
		await shutdown(1);
	}
}

function printWelcome(
	server: { baseUrl: string },
	sim: SpendeskSimulator,
	workflows: Named[],
	tests: Partial<Record<CredentialKey, string>>,
	ms: number,
): void {
	const active = sim.companies().filter((c) => c.active);
	const invoices = active.reduce((sum, c) => sum + sim.data(c.id).invoices.length, 0);
	const { orgKey, companyKey, oauthClient } = sim.credentials;
	const keys = { org: orgKey, company: companyKey };
	const documented = PROFILE === 'documented';
	say();
	say(
		`Spendesk sandbox ready in ${formatDuration(ms)}` +
			(timings.length
				? ` (${timings.map(([what, took]) => `${what} ${formatDuration(took)}`).join(', ')})`
				: ''),
	);
	say();
	say(`  n8n        ${server.baseUrl}`);
	say(`  login      ${DEFAULT_OWNER.email} / ${DEFAULT_OWNER.password}`);
	say(
		`  simulator  ${sim.baseUrl}  (${active.length} active companies, ${invoices} invoices; ${sim.companies().length - active.length} deactivated)`,
	);
	say();
	say('Credentials in n8n (environment "Custom Base URL" = the simulator):');
	for (const [key, result] of Object.entries(tests) as Array<[CredentialKey, string]>)
		say(
			`  ${CREDENTIAL_NAMES[key].padEnd(44)} API key ${keys[key].clientId} / ${keys[key].clientSecret}` +
				(result === 'OK' ? '  (test passed)' : `  (TEST FAILED: ${result})`),
		);
	say();
	say('Workflows (each runs as it is, with the credential it was given):');
	for (const workflow of workflows)
		say(`  ${workflow.name.padEnd(60)} ${server.baseUrl}/workflow/${workflow.id}`);
	const left = leftOutExamples(PROFILE);
	if (left.length) {
		say('  Left out here, as they need experimental access the documented keys do not hold:');
		for (const { file, needs } of left) say(`    examples/${file} (${needs})`);
	}
	say();
	say('Try:');
	say(
		documented
			? '  - "Spendesk sandbox (documented API): try me": Execute workflow, see the wallet summary and expense categories (company key, v1)'
			: '  - "Spendesk sandbox: try me": Execute workflow, see companies and the latest invoices',
	);
	if (documented)
		say(
			'  - documented profile: the company key holds only the documented scopes; invoices, intakes and Get Companies answer the experimental-access error',
		);
	say(
		documented
			? '  - add a Spendesk node to any workflow: leave Company empty (the company key works on its own company), change resources and operations'
			: '  - add a Spendesk node to any workflow: pick a company from the Company list, change resources and operations',
	);
	if (!documented) {
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
		const user = sandboxWelcomeUser(sim);
		say(
			`  - "Spendesk: purchase order from a form": Execute workflow, fill in the form that opens with ${user.email}`,
		);
		say(
			`    (${user.name}, a member of ${SANDBOX_COMPANY}): the purchase order is created for them (another email creates none),`,
		);
		say(
			`    charged to ${SANDBOX_COST_CENTER.name}, the Cost Center picked for you in "Create Purchase Order", as its note asks`,
		);
	}
	say(
		`  - OAuth2: no credential is made for it (it must be connected first). To try it, create a Spendesk OAuth2`,
	);
	say(
		`    Partner App credential: Custom Base URL ${sim.baseUrl}, Client ID ${oauthClient.clientId}, Client Secret ${oauthClient.clientSecret},`,
	);
	say(
		`    Redirect URI ${server.baseUrl}/rest/oauth2-credential/callback, Access Level Organisation; connect it as README "Try it" says`,
	);
	say();
	say(
		`Commands: i [companyId] + Enter adds a new invoice, p [companyId] + Enter creates a payable (webhook), default ${SANDBOX_COMPANY}.  Ctrl-C stops n8n and the simulator.`,
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
