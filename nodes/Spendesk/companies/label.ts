/** How a company appears to the user: in messages, on errors and on the items of a multi-company selection. */
import type { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';
import { restated } from '../transport/restate';
import { companyLabel } from '../transport/companyLabel';
import type { CompanyTarget } from '../transport/companyLabel';

export { companyLabel, OWN_COMPANY } from '../transport/companyLabel';

/** The item with its company added (companyId, companyName). */
export function tagItem(json: IDataObject, target: CompanyTarget): IDataObject {
	return { ...json, companyId: target.id ?? null, companyName: target.name ?? null };
}

/** The error of one company among several, prefixed with the company; an API error keeps what the API said. */
export function companyError(
	node: INode,
	error: unknown,
	target: CompanyTarget,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	const e = error as { message?: string; description?: string | null; httpCode?: string | null };
	const text = `${companyLabel(target)}: ${e.message ?? String(error)}`;
	return restated(node, error, {
		message: text.charAt(0).toUpperCase() + text.slice(1),
		description: e.description ?? undefined,
		itemIndex,
		response: { companyId: target.id ?? null, httpCode: e.httpCode ?? null },
	});
}
