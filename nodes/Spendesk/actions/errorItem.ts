/** Continue On Fail: the one shape of an error item, paired with the input item it belongs to. */
import type { INodeExecutionData } from 'n8n-workflow';
import type { CompanyTarget } from '../companies/select';

export function errorItem(error: unknown, itemIndex: number, company?: CompanyTarget): INodeExecutionData {
	const e = error as { message?: string; description?: string | null };
	return {
		json: {
			error: e.message ?? String(error),
			...(e.description ? { description: e.description } : {}),
			...(company?.id ? { companyId: company.id } : {}),
			...(company?.name ? { companyName: company.name } : {}),
		},
		pairedItem: { item: itemIndex },
	};
}
