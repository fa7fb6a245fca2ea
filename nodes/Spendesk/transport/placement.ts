/**
 * Company placement: where a call names its company (the `X-Company-Id` header, the path, or
 * nowhere), per the catalogue entry and the credential's access level. Decides the URL and
 * headers of the call and the rate budget it counts against, and fails before any request when
 * the call cannot be made.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';
import type { CallName } from './callName';
import { companyLabel } from './companyLabel';
import type { ResolvedCredential } from './credential';
import type { Endpoint } from './endpoints';
import { DOT_SEGMENT } from './environment';
import {
	CHOOSE_COMPANY,
	chooseCompanyHelp,
	experimentalAccessHelp,
	isExperimental,
} from './errors';

/** `.` or `..`, plain or percent-encoded (once or more): as a path segment it would move the call elsewhere. */
const DOT_VALUE = /^(\.|%(25)*2e)(\.|%(25)*2e)?$/i;

/** The one rule for every ID a user gives: one path segment of at most 128 characters, not "." or "..". */
export function isOneIdSegment(value: string): boolean {
	return /^[^\s/\\?#]{1,128}$/.test(value) && !DOT_VALUE.test(value);
}

export interface CallTarget {
	/** Company to act on. Required with organisation-level credentials when the call names a company. */
	company?: string;
	/** Values of `{placeholders}` in the catalogue path (URL-encoded here). */
	pathParams?: Record<string, string>;
	/** Absolute URL on the configured origin to call instead of the catalogue path (a `nextUrl`). */
	url?: string;
	itemIndex?: number;
}

/** How messages name the values of path placeholders. */
const PATH_VALUE_NAMES: Record<string, string> = {
	companyId: 'Company ID',
	fieldId: 'Analytical Field ID',
	key: 'snapshot key',
	payableId: 'Payable ID',
	supplierId: 'Supplier ID',
	userId: 'User ID',
};

const decodedPath = (path: string): string => {
	try {
		return decodeURIComponent(path);
	} catch {
		return path;
	}
};

/** Applies the catalogue entry's company placement; fails before any request when the call cannot be made. */
export function applyPlacement(
	node: INode,
	credential: ResolvedCredential,
	endpoint: Endpoint,
	name: CallName,
	target: CallTarget,
): { url: string; headers: Record<string, string>; companyId?: string; budgetKey: string } {
	const { itemIndex } = target;
	const refuse = (message: string, description: string) =>
		new NodeOperationError(node, message, { description, itemIndex });
	const requested = target.company?.trim() || undefined;
	if (requested !== undefined && !isOneIdSegment(requested))
		throw refuse(
			`"${requested}" is not a valid company ID`,
			'A Spendesk company ID is one word without spaces or slashes, and not "." or "..". Pick the company from the list to avoid typos.',
		);
	const companyId = companyOfCall(credential, endpoint, name, requested, refuse);
	const headers: Record<string, string> = { accept: 'application/json' };
	if (endpoint.placement === 'header' && credential.level === 'organisation' && companyId)
		headers['x-company-id'] = companyId;
	const path = fillPath(endpoint.path, name, { ...target.pathParams, companyId }, refuse);
	let url = `${credential.baseUrl}${path}`;
	const basePath = new URL(credential.baseUrl).pathname.replace(/\/+$/, '');
	const { pathname } = new URL(url);
	if (DOT_SEGMENT.test(path) || (pathname !== basePath && !pathname.startsWith(`${basePath}/`)))
		throw refuse(
			`Refusing to send ${name} outside the base URL (${pathname})`,
			'The path must stay under the base URL of the credential: no "." or ".." segments, plain or URL-encoded.',
		);
	if (target.url) {
		// A link the API gave (a next page): the credential goes to its own origin only, and the
		// link must name the same path.
		const link = new URL(target.url);
		if (link.origin !== credential.origin)
			throw refuse(
				`Refusing to send the credential to another host (${link.origin})`,
				'Spendesk answered with a next-page link to another address; the credential is only sent to its own base URL. Run the node again; if it persists, contact Spendesk support.',
			);
		if (decodedPath(link.pathname) !== decodedPath(pathname))
			throw refuse(
				`Refusing to follow a link of ${name} to another path (${link.pathname})`,
				'Spendesk answered with a next-page link that leads elsewhere. Run the node again; if it persists, contact Spendesk support.',
			);
		url = link.href;
	}
	const budgetCompany =
		companyId ?? (endpoint.placement === 'organisation' ? 'organisation' : 'none');
	return { url, headers, companyId, budgetKey: `${credential.key}|${budgetCompany}` };
}

/** The catalogue path with its `{placeholders}` filled in (URL-encoded), each value one segment. */
function fillPath(
	path: string,
	name: CallName,
	params: Record<string, string | undefined>,
	refuse: (message: string, description: string) => NodeOperationError,
): string {
	return path.replace(/\{(\w+)\}/g, (_, param: string) => {
		const value = params[param];
		if (value === undefined || value === '')
			throw refuse(
				`${name} needs a value for ${param}`,
				`Give the ${param} the call needs, e.g. pick the company or the record in the node.`,
			);
		if (DOT_VALUE.test(value))
			throw refuse(
				`${name}: the ${PATH_VALUE_NAMES[param] ?? param} "${value}" is not a valid ID`,
				'"." and ".." (or their URL-encoded forms) would point the call at another path. Enter the ID as Spendesk gives it.',
			);
		return encodeURIComponent(value);
	});
}

/** The company the call acts on, per the endpoint's placement (undefined: the call names none). */
function companyOfCall(
	credential: ResolvedCredential,
	endpoint: Endpoint,
	name: CallName,
	requested: string | undefined,
	refuse: (message: string, description: string) => NodeOperationError,
): string | undefined {
	const { placement } = endpoint;
	const { credentialName } = credential;
	if (placement === 'none') return undefined;
	if (placement === 'organisation') {
		if (credential.level === 'company')
			throw refuse(
				`${name} needs an organisation-level credential; "${credentialName}" is company-level`,
				isExperimental(endpoint)
					? `It belongs to Spendesk's experimental API: it needs an organisation-level API key (or OAuth2 approved for the whole organisation) with experimental access. ${experimentalAccessHelp(endpoint)} With this credential, pick the company by ID instead of listing companies.`
					: 'Use an organisation-level API key (or OAuth2 approved for the whole organisation), or pick the company by ID instead of listing companies.',
			);
		return undefined;
	}
	// Header or path. A company-level credential reaches its own company only.
	const own = credential.ownCompanyId;
	if (credential.level === 'company' && requested && own && requested !== own)
		throw refuse(
			`The company-level credential "${credentialName}" cannot reach ${companyLabel(requested)}`,
			`It reaches only its own company "${own}". Leave 'Company' empty, or use an organisation-level credential.`,
		);
	if (credential.level === 'organisation' && !requested)
		throw refuse(CHOOSE_COMPANY, chooseCompanyHelp(name));
	const companyId = requested ?? own;
	if (placement === 'path' && !companyId)
		throw refuse(
			`${name} needs the company ID`,
			`Choose the company in 'Company' in the node, or enter it in 'Company ID' in the credential "${credentialName}".`,
		);
	return companyId;
}
