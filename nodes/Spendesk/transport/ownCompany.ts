/**
 * The own company of a company-level credential without Company ID, for calls with a company in
 * their path (docs/api.md#the-companys-own-id): read from a payable (the search for one, else
 * that payable in full), once per resolved credential; an API key's company, once found, for
 * every execution of this n8n process.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import type { CallOptions, CallResult } from './call';
import type { CallName } from './callName';
import type { ResolvedCredential, SpendeskContext } from './credential';
import { ENDPOINTS } from './endpoints';
import type { Endpoint, EndpointRef } from './endpoints';
import { experimentalAccessHelp, isExperimental } from './errors';
import { singleObject } from './pagination/response';
import { flowControl } from './limiter';
import { isOneIdSegment } from './placement';

/** How the look-up calls Spendesk: `callSpendesk`, passed in (request.ts calls this module). */
type Send = (
	ctx: SpendeskContext,
	ref: EndpointRef,
	options: CallOptions,
) => Promise<CallResult<unknown>>;

/** The company's ID, or why not (completing "…, but …"). */
type Found = { companyId: string } | { reason: string };

const found = new WeakMap<ResolvedCredential, Promise<Found>>();

/** How long an API key's company is remembered: a key never moves to another company. */
const KEY_COMPANY_KEPT_MS = 24 * 3600 * 1000;

/** A look-up that found no company: not remembered beyond the execution (a payable may come). */
class NotFound extends Error {
	constructor(readonly found: Found) {
		super('company not found');
	}
}

/** Whether a call needs the look-up: a company-level credential, a company in the path, none given. */
export function needsOwnCompany(
	credential: ResolvedCredential,
	endpoint: Endpoint,
	requested: string | undefined,
): boolean {
	return (
		endpoint.placement === 'path' &&
		credential.level === 'company' &&
		!credential.ownCompanyId &&
		!requested?.trim()
	);
}

/** The company of a company-level credential whose Company ID is empty; fails, naming the call, when Spendesk does not say it. */
export async function ownCompanyOf(
	ctx: SpendeskContext,
	credential: ResolvedCredential,
	endpoint: Endpoint,
	name: CallName,
	send: Send,
	itemIndex?: number,
): Promise<string> {
	let lookup = found.get(credential);
	if (!lookup) {
		const identity = credential.keyIdentity;
		const ask = () => lookUp(ctx, send, itemIndex);
		// Whether this call made the shared look-up, or waits for another execution's.
		let own = false;
		lookup = identity
			? flowControl
					.singleFlight(`ownCompany ${identity}`, KEY_COMPANY_KEPT_MS, async () => {
						own = true;
						const result = await ask();
						if ('reason' in result) throw new NotFound(result);
						return result;
					})
					.catch(async (error: unknown) => {
						if (error instanceof NotFound) return error.found;
						// Another execution's look-up failed (cancelled, say): its error is not
						// this call's, which asks for itself.
						if (!own) return await ask();
						throw error;
					})
			: ask();
		found.set(credential, lookup);
		// A failure of the network or of Spendesk is not an answer: the next call asks again.
		lookup.catch(() => found.delete(credential));
	}
	const result = await lookup;
	if ('companyId' in result) return result.companyId;
	const experimental = isExperimental(endpoint)
		? ` ${name} also uses Spendesk's experimental API: ${experimentalAccessHelp(endpoint)}`
		: '';
	throw new NodeOperationError(
		ctx.getNode(),
		`${name} needs the ID of the company of the credential "${credential.credentialName}", and Spendesk did not give it`,
		{
			description: `Enter the company's ID in 'Company ID' in the credential (the address bar of the Spendesk app shows it). Without it, the node reads it from one of the company's payables, but ${result.reason}.${experimental}`,
			itemIndex,
		},
	);
}

function companyOf(item: unknown): string | undefined {
	const id = (item as IDataObject | undefined)?.companyId;
	return typeof id === 'string' && isOneIdSegment(id.trim()) ? id.trim() : undefined;
}

async function lookUp(ctx: SpendeskContext, send: Send, itemIndex?: number): Promise<Found> {
	// Answers that end the look-up without an ID (the key lacks the scope, nothing to read).
	const options = {
		acceptStatus: [400, 403, 404],
		itemIndex,
		step: "looking up the credential's company",
	};
	const search = ENDPOINTS.searchPayables;
	const searched = await send(ctx, 'searchPayables', {
		...options,
		body: { [search.pageSize.param]: 1 },
	});
	if (searched.status >= 300)
		return {
			reason: `Spendesk refused the payables search (HTTP ${searched.status}; it needs the scope ${search.scope})`,
		};
	// One payable from the search (`payables`, or `data` in older answers, or a bare list).
	const body = searched.body as { payables?: unknown; data?: unknown } | undefined;
	const list = Array.isArray(body) ? body : (body?.payables ?? body?.data);
	const payable: unknown = Array.isArray(list) ? list[0] : undefined;
	if (!payable || typeof payable !== 'object') return { reason: 'the company has no payable yet' };
	const fromSearch = companyOf(payable);
	if (fromSearch) return { companyId: fromSearch };
	const payableId = (payable as IDataObject).id;
	if (typeof payableId === 'string' && isOneIdSegment(payableId)) {
		const read = await send(ctx, 'getPayable', { ...options, pathParams: { payableId } });
		const fromPayable = read.status < 300 ? companyOf(singleObject(read.body)) : undefined;
		if (fromPayable) return { companyId: fromPayable };
	}
	return { reason: "Spendesk's payable answers did not carry the company" };
}
