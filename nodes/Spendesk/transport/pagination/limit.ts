/** The item Limit of one list (Return All: no Limit), and page sizes that ask for no more than it needs. */
import type { IDataObject } from 'n8n-workflow';
import type { PageSize } from '../endpoints';

export class ItemLimit {
	/** The Limit stopped the list while the API had more: set by `take`, or by the strategy. */
	truncated = false;
	private delivered = 0;

	/** `max`: the Limit; Infinity for Return All. */
	constructor(readonly max: number) {}

	left(): number {
		return this.max - this.delivered;
	}

	take(items: IDataObject[]): IDataObject[] {
		const kept = items.length <= this.left() ? items : items.slice(0, this.left());
		if (kept !== items) this.truncated = true;
		this.delivered += kept.length;
		return kept;
	}
}

/** Size of the next page: the endpoint maximum, or just what the Limit still needs. */
export function nextPageSize(
	size: PageSize,
	request: { pageSize?: number },
	remaining: number,
): number {
	const cap = Math.min(size.max, request.pageSize ?? size.max);
	return Math.max(1, Math.min(cap, remaining));
}

/** Page size of a page list: fewest pages, no more items than the Limit needs (45 → 2 pages of 23). */
export function pagePlan(size: PageSize, request: { pageSize?: number }, limit: number): number {
	const cap = Math.min(size.max, request.pageSize ?? size.max);
	if (!Number.isFinite(limit)) return cap;
	return Math.max(1, Math.ceil(limit / Math.ceil(limit / cap)));
}
