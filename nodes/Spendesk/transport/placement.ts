/**
 * Company placement: where a call names its company (the `X-Company-Id` header, the path, or
 * nowhere), per the catalogue entry and the credential's access level. Decides the URL and
 * headers of the call and the rate budget it counts against, and fails before any request
 * when the call cannot be made.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';
import type { CallName } from './callName';
import { companyLabel } from './companyLabel';
import type { ResolvedCredential } from './credential';
import type { Endpoint } from './endpoints';
import { DOT_SEGMENT } from './environment';
import { experimentalAccessHelp, isExperimental } from './errors';

/** `.` or `..`, plain or percent-encoded (once or more): as a path segment it would move the call elsewhere. */
const DOT_VALUE = /^(\.|%(25)*2e)(\.|%(25)*2e)?$/i;

/**
 * Whether a value can be a Spendesk ID: one path segment of at most 128 characters, without
 * spaces, slashes, "?" or "#", and not "." or "..". The one rule for every ID a user gives.
 */
export function isOneIdSegment(value: string): boolean {
	return /^[^\s/\\?#]{1,128}$/.test(value) && !DOT_VALUE.test(value);
}

/** What a call says about its company and where it goes. */
export interface CallTarget {
	/** Company to act on. Required with organisation-level credentials when the call names a company (header or path). */
	company?: string;
	/** Values of `{placeholders}` in the catalogue path (URL-encoded here). */
	pathParams?: Record<string, string>;
	/** Absolute URL on the configured origin to call instead of the catalogue path (a `nextUrl`). */
	url?: string;
	itemIndex?: number;
}

export interface PlacedCall {
	url: string;
	headers: Record<string, string>;
	/** Company named by the call (header or path), or the credential's own. */
	companyId?: string;
	/** The rate budget the call counts against: one per credential and company. */
	budgetKey: string;
	/** The catalogue path the call goes to, decoded: a link the API gives must name the same. */
	path: string;
}

/** Applies the catalogue entry's company placement; fails before any request when the call cannot be made. */
export function applyPlacement(
	node: INode,
	credential: ResolvedCredential,
	endpoint: Endpoint,
	name: CallName,
	target: CallTarget,
): PlacedCall {
	const { itemIndex } = target;
	const requested = validCompanyId(node, target.company, itemIndex);
	const companyId = companyOfCall(node, credential, { endpoint, name }, requested, itemIndex);
	const headers: Record<string, string> = { accept: 'application/json' };
	if (endpoint.placement === 'header' && credential.level === 'organisation' && companyId)
		headers['x-company-id'] = companyId;
	const path = fillPath(node, { endpoint, name }, { ...target.pathParams, companyId }, itemIndex);
	const { url, pathname } = underBaseUrl(node, credential, name, path, itemIndex);
	const budgetCompany =
		companyId ?? (endpoint.placement === 'organisation' ? 'organisation' : 'none');
	const placed: PlacedCall = {
		url,
		headers,
		companyId,
		budgetKey: `${credential.key}|${budgetCompany}`,
		path: decodedPath(pathname),
	};
	return target.url
		? followLink(node, credential, name, placed, new URL(target.url), itemIndex)
		: placed;
}

/**
 * A placed call sent to an absolute URL given by the API (a next-page link) instead of its
 * catalogue path: the credential goes to the configured origin only, and the link must name
 * the same path. The rest of the placement (headers, company, rate budget) stays.
 */
function followLink(
	node: INode,
	credential: ResolvedCredential,
	name: CallName,
	placed: PlacedCall,
	link: URL,
	itemIndex?: number,
): PlacedCall {
	samePath(node, credential, name, link, placed.path, itemIndex);
	return { ...placed, url: link.href };
}

/** The company ID the call asks for, trimmed (undefined when empty); refuses what cannot be an ID. */
function validCompanyId(
	node: INode,
	company: string | undefined,
	itemIndex?: number,
): string | undefined {
	const requested = company?.trim() || undefined;
	if (requested !== undefined && !isOneIdSegment(requested)) {
		throw new NodeOperationError(node, `"${requested}" is not a valid company ID`, {
			description:
				'A Spendesk company ID is one word without spaces or slashes, and not "." or "..". Pick the company from the list to avoid typos.',
			itemIndex,
		});
	}
	return requested;
}

/** An endpoint and what messages call it. */
interface Named {
	endpoint: Endpoint;
	name: CallName;
}

/** The company the call acts on, per the endpoint's placement (undefined: the call names none). */
function companyOfCall(
	node: INode,
	credential: ResolvedCredential,
	{ endpoint, name }: Named,
	requested: string | undefined,
	itemIndex?: number,
): string | undefined {
	switch (endpoint.placement) {
		case 'organisation':
			if (credential.level === 'company') {
				throw new NodeOperationError(
					node,
					`${name} needs an organisation-level credential; "${credential.credentialName}" is company-level`,
					{
						description: isExperimental(endpoint)
							? `It belongs to Spendesk's experimental API: it needs an organisation-level API key (or OAuth2 approved for the whole organisation) with experimental access. ${experimentalAccessHelp(endpoint)} With this credential, pick the company by ID instead of listing companies.`
							: 'Use an organisation-level API key (or OAuth2 approved for the whole organisation), or pick the company by ID instead of listing companies.',
						itemIndex,
					},
				);
			}
			return undefined;
		case 'header':
		case 'path': {
			const companyId =
				credential.level === 'company'
					? ownCompany(node, credential, requested, itemIndex)
					: namedCompany(node, name, requested, itemIndex);
			if (endpoint.placement === 'path' && !companyId) {
				throw new NodeOperationError(node, `${name} needs the company ID`, {
					description: `Choose the company in 'Company' in the node, or enter it in 'Company ID' in the credential "${credential.credentialName}".`,
					itemIndex,
				});
			}
			return companyId;
		}
		case 'none':
			return undefined;
	}
}

/** A company-level credential reaches its own company only: the one asked for must be it. */
function ownCompany(
	node: INode,
	credential: ResolvedCredential,
	requested: string | undefined,
	itemIndex?: number,
): string | undefined {
	if (requested && credential.ownCompanyId && requested !== credential.ownCompanyId) {
		throw new NodeOperationError(
			node,
			`The company-level credential "${credential.credentialName}" cannot reach ${companyLabel(requested)}`,
			{
				description: `It reaches only its own company "${credential.ownCompanyId}". Leave 'Company' empty, or use an organisation-level credential.`,
				itemIndex,
			},
		);
	}
	return requested ?? credential.ownCompanyId;
}

/** An organisation-level credential must name the company of a call placed in the header or the path. */
function namedCompany(
	node: INode,
	name: CallName,
	requested: string | undefined,
	itemIndex?: number,
): string {
	if (!requested) {
		throw new NodeOperationError(
			node,
			'Choose a company: organisation-level credentials must name the company on this call',
			{
				description: `${name} works on one company at a time. Choose it in 'Company' (from the list or by ID), or All Companies in 'Companies' where the operation offers it.`,
				itemIndex,
			},
		);
	}
	return requested;
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

/** The catalogue path with its `{placeholders}` filled in (URL-encoded); each must have a value that stays one segment. */
function fillPath(
	node: INode,
	{ endpoint, name: call }: Named,
	params: Record<string, string | undefined>,
	itemIndex?: number,
): string {
	return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined || value === '') {
			throw new NodeOperationError(node, `${call} needs a value for ${name}`, {
				description: `Give the ${name} the call needs, e.g. pick the company or the record in the node.`,
				itemIndex,
			});
		}
		if (DOT_VALUE.test(value)) {
			throw new NodeOperationError(
				node,
				`${call}: the ${PATH_VALUE_NAMES[name] ?? name} "${value}" is not a valid ID`,
				{
					description:
						'"." and ".." (or their URL-encoded forms) would point the call at another path. Enter the ID as Spendesk gives it.',
					itemIndex,
				},
			);
		}
		return encodeURIComponent(value);
	});
}

/** The URL of a catalogue path under the base URL (and its path); refuses a path that would resolve outside it. */
function underBaseUrl(
	node: INode,
	credential: ResolvedCredential,
	name: CallName,
	path: string,
	itemIndex?: number,
): { url: string; pathname: string } {
	const url = `${credential.baseUrl}${path}`;
	const basePath = new URL(credential.baseUrl).pathname.replace(/\/+$/, '');
	const { pathname } = new URL(url);
	if (DOT_SEGMENT.test(path) || (pathname !== basePath && !pathname.startsWith(`${basePath}/`))) {
		throw new NodeOperationError(
			node,
			`Refusing to send ${name} outside the base URL (${pathname})`,
			{
				description:
					'The path must stay under the base URL of the credential: no "." or ".." segments, plain or URL-encoded.',
				itemIndex,
			},
		);
	}
	return { url, pathname };
}

/** A link to call instead of the catalogue path `expected` (decoded): same origin and path only. */
function samePath(
	node: INode,
	credential: ResolvedCredential,
	name: CallName,
	url: URL,
	expected: string,
	itemIndex?: number,
): void {
	if (url.origin !== credential.origin) {
		throw new NodeOperationError(
			node,
			`Refusing to send the credential to another host (${url.origin})`,
			{
				description:
					'Spendesk answered with a next-page link to another address; the credential is only sent to its own base URL. Run the node again; if it persists, contact Spendesk support.',
				itemIndex,
			},
		);
	}
	if (decodedPath(url.pathname) !== expected) {
		throw new NodeOperationError(
			node,
			`Refusing to follow a link of ${name} to another path (${url.pathname})`,
			{
				description:
					'Spendesk answered with a next-page link that leads elsewhere. Run the node again; if it persists, contact Spendesk support.',
				itemIndex,
			},
		);
	}
}

function decodedPath(path: string): string {
	try {
		return decodeURIComponent(path);
	} catch {
		return path;
	}
}
