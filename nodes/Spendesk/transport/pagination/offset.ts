/**
 * Offset lists (`offset` and a page size in the query): advance by the items that arrived
 * (those of a page overlapping the previous ones are dropped, not counted); stop at
 * `totalResults` or on an empty page. A page that brings nothing new (an offset the server
 * ignores) is an error.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskContext } from '../credential';
import type { Endpoint } from '../endpoints';
import { callSpendesk } from '../request';
import { transportSettings } from '../settings';
import { PagesAhead } from './ahead';
import { nextPageSize } from './limit';
import type { ItemLimit } from './limit';
import { asItems, progressGuard } from './strategy';
import type { ListRequest, Page } from './strategy';

export async function* offsetStrategy(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	request: ListRequest,
	limit: ItemLimit,
): AsyncGenerator<Page> {
	const size = endpoint.pageSize!;
	const progress = progressGuard(ctx, endpoint, request.itemIndex);
	const start = Number(request.qs?.offset ?? 0);
	/**
	 * One page from `offset`, asking no more than the Limit still needs once the items before it
	 * are in.
	 */
	const ask = async ({ offset, wanted }: Planned): Promise<Answer> => {
		const qs = { ...request.qs, offset, [size.param]: nextPageSize(size, request, wanted) };
		const { body } = await callSpendesk<IDataObject>(ctx, endpoint, { ...request, qs });
		return { offset, body };
	};
	let ahead: PagesAhead<Planned, Answer> | undefined;
	let offset = start;
	try {
		for (let first = true; limit.left() > 0; first = false) {
			// A page read ahead is used only when it starts where the list has got to.
			let answer = ahead?.left ? await ahead.take() : undefined;
			if (answer && answer.offset !== offset) {
				await ahead!.stop();
				answer = undefined;
			}
			const { body } = answer ?? (await ask({ offset, wanted: limit.left() }));
			const items = asItems(body?.data);
			const total = Number(body?.totalResults);
			// Items of the previous pages again (pages that overlap) are dropped, and the offset
			// advances by the new ones only, so nothing is skipped either.
			const fresh = items.length > 0 ? progress(items) : items;
			offset += fresh.length;
			const end = items.length === 0 || (Number.isFinite(total) && offset >= total);
			if (first && !end) ahead = readAhead(ask, offset, total, fresh.length, limit);
			yield limit.take(fresh);
			if (end) return;
		}
		limit.truncated();
	} finally {
		await ahead?.stop();
	}
}

interface Planned {
	offset: number;
	/** Items the Limit still wants once the pages before this one are in. */
	wanted: number;
}

interface Answer {
	offset: number;
	body: IDataObject | undefined;
}

/**
 * The pages after the first that `totalResults` says are needed (no more than the Limit
 * needs), each as many items on from the one before as the first page held, read ahead.
 */
function readAhead(
	ask: (page: Planned) => Promise<Answer>,
	offset: number,
	total: number,
	perPage: number,
	limit: ItemLimit,
): PagesAhead<Planned, Answer> | undefined {
	if (!Number.isFinite(total) || perPage <= 0) return undefined;
	const wanted = limit.left() - perPage;
	// One page from each `perPage` items on, while the total has items there and the Limit wants
	// them; named as they are asked, so a total of 1e12 plans nothing in memory.
	const count = Math.min(Math.ceil((total - offset) / perPage), Math.ceil(wanted / perPage));
	return count > 0
		? new PagesAhead(
				count,
				(index) => ({ offset: offset + index * perPage, wanted: wanted - index * perPage }),
				ask,
				transportSettings.maxInFlight,
			)
		: undefined;
}
