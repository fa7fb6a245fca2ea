/**
 * Figure 6 — idle trigger poll. The Spendesk Trigger on All Companies (3 companies of 1,000
 * invoices), New Invoice, Start From Now: after the first poll, 5 polls with nothing new (each
 * with a new context, the workflow's static data kept): API requests per company per poll.
 *
 * 6-tie — then a bulk update: 10,000 invoices of each company sharing one `updatedAt` (emitted
 * by one poll), then a poll a minute (the simulator's clock moved a minute each time; Overlap
 * Window 5 minutes, the default) for 10 minutes with nothing new. While the tie lies within the
 * overlap window an invoice could still become visible among it: the idle polls read only what
 * is newer than the tie, and one poll, the first after the window, reads the tie again for the
 * invoices that showed up late. 6-tie is every idle poll but that one; 6-tie-recheck is that
 * one, as the pages of the tie it read.
 */
import type { IDataObject } from 'n8n-workflow';
import { SimulatorHandle } from '../simulator';
import { apiKeyStore, freshTransport, INVOICES_ONLY, pollTrigger, ratio } from '../support';
import type { Figure } from '../support';

const COMPANIES = 3;
const IDLE_POLLS = 5;
const TIE = 10_000;
/** Minutes of idle polls after the tie (one a minute); the default Overlap Window; the trigger's page. */
const TIE_MINUTES = 10;
const OVERLAP_MINUTES = 5;
const PAGE = 100;

export async function idleTriggerPoll(): Promise<{ figures: Figure[]; details: unknown }> {
	const sim = await SimulatorHandle.start({
		seed: { companies: COMPANIES, deactivated: [], sizes: { ...INVOICES_ONLY, invoices: 1_000 } },
	});
	const parameters = { event: 'newInvoice', companies: 'all', startFrom: 'now', options: {} };
	const staticData: IDataObject = {};
	/** Invoice-list requests per company of each idle poll after the tie, minute by minute. */
	const perPoll: number[] = [];
	let idle: { api: number; routes: string; emitted: number };
	let emittedTie = 0;
	let emittedIdle = 0;
	try {
		freshTransport();
		const store = apiKeyStore(sim.url, sim.orgKey);
		const poll = async () => (await pollTrigger(store, staticData, parameters))?.[0]?.length ?? 0;
		await poll();
		await sim.clearLog();
		let emitted = 0;
		for (let i = 0; i < IDLE_POLLS; i++) emitted += await poll();
		const log = await sim.apiRequests();
		idle = { api: log.length, routes: [...new Set(log.map((r) => r.route))].join(', '), emitted };

		await sim.advanceClock(60_000);
		for (let c = 1; c <= COMPANIES; c++)
			await sim.insertTiedInvoices(`cmp_${String(c).padStart(3, '0')}`, TIE);
		emittedTie = await poll();
		for (let minute = 1; minute <= TIE_MINUTES; minute++) {
			await sim.advanceClock(60_000);
			await sim.clearLog();
			emittedIdle += await poll();
			const requests = await sim.apiRequests();
			perPoll.push(requests.filter((r) => r.route === 'listInvoices').length / COMPANIES);
		}
	} finally {
		await sim.stop();
	}
	const perCompany = idle.api / (IDLE_POLLS * COMPANIES);
	// One poll after the window reads the tie again (its pages, the page above it, and that page
	// once more for what moved meanwhile); every other idle poll reads what is newer than the tie.
	const tiePages = Math.ceil(TIE / PAGE);
	const rechecks = perPoll.filter((n) => n > 1);
	const others = perPoll.filter((n) => n <= 1);
	const value = others.reduce((a, b) => a + b, 0) / others.length;
	const exact = emittedIdle === 0 && emittedTie === TIE * COMPANIES;
	const recheck = rechecks[0] ?? 0;
	return {
		figures: [
			{
				id: '6',
				figure: `Idle trigger poll: requests per company per poll (${COMPANIES} companies)`,
				value: perCompany,
				display: ratio(perCompany),
				target: '1',
				pass: perCompany <= 1 && idle.emitted === 0,
				note: `${idle.api} API requests over ${IDLE_POLLS} idle polls (${idle.routes}), ${idle.emitted} items emitted`,
			},
			{
				id: '6-tie',
				figure: `Idle trigger poll after ${TIE.toLocaleString('en')} invoices sharing one updatedAt, minutes 1–${TIE_MINUTES}: requests per company per poll, but the one re-read`,
				value,
				display: ratio(value),
				target: '1',
				pass: value <= 1 && rechecks.length <= 1 && exact,
				note: `Overlap Window ${OVERLAP_MINUTES} min; requests per company at minutes 1–${TIE_MINUTES} after the tie: ${perPoll.map(ratio).join(', ')}; ${emittedTie} invoices emitted by the poll after the tie, ${emittedIdle} by the idle polls`,
			},
			{
				id: '6-tie-recheck',
				figure: `The one idle poll that reads the tie again after the overlap window: requests per company ÷ pages of the tie (${tiePages})`,
				value: recheck / tiePages,
				display: ratio(recheck / tiePages),
				target: '≤ 1.05, once',
				pass: rechecks.length === 1 && recheck / tiePages <= 1.05 && exact,
			},
		],
		details: { idle, perPoll, emittedTie, emittedIdle },
	};
}
