/**
 * The own company of a company-level credential, for the calls that carry a company in their
 * path (`/v2/companies/{companyId}/…`: invoices, intakes, the polling trigger) when the
 * credential's Company ID is empty (docs/api.md#the-companys-own-id).
 *
 * No documented endpoint answers "which company is this key for". A payable says it: the
 * vendor's Payable carries `companyId`. So the company is read from one payable of the
 * company: the payables search for one payable, then, if the search's item does not carry
 * the company, that payable in full. Looked up once per execution (once per poll of a
 * trigger); when neither answer gives it, the error says to enter the Company ID.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import type { CallName } from './callName';
import type { ResolvedCredential, SpendeskContext } from './credential';
import { ENDPOINTS } from './endpoints';
import type { Endpoint, EndpointRef } from './endpoints';
import { experimentalAccessHelp, isExperimental } from './errors';
import { isOneIdSegment } from './placement';
import { singleObject } from './pagination/response';
import type { CallOptions, CallResult } from './call';

/** How the look-up calls Spendesk: `callSpendesk`, passed in (request.ts calls this module). */
export type Send = (
	ctx: SpendeskContext,
	ref: EndpointRef,
	options: CallOptions,
) => Promise<CallResult<unknown>>;

/** What the look-up found: the company's ID, or why not (completing "…, but …"). */
type Found = { companyId: string } | { reason: string };

const found = new WeakMap<ResolvedCredential, Promise<Found>>();

/** Answers that end the look-up without an ID (the key lacks the scope, nothing to read). */
const REFUSALS = [400, 403, 404];

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

/**
 * The company of a company-level credential whose Company ID is empty, looked up once per
 * resolved credential; fails, naming the call and what to do, when Spendesk does not say it.
 */
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
		lookup = lookUp(ctx, send, itemIndex);
		found.set(credential, lookup);
		// A failure of the network or of Spendesk is not an answer: the next call asks again.
		lookup.catch(() => found.delete(credential));
	}
	const result = await lookup;
	if ('companyId' in result) return result.companyId;
	throw new NodeOperationError(
		ctx.getNode(),
		`${name} needs the ID of the company of the credential "${credential.credentialName}", and Spendesk did not give it`,
		{
			description: [
				"Enter the company's ID in 'Company ID' in the credential (the address bar of the Spendesk app shows it).",
				`Without it, the node reads it from one of the company's payables, but ${result.reason}.`,
				isExperimental(endpoint)
					? `${name} also uses Spendesk's experimental API: ${experimentalAccessHelp(endpoint)}`
					: '',
			]
				.filter(Boolean)
				.join(' '),
			itemIndex,
		},
	);
}

function companyOf(item: unknown): string | undefined {
	const id = (item as IDataObject | undefined)?.companyId;
	return typeof id === 'string' && isOneIdSegment(id.trim()) ? id.trim() : undefined;
}

/** One payable from the search (`payables`, or `data` in older answers, or a bare list). */
function firstPayable(body: unknown): IDataObject | undefined {
	const object = body as { payables?: unknown; data?: unknown } | undefined;
	const list = Array.isArray(body) ? body : (object?.payables ?? object?.data);
	const first: unknown = Array.isArray(list) ? list[0] : undefined;
	return first && typeof first === 'object' ? (first as IDataObject) : undefined;
}

/** What messages add to the name of the look-up's calls. */
const STEP = "looking up the credential's company";

async function lookUp(ctx: SpendeskContext, send: Send, itemIndex?: number): Promise<Found> {
	const search = ENDPOINTS.searchPayables;
	const searched = await send(ctx, 'searchPayables', {
		body: { [search.pageSize.param]: 1 },
		acceptStatus: REFUSALS,
		itemIndex,
		step: STEP,
	});
	if (searched.status >= 300) {
		return {
			reason: `Spendesk refused the payables search (HTTP ${searched.status}; it needs the scope ${search.scope})`,
		};
	}
	const payable = firstPayable(searched.body);
	if (!payable) return { reason: 'the company has no payable yet' };
	const fromSearch = companyOf(payable);
	if (fromSearch) return { companyId: fromSearch };
	const payableId = typeof payable.id === 'string' ? payable.id : undefined;
	if (payableId && isOneIdSegment(payableId)) {
		const read = await send(ctx, 'getPayable', {
			pathParams: { payableId },
			acceptStatus: REFUSALS,
			itemIndex,
			step: STEP,
		});
		if (read.status < 300) {
			const fromPayable = companyOf(singleObject(read.body));
			if (fromPayable) return { companyId: fromPayable };
		}
	}
	return { reason: "Spendesk's payable answers did not carry the company" };
}
