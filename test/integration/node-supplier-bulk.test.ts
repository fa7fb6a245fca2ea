/**
 * Supplier → Archive, Unarchive and Update with several input items over real HTTP to the
 * simulator (docs/api.md#supplier-management), in both profiles (the documented profile's keys
 * hold the experimental scope once granted): bulk calls of up to 100 suppliers, one output item
 * per input item paired by supplier ID, an unknown supplier the error of its own item, and a
 * failed call saying what was applied and what was not.
 */
import type { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { expectRefusedBeforeAnyRequest, failure, simulatorPerSuite } from '../support/fixtures';
import { apiRequests, AS_GIVEN, runNode } from '../support/node';
import { locatorById, oneCompany } from '../support/values';

const SCOPES = ['experimental:supplier:manage'];
const CMP = 'cmp_002';
const BASE = { resource: 'supplier', ...oneCompany(CMP) };

describe.each(['specification', 'documented'] as const)(
	'node: supplier bulk changes (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		simulatorPerSuite(
			{
				profile,
				rateLimit: 10_000,
				seed: { companies: 3, sizes: { invoices: 1, payables: 1, suppliers: 160 } },
				grantScopes: { 'sim-org-client': SCOPES, 'sim-company-client': SCOPES },
			},
			(started) => (sim = started),
		);

		const suppliers = () => sim.data(CMP).suppliers;
		/** One input item per supplier ID, the ID from the item. */
		const itemsOf = (ids: string[]): INodeExecutionData[] => ids.map((id) => ({ json: { id } }));
		const run = (params: IDataObject, items: INodeExecutionData[], continueOnFail = false) =>
			runNode(
				sim,
				'orgKey',
				{ ...BASE, supplierId: locatorById('={{ $json.id }}'), ...params },
				{ items, continueOnFail },
			);

		test('Archive: 150 items go in 2 calls of 100 and 50 IDs; each item gets its supplier, archived, paired with it', async () => {
			const ids = suppliers()
				.slice(0, 150)
				.map((s) => s.id);
			const { out } = await run({ operation: 'archive' }, itemsOf(ids));
			const calls = apiRequests(sim);
			expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([
				'PATCH /v1/experimental/suppliers/status',
				'PATCH /v1/experimental/suppliers/status',
			]);
			expect(calls.map((r) => r.body)).toEqual([
				{ supplierIds: ids.slice(0, 100), isArchived: true },
				{ supplierIds: ids.slice(100), isArchived: true },
			]);
			expect(calls.every((r) => r.companyId === CMP)).toBe(true);
			expect(out.map((o) => [o.json.id, o.json.isArchived, o.pairedItem])).toEqual(
				ids.map((id, i) => [id, true, { item: i }]),
			);
			expect(
				suppliers()
					.slice(0, 150)
					.every((s) => s.isArchived),
			).toBe(true);
		});

		test('Unarchive: two items, one call with isArchived false; output in input order, paired by ID', async () => {
			const [a, b] = suppliers().slice(0, 2);
			a.isArchived = true;
			b.isArchived = true;
			const { out } = await run({ operation: 'unarchive' }, itemsOf([b.id, a.id]));
			expect(apiRequests(sim).map((r) => r.body)).toEqual([
				{ supplierIds: [b.id, a.id], isArchived: false },
			]);
			expect(out.map((o) => [o.json.id, o.json.isArchived, o.pairedItem])).toEqual([
				[b.id, false, { item: 0 }],
				[a.id, false, { item: 1 }],
			]);
			expect([a.isArchived, b.isArchived]).toEqual([false, false]);
		});

		test('an unknown supplier is the error of its own item (Continue On Fail), the others applied; without it the node stops saying what was applied', async () => {
			const [a, b] = suppliers().slice(2, 4);
			const items = itemsOf([a.id, 'sup_nope', b.id]);
			const { out } = await run({ operation: 'archive' }, items, true);
			expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(out[0].json).toMatchObject({ id: a.id, isArchived: true });
			expect(out[1].json.error).toBe(
				`Spendesk has no supplier "sup_nope" in company "${CMP}", so it was not changed`,
			);
			expect(out[2].json).toMatchObject({ id: b.id, isArchived: true });
			const error = await failure(run({ operation: 'unarchive' }, items));
			expect(error.message).toBe(
				`Input item 1: Spendesk has no supplier "sup_nope" in company "${CMP}", so it was not changed`,
			);
			expect((error as NodeApiError).description).toContain('Applied: items 0, 2.');
			expect((error as NodeApiError).description).toContain('Not applied: item 1.');
		});

		test('a refused second call: the node stops saying items 0–99 were applied and 100–149 not; with Continue On Fail those items are errors', async () => {
			const ids = suppliers()
				.slice(0, 150)
				.map((s) => s.id);
			sim.injectFault({ route: 'updateSupplierStatus', kind: 'status', status: 400, after: 1 });
			const error = await failure(run({ operation: 'unarchive' }, itemsOf(ids)));
			expect(apiRequests(sim)).toHaveLength(2);
			expect(error.message).toContain('(bulk call for items 100–149, not applied)');
			expect((error as NodeApiError).description).toContain('Applied: items 0–99.');
			expect((error as NodeApiError).description).toContain('Not applied: items 100–149.');
			expect(
				suppliers()
					.slice(0, 100)
					.every((s) => !s.isArchived),
			).toBe(true);
			// Archived by the first test, and left so: their call was refused.
			expect(
				suppliers()
					.slice(100, 150)
					.every((s) => s.isArchived),
			).toBe(true);

			sim.injectFault({ route: 'updateSupplierStatus', kind: 'status', status: 400, after: 1 });
			const { out } = await run({ operation: 'archive' }, itemsOf(ids), true);
			expect(out).toHaveLength(150);
			expect(out.slice(0, 100).every((o) => o.json.isArchived === true)).toBe(true);
			expect(out.slice(100).every((o) => typeof o.json.error === 'string')).toBe(true);
			expect(out.map((o) => o.pairedItem)).toEqual(ids.map((_, i) => ({ item: i })));
			expect(
				suppliers()
					.slice(0, 100)
					.every((s) => s.isArchived),
			).toBe(true);
		});

		test.each([
			['204 with no content', { kind: 'noContent' }],
			['an object without items', { kind: 'setFields', set: { items: undefined, status: 'ok' } }],
			[
				'one result for the two sent, naming no supplier',
				{ kind: 'setFields', set: { items: [{ outcome: 'updated' }] } },
			],
		] as const)(
			'a bulk archive answered 2xx with %s is applied: each item its supplier ID and state with a note, never "may have been applied" (docs/api.md#supplier-management)',
			async (_, fault) => {
				const [a, b] = suppliers().slice(20, 22);
				sim.injectFault({ route: 'updateSupplierStatus', ...fault });
				const { out, hints } = await run({ operation: 'archive' }, itemsOf([a.id, b.id]));
				expect(apiRequests(sim)).toHaveLength(1);
				expect(out.map((o) => [o.json.id, o.json.isArchived, o.pairedItem])).toEqual([
					[a.id, true, { item: 0 }],
					[b.id, true, { item: 1 }],
				]);
				for (const o of out) {
					expect(o.json.error).toBeUndefined();
					expect(String(o.json.note)).toMatch(
						/^Spendesk accepted the change \(HTTP 2\d\d\) but did not list this supplier in its answer/,
					);
					expect(String(o.json.note)).toContain('Supplier → Get');
				}
				expect(hints.map((h) => h.message)).toEqual([
					expect.stringContaining('Supplier → Archive: Spendesk accepted the call'),
				]);
			},
		);

		test('a bulk answer listing some of the suppliers sent: those get their supplier, the others a note', async () => {
			const [a, b] = suppliers().slice(22, 24);
			sim.injectFault({
				route: 'updateSupplierStatus',
				kind: 'setFields',
				set: {
					items: [{ outcome: 'updated', supplier: { id: b.id, isArchived: true, name: 'B' } }],
				},
			});
			const { out } = await run({ operation: 'archive' }, itemsOf([a.id, b.id]));
			expect(out[0].json).toMatchObject({ id: a.id, isArchived: true, note: expect.any(String) });
			expect(out[1].json).toEqual({ id: b.id, isArchived: true, name: 'B' });
		});

		test('Update of several items answered 2xx without the list is applied: each item its ID and what was sent, with a note', async () => {
			const [a, b] = suppliers().slice(24, 26);
			// Applied, then answered without the list.
			sim.injectFault({ route: 'updateSuppliers', kind: 'setFields', set: { items: undefined } });
			const { out } = await run(
				{ operation: 'update', updateFields: { city: 'Metz' } },
				itemsOf([a.id, b.id]),
			);
			expect(out.map((o) => [o.json.id, o.json.sent, o.pairedItem])).toEqual([
				[a.id, { supplierDetails: { city: 'Metz' } }, { item: 0 }],
				[b.id, { supplierDetails: { city: 'Metz' } }, { item: 1 }],
			]);
			expect(out.every((o) => typeof o.json.note === 'string' && !o.json.error)).toBe(true);
			expect([a.address.city, b.address.city]).toEqual(['Metz', 'Metz']);
		});

		test('Archive of one item uses the supplier’s own status route and returns the supplier; an unknown one is its error', async () => {
			const s = suppliers()[30];
			const { out } = await run({ operation: 'archive' }, itemsOf([s.id]));
			expect(apiRequests(sim).map((r) => [`${r.method} ${r.path}`, r.body])).toEqual([
				[`PATCH /v1/experimental/suppliers/${s.id}/status`, { isArchived: true }],
			]);
			expect(out.map((o) => o.json)).toEqual([JSON.parse(JSON.stringify(s))]);
			expect(s.isArchived).toBe(true);
			const { out: back } = await run({ operation: 'unarchive' }, itemsOf([s.id]));
			expect(back[0].json).toMatchObject({ id: s.id, isArchived: false });
			sim.injectFault({ route: 'updateOneSupplierStatus', kind: 'noContent' });
			const { out: empty } = await run({ operation: 'archive' }, itemsOf([s.id]));
			expect(empty[0].json).toMatchObject({ id: s.id, isArchived: true, note: expect.any(String) });
			const error = await failure(run({ operation: 'archive' }, itemsOf(['sup_nope'])));
			expect(error.message).toBe(
				`Spendesk has no supplier "sup_nope" in company "${CMP}", so it was not changed`,
			);
		});

		test('a bad supplier ID fails before any request; All Companies handed as given (not by n8n, which drops it) is refused', async () => {
			await expectRefusedBeforeAnyRequest(
				sim,
				run({ operation: 'archive' }, itemsOf(['a b'])),
				'\'Supplier\' holds "a b", which is not a valid ID',
			);
			await expectRefusedBeforeAnyRequest(
				sim,
				runNode(
					sim,
					'orgKey',
					{
						...BASE,
						companies: 'all',
						operation: 'archive',
						supplierId: locatorById('sup_001_0001'),
					},
					AS_GIVEN,
				),
				'Supplier → Archive writes to one company at a time: All Companies is not allowed',
			);
		});

		test('Update with several items: one bulk call per 100, each its ID and changes in the nested shape; each item its updated supplier, paired by ID', async () => {
			const list = suppliers().slice(10, 160);
			const items = list.map((s, i) => ({ json: { id: s.id, city: `City ${i}` } }));
			const { out } = await run(
				{ operation: 'update', updateFields: { city: '={{ $json.city }}', name: 'Renamed' } },
				items,
			);
			const calls = apiRequests(sim);
			expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([
				'PATCH /v1/suppliers',
				'PATCH /v1/suppliers',
			]);
			expect((calls[0].body as IDataObject[])[0]).toEqual({
				id: list[0].id,
				name: 'Renamed',
				supplierDetails: { city: 'City 0' },
			});
			expect(calls.map((r) => (r.body as unknown[]).length)).toEqual([100, 50]);
			expect(out.map((o) => [o.json.id, o.pairedItem])).toEqual(
				list.map((s, i) => [s.id, { item: i }]),
			);
			// The supplier as read (docs/api.md#suppliers-as-read).
			expect(out[149].json).toMatchObject({
				name: 'Renamed',
				address: { city: 'City 149' },
			});
		});

		test('Update with two items, one unknown: one call; the unknown one is its item error, the other updated', async () => {
			const s = suppliers()[5];
			const { out } = await run(
				{ operation: 'update', updateFields: { zipcode: '69001' } },
				itemsOf(['sup_nope', s.id]),
				true,
			);
			expect(apiRequests(sim)).toHaveLength(1);
			expect(out[0].json.error).toBe(
				`Spendesk has no supplier "sup_nope" in company "${CMP}", so it was not changed`,
			);
			expect(out[1].json).toMatchObject({ id: s.id, address: { postalCode: '69001' } });
			expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		});

		test('Update with one item keeps the call for that supplier', async () => {
			const s = suppliers()[6];
			const { out } = await run({ operation: 'update', updateFields: { city: 'Lille' } }, [
				{ json: { id: s.id } },
			]);
			expect(apiRequests(sim).map((r) => `${r.method} ${r.path}`)).toEqual([
				`PATCH /v1/suppliers/${s.id}`,
			]);
			expect(out[0].json).toMatchObject({ id: s.id, address: { city: 'Lille' } });
		});
	},
);
