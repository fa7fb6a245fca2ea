/**
 * The Spendesk API simulator in a process of its own, so that the benchmark's client process
 * measures only its own memory and CPU (the simulator holds the whole data set). Forked by
 * bench/simulator.ts with the simulator's options as its argument; answers the commands of
 * SimulatorHandle over the IPC channel and exits when the channel closes.
 */
import { SpendeskSimulator } from '../test/simulator';
import type { SimulatorOptions } from '../test/simulator';
import type { SimCommand, WireRequest } from './simulator';
import type { ListName } from './support';

/** The commands that are not a method of the simulator of the same name (clearLog, configure…). */
const COMMANDS: Record<string, (sim: SpendeskSimulator, ...args: never[]) => unknown> = {
	requests: (sim) =>
		sim.log.map(
			(r): WireRequest => ({ at: r.at, route: r.route, status: r.status, companyId: r.companyId }),
		),
	stats: (sim) => ({ ...sim.stats }),
	advanceClock: (sim, ms: number) => sim.clock.advance(ms),
	// A bulk update: `count` invoices created and updated at the same instant.
	insertTiedInvoices: (sim, company: string, count: number) => {
		const at = sim.clock.iso();
		for (let i = 0; i < count; i++) sim.insertInvoice(company, { createdAt: at, updatedAt: at });
		return at;
	},
	// Every id of the list, in the order the API serves it (invoices: by creation, ascending).
	ids: (sim, company: string, list: ListName) =>
		(list === 'invoices' ? sim.invoicesSorted(company) : sim.data(company)[list]).map((i) => i.id),
};

async function main(): Promise<void> {
	const sim = new SpendeskSimulator(JSON.parse(process.argv[2] ?? '{}') as SimulatorOptions);
	const url = await sim.start();
	process.on('message', ({ id, cmd, args }: SimCommand) => {
		try {
			const method = sim[cmd as keyof SpendeskSimulator] as (...a: unknown[]) => unknown;
			const result =
				(cmd in COMMANDS ? COMMANDS[cmd](sim, ...(args as never[])) : method.apply(sim, args)) ??
				null;
			process.send!({ id, ok: true, result });
		} catch (error) {
			process.send!({ id, ok: false, error: String(error) });
		}
	});
	process.on('disconnect', () => void sim.stop().then(() => process.exit(0)));
	process.send!({ id: 0, ok: true, result: { url, orgKey: sim.credentials.orgKey } });
}

main().catch((error: unknown) => {
	process.stderr.write(
		`simulator-process: ${error instanceof Error ? error.stack : String(error)}\n`,
	);
	process.exit(1);
});
