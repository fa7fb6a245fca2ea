import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** What an operation gives for one company. */
export interface OperationResult {
	items: IDataObject[];
	/** True when the Limit left results unread. */
	truncated?: boolean;
	/** Files of the items, by position in `items` (operations that return files). */
	binary?: Array<IBinaryKeyData | undefined>;
}

/**
 * Runs a prepared operation for one company; undefined lets a company-level credential use
 * its own company.
 */
export type OperationRun = (company: string | undefined) => Promise<OperationResult>;

/** One operation: its parameters (with displayOptions) and its execution. */
export interface SpendeskOperation {
	/** Operation value inside its resource. */
	value: string;
	/** False only for operations that take no company (Get Companies). */
	companyScoped: boolean;
	/** Parameters of the operation; the router adds displayOptions for resource and operation. */
	properties: INodeProperties[];
	/**
	 * Reads and checks the item's parameters — bad input fails here, before any request —
	 * and returns the run for each company.
	 */
	prepare(this: IExecuteFunctions, itemIndex: number): OperationRun;
}

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
