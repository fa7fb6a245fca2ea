import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** What an operation gives for one company. */
export interface OperationResult {
	/** Its items, after those it handed to the sink as they came. */
	items: IDataObject[];
	/** True when the Limit left results unread. */
	truncated?: boolean;
	/** Files of the items, by position in `items` (operations that return files). */
	binary?: Array<IBinaryKeyData | undefined>;
}

/**
 * Where an operation may hand its items as they come (a list, page by page): the router makes
 * each its output item at once, so that a list of any size is held once, as output items.
 */
export type ItemSink = (items: IDataObject[]) => void;

/**
 * Runs a prepared operation for one company; undefined lets a company-level credential use
 * its own company.
 */
export type OperationRun = (
	company: string | undefined,
	sink: ItemSink,
) => Promise<OperationResult>;

/** What every operation has: its value, whether it acts per company, and its parameters. */
interface OperationBase {
	/** Operation value inside its resource. */
	value: string;
	/** False only for operations that take no company (Get Companies). */
	perCompany: boolean;
	/**
	 * True for operations that create or change data: they run on one company only (All
	 * Companies is not offered, and refused before any request when a workflow holds it).
	 */
	write?: boolean;
	/**
	 * True for a read of one record that belongs to the company that made it, which no other
	 * company holds (Accounting Export → Get Journal): like a write, it shows the Company field
	 * alone, and All Companies is refused before any request.
	 */
	oneCompany?: boolean;
	/**
	 * For an operation whose parameters decide whether it writes (Custom API Call): the values
	 * under which it only reads, and shows the company fields of reads (All Companies
	 * included); under any other value it shows the Company field alone, as writes do.
	 */
	readsWhen?: Record<string, string[]>;
	/**
	 * For an operation whose parameters decide whether it writes (Custom API Call: any method
	 * but GET): throws when this item would write to several companies. The router runs it for
	 * every item before any request, as it checks `write` operations.
	 */
	refuseManyWrites?(this: IExecuteFunctions, itemIndex: number): void;
	/**
	 * What messages name the operation by, after its resource, when its name in the list says
	 * too little (Custom API Call: its method and path, "Custom API Call (GET /v1/payables)").
	 */
	namedBy?(this: IExecuteFunctions, itemIndex: number): string;
	/** Parameters of the operation; the router adds displayOptions for resource and operation. */
	properties: INodeProperties[];
}

/** An operation run item by item: its parameters (with displayOptions) and its execution. */
export interface SingleOperation extends OperationBase {
	/**
	 * Reads and checks the item's parameters — bad input fails here, before any request —
	 * and returns the run for each company.
	 */
	prepare(this: IExecuteFunctions, itemIndex: number): OperationRun;
	batch?: undefined;
}

/** One input item's part of a bulk call. */
export interface BatchEntry {
	itemIndex: number;
	/** The item's element of the bulk call's list. */
	body: IDataObject;
	/** How messages name the item's record, e.g. `payable "pay_1"`. */
	label: string;
}

/** What a bulk call gave one entry: its output item's JSON, or its own error. */
export type EntryResult = { ok: true; json: IDataObject } | { ok: false; error: Error };

/** How a batched operation turns input items into bulk calls. */
export interface BatchSpec {
	/** Most entries one bulk call carries. */
	size: number;
	/** Reads and checks one item's parameters (before any request) and returns its entry. */
	prepareEntry(this: IExecuteFunctions, itemIndex: number): BatchEntry;
	/** One bulk call for one company: a result per entry, in the order of the entries. */
	send(
		this: IExecuteFunctions,
		company: string | undefined,
		entries: BatchEntry[],
	): Promise<EntryResult[]>;
	/**
	 * What to do with `items` (e.g. "items 0–99", "this item") that a failed bulk call may have
	 * applied, without applying them twice; said in the error when the call may have been applied.
	 */
	replayAdvice(items: string): string;
}

/**
 * An operation whose input items are sent together: prepared item by item, grouped by
 * company in input order, then one bulk call per `batch.size` items (actions/batch.ts).
 */
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
	/**
	 * The resource's Operation parameter, written out as a literal (name, value, action and
	 * description of each option, and the default) so that n8n's checks can read it. Its option
	 * values are those of `operations` (test/unit/node-description.test.ts checks it).
	 */
	operation: INodeProperties;
	operations: SpendeskOperation[];
}
