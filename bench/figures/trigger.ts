/**
 * Figure 6 — idle trigger poll. The Spendesk Trigger on All Companies (3 companies of 1,000
 * invoices), New Invoice, Start From Now: after the first poll, 5 polls with nothing new
 * (each with a new context, the workflow's static data kept): API requests per company per poll.
 */
import type { IDataObject } from 'n8n-workflow';
import { SimulatorHandle } from '../simulator-handle';
import { apiKeyStore, freshTransport, INVOICES_ONLY, pollTrigger, ratio } from '../support';
import type { Figure } from '../support';

const COMPANIES = 3;
const IDLE_POLLS = 5;

export async function idleTriggerPoll(): Promise<{ figures: Figure[]; details: unknown }> {
	const sim = await SimulatorHandle.start({
		seed: { companies: COMPANIES, deactivated: [], sizes: { ...INVOICES_ONLY, invoices: 1_000 } },
	});
	const parameters = { event: 'newInvoice', companyScope: 'all', startFrom: 'now', options: {} };
	const staticData: IDataObject = {};
	let first: { api: number; routes: string[] };
	let idle: { api: number; byRoute: Record<string, number>; emitted: number };
	try {
		freshTransport();
		const store = apiKeyStore(sim.url, sim.orgKey);
		await sim.clearLog();
		await pollTrigger(store, staticData, parameters);
		const firstLog = await sim.apiRequests();
		first = { api: firstLog.length, routes: firstLog.map((r) => r.route) };
		await sim.clearLog();
		let emitted = 0;
		for (let i = 0; i < IDLE_POLLS; i++) {
			const out = await pollTrigger(store, staticData, parameters);
			emitted += out?.[0]?.length ?? 0;
		}
		const log = await sim.apiRequests();
		const byRoute: Record<string, number> = {};
		for (const r of log) byRoute[r.route] = (byRoute[r.route] ?? 0) + 1;
		idle = { api: log.length, byRoute, emitted };
	} finally {
		await sim.stop();
	}
	const perCompany = idle.api / (IDLE_POLLS * COMPANIES);
	return {
		figures: [
			{
				id: '6',
				figure: `Idle trigger poll: requests per company per poll (${COMPANIES} companies)`,
				value: perCompany,
				display: ratio(perCompany),
				target: '1',
				pass: perCompany <= 1 && idle.emitted === 0,
				note: `${idle.api} API requests over ${IDLE_POLLS} idle polls (${Object.entries(
					idle.byRoute,
				)
					.map(([k, v]) => `${k} ${v}`)
					.join(
						', ',
					)}), ${idle.emitted} items emitted; first poll: ${first.api} (${[...new Set(first.routes)].join(', ')})`,
			},
		],
		details: { first, idle },
	};
}
