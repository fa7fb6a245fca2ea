/**
 * Figure 5 — rate-limit bound. The simulator allows R = 20 requests per 2,000 ms window (fixed
 * window per credential and company); the node drains 10,001 invoices of one company (101
 * pages of 100, so 5 full windows and the first request of a sixth, about 10 s).
 *
 * Achieved rate = (successful page requests − 1) ÷ (time between the first and the last one's
 * arrival at the simulator). Ideal behaviour sends R requests at the start of each window, so
 * the last request opens window 6 exactly 5 windows after the first: the ratio to R per window
 * is then 1.00; anything above 1 would have been answered 429.
 */
import { SimulatorHandle } from '../simulator';
import type { WireRequest } from '../simulator';
import {
	INVOICES_ONLY,
	STYLES,
	apiKeyStore,
	executeNode,
	freshTransport,
	perWindow,
	ratio,
} from '../support';
import type { Figure } from '../support';

const RATE = 20;
const WINDOW_MS = 2_000;
const INVOICES = 10_001;

export async function rateLimitBound(): Promise<{ figures: Figure[]; details: unknown }> {
	const sim = await SimulatorHandle.start({
		seed: { companies: [{ id: 'cmp_001', sizes: { ...INVOICES_ONLY, invoices: INVOICES } }] },
		rateLimit: RATE,
		rateLimitWindowMs: WINDOW_MS,
	});
	let error: string | undefined;
	let items = 0;
	let log: WireRequest[];
	try {
		freshTransport();
		items = (
			await executeNode(
				apiKeyStore(sim.url, sim.orgKey),
				STYLES.cursor.parameters('cmp_001'),
			).catch((e: Error) => {
				error = e.message;
				return [];
			})
		).length;
		log = await sim.apiRequests();
	} finally {
		await sim.stop();
	}
	const surfaced = error === undefined ? 0 : 1;
	const ok = log.filter((r) => r.status === 200);
	const onWire429 = log.filter((r) => r.status === 429).length;
	const span = ok[ok.length - 1].at - ok[0].at;
	const achieved = (ok.length - 1) / (span / 1000);
	const value = achieved / (RATE / (WINDOW_MS / 1000));
	const windows = perWindow(ok, WINDOW_MS);
	return {
		figures: [
			{
				id: '5-rate',
				figure: `Achieved request rate ÷ allowed (R = ${RATE} per ${WINDOW_MS / 1000} s)`,
				value,
				display: ratio(value),
				target: '≥ 0.90',
				pass: value >= 0.9,
				note: `${ok.length} pages in ${(span / 1000).toFixed(2)} s = ${achieved.toFixed(2)} requests a second; per window ${windows.join(', ')}`,
			},
			{
				id: '5-surfaced',
				figure: 'Errors surfaced to the user (a 429 or a rate-limit wait)',
				value: surfaced,
				display: String(surfaced),
				target: '0',
				pass: surfaced === 0,
				note: error
					? `the node failed: ${error}`
					: `the node returned all ${items.toLocaleString('en')} invoices`,
			},
			{
				id: '5-wire',
				figure: '429s on the wire',
				value: onWire429,
				display: String(onWire429),
				target: 'report',
			},
		],
		details: { requests: log.length, ok: ok.length, onWire429, spanMs: span, perWindow: windows },
	};
}
