/** The simulator of a figure, in a process of its own (bench/simulator-process.ts), driven over IPC. */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ApiKeyCredential, FaultSpec, RouteId, SimulatorOptions } from '../test/simulator';
import type { ListName } from './support';

export interface SimCommand {
	id: number;
	cmd: string;
	args: unknown[];
}

type SimReply =
	| { id: number; ok: true; result: unknown }
	| { id: number; ok: false; error: string };

/** One entry of the simulator's request log (`at`: arrival, ms), as much as the benchmark needs. */
export interface WireRequest {
	at: number;
	route: RouteId;
	status: number;
	companyId?: string;
}

/** The token endpoint's route (the benchmark's credentials are API keys). */
export const TOKEN_ROUTES: ReadonlySet<string> = new Set(['token']);

export class SimulatorHandle {
	private nextId = 1;
	private readonly pending = new Map<number, (reply: SimReply) => void>();

	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
		readonly orgKey: ApiKeyCredential,
	) {
		child.on('message', (reply: SimReply) => {
			this.pending.get(reply.id)?.(reply);
			this.pending.delete(reply.id);
		});
	}

	static async start(options: SimulatorOptions): Promise<SimulatorHandle> {
		const child = fork(path.join(__dirname, 'simulator-process.ts'), [JSON.stringify(options)], {
			execArgv: ['--import', 'tsx'],
			stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
		});
		const ready = await new Promise<{ url: string; orgKey: ApiKeyCredential }>(
			(resolve, reject) => {
				child.once('exit', (code) =>
					reject(new Error(`simulator process exited with code ${code}`)),
				);
				child.once('message', (reply: SimReply) =>
					reply.ok ? resolve(reply.result as never) : reject(new Error(reply.error)),
				);
			},
		);
		child.removeAllListeners('exit');
		return new SimulatorHandle(child, ready.url, ready.orgKey);
	}

	private async send<T = void>(cmd: string, ...args: unknown[]): Promise<T> {
		const id = this.nextId++;
		return await new Promise<T>((resolve, reject) => {
			this.pending.set(id, (reply) =>
				reply.ok ? resolve(reply.result as T) : reject(new Error(reply.error)),
			);
			this.child.send({ id, cmd, args } satisfies SimCommand);
		});
	}

	requests = () => this.send<WireRequest[]>('requests');
	/** API requests only (token endpoints left out). */
	apiRequests = async () => (await this.requests()).filter((r) => !TOKEN_ROUTES.has(r.route));
	clearLog = () => this.send('clearLog');
	stats = () => this.send<{ inFlight: number; peakInFlight: number }>('stats');
	resetStats = () => this.send('resetStats');
	/** As SpendeskSimulator.injectFault: the next matching requests, whoever sends them. */
	injectFault = (fault: FaultSpec) => this.send('injectFault', fault);
	clearFaults = () => this.send('clearFaults');
	configure = (options: Partial<SimulatorOptions>) => this.send('configure', options);
	/** Every access token issued so far expires now (as after Spendesk's 60 minutes). */
	expireTokens = () => this.send('expireTokens');
	ids = (company: string, list: ListName) => this.send<string[]>('ids', company, list);
	/** Moves the simulator's clock forward (the time its answers and new invoices carry). */
	advanceClock = (ms: number) => this.send('advanceClock', ms);
	/** Inserts `count` invoices of a company sharing one `createdAt` and `updatedAt` (now); returns that time. */
	insertTiedInvoices = (company: string, count: number) =>
		this.send<string>('insertTiedInvoices', company, count);

	async stop(): Promise<void> {
		if (this.child.exitCode !== null) return;
		const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		this.child.disconnect();
		await exited;
	}
}
