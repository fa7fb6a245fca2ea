/**
 * The pagination styles of the simulator: page-based, cursor (keyset, opaque cursors),
 * offset and body cursor share these helpers.
 */
import { createHash } from 'node:crypto';

export class SimError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		readonly detail: string,
		readonly source?: string,
		readonly headers: Record<string, string> = {},
	) {
		super(detail);
	}

	body() {
		return {
			errors: [
				{ code: this.code, detail: this.detail, ...(this.source ? { source: this.source } : {}) },
			],
		};
	}
}

/** Parses an integer parameter; absent gives the default, anything else outside [min, max] is a 400. */
export function intParam(
	raw: unknown,
	name: string,
	source: 'query' | 'body',
	def: number,
	min: number,
	max: number,
): number {
	if (raw === undefined || raw === null || raw === '') return def;
	const n = typeof raw === 'number' ? raw : Number(raw);
	if (!Number.isInteger(n) || n < min || n > max) {
		throw new SimError(
			400,
			'invalid_parameter',
			`${name} must be an integer between ${min} and ${max}`,
			`${source}.${name}`,
		);
	}
	return n;
}

export const PAGE_SIZE_MAX = 30;

/**
 * Faults of a page list: answer page 1 whatever page is asked (ignorePage), report a wrong
 * `total`, serve at most `cap` items a page while reporting the size asked, answer the last
 * page with the previous page's items (repeatLast).
 */
export interface PageFault {
	ignorePage?: boolean;
	total?: number;
	cap?: number;
	repeatLast?: boolean;
	/**
	 * Not a fault: a `pageSize` above the maximum is served as the maximum (and reported so)
	 * instead of a 400, as the analytical values answer (docs/api.md#page-lists).
	 */
	capPageSize?: boolean;
}

/** Page-based style: page 1 always answers; a later page without results is a 404. */
export function pageOf<T>(
	items: readonly T[],
	query: Record<string, string>,
	fault: PageFault = {},
) {
	const page = intParam(query.page, 'page', 'query', 1, 1, Number.MAX_SAFE_INTEGER);
	const asked = fault.capPageSize
		? intParam(query.pageSize, 'pageSize', 'query', PAGE_SIZE_MAX, 1, Number.MAX_SAFE_INTEGER)
		: intParam(query.pageSize, 'pageSize', 'query', PAGE_SIZE_MAX, 1, PAGE_SIZE_MAX);
	const pageSize = Math.min(asked, PAGE_SIZE_MAX);
	const served = Math.min(pageSize, fault.cap ?? pageSize);
	let start = fault.ignorePage ? 0 : (page - 1) * served;
	if (page > 1 && start >= items.length) throw new SimError(404, 'not_found', 'Page not found');
	if (fault.repeatLast && page > 1 && start + served >= items.length) start -= served;
	const total = fault.total ?? items.length;
	return {
		data: items.slice(start, start + served),
		meta: { pagination: { page, pageSize, total } },
	};
}

export type SortKey = readonly [string, string];

export function compareKeys(a: SortKey, b: SortKey): number {
	if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
	if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
	return 0;
}

/** First index whose key is >= key (strict: > key). `items` is sorted ascending by keyOf. */
export function searchIndex<T>(
	items: readonly T[],
	key: SortKey,
	keyOf: (item: T) => SortKey,
	strict: boolean,
): number {
	let lo = 0;
	let hi = items.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		const c = compareKeys(keyOf(items[mid]), key);
		if (c < 0 || (strict && c === 0)) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

interface CursorState {
	/** Key of the last item delivered, or null before the first item. */
	p: SortKey | null;
	/** Fingerprint of route, company, filters and sort. */
	f: string;
	/** Sequence number, so an injected empty page still gets a fresh cursor. */
	n: number;
}

export function fingerprint(parts: Record<string, unknown>): string {
	const sorted = Object.keys(parts)
		.sort()
		.map((k) => [k, parts[k]]);
	return createHash('sha256').update(JSON.stringify(sorted)).digest('base64url').slice(0, 16);
}

export function encodeCursor(state: CursorState): string {
	return Buffer.from(JSON.stringify(state)).toString('base64url');
}

export function decodeCursor(
	raw: string,
	expectedFingerprint: string,
	source: string,
): CursorState {
	let state: CursorState;
	try {
		state = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as CursorState;
	} catch {
		throw new SimError(400, 'invalid_cursor', 'The cursor is not valid', source);
	}
	if (
		!state ||
		typeof state !== 'object' ||
		typeof state.f !== 'string' ||
		typeof state.n !== 'number'
	) {
		throw new SimError(400, 'invalid_cursor', 'The cursor is not valid', source);
	}
	if (state.f !== expectedFingerprint) {
		throw new SimError(
			400,
			'invalid_cursor',
			'The cursor does not match the filters and sort of the first request',
			source,
		);
	}
	return state;
}

export interface KeysetPage<T> {
	data: T[];
	/** Null when there is nothing after this page. */
	nextCursor: string | null;
}

/**
 * Keyset pagination over `items` sorted ascending by keyOf. Stable under inserts and
 * updates: the cursor holds the key of the last delivered item, not a position.
 */
export function keysetPage<T>(opts: {
	items: readonly T[];
	keyOf: (item: T) => SortKey;
	desc: boolean;
	match: (item: T) => boolean;
	limit: number;
	cursor: string | undefined;
	fingerprint: string;
	cursorSource: string;
	/** Answer an empty page that still says there is more (fault injection). */
	emptyPage?: boolean;
	/** Send back the incoming cursor as next cursor (fault injection). */
	repeatCursor?: boolean;
	/** Answer from the start whatever the cursor says, with a fresh cursor (fault injection). */
	ignorePosition?: boolean;
}): KeysetPage<T> {
	const { items, keyOf, desc, match, limit } = opts;
	const state = opts.cursor ? decodeCursor(opts.cursor, opts.fingerprint, opts.cursorSource) : null;
	const position = opts.ignorePosition ? null : (state?.p ?? null);
	const seq = (state?.n ?? 0) + 1;

	let i: number;
	if (position === null) i = desc ? items.length - 1 : 0;
	else
		i = desc
			? searchIndex(items, position, keyOf, false) - 1
			: searchIndex(items, position, keyOf, true);
	const step = desc ? -1 : 1;

	if (opts.emptyPage) {
		return { data: [], nextCursor: encodeCursor({ p: position, f: opts.fingerprint, n: seq }) };
	}

	const data: T[] = [];
	for (; i >= 0 && i < items.length && data.length < limit; i += step) {
		if (match(items[i])) data.push(items[i]);
	}
	let more = false;
	for (; i >= 0 && i < items.length; i += step) {
		if (match(items[i])) {
			more = true;
			break;
		}
	}
	if (opts.repeatCursor && opts.cursor) return { data, nextCursor: opts.cursor };
	const last = data.length ? keyOf(data[data.length - 1]) : position;
	return { data, nextCursor: more ? encodeCursor({ p: last, f: opts.fingerprint, n: seq }) : null };
}
