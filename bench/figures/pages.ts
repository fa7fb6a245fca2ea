/**
 * Figure 10 — page lists read ahead. Once the first page of a page or offset list gives the
 * total, the node asks the pages still needed concurrently (at most the in-flight cap of 5 per
 * credential, within the company's rate budget) and hands them out in order.
 *
 * - 10-page / 10-offset: a list of 20 pages (600 settlements, page list of 30) and one of 20
 *   pages (2,000 accounts, offset list of 100), the simulator answering every request after
 *   300 ms: the node's wall time ÷ the same node reading page by page (its in-flight cap set to
 *   1, which is what reading one page after the other amounts to), best of 2 each; the requests
 *   ÷ the minimum and the simulator's peak of requests in flight.
 * - 10-fanout: All Companies over 6 companies of 5 pages each (50 ms a response, the simulator
 *   answering a 6th request in flight 429 as Spendesk does): peak in flight and 429s.
 * - 10-rate: a page list of 101 pages (3,030 settlements) at R = 50 requests per window, the
 *   documented 50 a minute with its minute shortened to 6 s to keep the run short: achieved
 *   rate ÷ allowed, requests per window, 429s on the wire.
 */
import type { IDataObject } from 'n8n-workflow';
import { NO_DATA } from '../../test/simulator/seed';
import { SimulatorHandle } from '../simulator';
import {
	STYLES,
	apiKeyStore,
	elapsed,
	executeNode,
	freshTransport,
	perWindow,
	ratio,
} from '../support';
import type { Figure } from '../support';

const LATENCY_MS = 300;
const TARGET = 0.3;
const RATE = 50;
const WINDOW_MS = 6_000;
const FAN_OUT = ['cmp_011', 'cmp_012', 'cmp_013', 'cmp_014', 'cmp_015', 'cmp_016'];
const LISTS = [
	{ id: '10-page', style: STYLES.page, label: 'page list (settlements), 20 pages of 30' },
	{ id: '10-offset', style: STYLES.offset, label: 'offset list (accounts), 20 pages of 100' },
];
const PAGES = 20;

const seconds = (ms: number) => (ms / 1000).toFixed(2);

export async function concurrentPages(): Promise<{ figures: Figure[]; details: unknown }> {
	const figures: Figure[] = [];
	const details: Record<string, unknown> = {};
	const sim = await SimulatorHandle.start({
		seed: {
			sizes: NO_DATA,
			companies: [
				{ id: 'cmp_001', sizes: { ...NO_DATA, settlements: 600, accounts: 2_000 } },
				...FAN_OUT.map((id) => ({ id, sizes: { ...NO_DATA, settlements: 150 } })),
			],
		},
		latencyMs: LATENCY_MS,
		maxInFlight: 5,
		rateLimit: 1_000_000_000,
	});
	try {
		const store = apiKeyStore(sim.url, sim.orgKey);
		/** One read of a list by a fresh transport whose cap is `maxInFlight`, the token fetched first. */
		const run = async (parameters: IDataObject, route: string, maxInFlight = 5) => {
			freshTransport({ maxInFlight });
			await executeNode(store, { ...parameters, returnAll: false, limit: 1 });
			await sim.clearLog();
			await sim.resetStats();
			const started = performance.now();
			const out = await executeNode(store, parameters);
			const ms = elapsed(started);
			const log = (await sim.apiRequests()).filter((r) => r.route === route);
			const { peakInFlight } = await sim.stats();
			return { ms, out, log, peakInFlight, errors: log.filter((r) => r.status !== 200).length };
		};
		for (const { id, style, label } of LISTS) {
			const expected = await sim.ids('cmp_001', style.list);
			const parameters = style.parameters('cmp_001');
			const ahead: Array<Awaited<ReturnType<typeof run>>> = [];
			const oneByOne: typeof ahead = [];
			for (let round = 0; round < 2; round++) {
				ahead.push(await run(parameters, style.routes[0]));
				oneByOne.push(await run(parameters, style.routes[0], 1));
			}
			const best = (runs: typeof ahead) => Math.min(...runs.map((r) => r.ms));
			const value = best(ahead) / best(oneByOne);
			const requests = Math.max(...ahead.map((r) => r.log.length));
			const peak = Math.max(...ahead.map((r) => r.peakInFlight));
			const exact = [...ahead, ...oneByOne].every(
				(r) =>
					!r.errors &&
					r.out.length === expected.length &&
					r.out.every((o, i) => o.json.id === expected[i]),
			);
			const times = (runs: typeof ahead) => runs.map((r) => seconds(r.ms)).join(' / ');
			figures.push(
				{
					id,
					figure: `${label}, ${LATENCY_MS} ms a response: time read ahead ÷ page by page`,
					value,
					display: ratio(value),
					target: `≤ ${TARGET}`,
					pass: value <= TARGET && exact,
					note: `read ahead ${times(ahead)} s vs page by page ${times(oneByOne)} s; ${exact ? 'exact records, no error answer' : 'RECORDS OR ANSWERS WRONG'}`,
				},
				{
					id: `${id}-requests`,
					figure: `${label}: requests ÷ minimum, read ahead`,
					value: requests / PAGES,
					display: ratio(requests / PAGES),
					target: '1.00',
					pass: requests === PAGES,
				},
				{
					id: `${id}-inflight`,
					figure: `${label}: most requests in flight at the simulator, read ahead`,
					value: peak,
					display: String(peak),
					target: '≤ 5',
					pass: peak <= 5 && peak > 1,
				},
			);
			details[id] = { ahead: ahead.map((r) => r.ms), oneByOne: oneByOne.map((r) => r.ms) };
		}

		// All Companies over page lists: the companies and their pages share the 5 slots.
		await sim.configure({ latencyMs: 50 });
		const fan = await run(
			{ ...STYLES.page.parameters(FAN_OUT[0]), companies: 'all' },
			'listSettlements',
		);
		const rejected = fan.log.filter((r) => r.status === 429).length;
		const pages = fan.log.filter((r) => FAN_OUT.includes(r.companyId ?? '')).length;
		figures.push({
			id: '10-fanout',
			figure: `All Companies × page lists (${FAN_OUT.length} companies × 5 pages, 50 ms): most requests in flight`,
			value: fan.peakInFlight,
			display: String(fan.peakInFlight),
			target: '≤ 5',
			pass: fan.peakInFlight <= 5 && rejected === 0,
			note: `${pages} page requests for ${FAN_OUT.length * 5} pages of the ${FAN_OUT.length} companies, ${rejected} answered 429, ${fan.out.length} settlements in ${seconds(fan.ms)} s`,
		});
		details.fanout = { ms: fan.ms, peakInFlight: fan.peakInFlight, rejected };
	} finally {
		await sim.stop();
	}
	figures.push(await rateFigure(details));
	return { figures, details };
}

/** 10-rate: the budget of R per window spent by a page list read ahead. */
async function rateFigure(details: Record<string, unknown>): Promise<Figure> {
	const sim = await SimulatorHandle.start({
		seed: {
			sizes: NO_DATA,
			companies: [{ id: 'cmp_001', sizes: { ...NO_DATA, settlements: 3_030 } }],
		},
		rateLimit: RATE,
		rateLimitWindowMs: WINDOW_MS,
	});
	let surfaced: string | undefined;
	let items = 0;
	let log: Awaited<ReturnType<SimulatorHandle['apiRequests']>>;
	try {
		freshTransport();
		try {
			items = (
				await executeNode(apiKeyStore(sim.url, sim.orgKey), STYLES.page.parameters('cmp_001'))
			).length;
		} catch (e) {
			surfaced = (e as Error).message;
		}
		log = (await sim.apiRequests()).filter((r) => r.route === 'listSettlements');
	} finally {
		await sim.stop();
	}
	const ok = log.filter((r) => r.status === 200);
	const onWire429 = log.filter((r) => r.status === 429).length;
	const span = ok[ok.length - 1].at - ok[0].at;
	const value = (ok.length - 1) / (span / 1000) / (RATE / (WINDOW_MS / 1000));
	const windows = perWindow(ok, WINDOW_MS);
	details.rate = { ok: ok.length, onWire429, spanMs: span, perWindow: windows, surfaced };
	return {
		id: '10-rate',
		figure: `Page list read ahead, R = ${RATE} per ${WINDOW_MS / 1000} s: achieved rate ÷ allowed`,
		value,
		display: ratio(value),
		target: '≥ 0.90',
		pass: value >= 0.9 && onWire429 === 0 && surfaced === undefined && items === 3_030,
		note: `${ok.length} pages in ${seconds(span)} s; requests per window ${windows.join(', ')}; ${onWire429} answered 429; ${surfaced ? `the node failed: ${surfaced}` : `all ${items.toLocaleString('en')} settlements`}`,
	};
}
