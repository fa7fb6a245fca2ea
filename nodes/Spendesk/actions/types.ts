import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** What one operation receives for one input item and one company. */
export interface OperationInput {
	itemIndex: number;
	/** Company to act on; undefined lets a company-level credential use its own company. */
	company?: string;
}

/** One operation: its parameters (with displayOptions) and its execution. */
export interface SpendeskOperation {
	/** Operation value inside its resource. */
	value: string;
	/** Option shown in the Operation list. */
	option: { name: string; action: string; description: string };
	/** False only for operations that take no company (Get Companies). */
	companyScoped: boolean;
	/** Parameters of the operation; the router adds displayOptions for resource and operation. */
	properties: INodeProperties[];
	execute(this: IExecuteFunctions, input: OperationInput): Promise<IDataObject[]>;
}

export interface SpendeskResource {
	value: string;
	name: string;
	description: string;
	operations: SpendeskOperation[];
}
