/**
 * Figure 1 — request minimality. Each of the five pagination styles, Return All, at sizes 0, 1,
 * one page, one page + 1 and 10,000: API requests made (simulator log, token endpoint left out)
 * ÷ the theoretical minimum.
 */
import { SimulatorHandle } from '../simulator';
import {
	STYLES,
	apiKeyStore,
	executeNode,
	freshTransport,
	minimumRequests,
	ratio,
} from '../support';
import type { Figure, Style } from '../support';

const sizesOf = (style: Style) => [0, 1, style.pageSize, style.pageSize + 1, 10_000];
const companyFor = (size: number) => `cmp_n${size}`;

interface RequestRun {
	style: string;
	size: number;
	requests: number;
	minimum: number;
}

export async function requestMinimality(): Promise<{ figures: Figure[]; details: RequestRun[] }> {
	const styles = Object.values(STYLES);
	const sizes = [...new Set(styles.flatMap(sizesOf))];
	const sim = await SimulatorHandle.start({
		seed: {
			companies: sizes.map((n) => ({
				id: companyFor(n),
				sizes: {
					...{ invoices: n, settlements: n, accounts: n, payables: n },
					...{ analyticalFields: 0, expenseCategories: 0, intakes: 0 },
				},
			})),
		},
		snapshotPendingPolls: 0,
	});
	const runs: RequestRun[] = [];
	try {
		freshTransport();
		const store = apiKeyStore(sim.url, sim.orgKey);
		for (const style of styles) {
			for (const size of sizesOf(style)) {
				await sim.clearLog();
				const out = await executeNode(store, style.parameters(companyFor(size)));
				if (out.length !== size)
					throw new Error(`${style.key} at ${size}: the node returned ${out.length} items`);
				const log = await sim.apiRequests();
				const other = log.filter((r) => !style.routes.includes(r.route));
				if (other.length)
					throw new Error(
						`${style.key} at ${size}: requests to ${other.map((r) => r.route).join(', ')}`,
					);
				runs.push({
					style: style.key,
					size,
					requests: log.length,
					minimum: minimumRequests(style, size),
				});
			}
		}
	} finally {
		await sim.stop();
	}
	const figures = styles.map((style): Figure => {
		const mine = runs.filter((r) => r.style === style.key);
		const worst = Math.max(...mine.map((r) => r.requests / r.minimum));
		return {
			id: `1-${style.key}`,
			figure: `Requests ÷ minimum, ${style.label}, worst size`,
			value: worst,
			display: ratio(worst),
			target: '1.00',
			pass: worst <= 1,
			note: `requests/minimum by size: ${mine.map((r) => `n=${r.size}: ${r.requests}/${r.minimum}`).join(', ')}`,
		};
	});
	return { figures, details: runs };
}
