/**
 * Offset lists (`offset` and a page size in the query): advance by the items that arrived
 * (those of a page overlapping the previous ones are dropped, not counted); stop at
 * `totalResults` or on an empty page.
 */
import type { IDataObject } from 'n8n-workflow';
import { callSpendesk } from '../request';
import { PagesAhead } from './ahead';
import { nextPageSize } from './limit';
import { readOffsetPage } from './response';
import { progressGuard } from './strategy';
import type { PageStrategy } from './strategy';

/** A page to ask: where it starts, and the items the Limit still wants once the pages before it are in. */
type Planned = { offset: number; wanted: number };

export const offsetStrategy: PageStrategy = async function* (ctx, endpoint, request, limit) {
	const size = endpoint.pageSize!;
	const progress = progressGuard(ctx, endpoint, request.itemIndex);
	const ask = async ({ offset, wanted }: Planned) => {
		const qs = { ...request.qs, offset, [size.param]: nextPageSize(size, request, wanted) };
		const { body } = await callSpendesk<IDataObject>(ctx, endpoint, { ...request, qs });
		return { offset, body };
	};
	let ahead: PagesAhead<Planned, Awaited<ReturnType<typeof ask>>> | undefined;
	let offset = Number(request.qs?.offset ?? 0);
	try {
		for (let first = true; limit.left() > 0; first = false) {
			// A page read ahead is used only when it starts where the list has got to.
			let answer = ahead?.left ? await ahead.take() : undefined;
			if (answer && answer.offset !== offset) {
				await ahead!.stop();
				answer = undefined;
			}
			const { body } = answer ?? (await ask({ offset, wanted: limit.left() }));
			const { items, total } = readOffsetPage(body);
			// The offset advances by the new items only, so nothing is skipped either.
			const fresh = items.length > 0 ? progress(items) : items;
			offset += fresh.length;
			const end = items.length === 0 || (Number.isFinite(total) && offset >= total);
			if (first && !end && Number.isFinite(total) && fresh.length > 0) {
				// The pages `totalResults` says are needed, each as many items on as the first held,
				// named as they are asked: a total of 1e12 plans nothing in memory.
				const from = offset;
				const perPage = fresh.length;
				const wanted = limit.left() - perPage;
				const count = Math.min(Math.ceil((total - from) / perPage), Math.ceil(wanted / perPage));
				if (count > 0)
					ahead = new PagesAhead(
						count,
						(i) => ({ offset: from + i * perPage, wanted: wanted - i * perPage }),
						ask,
					);
			}
			yield limit.take(fresh);
			if (end) return;
		}
		limit.truncated = true;
	} finally {
		await ahead?.stop();
	}
};
