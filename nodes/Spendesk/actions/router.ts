/**
 * Runs the node: for every input item, the chosen operation on every company it targets.
 * Parameters are read and checked before the first request; companies run concurrently and
 * one failing company does not lose the others; every output item is paired with its input
 * item; with Continue On Fail an error becomes an item of its own (errorItem). A write runs on
 * one company only: All Companies is refused for every item before any request. Batched
 * operations (bulk calls) go through actions/batch.ts.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { forEachCompany } from '../companies/fanOut';
import { companyError, tagItem } from '../companies/naming';
import { readCompanyChoice, selectCompanies } from '../companies/select';
import type { CompanySelection } from '../companies/select';
import { runBatched } from './batch';
import { errorItem } from './errorItem';
import { RESOURCES } from './resources';
import type { SpendeskOperation } from './types';

interface ItemResult {
	items: INodeExecutionData[];
	/** True when a Limit left results of a company of several unread. */
	truncated: boolean;
}

function lookupOperation(ctx: IExecuteFunctions, itemIndex: number): SpendeskOperation | undefined {
	const resource = ctx.getNodeParameter('resource', itemIndex) as string;
	const name = ctx.getNodeParameter('operation', itemIndex) as string;
	return RESOURCES.find((r) => r.value === resource)?.operations.find((o) => o.value === name);
}

function findOperation(ctx: IExecuteFunctions, itemIndex: number): SpendeskOperation {
	const operation = lookupOperation(ctx, itemIndex);
	if (operation) return operation;
	const resource = ctx.getNodeParameter('resource', itemIndex) as string;
	const name = ctx.getNodeParameter('operation', itemIndex) as string;
	throw new NodeOperationError(
		ctx.getNode(),
		`The operation "${name}" of "${resource}" is not supported`,
		{
			description:
				'Choose the resource and the operation again in the node: the workflow may come from another version of the package.',
			itemIndex,
		},
	);
}

/** `Payable → Update Bookkeeping Status`: the operation as the editor names it. */
function operationTitle(ctx: IExecuteFunctions, itemIndex: number): string {
	const resource = RESOURCES.find((r) => r.value === ctx.getNodeParameter('resource', itemIndex));
	const name = ctx.getNodeParameter('operation', itemIndex) as string;
	const option = resource?.operation.options?.find((o) => 'value' in o && o.value === name);
	return `${resource?.name ?? ''} → ${option?.name ?? name}`;
}

/**
 * A write never runs once per company by mistake: with All Companies (a saved workflow, an
 * expression), the node fails before any request, whatever Continue On Fail says.
 */
function refuseWritesOnEveryCompany(ctx: IExecuteFunctions, count: number): void {
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const operation = lookupOperation(ctx, itemIndex);
		if (!operation?.write || !operation.perCompany) continue;
		const { mode } = readCompanyChoice(ctx, itemIndex);
		if (mode === 'one') continue;
		throw new NodeOperationError(
			ctx.getNode(),
			`${operationTitle(ctx, itemIndex)} writes to one company at a time: All Companies is not allowed`,
			{
				description:
					"Nothing was sent. Pick one company in 'Company' (from the list, by ID, or from an expression such as {{ $json.companyId }}); to write to several companies, give each item its company.",
				itemIndex,
			},
		);
	}
}

/** One input item: its operation on each of its companies. */
async function runItem(ctx: IExecuteFunctions, itemIndex: number): Promise<ItemResult> {
	// route() hands batched operations to runBatched (one item may take their single call).
	const operation = findOperation(ctx, itemIndex);
	const prepare = operation.batch ? operation.single! : operation.prepare;
	const run = prepare.call(ctx, itemIndex);
	const selection: CompanySelection = operation.perCompany
		? await selectCompanies(ctx, readCompanyChoice(ctx, itemIndex), { itemIndex })
		: { listed: false, targets: [{}] };
	const tag =
		selection.listed && (ctx.getNodeParameter('addCompanyFields', itemIndex, true) as boolean);
	const outcomes = await forEachCompany(selection.targets, async (target) => await run(target.id));

	const result: ItemResult = { items: [], truncated: false };
	for (const outcome of outcomes) {
		if (!outcome.ok) {
			const error = selection.listed
				? companyError(ctx.getNode(), outcome.error, outcome.target, itemIndex)
				: outcome.error;
			if (!ctx.continueOnFail()) throw error;
			result.items.push(errorItem(ctx.getNode(), error, itemIndex, outcome.target));
			continue;
		}
		// n8n hints on its own when the output holds as many items as the Limit; with All
		// Companies the Limit applies to each company, which n8n cannot tell.
		if (outcome.value.truncated && selection.listed) result.truncated = true;
		const json = tag
			? outcome.value.items.map((item) => tagItem(item, outcome.target))
			: outcome.value.items;
		// One object per output item, as n8n's returnJsonArray + constructExecutionMetaData would
		// give it, without their two intermediate objects an item (a drain holds 100,000 of them),
		// and without unwrapping a record that happens to have a field named `json`.
		const binary = outcome.value.binary;
		const pairedItem = { item: itemIndex };
		for (let i = 0; i < json.length; i++) {
			const file = binary?.[i];
			result.items.push(
				file ? { json: json[i], binary: file, pairedItem } : { json: json[i], pairedItem },
			);
		}
	}
	return result;
}

/** The error to stop the execution with, as an n8n error naming its item. */
function stopWith(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
	}
	// Both constructors hand back an existing error of their kind unchanged.
	if (error instanceof NodeApiError)
		return new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const output: INodeExecutionData[] = [];
	let truncated = false;
	const count = this.getInputData().length;
	refuseWritesOnEveryCompany(this, count);
	const first = count ? lookupOperation(this, 0) : undefined;
	// Resource and Operation take no expressions: every item runs the same operation.
	if (first?.batch && !(count === 1 && first.single)) return [await runBatched(this, first, count)];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const result = await runItem(this, itemIndex);
			// One by one: a spread of a list of several hundred thousand items overflows the stack.
			for (const item of result.items) output.push(item);
			if (result.truncated) truncated = true;
		} catch (error) {
			if (!this.continueOnFail()) throw stopWith(this, error, itemIndex);
			output.push(errorItem(this.getNode(), error, itemIndex));
		}
	}
	if (truncated) {
		this.addExecutionHints({
			message:
				'With All Companies, the Limit applies to each company and cut off the results of some of them. Turn on Return All to get every result.',
			location: 'outputPane',
		});
	}
	return [output];
}
