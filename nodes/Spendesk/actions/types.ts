import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** What an operation gives for one company. */
export interface OperationResult {
	/** Its items, after those it handed to the sink as they came. */
	items: IDataObject[];
	/** The Limit left results unread. */
	truncated?: boolean;
	/** Files of the items, by position in `items` (operations that return files). */
	binary?: Array<IBinaryKeyData | undefined>;
}

/** Where a list hands its items page by page: held once, as output items. */
export type ItemSink = (items: IDataObject[]) => void;

/** Runs a prepared operation for one company (undefined: a company key's own company). */
export type OperationRun = (
	company: string | undefined,
	sink: ItemSink,
) => Promise<OperationResult>;

interface OperationBase {
	value: string;
	/** False only for operations that take no company (Get Companies). */
	perCompany: boolean;
	/** Creates or changes data: one company only (All Companies refused before any request). */
	write?: boolean;
	/** A read of a record only one company holds (Get Journal): one company, as a write. */
	oneCompany?: boolean;
	/** Custom API Call: the parameter values under which it only reads (else it writes). */
	readsWhen?: Record<string, string[]>;
	/** Custom API Call: throws, before any request, when this item would write to several companies. */
	refuseManyWrites?(this: IExecuteFunctions, itemIndex: number): void;
	/** What messages name the operation by when its name says too little ("Custom API Call (GET /v1/payables)"). */
	namedBy?(this: IExecuteFunctions, itemIndex: number): string;
	/** The router adds displayOptions for resource and operation. */
	properties: INodeProperties[];
}

export interface SingleOperation extends OperationBase {
	/** Reads and checks the item's parameters before any request; returns the run for each company. */
	prepare(this: IExecuteFunctions, itemIndex: number): OperationRun;
	batch?: undefined;
}

/** One input item's part of a bulk call: its element of the call's list (`body`). */
export interface BatchEntry {
	itemIndex: number;
	body: IDataObject;
	/** How messages name the item's record, e.g. `payable "pay_1"`. */
	label: string;
}

/** What a bulk call gave one entry: its output item's JSON, or its own error. */
export type EntryResult = { ok: true; json: IDataObject } | { ok: false; error: Error };

/** How a batched operation turns input items into bulk calls of up to `size` entries. */
export interface BatchSpec {
	size: number;
	/** Reads and checks one item's parameters (before any request) and returns its entry. */
	prepareEntry(this: IExecuteFunctions, itemIndex: number): BatchEntry;
	/** One bulk call for one company: a result per entry, in their order. */
	send(
		this: IExecuteFunctions,
		company: string | undefined,
		entries: BatchEntry[],
	): Promise<EntryResult[]>;
	/** What to do with `items` ("items 0–99") a failed bulk call may have applied. */
	replayAdvice(items: string): string;
}

/** An operation whose input items are sent together in bulk calls (actions/batch.ts). */
export interface BatchedOperation extends OperationBase {
	write: true;
	batch: BatchSpec;
	prepare?: undefined;
	/** With one input item, the item runs through this single-record call instead of a bulk call. */
	single?: SingleOperation['prepare'];
}

export type SpendeskOperation = SingleOperation | BatchedOperation;

export interface SpendeskResource {
	value: string;
	name: string;
	description: string;
	/** The Operation parameter, a literal so that n8n's checks can read it. */
	operation: INodeProperties;
	operations: SpendeskOperation[];
}
