/**
 * What every list style has in common: the list request, the page, the signature of a
 * style's strategy, and the reads and errors the styles share.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import type { CallOptions } from '../request';
import type { ItemLimit } from './limit';

export interface ListRequest extends Omit<CallOptions, 'url' | 'allowNotFound'> {
	/** Stop after this many items; undefined = Return All. */
	limit?: number;
	/** Page size to use instead of the endpoint's maximum (never above it). */
	pageSize?: number;
	/** Payables snapshot: how long to wait for the snapshot to be built. */
	snapshotMaxWaitMs?: number;
	/** Payables snapshot: first pause between status polls (doubles up to 5 s). */
	snapshotPollMs?: number;
	/** Set to true when the Limit left results unread. */
	progress?: { truncated: boolean };
}

export type Page = IDataObject[];

/** One list style: the pages of `endpoint` for `request`, read until the list or the Limit ends. */
export type PageStrategy = (ctx: SpendeskContext, endpoint: Endpoint, request: ListRequest, limit: ItemLimit) => AsyncGenerator<Page>;

/** The items of a `data` field (none when it is not a list). */
export function asItems(value: unknown): Page {
	return Array.isArray(value) ? (value as Page) : [];
}

export function repeatedCursor(ctx: SpendeskContext, endpoint: Endpoint, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Spendesk sent the same page cursor twice for "${endpoint.label}"`, {
		description: 'The list would never end, so the node stopped. Run it again; if it happens every time, report it to Spendesk support with the endpoint name.',
		itemIndex,
	});
}
