/**
 * Workflow and credential JSON for end-to-end runs in a real n8n, and the CLI steps around
 * them: `n8n import:credentials`, `n8n import:workflow`, `n8n execute --id … --rawOutput`.
 *
 * n8n must not be running in the home while these commands run (they open its SQLite
 * database themselves). Credentials are imported with plain `data`; n8n encrypts it.
 */
import { spawn } from 'node:child_process';
import {
	closeSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './runtime';
import type { N8nHome } from './runtime';
import { freePort } from './server';

export const SPENDESK_NODE = 'n8n-nodes-spendesk.spendesk';
export const SPENDESK_TRIGGER_NODE = 'n8n-nodes-spendesk.spendeskTrigger';
/** Placeholder credential id used by the workflows in examples/. */
export const EXAMPLE_CREDENTIAL_ID = 'REPLACE_WITH_YOUR_CREDENTIAL_ID';

// ---------------------------------------------------------------- credentials

export interface CredentialExport {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface CredentialRef {
	id: string;
	name: string;
	/** The credential's type when it is not an API key (spendeskApi). */
	type?: 'spendeskApi' | 'spendeskOAuth2Api';
}

/** A Spendesk API key credential on a custom base URL (the simulator). */
export function apiKeyCredential(
	ref: CredentialRef,
	baseUrl: string,
	key: {
		clientId: string;
		clientSecret: string;
		level: 'organisation' | 'company';
		companyId?: string;
	},
): CredentialExport {
	return {
		id: ref.id,
		name: ref.name,
		type: 'spendeskApi',
		data: {
			environment: 'custom',
			baseUrl,
			clientId: key.clientId,
			clientSecret: key.clientSecret,
			accessLevel: key.level,
			...(key.level === 'company' ? { companyId: key.companyId ?? '' } : {}),
			// Present and empty, so that n8n runs preAuthentication on first use.
			sessionToken: '',
		},
	};
}

// ---------------------------------------------------------------- nodes

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, CredentialRef>;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	[key: string]: unknown;
}

export interface Connection {
	node: string;
	type: 'main';
	index: number;
}

export interface Workflow {
	id: string;
	name: string;
	active: boolean;
	nodes: WorkflowNode[];
	connections: Record<string, { main: Connection[][] }>;
	settings: Record<string, unknown>;
	pinData?: Record<string, unknown>;
	[key: string]: unknown;
}

let nodeCounter = 0;
const nodeId = () => `e2e-node-${++nodeCounter}`;

export function manualTrigger(name = 'Start', position: [number, number] = [0, 0]): WorkflowNode {
	return {
		id: nodeId(),
		name,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position,
		parameters: {},
	};
}

/** Resource locator value of a company field. */
export function company(value: string, mode: 'id' | 'list' = 'id'): Record<string, unknown> {
	return { __rl: true, mode, value, ...(mode === 'list' ? { cachedResultName: value } : {}) };
}

/** Resource locator value of a record field (payable, supplier, settlement…), By ID; an expression goes in `value`. */
export function byId(value: string): Record<string, unknown> {
	return { __rl: true, mode: 'id', value };
}

/** A Spendesk node with the credential given (an API key unless its type says OAuth2). */
export function spendeskNode(
	name: string,
	parameters: Record<string, unknown>,
	credential: CredentialRef,
	position: [number, number] = [0, 0],
	extra: Partial<WorkflowNode> = {},
): WorkflowNode {
	const oauth = credential.type === 'spendeskOAuth2Api';
	return {
		id: nodeId(),
		name,
		type: SPENDESK_NODE,
		typeVersion: 1,
		position,
		parameters: { authentication: oauth ? 'oAuth2' : 'apiKey', ...parameters },
		credentials: {
			[oauth ? 'spendeskOAuth2Api' : 'spendeskApi']: { id: credential.id, name: credential.name },
		},
		...extra,
	};
}

/** Edit Fields (Set) v3.4, manual mapping: `fields` maps a name to a value or `={{ expression }}`. */
export function setNode(
	name: string,
	fields: Record<
		string,
		{ value: unknown; type?: 'string' | 'number' | 'boolean' | 'object' | 'array' }
	>,
	position: [number, number] = [0, 0],
): WorkflowNode {
	return {
		id: nodeId(),
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position,
		parameters: {
			mode: 'manual',
			assignments: {
				assignments: Object.entries(fields).map(([field, { value, type }], i) => ({
					id: `${name}-${i}`,
					name: field,
					value,
					type: type ?? (typeof value === 'number' ? 'number' : 'string'),
				})),
			},
			includeOtherFields: false,
			options: {},
		},
	};
}

/**
 * Convert to File v1.1, "Move Base64 String to File": the base64 text of `sourceProperty`
 * becomes a file (name and MIME type given) in the binary property `binaryPropertyName`; the
 * output item's JSON is empty. Used to give a node a binary input item.
 */
export function convertToFileNode(
	name: string,
	file: { sourceProperty: string; binaryPropertyName?: string; fileName: string; mimeType: string },
	position: [number, number] = [0, 0],
): WorkflowNode {
	return {
		id: nodeId(),
		name,
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position,
		parameters: {
			operation: 'toBinary',
			sourceProperty: file.sourceProperty,
			binaryPropertyName: file.binaryPropertyName ?? 'data',
			options: { fileName: file.fileName, mimeType: file.mimeType },
		},
	};
}

/** Split Out v1: one item per entry of the list in `field` (no other fields kept). */
export function splitOutNode(
	name: string,
	field: string,
	position: [number, number] = [0, 0],
): WorkflowNode {
	return {
		id: nodeId(),
		name,
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position,
		parameters: { fieldToSplitOut: field, include: 'noOtherFields', options: {} },
	};
}

/** A workflow of nodes and `[from, to]` edges (output 0 → input 0). */
export function workflow(
	id: string,
	name: string,
	nodes: WorkflowNode[],
	edges: Array<[string, string]>,
): Workflow {
	const names = new Set(nodes.map((n) => n.name));
	const connections: Workflow['connections'] = {};
	for (const [from, to] of edges) {
		if (!names.has(from) || !names.has(to))
			throw new Error(`workflow ${id}: edge ${from} → ${to} names an unknown node`);
		connections[from] ??= { main: [[]] };
		connections[from].main[0].push({ node: to, type: 'main', index: 0 });
	}
	return { id, name, active: false, nodes, connections, settings: { executionOrder: 'v1' } };
}

/**
 * One workflow running many nodes: each entry is a branch straight off the manual trigger
 * (so every node gets the trigger's single item and runs once), optionally followed by more
 * nodes in a chain. Branches are laid out top to bottom, which is the order n8n (v1
 * execution order) runs them in.
 */
export function batchWorkflow(id: string, name: string, branches: WorkflowNode[][]): Workflow {
	const start = manualTrigger('Start', [0, 0]);
	const nodes: WorkflowNode[] = [start];
	const edges: Array<[string, string]> = [];
	branches.forEach((branch, row) => {
		let previous = start.name;
		branch.forEach((node, column) => {
			node.position = [250 * (column + 1), 150 * row];
			nodes.push(node);
			edges.push([previous, node.name]);
			previous = node.name;
		});
	});
	return workflow(id, name, nodes, edges);
}

// ---------------------------------------------------------------- examples/

export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
/** Examples made for a company-level credential (Company left empty: the credential's own company); the others want an organisation-level one. */
export const COMPANY_LEVEL_EXAMPLES: readonly string[] = ['email-attachment-to-intake.json'];

/** An example workflow from examples/, with its placeholder credentials replaced. */
export function loadExample(file: string, id: string, credential: CredentialRef): Workflow {
	const example = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as Workflow;
	for (const node of example.nodes) {
		for (const [type, ref] of Object.entries(node.credentials ?? {})) {
			if (ref.id !== EXAMPLE_CREDENTIAL_ID)
				throw new Error(`${file}: node "${node.name}" does not use the placeholder credential id`);
			node.credentials![type] = credential;
		}
	}
	return { ...example, id, active: false };
}

// ---------------------------------------------------------------- n8n CLI

interface CliResult {
	code: number;
	stdout: string;
	stderr: string;
	ms: number;
}

/** Runs an n8n CLI command and resolves with its exit code and output (never rejects on a non-zero exit). */
export async function runN8n(
	home: N8nHome,
	args: string[],
	options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
	const timeoutMs = options.timeoutMs ?? 300_000;
	// `n8n execute` starts a task broker (default port 5679): give each its own port so that it
	// never collides with another n8n on this machine (a running `n8n start`, a parallel run).
	const env = {
		...home.env,
		...(args[0] === 'execute' ? { N8N_RUNNERS_BROKER_PORT: String(await freePort()) } : {}),
		...options.env,
	};
	// n8n's output goes to files, never to pipes: n8n logs the run and calls process.exit soon
	// after, and a write to a pipe that the reader has not drained yet is cut off at exit (a
	// 3.4 MB run arrived cut in a CI run, exit code 0). Writes to a file are synchronous.
	const outDir = mkdtempSync(path.join(tmpdir(), 'n8n-cli-'));
	const outPath = path.join(outDir, 'stdout');
	const errPath = path.join(outDir, 'stderr');
	const outFd = openSync(outPath, 'w');
	const errFd = openSync(errPath, 'w');
	const started = Date.now();
	try {
		const { code, signal } = await new Promise<{
			code: number | null;
			signal: NodeJS.Signals | null;
		}>((resolve, reject) => {
			const child = spawn(home.runtime.nodeBin, [home.runtime.n8nBin, ...args], {
				env,
				cwd: home.dir,
				timeout: timeoutMs,
				stdio: ['ignore', outFd, errFd],
			});
			child.once('error', reject);
			child.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal }));
		});
		const ms = Date.now() - started;
		const stdout = readFileSync(outPath, 'utf8');
		const stderr = readFileSync(errPath, 'utf8');
		// n8n 2.41.1 on Node 24 was seen to die of SIGSEGV while shutting down after it had
		// printed a finished run (twice, on a loaded machine, after a failed execution). The run
		// is what the tests check: a finished one is taken, with its status as the exit code.
		const finished = signal === 'SIGSEGV' && args[0] === 'execute' ? parseRun(stdout) : undefined;
		if (finished?.status === 'success' || finished?.status === 'error') {
			process.stderr.write(
				`[e2e] n8n ${args.join(' ')} died of SIGSEGV after printing its finished run (${finished.status}); taken as exit ${finished.status === 'success' ? 0 : 1}\n`,
			);
			return { code: finished.status === 'success' ? 0 : 1, stdout, stderr, ms };
		}
		if (code === null)
			throw new Error(
				`n8n ${args.join(' ')}: ended by signal ${String(signal)}${ms >= timeoutMs ? ` (timed out after ${timeoutMs} ms)` : ''}, after ${ms} ms\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`,
			);
		return { code, stdout, stderr, ms };
	} finally {
		closeSync(outFd);
		closeSync(errFd);
		rmSync(outDir, { recursive: true, force: true });
	}
}

/** Runs an n8n CLI command that must succeed (import, publish). */
async function runN8nStep(home: N8nHome, args: string[]): Promise<void> {
	const result = await runN8n(home, args);
	if (result.code !== 0)
		throw new Error(
			`n8n ${args.join(' ')} failed (${result.code}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`,
		);
}

let fileCounter = 0;
async function importFile(
	home: N8nHome,
	command: string,
	kind: string,
	content: unknown,
): Promise<void> {
	const file = path.join(home.dir, `${kind}-${process.pid}-${++fileCounter}.json`);
	writeFileSync(file, JSON.stringify(content, null, 2));
	await runN8nStep(home, [command, `--input=${file}`]);
}

export async function importCredentials(
	home: N8nHome,
	credentials: CredentialExport[],
): Promise<void> {
	await importFile(home, 'import:credentials', 'credentials', credentials);
}

/** Imports workflows, then publishes (activates) the ids in `publish`; n8n must not be running. */
export async function importWorkflows(
	home: N8nHome,
	workflows: Array<Workflow | (Record<string, unknown> & { id: string })>,
	publish: string[] = [],
): Promise<void> {
	await importFile(home, 'import:workflow', 'workflows', workflows);
	for (const id of publish) await runN8nStep(home, ['publish:workflow', `--id=${id}`]);
}

/** A binary property as the run JSON shows it: the bytes inline (`data`, base64) or in n8n's store (`id`, with `bytes`). */
export interface BinaryRef {
	data?: string;
	id?: string;
	mimeType?: string;
	fileName?: string;
	fileExtension?: string;
	fileSize?: string;
	/** Size in bytes (n8n sets it when the file is kept in its store). */
	bytes?: number;
}

export interface JsonItem {
	json: Record<string, unknown>;
	binary?: Record<string, BinaryRef>;
	[key: string]: unknown;
}

export interface TaskData {
	executionStatus?: string;
	error?: { message?: string; description?: string | null; [key: string]: unknown };
	data?: { main: Array<JsonItem[] | null> };
	hints?: Array<{ message: string }>;
}

export interface RunJson {
	status?: string;
	finished?: boolean;
	data: {
		resultData: {
			runData: Record<string, TaskData[]>;
			error?: {
				message?: string;
				description?: string | null;
				node?: { name?: string };
				[key: string]: unknown;
			};
			lastNodeExecuted?: string;
		};
	};
	[key: string]: unknown;
}

export interface Execution {
	/** n8n's exit code: 0 when the workflow succeeded. */
	code: number;
	ok: boolean;
	ms: number;
	/** The run (also on failure: n8n logs the failed run as JSON before exiting). */
	run?: RunJson;
	stdout: string;
	stderr: string;
}

/** The run JSON in n8n's output: the first `{` that starts a parseable object spanning to a line end. */
export function parseRun(output: string): RunJson | undefined {
	let from = output.indexOf('{');
	while (from !== -1) {
		// n8n prints the run with JSON.stringify(…, null, 2): it ends at the first line that is exactly "}".
		const end = output.indexOf('\n}', from);
		const candidates = [end === -1 ? output.length : end + 2, output.length];
		for (const to of candidates) {
			try {
				const value = JSON.parse(output.slice(from, to)) as RunJson;
				if (value && typeof value === 'object' && value.data?.resultData) return value;
			} catch {
				// not this span
			}
		}
		from = output.indexOf('\n{', from + 1);
		if (from !== -1) from += 1;
	}
	return undefined;
}

export interface ExecuteOptions {
	/** Throw unless the workflow succeeded (default true). */
	expectSuccess?: boolean;
	/** Extra environment for this execution, e.g. N8N_DEFAULT_BINARY_DATA_MODE=default to get files inline. */
	env?: NodeJS.ProcessEnv;
}

/** `n8n execute --id=<id> --rawOutput`; returns the run. */
export async function execute(
	home: N8nHome,
	workflowId: string,
	options: ExecuteOptions = {},
): Promise<Execution> {
	const result = await runN8n(home, ['execute', `--id=${workflowId}`, '--rawOutput'], {
		env: options.env,
	});
	// n8n's output of every execution, for a look after the run (test-output/ is not committed).
	const logDir = path.join(REPO_ROOT, 'test-output', 'e2e-cli');
	mkdirSync(logDir, { recursive: true });
	writeFileSync(
		path.join(logDir, `${home.runtime.target}-${workflowId}.log`),
		`exit ${result.code}, ${result.ms} ms\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}\n`,
	);
	const run = parseRun(result.stdout) ?? parseRun(`${result.stdout}\n${result.stderr}`);
	const execution: Execution = {
		...result,
		ok: result.code === 0 && !run?.data.resultData.error,
		run,
	};
	if ((options.expectSuccess ?? true) && !execution.ok) {
		const error = run?.data.resultData.error;
		throw new Error(
			`n8n execute --id=${workflowId} failed (exit ${result.code})` +
				(error
					? `: ${error.message ?? ''} ${error.description ?? ''} [node ${error.node?.name ?? '?'}]`
					: '') +
				`\n--- stdout (end)\n${result.stdout.slice(-4000)}\n--- stderr (end)\n${result.stderr.slice(-4000)}`,
		);
	}
	if ((options.expectSuccess ?? true) && !run)
		throw new Error(
			`n8n execute --id=${workflowId}: no run JSON in the output\n${result.stdout.slice(-4000)}`,
		);
	return execution;
}

/** Items (json only) of a node's first output in its first run. */
export function items(
	run: RunJson | undefined,
	nodeName: string,
	output = 0,
): Array<Record<string, unknown>> {
	return rawItems(run, nodeName, output).map((item) => item.json);
}

export function rawItems(run: RunJson | undefined, nodeName: string, output = 0): JsonItem[] {
	const task = run?.data.resultData.runData[nodeName]?.[0];
	if (!task) {
		const ran = Object.keys(run?.data.resultData.runData ?? {}).join(', ');
		throw new Error(`node "${nodeName}" did not run (nodes that ran: ${ran || 'none'})`);
	}
	if (task.error)
		throw new Error(
			`node "${nodeName}" failed: ${task.error.message ?? ''} ${task.error.description ?? ''}`,
		);
	return task.data?.main[output] ?? [];
}

/** The error a node ended with, if any. */
export function nodeError(
	run: RunJson | undefined,
	nodeName: string,
): TaskData['error'] | undefined {
	return run?.data.resultData.runData[nodeName]?.[0]?.error;
}

/** The execution hints of a node (e.g. "Some results were cut off by the Limit…"). */
export function nodeHints(run: RunJson | undefined, nodeName: string): string[] {
	return (run?.data.resultData.runData[nodeName]?.[0]?.hints ?? []).map((hint) => hint.message);
}
