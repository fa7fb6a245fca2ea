/**
 * Figure 4 — All Companies fan-out. 10 companies × 5,000 invoices, simulator latency 50 ms:
 * the node's All Companies run (invoice → Get Many, Return All) against the same 10
 * companies run one after the other (10 executions, One Company each), in the same run.
 * Also the largest number of requests the simulator saw in flight (the cap is 5).
 */
import { SimulatorHandle } from '../simulator-handle';
import { TOKEN_ROUTES } from '../simulator-protocol';
import {
	apiKeyStore,
	elapsed,
	executeNode,
	freshTransport,
	INVOICES_ONLY,
	invoiceGetAll,
	ratio,
} from '../support';
import type { Figure } from '../support';

const COMPANIES = 10;
const INVOICES = 5_000;
const LATENCY_MS = 50;
const CAP = 5;
const FANOUT_RUNS = 2;

interface Run {
	mode: 'all companies' | 'serial';
	ms: number;
	items: number;
	apiRequests: number;
	tokenRequests: number;
	rejected429: number;
	peakInFlight: number;
}

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
	const runs: Run[] = [];
	const measure = async (
		mode: Run['mode'],
		body: (store: ReturnType<typeof apiKeyStore>) => Promise<number>,
	) => {
		freshTransport({ maxInFlight: CAP });
		const store = apiKeyStore(sim.url, sim.orgKey);
		await sim.clearLog();
		await sim.resetStats();
		const started = performance.now();
		const items = await body(store);
		const ms = elapsed(started);
		const log = await sim.requests();
		const { peakInFlight } = await sim.stats();
		runs.push({
			mode,
			ms,
			items,
			apiRequests: log.filter((r) => !TOKEN_ROUTES.has(r.route)).length,
			tokenRequests: log.filter((r) => TOKEN_ROUTES.has(r.route)).length,
			rejected429: log.filter((r) => r.status === 429).length,
			peakInFlight,
		});
		if (items !== COMPANIES * INVOICES)
			throw new Error(`fan-out (${mode}): ${items} items instead of ${COMPANIES * INVOICES}`);
	};
	try {
		for (let i = 0; i < FANOUT_RUNS; i++) {
			await measure(
				'all companies',
				async (store) =>
					(
						await executeNode(store, {
							...invoiceGetAll(''),
							companyScope: 'all',
							company: undefined,
						})
					).length,
			);
		}
		await measure('serial', async (store) => {
			let items = 0;
			for (const id of ids) items += (await executeNode(store, invoiceGetAll(id))).length;
			return items;
		});
	} finally {
		await sim.stop();
	}
	const fan = runs.filter((r) => r.mode === 'all companies');
	const fastest = Math.min(...fan.map((r) => r.ms));
	const serial = runs.find((r) => r.mode === 'serial')!;
	const speedUp = serial.ms / fastest;
	const peak = Math.max(...fan.map((r) => r.peakInFlight));
	const rejected = fan.reduce((n, r) => n + r.rejected429, 0);
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
				note: `serial ${(serial.ms / 1000).toFixed(2)} s (${serial.apiRequests} API requests) vs All Companies best ${(fastest / 1000).toFixed(2)} s (runs ${fan.map((r) => (r.ms / 1000).toFixed(2)).join(' / ')} s, ${fan[0].apiRequests} API requests incl. Get Companies)`,
			},
			{
				id: '4-inflight',
				figure: 'All Companies: most requests in flight at the simulator',
				value: peak,
				display: String(peak),
				target: `≤ ${CAP}`,
				pass: peak <= CAP,
				note: `peak ${fan.map((r) => r.peakInFlight).join(' / ')} over the All Companies runs, ${serial.peakInFlight} serial; ${rejected} responses 429`,
			},
		],
		details: runs,
	};
}
