/**
 * The documented list filters (docs/api.md#filters) through the node, over real HTTP to the
 * simulator, in both profiles: each Filters field reaches the request as Spendesk expects it
 * (query parameters of settlements and suppliers, several values comma-separated; the body of
 * the payables snapshot; the search's subfilters; Bookkeeping Status, Payable Type and Status
 * on the values docs/api.md#filters gives, another value refused before any request;
 * `includeArchived` of the analytical field lists), the results are the records that match,
 * and a payable-date range over 31 days is refused before any request.
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { expectRefusedBeforeAnyRequest, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { apiRequests, runNode } from '../support/node';
import { locatorById, oneCompany } from '../support/values';

const SCOPES = ['experimental:analytical-field:read', 'experimental:payable-search:read'];
const CMP = 'cmp_002';
const one = oneCompany(CMP);

describe.each(['specification', 'documented'] as const)(
	'node: documented list filters (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		simulatorPerSuite(
			{
				profile,
				rateLimit: 10_000,
				snapshotPendingPolls: 0,
				seed: {
					companies: 3,
					sizes: { invoices: 1, payables: 60, settlements: 40, suppliers: 30 },
				},
				grantScopes: { 'sim-org-client': SCOPES, 'sim-company-client': SCOPES },
			},
			(started) => (sim = started),
		);

		const run = (params: IDataObject, kind: CredentialKind = 'orgKey') =>
			runNode(sim, kind, { ...one, returnAll: true, ...params });

		test('Settlement → Get Many: Exported After, Paid From, State and Settlement IDs reach the query; the matching settlements come back', async () => {
			const list = sim.data(CMP).settlements;
			list.forEach((s, i) => {
				s.paidFrom = i % 2 ? 'externalAccount' : 'spendeskAccount';
				if (i % 3 === 0) {
					s.state = 'exported';
					s.exportedAt = `2026-02-${String(1 + (i % 27)).padStart(2, '0')}T10:00:00.000Z`;
				} else if (i % 3 === 1) s.state = 'failedToExport';
			});
			const { out } = await run({
				resource: 'settlement',
				operation: 'getAll',
				filters: {
					exportedAfter: '2026-02-05T00:00:00Z',
					paidFrom: ['externalAccount'],
					bookkeepingStatus: ['exported', 'failedToExport'],
				},
			});
			expect(apiRequests(sim)[0].query).toMatchObject({
				exportedAfter: '2026-02-05T00:00:00.000Z',
				paidFrom: 'externalAccount',
			});
			// Several values: the parameter repeated, as Spendesk's settlements list reads them.
			expect(apiRequests(sim)[0].queryRepeated).toEqual({
				state: ['exported', 'failedToExport'],
			});
			const expected = list.filter(
				(s) =>
					s.paidFrom === 'externalAccount' &&
					s.exportedAt !== null &&
					s.exportedAt > '2026-02-05T00:00:00.000Z',
			);
			expect(expected.length).toBeGreaterThan(0);
			expect(out.map((o) => o.json.id)).toEqual(expected.map((s) => s.id));

			const ids = [list[3].id, list[7].id];
			const byId = await run({
				resource: 'settlement',
				operation: 'getAll',
				filters: { ids: ` ${ids[0]}, ${ids[1]} ` },
			});
			expect(apiRequests(sim)[0].queryRepeated).toEqual({ ids });
			expect(byId.out.map((o) => o.json.id)).toEqual(ids);
		});

		test.each([
			['desc', '-createdAt', true],
			['asc', '+createdAt', false],
		])(
			'Settlement → Get Many: a Sort rule %s reaches the query as %s and orders the settlements',
			async (direction, sort, newestFirst) => {
				const list = sim.data(CMP).settlements.map((s) => s.id);
				const { out } = await run({
					resource: 'settlement',
					operation: 'getAll',
					sort: { rule: { direction } },
				});
				expect(apiRequests(sim).map((r) => r.query.sort)).toEqual(apiRequests(sim).map(() => sort));
				expect(out.map((o) => o.json.id)).toEqual(newestFirst ? [...list].reverse() : list);
			},
		);

		test('Settlement → Get Many: without Sort no sort is sent; a Sort Spendesk does not know fails before any request', async () => {
			await run({ resource: 'settlement', operation: 'getAll' });
			expect(apiRequests(sim)[0].query).not.toHaveProperty('sort');
			await expectRefusedBeforeAnyRequest(
				sim,
				run({
					resource: 'settlement',
					operation: 'getAll',
					sort: { rule: { direction: 'amount' } },
				}),
				'\'Direction\': "amount" is not one of the values Spendesk knows',
			);
		});

		test('Settlement → Get Many: a bookkeeping status Spendesk does not know fails before any request', async () => {
			await expectRefusedBeforeAnyRequest(
				sim,
				run({
					resource: 'settlement',
					operation: 'getAll',
					filters: { bookkeepingStatus: 'paid' },
				}),
				'\'Bookkeeping Status\': "paid" is not one of the values Spendesk knows',
			);
		});

		test('Supplier → Get Many: IDs, created and updated ranges, bank country, IBAN and VAT number reach the query', async () => {
			const list = sim.data(CMP).suppliers;
			const target = list[4];
			const { out } = await run({
				resource: 'supplier',
				operation: 'getAll',
				filters: {
					ids: `${target.id},${list[5].id}`,
					createdAfter: '2000-01-01T00:00:00Z',
					createdBefore: '2100-01-01T00:00:00Z',
					updatedAfter: '2000-01-01T00:00:00Z',
					updatedBefore: '2100-01-01T00:00:00Z',
					vatNumber: target.vatNo ?? '',
					iban: target.iban ?? '',
					bankCountry: (target.iban ?? 'fr').slice(0, 2).toLowerCase(),
				},
			});
			expect(apiRequests(sim)[0].query).toMatchObject({
				ids: `${target.id},${list[5].id}`,
				createdAfter: '2000-01-01T00:00:00.000Z',
				createdBefore: '2100-01-01T00:00:00.000Z',
				updatedAfter: '2000-01-01T00:00:00.000Z',
				updatedBefore: '2100-01-01T00:00:00.000Z',
				...(target.vatNo ? { vatNumber: target.vatNo } : {}),
				...(target.iban ? { iban: target.iban, bankCountry: target.iban.slice(0, 2) } : {}),
			});
			expect(out.map((o) => o.json.id)).toEqual([target.id]);
		});

		test('Payable → Get Many as Snapshot: the filters and the sort of Options go in the snapshot body', async () => {
			const payables = sim.data(CMP).payables;
			const ids = payables.slice(0, 5).map((p) => p.id);
			const { out } = await run({
				resource: 'payable',
				operation: 'getAllSnapshot',
				filters: {
					bookkeepingStatus: ['created'],
					ids: ids.join(', '),
					createdFrom: '2000-01-01T00:00:00Z',
					createdTo: '2100-01-01T00:00:00Z',
					updatedFrom: '2000-01-01T00:00:00Z',
					fromPayableDate: '2025-12-20T00:00:00Z',
					toPayableDate: '2026-01-20T00:00:00Z',
				},
				sort: { rule: { field: 'createdAt', direction: 'desc' } },
			});
			expect(sim.requestsTo('createPayablesSnapshot')[0].body).toEqual({
				bookkeepingStatus: ['created'],
				ids,
				createdFrom: '2000-01-01T00:00:00.000Z',
				createdTo: '2100-01-01T00:00:00.000Z',
				updatedFrom: '2000-01-01T00:00:00.000Z',
				fromPayableDate: '2025-12-20T00:00:00.000Z',
				toPayableDate: '2026-01-20T00:00:00.000Z',
				sortBy: 'createdAt',
				sortOrder: 'desc',
			});
			// Newest first: the order of the IDs reversed, those dated in the range.
			const got = out.map((o) => o.json.id);
			expect(got.length).toBeGreaterThan(1);
			expect(got).toEqual([...got].sort().reverse());
			expect(got.every((id) => ids.includes(String(id)))).toBe(true);
		});

		test.each([
			[
				'fields',
				{
					filters: {
						fromPayableDate: '2026-01-01T00:00:00Z',
						toPayableDate: '2026-02-02T00:00:00Z',
					},
				},
				"'Payable Date From' and 'Payable Date To' are 32 days apart: Spendesk allows at most 31",
			],
			[
				'JSON',
				{
					filterMode: 'json',
					filtersJson: '{"fromPayableDate": "2026-01-01", "toPayableDate": "2026-03-01"}',
				},
				"'fromPayableDate' and 'toPayableDate' are 59 days apart: Spendesk allows at most 31",
			],
		])(
			'Payable → Get Many as Snapshot: a payable-date range over 31 days (%s) is refused before any request',
			async (_, params, message) => {
				const error = await expectRefusedBeforeAnyRequest(
					sim,
					run({ resource: 'payable', operation: 'getAllSnapshot', ...params }),
					message,
				);
				expect(error.description).toContain('Nothing was sent. Narrow');
			},
		);

		test("Payable → Get Many: Bookkeeping Status takes the search's words (toExport, exported, toPrepare) and finds those payables", async () => {
			const payables = sim.data(CMP).payables;
			const set = { exported: payables.slice(10, 12), failedToExport: payables.slice(12, 13) };
			for (const [status, list] of Object.entries(set))
				for (const p of list) p.bookkeepingStatus = status;
			try {
				const search = (bookkeepingStatus: string[]) =>
					run({
						resource: 'payable',
						operation: 'getAll',
						filterMode: 'fields',
						filters: { bookkeepingStatus },
					});
				const changed = await search(['exported', 'toExport']);
				expect(apiRequests(sim)[0].body).toEqual({
					limit: 100,
					filters: {
						operator: 'and',
						subfilters: [
							{ field: 'bookkeepingStatus', operator: '=', value: ['exported', 'toExport'] },
						],
					},
				});
				// failedToExport waits for another export: the search counts it to export.
				expect(changed.out.map((o) => o.json.id)).toEqual(payables.slice(10, 13).map((p) => p.id));
				const untouched = await search(['toPrepare']);
				expect(untouched.out.map((o) => o.json.id)).toEqual(
					[...payables.slice(0, 10), ...payables.slice(13)].map((p) => p.id),
				);
			} finally {
				for (const p of payables.slice(10, 13)) delete p.bookkeepingStatus;
			}
		});

		test('Payable → Get Many: a Bookkeeping Status Spendesk does not know is refused before any request, naming the values', async () => {
			// Get a payable's words are not the search's.
			const error = await expectRefusedBeforeAnyRequest(
				sim,
				run({
					resource: 'payable',
					operation: 'getAll',
					filterMode: 'fields',
					filters: { bookkeepingStatus: ['exported', 'prepared'] },
				}),
				'\'Bookkeeping Status\': "prepared" is not one of the values Spendesk knows',
			);
			expect(error.description).toBe(
				"Choose from the list in 'Bookkeeping Status' (an expression must give exported, toExport, toPrepare).",
			);
		});

		test.each(['getAll', 'getAllSnapshot'])(
			'Payable → Get Many (%s): Payable Type finds exactly the payables of the types chosen, sent as `type`',
			async (operation) => {
				const payables = sim.data(CMP).payables;
				const chosen = ['expenseClaim', 'mileageAllowance'];
				const wanted = payables.filter((p) => chosen.includes(p.type)).map((p) => p.id);
				const { out } = await run({
					resource: 'payable',
					operation,
					filterMode: 'fields',
					filters: { type: chosen },
				});
				expect(wanted.length).toBeGreaterThan(0);
				expect(wanted.length).toBeLessThan(payables.length);
				expect(out.map((o) => o.json.id).sort()).toEqual([...wanted].sort());
				if (operation === 'getAll')
					expect(apiRequests(sim)[0].body).toEqual({
						limit: 100,
						filters: {
							operator: 'and',
							subfilters: [{ field: 'type', operator: '=', value: chosen }],
						},
					});
				else expect(sim.requestsTo('createPayablesSnapshot')[0].body).toEqual({ type: chosen });
			},
		);

		test('Payable → Get Many: Requester IDs and Payment IDs find the payables a user submitted and those of a card payment', async () => {
			const payables = sim.data(CMP).payables;
			const card = payables.find((p) => p.paymentId !== undefined)!;
			const byPayment = await run({
				resource: 'payable',
				operation: 'getAll',
				filterMode: 'fields',
				filters: { paymentId: card.paymentId },
			});
			expect(byPayment.out.map((o) => o.json.id)).toEqual([card.id]);
			const requester = payables[0].userId;
			const byRequester = await run({
				resource: 'payable',
				operation: 'getAll',
				filterMode: 'fields',
				filters: { requestor: requester },
			});
			expect(apiRequests(sim)[0].body).toMatchObject({
				filters: {
					operator: 'and',
					subfilters: [{ field: 'requestor', operator: '=', value: [requester] }],
				},
			});
			expect(byRequester.out.map((o) => o.json.id)).toEqual(
				payables.filter((p) => p.userId === requester).map((p) => p.id),
			);
		});

		test.each([
			[
				'getAll',
				'type',
				'Payable Type',
				'card_purchase',
				'creditNote, expenseClaim, invoicePurchase, mileageAllowance, perDiemAllowance, physicalCard, reverseBill, singlePurchaseCard, subscriptionCard',
			],
			[
				'getAll',
				'bookkeepingStatus',
				'Bookkeeping Status',
				'created',
				'exported, toExport, toPrepare',
			],
			[
				'getAllSnapshot',
				'type',
				'Payable Type',
				'invoice',
				'creditNote, expenseClaim, invoicePurchase, mileageAllowance, perDiemAllowance, physicalCard, reverseBill, singlePurchaseCard, subscriptionCard',
			],
			[
				'getAllSnapshot',
				'bookkeepingStatus',
				'Bookkeeping Status',
				'toExport',
				'created, exported, exportedManually, failedToExport, prepared, unprepared',
			],
		])(
			'Payable → Get Many (%s): a %s Spendesk does not know is refused before any request, naming the values',
			async (operation, field, label, wrong, values) => {
				const error = await expectRefusedBeforeAnyRequest(
					sim,
					run({
						resource: 'payable',
						operation,
						filterMode: 'fields',
						// As an expression gives it: text, separated by commas.
						filters: { [field]: `${wrong}, ${values.split(', ')[0]}` },
					}),
					`'${label}': "${wrong}" is not one of the values Spendesk knows`,
				);
				expect(error.description).toBe(
					`Choose from the list in '${label}' (an expression must give ${values}).`,
				);
			},
		);

		test('Payable → Get Many as Snapshot: 31 days exactly are sent', async () => {
			await run({
				resource: 'payable',
				operation: 'getAllSnapshot',
				filters: {
					fromPayableDate: '2026-01-01T00:00:00Z',
					toPayableDate: '2026-02-01T00:00:00Z',
				},
			});
			expect(sim.requestsTo('createPayablesSnapshot')).toHaveLength(1);
		});

		test('Analytical Field → Get Many and Get Many Values: Include Archived sends includeArchived=true and lists the archived ones (company-level key, v1)', async () => {
			const fields = sim.data('cmp_001').analyticalFields;
			fields[0].isArchived = true;
			fields[1].values[0].isArchived = true;
			const base = { ...oneCompany(), resource: 'analyticalField' };
			const without = await runNode(sim, 'companyKey', {
				...base,
				operation: 'getAll',
				returnAll: true,
			});
			expect(without.out.map((o) => o.json.id)).not.toContain(fields[0].id);
			expect(apiRequests(sim)[0].query).not.toHaveProperty('includeArchived');
			const withArchived = await runNode(sim, 'companyKey', {
				...base,
				operation: 'getAll',
				returnAll: true,
				filters: { includeArchived: true },
			});
			expect(apiRequests(sim)[0].query).toMatchObject({ includeArchived: 'true' });
			expect(withArchived.out.map((o) => o.json.id)).toEqual(fields.map((f) => f.id));
			const values = await runNode(sim, 'companyKey', {
				...base,
				operation: 'getValues',
				fieldId: locatorById(fields[1].id),
				returnAll: true,
				filters: { includeArchived: true },
			});
			expect(apiRequests(sim)[0]).toMatchObject({
				path: `/v1/analytical-fields/${fields[1].id}/values`,
				query: { includeArchived: 'true' },
			});
			expect(values.out.map((o) => o.json.id)).toEqual(fields[1].values.map((v) => v.id));
		});
	},
);
