/**
 * Runs the node: for every input item, the chosen operation on every company it targets.
 * Parameters are read and checked before the first request; companies run concurrently and
 * one failing company does not lose the others; every output item is paired with its input
 * item; with Continue On Fail an error becomes an item of its own (errorItem).
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { forEachCompany } from '../companies/fanOut';
import { companyError, tagItem } from '../companies/naming';
import { readCompanyChoice, selectCompanies } from '../companies/select';
import type { CompanySelection } from '../companies/select';
import { errorItem } from './errorItem';
import { RESOURCES } from './resources';
import type { SpendeskOperation } from './types';

interface ItemResult {
	items: INodeExecutionData[];
	/** True when a Limit left results unread. */
	truncated: boolean;
}

function findOperation(ctx: IExecuteFunctions, itemIndex: number): SpendeskOperation {
	const resource = ctx.getNodeParameter('resource', itemIndex) as string;
	const name = ctx.getNodeParameter('operation', itemIndex) as string;
	const operation = RESOURCES.find((r) => r.value === resource)?.operations.find((o) => o.value === name);
	if (!operation) throw new NodeOperationError(ctx.getNode(), `The operation "${name}" of "${resource}" is not supported`, { itemIndex });
	return operation;
}

/** One input item: its operation on each of its companies. */
async function runItem(ctx: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	const operation = findOperation(ctx, itemIndex);
	const run = operation.prepare.call(ctx, itemIndex);
	const selection: CompanySelection = operation.companyScoped
		? await selectCompanies(ctx, readCompanyChoice(ctx, itemIndex), { itemIndex })
		: { listed: false, targets: [{}] };
	const tag = selection.listed && (ctx.getNodeParameter('addCompanyFields', itemIndex, true) as boolean);
	const outcomes = await forEachCompany(selection.targets, async (target) => await run(target.id));

	const result: ItemResult = { items: [], truncated: false };
	for (const outcome of outcomes) {
		if (!outcome.ok) {
			const error = selection.listed ? companyError(ctx.getNode(), outcome.error, outcome.target, itemIndex) : outcome.error;
			if (!ctx.continueOnFail()) throw error;
			result.items.push(errorItem(error, itemIndex, outcome.target));
			continue;
		}
		if (outcome.value.truncated) result.truncated = true;
		const json = tag ? outcome.value.items.map((item) => tagItem(item, outcome.target)) : outcome.value.items;
		const binary = outcome.value.binary;
		const data = binary ? json.map((item, i) => ({ json: item, ...(binary[i] ? { binary: binary[i] } : {}) })) : ctx.helpers.returnJsonArray(json);
		result.items.push(...ctx.helpers.constructExecutionMetaData(data, { itemData: { item: itemIndex } }));
	}
	return result;
}

/** The error to stop the execution with, as an n8n error naming its item. */
function stopWith(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
	}
	// Both constructors hand back an existing error of their kind unchanged.
	if (error instanceof NodeApiError) return new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const output: INodeExecutionData[] = [];
	let truncated = false;
	const count = this.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const result = await runItem(this, itemIndex);
			output.push(...result.items);
			if (result.truncated) truncated = true;
		} catch (error) {
			if (!this.continueOnFail()) throw stopWith(this, error, itemIndex);
			output.push(errorItem(error, itemIndex));
		}
	}
	if (truncated) {
		this.addExecutionHints({
			message: 'Some results were cut off by the Limit. Turn on Return All to get every result.',
			location: 'outputPane',
		});
	}
	return [output];
}
