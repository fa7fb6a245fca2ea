/**
 * Figure 2 — token reuse. 50 executions of the node, each with a new execution context, all
 * sharing one credential store (n8n's credentials database), inside one token lifetime:
 * requests to the token endpoint. Run once one after the other and once all 50 at the same
 * time (a cold start where every execution wants a token at once).
 */
import { SimulatorHandle, TOKEN_ROUTES } from '../simulator';
import { apiKeyStore, executeNode, freshTransport, STYLES } from '../support';
import type { Figure } from '../support';

const EXECUTIONS = 50;
const COMPANIES = ['cmp_001', 'cmp_002', 'cmp_003'];

export async function tokenReuse(): Promise<{ figures: Figure[]; details: unknown }> {
	const sim = await SimulatorHandle.start({
		seed: { companies: COMPANIES.length, deactivated: [] },
		tokenLifetimeSeconds: 3600,
	});
	// Alternately a single-object call and a list, over several companies.
	const parameters = (i: number) => {
		const company = COMPANIES[i % COMPANIES.length];
		return i % 2 === 0
			? { resource: 'walletSummary', operation: 'get', companies: 'one', company }
			: { ...STYLES.page.parameters(company), returnAll: false, limit: 10 };
	};
	const figures: Figure[] = [];
	try {
		for (const [id, label] of [
			['2', 'one after the other'],
			['2-concurrent', `all ${EXECUTIONS} at once`],
		]) {
			freshTransport();
			await sim.clearLog();
			const store = apiKeyStore(sim.url, sim.orgKey);
			const run = (i: number) => executeNode(store, parameters(i));
			if (id === '2') for (let i = 0; i < EXECUTIONS; i++) await run(i);
			else await Promise.all(Array.from({ length: EXECUTIONS }, async (_, i) => await run(i)));
			const log = await sim.requests();
			const tokens = log.filter((r) => TOKEN_ROUTES.has(r.route)).length;
			figures.push({
				id,
				figure: `Token requests over ${EXECUTIONS} executions, ${label}`,
				value: tokens,
				display: String(tokens),
				target: '1',
				pass: tokens <= 1,
				note: `${log.length - tokens} API requests, ${tokens} token request(s)`,
			});
		}
	} finally {
		await sim.stop();
	}
	return { figures, details: figures.map((f) => f.note) };
}
