/**
 * Every operation that changes data in Spendesk is marked `write` (docs/errors.md, "Writes and
 * retries"): the router then refuses All Companies for it before any request, and the editor
 * shows it the Company field alone. Read from the endpoint catalogue, which names the
 * operations each endpoint serves: an operation served by an endpoint that changes data (any
 * method but GET, except the POSTs that only read) must be a write, and a write must be served
 * by such an endpoint. A new write operation without the mark fails here.
 */
import type { INodePropertyOptions } from 'n8n-workflow';
import { RESOURCES } from '../../nodes/Spendesk/actions/resources';
import type { SpendeskOperation } from '../../nodes/Spendesk/actions/types';
import { ENDPOINTS } from '../../nodes/Spendesk/transport/endpoints';
import type { EndpointName } from '../../nodes/Spendesk/transport/endpoints';

/** The endpoints that are not GETs but change nothing, each with why. */
const POSTS_THAT_READ: Partial<Record<EndpointName, string>> = {
	searchPayables: 'the payables search: a read whose filters go in the body',
	createPayablesSnapshot: 'builds a copy of payables to read; changes no payable',
};

/** The node operation a catalogue title names ("Payable → Update (several items)"), if any. */
function operationOf(title: string): { title: string; operation?: SpendeskOperation } | undefined {
	const match = /^(.+?) → (.+?)(?: \(.*\))?$/.exec(title);
	if (!match) return undefined;
	const resource = RESOURCES.find((r) => r.name === match[1]);
	const option = (resource?.operation.options as INodePropertyOptions[] | undefined)?.find(
		(o) => o.name === match[2],
	);
	const operation = resource?.operations.find((o) => o.value === option?.value);
	return { title: `${match[1]} → ${match[2]}`, operation };
}

const changing = (Object.keys(ENDPOINTS) as EndpointName[]).filter(
	(name) => ENDPOINTS[name].method !== 'GET' && !(name in POSTS_THAT_READ),
);

describe('every operation that changes data is a write (docs/errors.md#writes-and-retries)', () => {
	test('the read-only POSTs named here exist and are POSTs', () => {
		for (const name of Object.keys(POSTS_THAT_READ) as EndpointName[])
			expect(ENDPOINTS[name]?.method).toBe('POST');
	});

	test('every node operation an endpoint that changes data serves is marked write', () => {
		const named = changing.flatMap((name) =>
			ENDPOINTS[name].operations.map((title) => ({ name, found: operationOf(title) })),
		);
		const unknown = named.filter((n) => n.found && !n.found.operation).map((n) => n.found!.title);
		expect(unknown).toEqual([]);
		const notWrites = named
			.filter((n) => n.found?.operation && !n.found.operation.write)
			.map((n) => `${n.found!.title} (${n.name})`);
		expect(notWrites).toEqual([]);
		expect(named.filter((n) => n.found?.operation).length).toBeGreaterThanOrEqual(14);
	});

	test('every write is served by an endpoint that changes data', () => {
		const served = new Set(
			changing.flatMap((name) =>
				ENDPOINTS[name].operations
					.map((title) => operationOf(title)?.operation)
					.filter((o): o is SpendeskOperation => o !== undefined),
			),
		);
		const unserved = RESOURCES.flatMap((r) =>
			r.operations.filter((o) => o.write && !served.has(o)).map((o) => `${r.name} → ${o.value}`),
		);
		expect(unserved).toEqual([]);
	});
});
