/**
 * Continue On Fail: the one shape of an error item, paired with the input item it belongs to.
 * Its text is redacted once more (bearer tokens, token and secret values), whatever made the error.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import type { CompanyTarget } from '../companies/select';
import { redact } from '../transport/errors';

export function errorItem(
	error: unknown,
	itemIndex: number,
	company?: CompanyTarget,
): INodeExecutionData {
	const e = error as { message?: string; description?: string | null };
	return {
		json: {
			error: redact(e.message ?? String(error)),
			...(e.description ? { description: redact(e.description) } : {}),
			...(company?.id ? { companyId: company.id } : {}),
			...(company?.name ? { companyName: company.name } : {}),
		},
		pairedItem: { item: itemIndex },
	};
}
