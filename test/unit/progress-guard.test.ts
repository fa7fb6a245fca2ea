/**
 * The progress guard of every list (nodes/Spendesk/transport/pagination/strategy.ts) on its
 * own: the items it hands back and the lists it stops, with pages far larger than the API's,
 * ids of every kind and items without an id.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import type { SpendeskContext } from '../../nodes/Spendesk/transport/credential';
import type { Endpoint } from '../../nodes/Spendesk/transport/endpoints';
import { nameCalls } from '../../nodes/Spendesk/transport/callName';
import { progressGuard } from '../../nodes/Spendesk/transport/pagination/strategy';

const node = { name: 'Spendesk', type: 'n8n-nodes-spendesk.spendesk' } as INode;
const ctx = { getNode: () => node } as unknown as SpendeskContext;
// Messages name the call as the node's run names it (transport/callName.ts).
nameCalls(ctx, 'Invoice → Get Many');
const endpoint = { method: 'GET', path: '/v2/companies/{companyId}/invoices' } as Endpoint;

const invoices = (from: number, to: number): IDataObject[] =>
	Array.from({ length: to - from }, (_, i) => ({ id: `inv_${from + i}`, amount: from + i }));
const idsOf = (items: IDataObject[]) => items.map((item) => item.id);

describe('progress guard', () => {
	test('pages of 1,000 that overlap give every item once, in order', () => {
		const guard = progressGuard(ctx, endpoint);
		expect(idsOf(guard(invoices(0, 1000)))).toEqual(idsOf(invoices(0, 1000)));
		// The server starts 300 items early, then 1,000 late ones in a page of 2,500.
		expect(idsOf(guard(invoices(700, 1700)))).toEqual(idsOf(invoices(1000, 1700)));
		expect(idsOf(guard(invoices(1500, 4000)))).toEqual(idsOf(invoices(1700, 4000)));
	});

	test('a page without anything new stops the list, unless it answers a cursor asked again', () => {
		const guard = progressGuard(ctx, endpoint);
		guard(invoices(0, 100));
		expect(guard(invoices(0, 100), { reasked: true })).toEqual([]);
		expect(() => guard(invoices(0, 100))).toThrow(
			'Spendesk sent the same items again for Invoice → Get Many: the list is not moving forward',
		);
	});

	test('items are compared with the last two pages only', () => {
		const guard = progressGuard(ctx, endpoint);
		guard(invoices(0, 10));
		guard(invoices(10, 20));
		// Two pages back: already received.
		expect(idsOf(guard([...invoices(5, 6), ...invoices(20, 22)]))).toEqual(['inv_20', 'inv_21']);
		guard(invoices(30, 40));
		// Three pages back: no longer known (the guard keeps bounded memory).
		expect(idsOf(guard(invoices(0, 2)))).toEqual(['inv_0', 'inv_1']);
	});

	test('a number id and the same digits as text are two items; items without id by content', () => {
		const guard = progressGuard(ctx, endpoint);
		const first = [{ id: 1 }, { id: '1' }, { name: 'no id' }, { name: 'other' }];
		expect(guard(first)).toEqual(first);
		const second = [{ id: 1 }, { id: 2 }, { name: 'no id' }, { name: 'third' }, { id: '2' }];
		expect(guard(second)).toEqual([{ id: 2 }, { name: 'third' }, { id: '2' }]);
	});

	test('empty pages end the list after the configured number in a row', () => {
		const guard = progressGuard(ctx, endpoint);
		guard(invoices(0, 5));
		for (let i = 0; i < 9; i++) expect(guard([])).toEqual([]);
		expect(() => guard([])).toThrow(
			'Spendesk sent 10 empty pages in a row for Invoice → Get Many while saying more would follow',
		);
	});
});
