/**
 * Company scoping: where a call names its company (the `X-Company-Id` header, the path, or
 * nowhere), per the catalogue entry and the credential's access level. Decides the URL and
 * headers of the call and the rate budget it counts against, and fails before any request
 * when the call cannot be made.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';
import type { ResolvedCredential } from './credential';
import type { Endpoint } from './endpoints';

/** What a call says about its company and where it goes. */
export interface CallTarget {
	/** Company to act on. Required for company-scoped calls with organisation-level credentials. */
	company?: string;
	/** Values of `{placeholders}` in the catalogue path (URL-encoded here). */
	pathParams?: Record<string, string>;
	/** Absolute URL on the configured origin to call instead of the catalogue path (a `nextUrl`). */
	url?: string;
	itemIndex?: number;
}

export interface ScopedCall {
	url: string;
	headers: Record<string, string>;
	/** Company named by the call (header or path), or the credential's own. */
	companyId?: string;
	/** The rate budget the call counts against: one per credential and company. */
	budgetKey: string;
}

/** Applies the catalogue entry's company scoping; fails before any request when the call cannot be made. */
export function applyScoping(node: INode, credential: ResolvedCredential, endpoint: Endpoint, target: CallTarget): ScopedCall {
	const { itemIndex } = target;
	const requested = validCompanyId(node, target.company, itemIndex);
	const companyId = companyOfCall(node, credential, endpoint, requested, itemIndex);
	const headers: Record<string, string> = { accept: 'application/json' };
	if (endpoint.scoping === 'header' && credential.level === 'organisation' && companyId) headers['x-company-id'] = companyId;
	const path = fillPath(node, endpoint, { ...target.pathParams, companyId }, itemIndex);
	const url = target.url ? sameOrigin(node, credential, target.url, itemIndex) : `${credential.baseUrl}${path}`;
	const budgetCompany = companyId ?? (endpoint.scoping === 'organisation' ? 'organisation' : 'none');
	return { url, headers, companyId, budgetKey: `${credential.key}|${budgetCompany}` };
}

/** The company ID the call asks for, trimmed (undefined when empty); refuses what cannot be an ID. */
function validCompanyId(node: INode, company: string | undefined, itemIndex?: number): string | undefined {
	const requested = company?.trim() || undefined;
	if (requested !== undefined && !/^[^\s/\\?#]{1,128}$/.test(requested)) {
		throw new NodeOperationError(node, `"${requested}" is not a valid company ID`, {
			description: 'A Spendesk company ID is one word without spaces or slashes. Pick the company from the list to avoid typos.',
			itemIndex,
		});
	}
	return requested;
}

/** The company the call acts on, per the endpoint's scoping (undefined: the call names none). */
function companyOfCall(
	node: INode,
	credential: ResolvedCredential,
	endpoint: Endpoint,
	requested: string | undefined,
	itemIndex?: number,
): string | undefined {
	switch (endpoint.scoping) {
		case 'organisation':
			if (credential.level === 'company') {
				throw new NodeOperationError(node, `"${endpoint.label}" needs an organisation-level credential; "${credential.credentialName}" is company-level`, {
					description: 'Use an organisation-level API key (or OAuth2 approved for the whole organisation), or pick the company by ID instead of listing companies.',
					itemIndex,
				});
			}
			return undefined;
		case 'header':
		case 'path': {
			const companyId =
				credential.level === 'company' ? ownCompany(node, credential, requested, itemIndex) : namedCompany(node, endpoint, requested, itemIndex);
			if (endpoint.scoping === 'path' && !companyId) {
				throw new NodeOperationError(node, `"${endpoint.label}" needs the company ID`, {
					description: `Set the Company field, or enter the company ID of this company-level key in the credential "${credential.credentialName}".`,
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
function ownCompany(node: INode, credential: ResolvedCredential, requested: string | undefined, itemIndex?: number): string | undefined {
	if (requested && credential.ownCompanyId && requested !== credential.ownCompanyId) {
		throw new NodeOperationError(node, `The company-level credential "${credential.credentialName}" cannot reach company "${requested}"`, {
			description: `It reaches only its own company "${credential.ownCompanyId}". Leave the Company field empty, or use an organisation-level credential.`,
			itemIndex,
		});
	}
	return requested ?? credential.ownCompanyId;
}

/** An organisation-level credential must name the company of a company-scoped call. */
function namedCompany(node: INode, endpoint: Endpoint, requested: string | undefined, itemIndex?: number): string {
	if (!requested) {
		throw new NodeOperationError(node, 'Choose a company: organisation-level credentials must name the company on this call', {
			description: `"${endpoint.label}" works on one company at a time. Set the Company field (from the list, by ID, or All Companies).`,
			itemIndex,
		});
	}
	return requested;
}

/** The catalogue path with its `{placeholders}` filled in (URL-encoded); each must have a value. */
function fillPath(node: INode, endpoint: Endpoint, params: Record<string, string | undefined>, itemIndex?: number): string {
	return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined || value === '') {
			throw new NodeOperationError(node, `"${endpoint.label}" needs a value for ${name}`, { itemIndex });
		}
		return encodeURIComponent(value);
	});
}

/** An absolute URL to call instead of the catalogue path; the credential goes to the configured origin only. */
function sameOrigin(node: INode, credential: ResolvedCredential, url: string, itemIndex?: number): string {
	const origin = new URL(url).origin;
	if (origin !== credential.origin) {
		throw new NodeOperationError(node, `Refusing to send the credential to another host (${origin})`, { itemIndex });
	}
	return url;
}
