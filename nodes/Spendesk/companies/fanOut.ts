/**
 * Runs one function per company and keeps every outcome: companies run concurrently (the
 * transport holds the requests of a credential within its in-flight cap and rate budgets),
 * and one failing company does not lose the results of the others.
 */
import type { CompanyTarget } from './select';

export type CompanyOutcome<T> =
	| { target: CompanyTarget; ok: true; value: T }
	| { target: CompanyTarget; ok: false; error: unknown };

export async function forEachCompany<T>(
	targets: CompanyTarget[],
	run: (target: CompanyTarget) => Promise<T>,
): Promise<Array<CompanyOutcome<T>>> {
	const settled = await Promise.allSettled(targets.map(async (target) => await run(target)));
	return settled.map((result, index): CompanyOutcome<T> => {
		const target = targets[index];
		return result.status === 'fulfilled'
			? { target, ok: true, value: result.value }
			: { target, ok: false, error: result.reason };
	});
}
