/**
 * One page of a page list as Spendesk answers it (docs/api.md#page-lists): `{data, meta:
 * {pagination}}`, or a bare JSON array of the items, as some collections answer. Anything else
 * is an answer the node does not understand: an error naming the operation as the editor shows
 * it, never an empty list.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import { callName } from '../callName';
import { companyLabel } from '../companyLabel';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { asItems, naming } from './strategy';
import type { Page } from './strategy';

export interface PageListBody {
	items: Page;
	/** `meta.pagination` (`page`, `pageSize`, `total`); empty for a bare array. */
	pagination: IDataObject;
	/** The page came as a bare array: no total, so a page shorter than asked ends the list. */
	bare: boolean;
}

const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/** The items and pagination of a page list's answer; undefined when it is neither shape. */
export function readPageList(body: unknown): PageListBody | undefined {
	if (Array.isArray(body)) return { items: asItems(body), pagination: {}, bare: true };
	if (!isObject(body) || !Array.isArray(body.data)) return undefined;
	const meta = isObject(body.meta) ? body.meta : {};
	return {
		items: asItems(body.data),
		pagination: isObject(meta.pagination) ? meta.pagination : {},
		bare: false,
	};
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
			description: `A list comes as {data, meta} or as a list of items. The node stops rather than return an empty or partial list that would not be true. Run it again; if it happens every time, check 'Environment' (or 'Base URL') in the credential, and report it to Spendesk support ${naming(endpoint)}.`,
			itemIndex,
		},
	);
}
