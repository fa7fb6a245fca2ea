/** Batched operations: every item prepared first, grouped by company in input order, sent in calls of up to `batch.size`. */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { readCompanyChoice, selectCompanies } from '../companies/select';
import { restated } from '../transport/restate';
import { errorItem } from './errorItem';
import type { BatchEntry, BatchedOperation, BatchSpec, EntryResult } from './types';

/** Where a run stands: output per input item, what was applied, what is still to send (in send order). */
interface Progress {
	slots: INodeExecutionData[][];
	applied: number[];
	unsent: number[];
}

/** `0–2, 5, 7–9`: item indexes as short ranges. */
export function itemRanges(indexes: number[]): string {
	const sorted = [...indexes].sort((a, b) => a - b);
	const parts: string[] = [];
	for (let i = 0; i < sorted.length; i++) {
		let j = i;
		while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
		parts.push(j === i ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
		i = j;
	}
	return parts.join(', ');
}

function itemsPhrase(indexes: number[]): string {
	return indexes.length === 1 ? `item ${indexes[0]}` : `items ${itemRanges(indexes)}`;
}

/** The whole story of a run stopped by a failure: applied, maybe applied, not applied, not sent, and what to do. */
function standing(
	spec: BatchSpec,
	progress: Progress,
	outcome: { maybe?: number[]; failed?: number[] },
): string {
	const maybe = outcome.maybe ?? [];
	const failed = outcome.failed ?? [];
	const { applied, unsent } = progress;
	const parts = [
		applied.length
			? `Applied: ${itemsPhrase(applied)}.`
			: maybe.length
				? 'Applied for certain: none.'
				: 'Nothing was applied.',
	];
	if (maybe.length)
		parts.push(
			`May have been applied: ${itemsPhrase(maybe)} (Spendesk did not confirm their bulk call after it was sent, and it was not retried).`,
		);
	if (failed.length) parts.push(`Not applied: ${itemsPhrase(failed)}.`);
	if (unsent.length) parts.push(`Not sent: ${itemsPhrase(unsent)}.`);
	const todo: string[] = [];
	if (maybe.length) todo.push(spec.replayAdvice(itemsPhrase(maybe)));
	const rerun = [...failed, ...unsent];
	if (rerun.length)
		todo.push(
			`Run ${itemsPhrase(rerun)} again${failed.length ? ' once the cause is fixed' : ''}: Spendesk has not applied them.`,
		);
	if (applied.length) todo.push(`Leave ${itemsPhrase(applied)} out of the next run.`);
	if (todo.length) parts.push(`What to do: ${todo.join(' ')}`);
	parts.push("(Item numbers count from 0, as n8n's item index.)");
	return parts.join(' ');
}

/** Reads every item's entry and company; a bad item fails before any request (or becomes its error item). */
async function prepareAll(
	ctx: IExecuteFunctions,
	spec: BatchSpec,
	progress: Progress,
): Promise<Map<string, BatchEntry[]>> {
	const groups = new Map<string, BatchEntry[]>();
	for (let itemIndex = 0; itemIndex < progress.slots.length; itemIndex++) {
		try {
			const entry = spec.prepareEntry.call(ctx, itemIndex);
			const selection = await selectCompanies(ctx, readCompanyChoice(ctx, itemIndex), {
				itemIndex,
			});
			const key = selection.targets[0]?.id ?? '';
			groups.set(key, [...(groups.get(key) ?? []), entry]);
		} catch (error) {
			if (!ctx.continueOnFail()) {
				const e = error as { message?: string; description?: string | null };
				throw restated(ctx.getNode(), error, {
					message: e.message ?? String(error),
					description: e.description ?? '',
					itemIndex,
				});
			}
			progress.slots[itemIndex] = [errorItem(ctx.getNode(), error, itemIndex)];
		}
	}
	progress.unsent = [...groups.values()].flat().map((entry) => entry.itemIndex);
	return groups;
}

/** Network failures after which the request may have reached Spendesk. */
const MAYBE_DELIVERED = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT']);

/** Whether a failed bulk call may have been applied: a 5xx, or a connection lost after sending. */
export function mayHaveApplied(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const status = Number(error.httpCode);
	// A 2xx without a readable answer (unexpectedBodyError) was accepted: it may have been applied.
	if (Number.isFinite(status) && error.httpCode)
		return status >= 500 || (status >= 200 && status < 300);
	const network = (error.errorResponse as { networkError?: unknown } | undefined)?.networkError;
	return typeof network !== 'string' || MAYBE_DELIVERED.has(network);
}

/** Sentences in which the transport advises on one call's replay: the bulk story replaces them. */
const REPLAY_ADVICE =
	/not safe to repeat|before running it again|nothing was applied|retried nothing/i;

/** The transport's description of a failed call without its replay advice (cause and Spendesk's words kept). */
function withoutReplayAdvice(description: string | null | undefined): string {
	return (description ?? '')
		.split(/(?<=\.)\s+/)
		.filter((sentence) => !REPLAY_ADVICE.test(sentence))
		.join(' ');
}

/** The error of a whole bulk call for the items it carried; with `progress` (the node stops), the whole run. */
function bulkCallError(
	ctx: IExecuteFunctions,
	spec: BatchSpec,
	error: unknown,
	chunk: BatchEntry[],
	progress?: Progress,
): NodeApiError | NodeOperationError {
	const indexes = chunk.map((e) => e.itemIndex);
	const e = error as { message?: string; description?: string | null };
	const maybe = mayHaveApplied(error);
	const note = progress
		? standing(spec, progress, maybe ? { maybe: indexes } : { failed: indexes })
		: maybe
			? `Spendesk may have applied this item: Spendesk did not confirm the bulk call that carried ${itemsPhrase(indexes)} after it was sent, and it was not retried. What to do: ${spec.replayAdvice('this item')}`
			: `Spendesk did not apply this item: the bulk call that carried ${itemsPhrase(indexes)} was refused as a whole. What to do: fix the cause and run it again.`;
	const cause = withoutReplayAdvice(e.description);
	const message = `${e.message ?? String(error)} (bulk call for ${itemsPhrase(indexes)}${maybe ? ', may have been applied' : ', not applied'})`;
	const description = [cause, note].filter(Boolean).join(' ');
	return restated(ctx.getNode(), error, { message, description, itemIndex: indexes[0] });
}

/** One entry's own error, as the error that stops the node: the item, then what was applied. */
function entryStop(
	ctx: IExecuteFunctions,
	spec: BatchSpec,
	error: Error,
	entry: BatchEntry,
	progress: Progress,
	refused: number[],
): Error {
	const e = error as { description?: string | null };
	const others =
		refused.length > 1
			? ` Also refused in the same call: ${itemsPhrase(refused.filter((i) => i !== entry.itemIndex))}.`
			: '';
	const description = [
		e.description,
		`${others} ${standing(spec, progress, { failed: refused })}`.trim(),
	]
		.filter(Boolean)
		.join(' ');
	return restated(ctx.getNode(), error, {
		message: `Input item ${entry.itemIndex}: ${error.message}`,
		description,
		itemIndex: entry.itemIndex,
	});
}

async function sendChunk(
	ctx: IExecuteFunctions,
	spec: BatchSpec,
	company: string,
	chunk: BatchEntry[],
	progress: Progress,
): Promise<void> {
	const carried = new Set(chunk.map((entry) => entry.itemIndex));
	progress.unsent = progress.unsent.filter((itemIndex) => !carried.has(itemIndex));
	let results: EntryResult[];
	try {
		results = await spec.send.call(ctx, company || undefined, chunk);
	} catch (error) {
		if (!ctx.continueOnFail()) throw bulkCallError(ctx, spec, error, chunk, progress);
		const failure = bulkCallError(ctx, spec, error, chunk);
		for (const entry of chunk)
			progress.slots[entry.itemIndex] = [errorItem(ctx.getNode(), failure, entry.itemIndex)];
		return;
	}
	const refused = chunk.filter((_, i) => !results[i].ok).map((entry) => entry.itemIndex);
	chunk.forEach((entry, i) => {
		const result = results[i];
		if (result.ok) progress.applied.push(entry.itemIndex);
		progress.slots[entry.itemIndex] = [
			result.ok
				? { json: result.json, pairedItem: { item: entry.itemIndex } }
				: errorItem(ctx.getNode(), result.error, entry.itemIndex),
		];
	});
	const first = results.findIndex((result) => !result.ok);
	const failed = results[first];
	if (failed && !failed.ok && !ctx.continueOnFail())
		throw entryStop(ctx, spec, failed.error, chunk[first], progress, refused);
}

/** Runs a batched operation over every input item; the output follows input order. */
export async function runBatched(
	ctx: IExecuteFunctions,
	operation: BatchedOperation,
	count: number,
): Promise<INodeExecutionData[]> {
	const { batch } = operation;
	const progress: Progress = {
		slots: Array.from({ length: count }, () => []),
		applied: [],
		unsent: [],
	};
	const groups = await prepareAll(ctx, batch, progress);
	for (const [company, entries] of groups) {
		for (let start = 0; start < entries.length; start += batch.size) {
			await sendChunk(ctx, batch, company, entries.slice(start, start + batch.size), progress);
		}
	}
	return progress.slots.flat();
}
