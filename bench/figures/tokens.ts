/**
 * Figure 2 — token reuse. 50 executions of the node, each with a new execution context,
 * all sharing one credential store (n8n's credentials database), inside one token lifetime:
 * requests to the token endpoint. Run once one after the other and once all 50 at the same
 * time (a cold start where every execution wants a token at once).
 */
import { SimulatorHandle } from '../simulator-handle';
import { TOKEN_ROUTES } from '../simulator-protocol';
import { apiKeyStore, executeNode, freshTransport } from '../support';
import type { Figure } from '../support';

const EXECUTIONS = 50;
const COMPANIES = ['cmp_001', 'cmp_002', 'cmp_003'];

export async function tokenReuse(): Promise<{ figures: Figure[]; details: unknown }> {
	const sim = await SimulatorHandle.start({
		seed: { companies: COMPANIES.length, deactivated: [] },
		tokenLifetimeSeconds: 3600,
	});
	const details: Record<
		string,
		{ executions: number; tokenRequests: number; apiRequests: number; failures: number }
	> = {};
	try {
		for (const mode of ['sequential', 'concurrent'] as const) {
			freshTransport();
			await sim.clearLog();
			const store = apiKeyStore(sim.url, sim.orgKey);
			// Alternate a single-object call and a list, over several companies.
			const parameters = (i: number) =>
				i % 2 === 0
					? {
							resource: 'walletSummary',
							operation: 'get',
							companyScope: 'one',
							company: COMPANIES[i % COMPANIES.length],
						}
					: {
							resource: 'settlement',
							operation: 'getAll',
							companyScope: 'one',
							company: COMPANIES[i % COMPANIES.length],
							returnAll: false,
							limit: 10,
						};
			let failures = 0;
			if (mode === 'sequential') {
				for (let i = 0; i < EXECUTIONS; i++)
					await executeNode(store, parameters(i)).catch(() => failures++);
			} else {
				await Promise.all(
					Array.from(
						{ length: EXECUTIONS },
						async (_, i) => await executeNode(store, parameters(i)).catch(() => failures++),
					),
				);
			}
			const log = await sim.requests();
			details[mode] = {
				executions: EXECUTIONS,
				tokenRequests: log.filter((r) => TOKEN_ROUTES.has(r.route)).length,
				apiRequests: log.filter((r) => !TOKEN_ROUTES.has(r.route)).length,
				failures,
			};
			if (failures) throw new Error(`token reuse (${mode}): ${failures} executions failed`);
		}
	} finally {
		await sim.stop();
	}
	const figure = (id: string, label: string, d: (typeof details)[string]): Figure => ({
		id,
		figure: `Token requests over ${EXECUTIONS} executions, ${label}`,
		value: d.tokenRequests,
		display: String(d.tokenRequests),
		target: '1',
		pass: d.tokenRequests <= 1,
		note: `${d.apiRequests} API requests, ${d.tokenRequests} token request(s)`,
	});
	return {
		figures: [
			figure('2', 'one after the other', details.sequential),
			figure('2-concurrent', 'all 50 at once', details.concurrent),
		],
		details,
	};
}
