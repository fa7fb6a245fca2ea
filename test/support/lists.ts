/** Helpers for draining the transport's lists in tests. */
import type { EndpointName } from '../../nodes/Spendesk/transport/endpoints';
import { paginate } from '../../nodes/Spendesk/transport/paginate';
import type { ListRequest } from '../../nodes/Spendesk/transport/paginate';
import type { SpendeskContext } from '../../nodes/Spendesk/transport/request';

/**
 * Drains page by page but gives up after maxPages, so a list that loops forever makes the
 * test fail at once instead of at the test timeout. Returns the error the drain ended with.
 */
export async function drainBounded(
	ctx: SpendeskContext,
	name: EndpointName,
	request: ListRequest,
	maxPages = 40,
): Promise<{ error?: unknown; pages: number }> {
	let pages = 0;
	try {
		for await (const page of paginate(ctx, name, request)) {
			void page;
			if (++pages >= maxPages) break;
		}
	} catch (error) {
		return { error, pages };
	}
	return { pages };
}
