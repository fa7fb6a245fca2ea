/** Runs one function per company, concurrently (the transport paces them), and keeps every outcome. */
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
