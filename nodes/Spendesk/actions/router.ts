/**
 * Runs the node: for every input item, its operation on every company it targets, concurrently
 * (one failing company does not lose the others). Bulk calls: actions/batch.ts.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { forEachCompany } from '../companies/fanOut';
import { nameCalls } from '../transport/callName';
import { companyError, tagItem } from '../companies/label';
import { readCompanyChoice, selectCompanies } from '../companies/select';
import type { CompanySelection, CompanyTarget } from '../companies/select';
import { runBatched } from './batch';
import { errorItem } from './errorItem';
import { RESOURCES } from './resources';
import type { ItemSink, OperationResult, SpendeskOperation, SpendeskResource } from './types';
import { fail } from './readers';

type Chosen = { resource?: SpendeskResource; operation?: SpendeskOperation };

/** Each input item's resource and operation, looked up once (none: refused when the item runs). */
function chosenOf(ctx: IExecuteFunctions, count: number): Chosen[] {
	return Array.from({ length: count }, (_, itemIndex) => {
		const resource = RESOURCES.find((r) => r.value === ctx.getNodeParameter('resource', itemIndex));
		const name = ctx.getNodeParameter('operation', itemIndex) as string;
		return { resource, operation: resource?.operations.find((o) => o.value === name) };
	});
}

/** `Payable → Update Bookkeeping Status`, or `Custom API Call (GET /v1/payables)`: how messages name the operation. */
function operationTitle(ctx: IExecuteFunctions, itemIndex: number, chosen: Chosen): string {
	const { resource, operation } = chosen;
	const name = ctx.getNodeParameter('operation', itemIndex) as string;
	const detail = operation?.namedBy?.call(ctx, itemIndex);
	if (resource && detail) return `${resource.name} (${detail})`;
	const option = resource?.operation.options?.find((o) => 'value' in o && o.value === name);
	return `${resource?.name ?? ''} → ${option?.name ?? name}`;
}

/**
 * A write never runs once per company by mistake: handed All Companies anyway (n8n drops a
 * value the write does not show), the node fails before any request, whatever Continue On Fail says.
 */
function refuseWritesOnEveryCompany(ctx: IExecuteFunctions, chosen: Chosen[]): void {
	for (const [itemIndex, { operation }] of chosen.entries()) {
		operation?.refuseManyWrites?.call(ctx, itemIndex);
		if (!(operation?.write || operation?.oneCompany) || !operation.perCompany) continue;
		const { mode } = readCompanyChoice(ctx, itemIndex);
		if (mode === 'one') continue;
		fail(
			ctx,
			itemIndex,
			`${operationTitle(ctx, itemIndex, chosen[itemIndex])} ${operation.write ? 'writes to' : 'reads from'} one company at a time: All Companies is not allowed`,
			"Nothing was sent. Pick one company in 'Company' (from the list, by ID, or from an expression such as {{ $json.companyId }}); to write to several companies, give each item its company.",
		);
	}
}

/** One input item on each of its companies, its items appended to `output`; true when a Limit left results unread. */
async function runItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	operation: SpendeskOperation | undefined,
	output: INodeExecutionData[],
): Promise<boolean> {
	if (!operation) {
		const resource = ctx.getNodeParameter('resource', itemIndex) as string;
		const name = ctx.getNodeParameter('operation', itemIndex) as string;
		fail(
			ctx,
			itemIndex,
			`The operation "${name}" of "${resource}" is not supported`,
			'Choose the resource and the operation again in the node: the workflow may come from another version of the package.',
		);
	}
	// route() hands batched operations to runBatched (one item may take their single call).
	const prepare = operation.batch ? operation.single! : operation.prepare;
	const run = prepare.call(ctx, itemIndex);
	const selection: CompanySelection = operation.perCompany
		? await selectCompanies(ctx, readCompanyChoice(ctx, itemIndex), { itemIndex })
		: { multiCompany: false, targets: [{}] };
	const tag =
		selection.multiCompany &&
		(ctx.getNodeParameter('addCompanyFields', itemIndex, true) as boolean);
	// Companies run concurrently: with one, its items go straight to the output; with several,
	// each company's go to a list of their own, appended in the order of the companies.
	const direct = selection.targets.length === 1;
	const start = output.length;
	const outcomes = await forEachCompany(selection.targets, async (target) => {
		const out = outputOf(direct ? output : [], itemIndex, tag ? target : undefined);
		const result = await run(target.id, out.sink);
		out.add(result);
		return { items: out.items, truncated: result.truncated === true };
	});
	let truncated = false;
	for (const outcome of outcomes) {
		if (!outcome.ok) {
			if (direct) output.length = start;
			const error = selection.multiCompany
				? companyError(ctx.getNode(), outcome.error, outcome.target, itemIndex)
				: outcome.error;
			if (!ctx.continueOnFail()) throw error;
			output.push(errorItem(ctx.getNode(), error, itemIndex, outcome.target));
			continue;
		}
		// n8n hints on its own when the output holds as many items as the Limit; with All
		// Companies the Limit applies to each company, which n8n cannot tell.
		if (outcome.value.truncated && selection.multiCompany) truncated = true;
		// One by one: a spread of a list of several hundred thousand items overflows the stack.
		if (!direct) for (const item of outcome.value.items) output.push(item);
	}
	return truncated;
}

/**
 * The output items of one company, each built once, as n8n's returnJsonArray +
 * constructExecutionMetaData would give it without their intermediate objects (a drain holds
 * 100,000), and without unwrapping a record that has a field named `json`.
 */
function outputOf(items: INodeExecutionData[], itemIndex: number, company?: CompanyTarget) {
	const pairedItem = { item: itemIndex };
	const sink: ItemSink = (records) => {
		for (const record of records)
			items.push({ json: company ? tagItem(record, company) : record, pairedItem });
	};
	const add = ({ items: records, binary }: OperationResult) => {
		if (!binary) return sink(records);
		for (let i = 0; i < records.length; i++) {
			const json = company ? tagItem(records[i], company) : records[i];
			const file = binary[i];
			items.push(file ? { json, binary: file, pairedItem } : { json, pairedItem });
		}
	};
	return { items, sink, add };
}

/** The error to stop the execution with, as an n8n error naming its item. */
function stopWith(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const output: INodeExecutionData[] = [];
	let truncated = false;
	const count = this.getInputData().length;
	const chosen = chosenOf(this, count);
	nameCalls(this, (itemIndex = 0) => operationTitle(this, itemIndex, chosen[itemIndex]));
	refuseWritesOnEveryCompany(this, chosen);
	const first = chosen[0]?.operation;
	// Resource and Operation take no expressions: every item runs the same operation.
	if (first?.batch && !(count === 1 && first.single)) return [await runBatched(this, first, count)];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const start = output.length;
		try {
			if (await runItem(this, itemIndex, chosen[itemIndex].operation, output)) truncated = true;
		} catch (error) {
			// A failed item leaves no output item of its own but its error item.
			output.length = start;
			if (!this.continueOnFail()) throw stopWith(this, error, itemIndex);
			output.push(errorItem(this.getNode(), error, itemIndex));
		}
	}
	if (truncated) {
		this.addExecutionHints({
			message:
				"With All Companies, 'Limit' counts for each company, and some companies have more results than the node returned. Turn on 'Return All' to get every result.",
			location: 'outputPane',
		});
	}
	return [output];
}
