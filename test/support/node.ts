/**
 * Shared helpers for running the Spendesk node against the simulator and reading what it did:
 * the node's execute() in an n8n-like context and the requests that reached the API.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeListSearchResult,
} from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import type { LoggedRequest, SpendeskSimulator } from '../simulator';
import { contextFor } from './fixtures';
import type { CredentialKind } from './fixtures';
import type { ContextOptions } from './n8n-context';

/** Routes of the simulator that hand out tokens: not calls of the API itself. */
export const TOKEN_ROUTES: ReadonlySet<string> = new Set(['token', 'oauthToken', 'oauthAuthorize']);

/** The requests in the simulator's log that reached the API (token requests left out). */
export const apiRequests = (sim: SpendeskSimulator): LoggedRequest[] =>
	sim.log.filter((r) => !TOKEN_ROUTES.has(r.route));

/**
 * Parameters handed to the node as given (`prepareNode`'s `extra`), without n8n's resolution:
 * only for the node's own guards against values n8n never passes on (a field the editor does
 * not show), as a caller other than n8n's workflow could.
 */
export const AS_GIVEN: Partial<ContextOptions> = { description: undefined };

/** The node's description, which n8n resolves the parameters against. */
const DESCRIPTION = new Spendesk().description;

/**
 * The Spendesk node on an execution context of the given credential kind, with the
 * simulator's log cleared once the context is built (so OAuth2 consent and earlier tests
 * leave nothing in it). The parameters go through n8n's resolution first, as n8n's workflow
 * does before it runs a node (defaults filled in, fields the editor would not show left out),
 * unless `extra` is AS_GIVEN. `execute()` runs the node and returns all its outputs.
 */
export async function prepareNode(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	parameters: IDataObject,
	extra: Partial<ContextOptions> = {},
) {
	const built = await contextFor(sim, kind, {
		description: DESCRIPTION,
		...extra,
		parameters,
	});
	sim.clearLog();
	return {
		...built,
		execute: async () =>
			await new Spendesk().execute.call(built.context as unknown as IExecuteFunctions),
	};
}

/** Runs the Spendesk node once (see prepareNode): its first output and the hints it gave. */
export async function runNode(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	parameters: IDataObject,
	extra: Partial<ContextOptions> = {},
): Promise<{ out: INodeExecutionData[]; hints: Array<{ message: string }> }> {
	const { execute, hints } = await prepareNode(sim, kind, parameters, extra);
	const [out] = await execute();
	return { out, hints };
}

/** A From List search of the node (its `methods.listSearch`), as the editor calls it. */
type ListSearch = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/**
 * Runs a From List search on a context of the given credential kind (the node's parameters in
 * `extra`), with the simulator's log cleared once the context is built.
 */
export async function listSearch(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	method: ListSearch,
	extra: Partial<ContextOptions> = {},
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { context } = await contextFor(sim, kind, extra);
	sim.clearLog();
	return await method.call(context as unknown as ILoadOptionsFunctions, filter, paginationToken);
}

/**
 * Every request that reached the simulator's file host carried no credential of any kind:
 * no Authorization or X-Company-Id header, no bearer token or API key secret in any header.
 * With `atLeastOne`, the file host must also have been reached.
 */
export function expectNoCredentialOnFileHost(
	sim: SpendeskSimulator,
	{ atLeastOne = false }: { atLeastOne?: boolean } = {},
): void {
	const onFiles = sim.log.filter((r) => r.host === 'files');
	if (atLeastOne) expect(onFiles.length).toBeGreaterThan(0);
	for (const entry of onFiles) {
		expect(entry.headers).not.toHaveProperty('authorization');
		expect(entry.headers).not.toHaveProperty('x-company-id');
		for (const value of Object.values(entry.headers)) expect(value).not.toMatch(/bearer|sat_/i);
	}
}
