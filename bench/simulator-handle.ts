/** Starts bench/simulator-process.ts as a child process (through tsx) and talks to it over IPC. */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ApiKeyCredential, FaultSpec, SimulatorOptions } from '../test/simulator';
import type { ListName, SimCommand, SimReady, SimReply, WireRequest } from './simulator-protocol';
import { TOKEN_ROUTES } from './simulator-protocol';

/** A command without its id (distributes over the union). */
type Command = SimCommand extends infer C ? (C extends SimCommand ? Omit<C, 'id'> : never) : never;

export class SimulatorHandle {
	private nextId = 1;
	private readonly pending = new Map<
		number,
		{ resolve: (value: unknown) => void; reject: (error: Error) => void }
	>();

	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
		readonly orgKey: ApiKeyCredential,
	) {
		child.on('message', (message: SimReply) => {
			const waiter = this.pending.get(message.id);
			if (!waiter) return;
			this.pending.delete(message.id);
			if (message.ok) waiter.resolve(message.result);
			else waiter.reject(new Error(message.error));
		});
	}

	static async start(options: SimulatorOptions): Promise<SimulatorHandle> {
		const child = fork(path.join(__dirname, 'simulator-process.ts'), [JSON.stringify(options)], {
			execArgv: ['--import', 'tsx'],
			stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
		});
		const ready = await new Promise<SimReady>((resolve, reject) => {
			const onExit = (code: number | null) =>
				reject(new Error(`simulator process exited with code ${code} before it was ready`));
			child.once('exit', onExit);
			child.once('message', (message: SimReply) => {
				child.off('exit', onExit);
				if (message.ok) resolve(message.result as SimReady);
				else reject(new Error(message.error));
			});
		});
		return new SimulatorHandle(child, ready.url, ready.orgKey);
	}

	private async send<T>(command: Command): Promise<T> {
		const id = this.nextId++;
		return await new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
			this.child.send({ ...command, id } as SimCommand);
		});
	}

	/** The request log since the last clearLog, in arrival order (`detail`: with each request's query and body). */
	async requests(options: { detail?: boolean } = {}): Promise<WireRequest[]> {
		return await this.send<WireRequest[]>({ cmd: 'requests', detail: options.detail });
	}

	/** API requests only (token endpoints left out). */
	async apiRequests(): Promise<WireRequest[]> {
		return (await this.requests()).filter((r) => !TOKEN_ROUTES.has(r.route));
	}

	async clearLog(): Promise<void> {
		await this.send({ cmd: 'clearLog' });
	}

	async stats(): Promise<{ inFlight: number; peakInFlight: number }> {
		return await this.send({ cmd: 'stats' });
	}

	async resetStats(): Promise<void> {
		await this.send({ cmd: 'resetStats' });
	}

	/** Fault injection, as SpendeskSimulator.injectFault (the next matching requests, whoever sends them). */
	async injectFault(fault: FaultSpec): Promise<void> {
		await this.send({ cmd: 'injectFault', fault });
	}

	async clearFaults(): Promise<void> {
		await this.send({ cmd: 'clearFaults' });
	}

	/** Changes options of the running simulator (rate limit, latency, caps…). */
	async configure(options: Partial<SimulatorOptions>): Promise<void> {
		await this.send({ cmd: 'configure', options });
	}

	/** Every access token issued so far expires now (as after Spendesk's 60 minutes). */
	async expireTokens(): Promise<void> {
		await this.send({ cmd: 'expireTokens' });
	}

	/** Every id of a company's list as the simulator holds it. */
	async ids(company: string, list: ListName): Promise<string[]> {
		return await this.send<string[]>({ cmd: 'ids', company, list });
	}

	/** Moves the simulator's clock forward (the time its answers and new invoices carry). */
	async advanceClock(ms: number): Promise<void> {
		await this.send({ cmd: 'advanceClock', ms });
	}

	/** Inserts `count` invoices of a company sharing one `createdAt` and `updatedAt` (now); returns that time. */
	async insertTiedInvoices(company: string, count: number): Promise<string> {
		return await this.send<string>({ cmd: 'insertTiedInvoices', company, count });
	}

	/** The process id of the simulator (for the record; it is not measured). */
	get pid(): number | undefined {
		return this.child.pid;
	}

	async stop(): Promise<void> {
		if (this.child.exitCode !== null) return;
		const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		this.child.disconnect();
		await exited;
	}
}
