/** The errors of a list the node cannot read to its end: never a list cut short without telling. */
import { NodeOperationError } from 'n8n-workflow';
import { callName } from '../callName';
import { companyLabel } from '../companyLabel';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { isObject } from './response';

/** How a report to Spendesk support names the call: its method and path, as the API knows it. */
const callForSupport = (endpoint: Endpoint): string =>
	`naming the call ${endpoint.method} ${endpoint.path}`;

export function listError(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	itemIndex: number | undefined,
	message: string,
	why: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, {
		description: `${why} Run it again; if it happens every time, report it to Spendesk support ${callForSupport(endpoint)}.`,
		itemIndex,
	});
}

/** The error of a page whose way on the node cannot read (`what`, e.g. a cursor; `detail`, what came). */
export const unreadablePaging =
	(ctx: SpendeskContext, endpoint: Endpoint, itemIndex?: number) =>
	(what: string, detail: string): NodeOperationError =>
		listError(
			ctx,
			endpoint,
			itemIndex,
			`Spendesk answered ${what} for ${callName(ctx, { itemIndex })} (${detail})`,
			'The node cannot tell how the list goes on, and returns none of the items read so far rather than a list cut short without telling.',
		);

export function endlessList(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	itemIndex: number | undefined,
	what: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Spendesk ${what}`, {
		description: `Reading on would never end, so the node stopped. With a Custom API Call, check that 'Pagination' matches how the endpoint pages (page, cursor, offset or body cursor, or None). Otherwise run the node again; if it happens every time, report it to Spendesk support ${callForSupport(endpoint)}.`,
		itemIndex,
	});
}

/** What an answer is, in a few words, for a message (never its content). */
function shapeOf(body: unknown): string {
	if (body === null || body === undefined) return 'nothing';
	if (Array.isArray(body)) return 'a list';
	if (!isObject(body)) return `a ${typeof body}`;
	const keys = Object.keys(body);
	if (!keys.length) return 'an empty object';
	const named = keys
		.slice(0, 5)
		.map((key) => `"${key.slice(0, 30)}"`)
		.join(', ');
	return `an object with ${named}${keys.length > 5 ? ', …' : ''}${'data' in body ? ' ("data" is not a list)' : ''}`;
}

/** A 2xx answer of a page list that is neither `{data, meta}` nor a bare array. */
export function unreadableList(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	company: string | undefined,
	page: number,
	body: unknown,
	itemIndex?: number,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`Spendesk answered ${callName(ctx, { itemIndex })} for ${companyLabel(company)} with something the node cannot read as a list (page ${page}: ${shapeOf(body)})`,
		{
			description: `A list comes as {data, meta} or as a list of items. The node stops rather than return an empty or partial list that would not be true. Run it again; if it happens every time, check 'Environment' (or 'Base URL') in the credential, and report it to Spendesk support ${callForSupport(endpoint)}.`,
			itemIndex,
		},
	);
}
