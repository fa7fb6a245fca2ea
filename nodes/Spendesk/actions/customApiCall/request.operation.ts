import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { CompanyPlacement, Endpoint, PaginationStyle } from '../../transport/endpoints';
import { ENDPOINTS, STYLE_PAGE_SIZES } from '../../transport/endpoints';
import { DOT_SEGMENT } from '../../transport/environment';
import { eachPage } from '../../transport/paginate';
import { readJsonObject, readLimit, returnAllOrLimit } from '../sharedParams';
import type { SpendeskOperation } from '../types';
import { fail } from '../readers';

const METHODS: ReadonlyArray<Endpoint['method']> = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'];
const PLACEMENTS: readonly CompanyPlacement[] = ['path', 'none', 'header'];
const STYLES: readonly PaginationStyle[] = [
	'none',
	'page',
	'cursor',
	'offset',
	'bodyCursor',
	'snapshot',
];

/** The path checked before any request: under the base URL, {companyId} only where Company Placement puts it. */
function checkPath(
	ctx: IExecuteFunctions,
	itemIndex: number,
	path: string,
	placement: CompanyPlacement,
): void {
	if (
		!/^\/[^\s?#]*$/.test(path) ||
		path.includes('..') ||
		DOT_SEGMENT.test(path) ||
		path.includes('//') ||
		path.includes('\\')
	) {
		fail(
			ctx,
			itemIndex,
			`'Path' holds "${path}", which is not a valid API path`,
			'Start with a slash and stay under the base URL: no "." or ".." segments (plain or URL-encoded), "//", spaces, "?" or "#" (put query parameters in Query Parameters).',
		);
	}
	const placeholders = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
	if (placeholders.some((p) => p !== 'companyId'))
		fail(
			ctx,
			itemIndex,
			`'Path' "${path}" has an unknown placeholder`,
			'Only {companyId} is filled in by the node.',
		);
	if (placement === 'path' && !placeholders.includes('companyId'))
		fail(
			ctx,
			itemIndex,
			`'Company Placement' is "Company in Path" but the path has no {companyId}`,
			`Write {companyId} where the company ID goes, e.g. ${ENDPOINTS.listInvoices.path}.`,
		);
	if (placement !== 'path' && placeholders.includes('companyId'))
		fail(
			ctx,
			itemIndex,
			`The path contains {companyId} but 'Company Placement' is not "Company in Path"`,
			`Set 'Company Placement' to "Company in Path".`,
		);
}

export const customApiCall: SpendeskOperation = {
	value: 'request',
	perCompany: true,
	// GET reads, and may read every company; any other method may write: one company.
	readsWhen: { method: ['GET'] },
	properties: [
		{
			displayName: 'Method',
			name: 'method',
			type: 'options',
			options: METHODS.map((m) => ({ name: m, value: m })),
			default: 'GET',
		},
		{
			displayName: 'Path',
			name: 'path',
			type: 'string',
			required: true,
			default: '',
			placeholder: `e.g. ${ENDPOINTS.walletSummary.path} or ${ENDPOINTS.listInvoices.path}`,
			description:
				'Path under the base URL of the credential; write {companyId} where the company goes in the path',
		},
		{
			displayName: 'Company Placement',
			name: 'companyPlacement',
			type: 'options',
			options: [
				{ name: 'Company in Path', value: 'path', description: 'Paths containing {companyId}' },
				{ name: 'None', value: 'none', description: 'The endpoint is not company-scoped' },
				{
					name: 'X-Company-ID Header',
					value: 'header',
					description:
						'Version 1 endpoints, and version 2 endpoints without the company in the path',
				},
			],
			default: 'header',
		},
		{
			displayName: 'Pagination',
			name: 'pagination',
			type: 'options',
			// docs/api.md#pagination: the five list styles.
			options: [
				{
					name: 'Cursor in Body',
					value: 'bodyCursor',
					description:
						'Each call sends limit and cursor in its JSON body; the answer gives the next cursor',
				},
				{
					name: 'Cursor in Query',
					value: 'cursor',
					description:
						'Each call sends limit and cursor as query parameters; the answer gives the next cursor',
				},
				{ name: 'None', value: 'none', description: 'One call, its answer as it is' },
				{
					name: 'Offset',
					value: 'offset',
					description: 'Each call sends offset and fetch as query parameters',
				},
				{
					name: 'Page Number',
					value: 'page',
					description: 'Each call sends page and pageSize as query parameters',
				},
				{
					name: 'Snapshot',
					value: 'snapshot',
					description: 'The answer is a snapshot to wait for, whose result holds the pages',
				},
			],
			default: 'none',
		},
		{
			displayName: 'Query Parameters (JSON)',
			name: 'query',
			type: 'json',
			default: '{}',
		},
		{
			displayName: 'Body (JSON)',
			name: 'body',
			type: 'json',
			default: '{}',
			displayOptions: { hide: { method: ['GET'] } },
		},
		...updateDisplayOptions({ hide: { pagination: ['none'] } }, returnAllOrLimit()),
	],
	// A call that may change data runs on one company at a time, as every write does.
	refuseManyWrites(this: IExecuteFunctions, itemIndex: number) {
		let method: unknown;
		let scope: unknown;
		try {
			method = this.getNodeParameter('method', itemIndex);
			scope = this.getNodeParameter('companies', itemIndex, 'one');
		} catch {
			// A parameter this item cannot read: its own run reports it (Continue On Fail applies).
			return;
		}
		if (method === 'GET' || scope !== 'all') return;
		fail(
			this,
			itemIndex,
			`Custom API Call with method ${String(method)} writes to one company at a time: All Companies is not allowed`,
			"Nothing was sent. Set 'Companies' to One Company and pick the company in 'Company' (from the list, by ID, or from an expression such as {{ $json.companyId }}); to call several companies, give each item its company.",
		);
	},
	namedBy(this: IExecuteFunctions, itemIndex: number) {
		const method = String(this.getNodeParameter('method', itemIndex, 'GET'));
		return `${method} ${String(this.getNodeParameter('path', itemIndex, '')).trim()}`;
	},
	prepare(this: IExecuteFunctions, itemIndex: number) {
		// A choice parameter is one of its options (an expression may give anything).
		const oneOf = <T extends string>(
			name: string,
			fallback: T,
			choices: readonly T[],
			label: string,
		) => {
			const value = this.getNodeParameter(name, itemIndex, fallback) as unknown;
			if (choices.includes(value as T)) return value as T;
			fail(
				this,
				itemIndex,
				`'${label}' must be one of ${choices.join(', ')}; got ${JSON.stringify(value)?.slice(0, 40) ?? String(value)}`,
				`Choose ${label} from the list; an expression must give one of these values exactly.`,
			);
		};
		const method = oneOf('method', 'GET', METHODS, 'Method');
		const path = String(this.getNodeParameter('path', itemIndex, '')).trim();
		const placement = oneOf('companyPlacement', 'header', PLACEMENTS, 'Company Placement');
		const pagination = oneOf('pagination', 'none', STYLES, 'Pagination');

		checkPath(this, itemIndex, path, placement);
		if (pagination === 'snapshot' && method !== 'GET')
			fail(
				this,
				itemIndex,
				`'Pagination' "Snapshot" reads a snapshot with GET, not ${method}`,
				"Nothing was sent. Create the snapshot with a call of its own (POST, 'Pagination' None), then read it with GET and 'Pagination' Snapshot; or use Payable → Get Many as Snapshot, which does both.",
			);

		const endpoint: Endpoint = {
			method,
			path,
			placement,
			pagination,
			pageSize: pagination === 'none' ? undefined : STYLE_PAGE_SIZES[pagination],
			idempotent: method === 'GET',
			mayAnswerEmpty: method !== 'GET',
		};
		const qs = readJsonObject(this, 'query', 'Query Parameters (JSON)', itemIndex);
		// A body may be a list (bulk endpoints such as POST /v1/suppliers take one) when the
		// node does not page it: a paged body carries the page's cursor or size.
		const body =
			method === 'GET'
				? undefined
				: readJsonObject(this, 'body', 'Body (JSON)', itemIndex, pagination === 'none');
		const limit = pagination === 'none' ? undefined : readLimit(this, itemIndex);
		return async (company, sink) => {
			const request = { company, itemIndex, qs, body, limit };
			return { items: [], ...(await eachPage(this, endpoint, request, sink)) };
		};
	},
};
