/**
 * The item Limit of one list (Return All: no Limit): what of a page still fits, how many
 * items are still wanted, whether the Limit left results unread; and page sizes that ask
 * for no more items than the Limit still needs.
 */
import type { IDataObject } from 'n8n-workflow';
import type { PageSize } from '../endpoints';

export interface ItemLimit {
	/** The Limit; Infinity for Return All. */
	readonly max: number;
	/** Keeps what still fits under the Limit (and notes a cut). */
	take: (items: IDataObject[]) => IDataObject[];
	/** Items still wanted. */
	left: () => number;
	/** Notes that the Limit stopped the list while the API had more. */
	truncated: () => void;
}

/** The Limit of a list (undefined: Return All); a cut is reported in `progress.truncated`. */
export function itemLimit(limit: number | undefined, progress?: { truncated: boolean }): ItemLimit {
	const max = limit ?? Infinity;
	let delivered = 0;
	const truncated = () => {
		if (progress) progress.truncated = true;
	};
	const take = (items: IDataObject[]): IDataObject[] => {
		if (items.length <= max - delivered) {
			delivered += items.length;
			return items;
		}
		truncated();
		const slice = items.slice(0, max - delivered);
		delivered += slice.length;
		return slice;
	};
	return { max, take, left: () => max - delivered, truncated };
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

/**
 * Page size of a page-based list: as few pages as the maximum page size allows, but no
 * more items than the Limit needs (45 items → 2 pages of 23, not 30 + 30).
 */
export function pagePlan(size: PageSize, request: { pageSize?: number }, limit: number): number {
	const cap = Math.min(size.max, request.pageSize ?? size.max);
	if (!Number.isFinite(limit)) return cap;
	return Math.max(1, Math.ceil(limit / Math.ceil(limit / cap)));
}
