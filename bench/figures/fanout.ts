/**
 * Figure 4 — All Companies fan-out. 10 companies × 5,000 invoices, simulator latency 50 ms: the
 * node's All Companies run (invoice → Get Many, Return All; best of 2) against the same 10
 * companies run one after the other (10 executions, One Company each), in the same run. Also
 * the largest number of requests the simulator saw in flight (the cap is 5).
 */
import { SimulatorHandle } from '../simulator';
import type { CredentialStore } from '../../test/support/n8n-context';
import {
	apiKeyStore,
	elapsed,
	executeNode,
	freshTransport,
	INVOICES_ONLY,
	STYLES,
	ratio,
} from '../support';
import type { Figure } from '../support';

const COMPANIES = 10;
const INVOICES = 5_000;
const LATENCY_MS = 50;
const CAP = 5;

export async function fanOut(): Promise<{ figures: Figure[]; details: unknown }> {
	const sim = await SimulatorHandle.start({
		seed: {
			companies: COMPANIES,
			deactivated: [],
			sizes: { ...INVOICES_ONLY, invoices: INVOICES },
		},
		latencyMs: LATENCY_MS,
		rateLimit: 1_000_000_000,
	});
	const ids = Array.from({ length: COMPANIES }, (_, i) => `cmp_${String(i + 1).padStart(3, '0')}`);
	const measure = async (read: (store: CredentialStore) => Promise<number>) => {
		freshTransport({ maxInFlight: CAP });
		await sim.clearLog();
		await sim.resetStats();
		const started = performance.now();
		const items = await read(apiKeyStore(sim.url, sim.orgKey));
		const ms = elapsed(started);
		const log = await sim.apiRequests();
		const { peakInFlight } = await sim.stats();
		if (items !== COMPANIES * INVOICES)
			throw new Error(`fan-out: ${items} items instead of ${COMPANIES * INVOICES}`);
		return {
			ms,
			requests: log.length,
			rejected: log.filter((r) => r.status === 429).length,
			peakInFlight,
		};
	};
	const all = async (store: CredentialStore) =>
		(
			await executeNode(store, {
				...STYLES.cursor.parameters(''),
				companies: 'all',
				company: undefined,
			})
		).length;
	let fan: Array<Awaited<ReturnType<typeof measure>>>;
	let serial: Awaited<ReturnType<typeof measure>>;
	try {
		fan = [await measure(all), await measure(all)];
		serial = await measure(async (store) => {
			let items = 0;
			for (const id of ids)
				items += (await executeNode(store, STYLES.cursor.parameters(id))).length;
			return items;
		});
	} finally {
		await sim.stop();
	}
	const fastest = Math.min(...fan.map((r) => r.ms));
	const speedUp = serial.ms / fastest;
	const peak = Math.max(...fan.map((r) => r.peakInFlight));
	const s = (ms: number) => (ms / 1000).toFixed(2);
	// The ideal with 5 requests in flight and the latency alone: a 5× speed-up.
	return {
		figures: [
			{
				id: '4-speedup',
				figure: `All Companies speed-up over serial (${COMPANIES} × ${INVOICES.toLocaleString('en')} invoices, ${LATENCY_MS} ms latency, cap ${CAP})`,
				value: speedUp,
				display: `${ratio(speedUp)}×`,
				target: '≥ 4×',
				pass: speedUp >= 4,
				note: `serial ${s(serial.ms)} s (${serial.requests} API requests) vs All Companies ${fan.map((r) => s(r.ms)).join(' / ')} s (${fan[0].requests} API requests with Get Companies)`,
			},
			{
				id: '4-inflight',
				figure: 'All Companies: most requests in flight at the simulator',
				value: peak,
				display: String(peak),
				target: `≤ ${CAP}`,
				pass: peak <= CAP,
				note: `${fan.reduce((n, r) => n + r.rejected, 0)} responses 429`,
			},
		],
		details: { fan, serial },
	};
}
