/** Which companies a run acts on: the one chosen, several chosen by ID, or every company reached. */
import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	IHookFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { collect } from '../transport/paginate';
import { resolveCredential } from '../transport/credential';
import type { SpendeskContext } from '../transport/request';
import type { CompanyTarget } from '../transport/companyLabel';

export type { CompanyTarget };

export interface CompanySelection {
	/** Several or All Companies: each item is tagged with its company and each error names it. */
	multiCompany: boolean;
	targets: CompanyTarget[];
}

/** The Companies choice of one item: the mode (parameter `companies`) and the field it shows. */
export interface CompanyChoice {
	mode: string;
	company?: unknown;
	companyIds?: unknown;
}

/** The company list a trigger keeps between polls, in its static data. */
export interface KeptCompanyList {
	companyList?: { at: number; companies: Array<[string, string | null]> };
}

export const COMPANY_LIST_TTL_MS = 20 * 60_000;

const listedPerContext = new WeakMap<object, Promise<CompanyTarget[]>>();

/** How messages name the company list as a step of All Companies (transport/callName.ts). */
const LISTING = 'listing the companies for All Companies';

/** Every company the credential reaches (a company-level credential: its own), listed once per execution. */
export async function reachableCompanies(
	ctx: SpendeskContext,
	step?: string,
): Promise<CompanyTarget[]> {
	let companies = listedPerContext.get(ctx);
	if (!companies) {
		companies = listCompanies(ctx, step);
		listedPerContext.set(ctx, companies);
		companies.catch(() => listedPerContext.delete(ctx));
	}
	return await companies;
}

async function listCompanies(ctx: SpendeskContext, step?: string): Promise<CompanyTarget[]> {
	const credential = await resolveCredential(ctx);
	if (credential.level === 'company') return [{ id: credential.ownCompanyId }];
	const items = await collect(ctx, 'getCompanies', { step });
	return items.map((c: IDataObject) => ({
		id: String(c.id),
		name: typeof c.name === 'string' ? c.name : undefined,
	}));
}

/** The reachable companies, from `kept` while younger than COMPANY_LIST_TTL_MS (the API caches it as long). */
async function keptCompanies(
	ctx: SpendeskContext,
	kept: KeptCompanyList,
): Promise<CompanyTarget[]> {
	const list = kept.companyList;
	const age = list ? Date.now() - list.at : Infinity;
	if (list && age >= 0 && age < COMPANY_LIST_TTL_MS) {
		return list.companies.map(([id, name]) => ({ id, name: name ?? undefined }));
	}
	const companies = await listCompanies(ctx, LISTING);
	kept.companyList = {
		at: Date.now(),
		companies: companies.map((c) => [c.id ?? '', c.name ?? null]),
	};
	return companies;
}

/** Characters that show as nothing: zero-width spaces and joiners, word joiners, direction marks, soft hyphens, byte order marks. */
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'g');
const hex = (c: string): string =>
	(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');

/** A value as an error may describe it, without quoting it. */
function kindOf(value: unknown): string {
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'number') return String(value);
	return typeof value === 'boolean' ? `${String(value)} (true/false)` : `a ${typeof value}`;
}

/** A company ID from a parameter: text trimmed, a number as text, empty as undefined; else an error. */
function companyIdOf(
	ctx: SpendeskContext,
	value: unknown,
	field: string,
	itemIndex?: number,
): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') {
		const id = value.trim();
		const hidden = INVISIBLE.exec(id);
		if (hidden) {
			const shown = id.replace(INVISIBLE_ALL, (c) => `<U+${hex(c)}>`);
			throw new NodeOperationError(
				ctx.getNode(),
				`'${field}' contains an invisible character (U+${hex(hidden[0])}${hidden[0] === '\u200b' ? ', a zero-width space' : ''}): "${shown}"`,
				{
					description:
						'The ID was not sent. Invisible characters usually come with a copy and paste: retype the ID or pick the company from the list. The node refuses them rather than guess which company was meant.',
					itemIndex,
				},
			);
		}
		return id || undefined;
	}
	if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint')
		return String(value);
	throw new NodeOperationError(
		ctx.getNode(),
		`'${field}' must be a company ID (text); got ${kindOf(value)}`,
		{
			description:
				'Pick the company from the list, or give its ID; an expression must return the ID itself, e.g. {{ $json.companyId }}.',
			itemIndex,
		},
	);
}

/** Reads the Companies parameters of an item (node) or of the trigger (no item index). */
export function readCompanyChoice(
	ctx: IExecuteFunctions | IPollFunctions | IHookFunctions | IWebhookFunctions,
	itemIndex?: number,
): CompanyChoice {
	const read = (name: string, fallback: unknown, options?: IGetNodeParameterOptions): unknown =>
		itemIndex === undefined
			? (ctx as IPollFunctions).getNodeParameter(name, fallback, options)
			: (ctx as IExecuteFunctions).getNodeParameter(name, itemIndex, fallback, options);
	const mode = read('companies', 'one') as string;
	if (mode === 'one') {
		// n8n's extractValue looks the field up among the parameters shown, and fails when the
		// Company field is not shown (Custom API Call with Company Placement: None): only a resource
		// locator's value needs it.
		const raw = read('company', '');
		const locator = raw !== null && typeof raw === 'object' && '__rl' in raw;
		return { mode, company: locator ? read('company', '', { extractValue: true }) : raw };
	}
	if (mode === 'several') {
		// The triggers' Several Companies (the node offers One or All Companies only).
		return { mode, companyIds: read('companyIds', []) };
	}
	return { mode };
}

/** The companies of a choice; with `kept`, All Companies reuses a recent company list. */
export async function selectCompanies(
	ctx: SpendeskContext,
	choice: CompanyChoice,
	options: { kept?: KeptCompanyList; itemIndex?: number } = {},
): Promise<CompanySelection> {
	if (choice.mode === 'all') {
		return {
			multiCompany: true,
			targets: options.kept
				? await keptCompanies(ctx, options.kept)
				: await reachableCompanies(ctx, LISTING),
		};
	}
	if (choice.mode === 'several') {
		// IDs trimmed, without empty entries or duplicates; a text is IDs separated by commas, a
		// list is its entries, anything else one entry.
		const value = choice.companyIds;
		const entries: unknown[] = typeof value === 'string' ? value.split(',') : [value].flat();
		const ids = new Set<string>();
		entries.forEach((entry, index) => {
			const field = `Company Names or IDs (entry ${index + 1})`;
			const id = companyIdOf(ctx, entry, field, options.itemIndex);
			if (id !== undefined) ids.add(id);
		});
		if (ids.size === 0) {
			throw new NodeOperationError(ctx.getNode(), 'Choose at least one company', {
				description: 'Select the companies to watch, or choose All Companies.',
				itemIndex: options.itemIndex,
			});
		}
		return { multiCompany: true, targets: [...ids].map((id) => ({ id })) };
	}
	return {
		multiCompany: false,
		targets: [{ id: companyIdOf(ctx, choice.company, 'Company', options.itemIndex) }],
	};
}
