/**
 * The Spendesk API simulator in a process of its own, so the benchmark's client process
 * measures only its own memory and CPU (the simulator holds the whole data set).
 *
 * Standalone: `npx tsx bench/simulator-process.ts '{"latencyMs":50}'` prints one JSON line
 * `{"url": …, "orgKey": {…}}` and serves until killed.
 * Forked by the benchmark (bench/simulator-handle.ts): it also answers commands over the
 * IPC channel (request log, stats, faults, options, the ids of a list) and exits when the
 * channel closes.
 */
import { SpendeskSimulator } from '../test/simulator';
import type { SimulatorOptions } from '../test/simulator';
import type { SimCommand, SimReply, WireRequest } from './simulator-protocol';

async function main(): Promise<void> {
	const options = JSON.parse(process.argv[2] ?? '{}') as SimulatorOptions;
	const sim = new SpendeskSimulator(options);
	const url = await sim.start();
	const ready = { url, orgKey: sim.credentials.orgKey };
	process.stdout.write(`${JSON.stringify(ready)}\n`);

	if (!process.send) return;
	const reply = (message: SimReply) => process.send!(message);
	process.on('message', (message: SimCommand) => {
		try {
			switch (message.cmd) {
				case 'requests': {
					const requests: WireRequest[] = sim.log.map((r) => ({
						at: r.at,
						route: r.route,
						status: r.status,
						companyId: r.companyId,
						...(r.fault ? { fault: r.fault } : {}),
						...(message.detail
							? { query: r.query, body: r.body, connection: r.headers.connection }
							: {}),
					}));
					reply({ id: message.id, ok: true, result: requests });
					return;
				}
				case 'clearLog':
					sim.clearLog();
					reply({ id: message.id, ok: true, result: null });
					return;
				case 'stats':
					reply({ id: message.id, ok: true, result: { ...sim.stats } });
					return;
				case 'resetStats':
					sim.resetStats();
					reply({ id: message.id, ok: true, result: null });
					return;
				case 'injectFault':
					sim.injectFault(message.fault);
					reply({ id: message.id, ok: true, result: null });
					return;
				case 'clearFaults':
					sim.clearFaults();
					reply({ id: message.id, ok: true, result: null });
					return;
				case 'configure':
					sim.configure(message.options);
					reply({ id: message.id, ok: true, result: null });
					return;
				case 'expireTokens':
					sim.expireTokens();
					reply({ id: message.id, ok: true, result: null });
					return;
				case 'advanceClock':
					sim.clock.advance(message.ms);
					reply({ id: message.id, ok: true, result: null });
					return;
				case 'insertTiedInvoices': {
					// A bulk update: `count` invoices created and updated at the same instant.
					const at = sim.clock.iso();
					for (let i = 0; i < message.count; i++)
						sim.insertInvoice(message.company, { createdAt: at, updatedAt: at });
					reply({ id: message.id, ok: true, result: at });
					return;
				}
				case 'ids': {
					// Every id of the list, in the order the API serves it (invoices: by creation, ascending).
					const data = sim.data(message.company);
					const list =
						message.list === 'invoices' ? sim.invoicesSorted(message.company) : data[message.list];
					reply({ id: message.id, ok: true, result: list.map((item) => item.id) });
					return;
				}
			}
		} catch (error) {
			reply({ id: message.id, ok: false, error: String(error) });
		}
	});
	process.on('disconnect', () => void sim.stop().then(() => process.exit(0)));
	reply({ id: 0, ok: true, result: ready });
}

main().catch((error: unknown) => {
	process.stderr.write(
		`simulator-process: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
