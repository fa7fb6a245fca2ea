/**
 * Which companies an operation runs on: the one chosen, or every company the credential
 * reaches (listed once per execution through the paginator).
 */
import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
import { collect } from '../transport/paginate';
import { resolveCredential } from '../transport/credential';

export interface CompanyTarget {
	/** Undefined: a company-level credential acting on its own (unnamed) company. */
	id?: string;
	name?: string;
}

const listed = new WeakMap<object, Promise<CompanyTarget[]>>();

/** Every company the credential reaches (a company-level credential: its own company). */
export async function reachableCompanies(ctx: IExecuteFunctions | ILoadOptionsFunctions): Promise<CompanyTarget[]> {
	let companies = listed.get(ctx);
	if (!companies) {
		companies = (async () => {
			const session = await resolveCredential(ctx);
			if (session.level === 'company') return [{ id: session.ownCompanyId }];
			const items = await collect(ctx, 'getCompanies');
			return items.map((c: IDataObject) => ({ id: String(c.id), name: typeof c.name === 'string' ? c.name : undefined }));
		})();
		listed.set(ctx, companies);
		companies.catch(() => listed.delete(ctx));
	}
	return await companies;
}

/** The companies of one input item. */
export async function targetCompanies(ctx: IExecuteFunctions, itemIndex: number): Promise<{ all: boolean; targets: CompanyTarget[] }> {
	const scope = ctx.getNodeParameter('companyScope', itemIndex, 'one') as string;
	if (scope === 'all') return { all: true, targets: await reachableCompanies(ctx) };
	const value = ctx.getNodeParameter('company', itemIndex, '', { extractValue: true }) as unknown;
	const id = typeof value === 'string' && value.trim() ? value.trim() : undefined;
	return { all: false, targets: [{ id }] };
}
