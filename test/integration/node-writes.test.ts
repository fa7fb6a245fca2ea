/**
 * Node, write operations over real HTTP to the simulator: bulk calls of up to 100 items (one
 * result item per input item, paired with it, in input order), per-item errors of a bulk call
 * with and without Continue On Fail, failed bulk calls never retried and saying what may have
 * been applied, and All Companies refused for every write before any request.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import type { SpendeskSimulator } from '../simulator';
import type { BookkeptPayable } from '../simulator/writes';
import { expectRefusedBeforeAnyRequest, failure, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { apiRequests, AS_GIVEN, prepareNode } from '../support/node';
import { locatorById, oneCompany, plain } from '../support/values';

/** The node on these parameters, ready to run: its first output once called. */
async function execute(
	sim: SpendeskSimulator,
	parameters: IDataObject,
	options: {
		items?: INodeExecutionData[];
		continueOnFail?: boolean;
		onError?: INode['onError'];
		kind?: CredentialKind;
		/** The parameters as given, without n8n's resolution (AS_GIVEN). */
		asGiven?: boolean;
	} = {},
) {
	const node = await prepareNode(sim, options.kind ?? 'orgKey', parameters, {
		items: options.items,
		continueOnFail: options.continueOnFail,
		onError: options.onError,
		...(options.asGiven ? AS_GIVEN : {}),
	});
	return async () => (await node.execute())[0];
}

const payable = (sim: SpendeskSimulator, company: string, index: number) =>
	sim.data(company).payables[index] as BookkeptPayable;
const versionOf = (p: BookkeptPayable) => p.version ?? 1;

/** Marks payables of `company`: one input item per payable, ID and version from the item. */
const MARK: IDataObject = {
	resource: 'payable',
	operation: 'updateBookkeepingStatus',
	companies: 'one',
	company: '={{ $json.companyId }}',
	payableId: locatorById('={{ $json.id }}'),
	version: '={{ $json.version }}',
	bookkeepingStatus: 'exported',
};

function markItems(
	sim: SpendeskSimulator,
	company: string,
	from: number,
	count: number,
): INodeExecutionData[] {
	return Array.from({ length: count }, (_, i) => {
		const p = payable(sim, company, from + i);
		return { json: { companyId: company, id: p.id, version: versionOf(p) } };
	});
}

describe('node: write operations', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			seed: { companies: 5, sizes: { invoices: 5, payables: 700, settlements: 5, intakes: 1 } },
		},
		(started) => (sim = started),
	);

	describe('Payable → Update Bookkeeping Status: batching', () => {
		test('splits 250 items into 3 bulk calls of 100, 100 and 50; one result item per input item, paired, in input order', async () => {
			const items = markItems(sim, 'cmp_002', 0, 250);
			const out = await (await execute(sim, MARK, { items }))();
			const calls = apiRequests(sim);
			expect(calls.map((r) => r.route)).toEqual([
				'updateBookkeepingStatus',
				'updateBookkeepingStatus',
				'updateBookkeepingStatus',
			]);
			expect(calls.map((r) => (r.body as { payables: unknown[] }).payables.length)).toEqual([
				100, 100, 50,
			]);
			for (const call of calls)
				expect(call).toMatchObject({
					method: 'PUT',
					path: '/v1/payables/bookkeeping-status',
					companyId: 'cmp_002',
					status: 200,
				});
			expect((calls[0].body as { payables: IDataObject[] }).payables[0]).toEqual({
				id: items[0].json.id,
				version: 1,
				bookkeepingStatus: 'exported',
			});
			expect(out).toHaveLength(250);
			out.forEach((o, i) => {
				expect(o.pairedItem).toEqual({ item: i });
				expect(o.json).toEqual({
					id: items[i].json.id,
					status: 'updated',
					version: 2,
					bookkeepingStatus: 'exported',
				});
			});
			expect(payable(sim, 'cmp_002', 249)).toMatchObject({
				version: 2,
				bookkeepingStatus: 'exported',
			});
			expect(payable(sim, 'cmp_002', 250).version).toBeUndefined();
		});

		test('items of two companies interleaved: one bulk call per company, output in input order', async () => {
			const a = markItems(sim, 'cmp_003', 0, 3);
			const b = markItems(sim, 'cmp_004', 0, 3);
			const items = [a[0], b[0], a[1], b[1], b[2], a[2]];
			const out = await (
				await execute(
					sim,
					{
						...MARK,
						bookkeepingStatus: 'failedToExport',
						failureReason: '  Unknown ledger account  ',
					},
					{ items },
				)
			)();
			const calls = apiRequests(sim);
			expect(
				calls.map((r) => [
					r.companyId,
					(r.body as { payables: IDataObject[] }).payables.map((p) => p.id),
				]),
			).toEqual([
				['cmp_003', [a[0], a[1], a[2]].map((i) => i.json.id)],
				['cmp_004', [b[0], b[1], b[2]].map((i) => i.json.id)],
			]);
			expect(out.map((o) => o.json.id)).toEqual(items.map((i) => i.json.id));
			expect(out.map((o) => o.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
			for (const o of out)
				expect(o.json).toMatchObject({
					status: 'updated',
					bookkeepingStatus: 'failedToExport',
					failureReason: 'Unknown ledger account',
				});
			// The payable then reads with the state sent.
			expect(payable(sim, 'cmp_004', 2)).toMatchObject({
				bookkeepingStatus: 'failedToExport',
				failureReason: 'Unknown ledger account',
			});
		});

		/** 10 payables of cmp_001 from `from`: item 3 with a stale version, item 6 an unknown payable. */
		function withConflictAndUnknown(from: number): INodeExecutionData[] {
			const items = markItems(sim, 'cmp_001', from, 10);
			items[3] = { json: { ...items[3].json, version: 0 } };
			items[6] = { json: { ...items[6].json, id: 'pay_unknown' } };
			return items;
		}

		test('Continue On Fail: a conflict and a not_found in the middle of a batch are the errors of their items only', async () => {
			const items = withConflictAndUnknown(0);
			const out = await (await execute(sim, MARK, { items, continueOnFail: true }))();
			expect(apiRequests(sim)).toHaveLength(1);
			expect(out).toHaveLength(10);
			expect(out.map((o) => o.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
			expect(out[3].json.error).toBe(
				`Payable "${String(items[3].json.id)}" has changed in Spendesk since it was read`,
			);
			expect(out[3].json.description).toContain('Its current version is 1.');
			expect(out[3].json.description).toContain('use the version from that fresh Get');
			expect(out[6].json.error).toBe('Payable "pay_unknown" was not found in company "cmp_001"');
			for (const i of [0, 1, 2, 4, 5, 7, 8, 9])
				expect(out[i].json).toMatchObject({ id: items[i].json.id, status: 'updated', version: 2 });
			expect(payable(sim, 'cmp_001', 3).version).toBeUndefined();
		});

		test('without Continue On Fail: the node fails naming the item and says which items were applied', async () => {
			const items = withConflictAndUnknown(20);
			const error = await failure((await execute(sim, MARK, { items }))());
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				`Input item 3: Payable "${String(items[3].json.id)}" has changed in Spendesk since it was read`,
			);
			const { description } = error as NodeOperationError;
			expect(description).toContain('Also refused in the same call: item 6.');
			expect(description).toContain('Applied: items 0–2, 4–5, 7–9.');
			expect((error as NodeOperationError).context.itemIndex).toBe(3);
			expect(payable(sim, 'cmp_001', 20)).toMatchObject({
				version: 2,
				bookkeepingStatus: 'exported',
			});
		});

		test('without Continue On Fail: a refused item stops the node before the next bulk call, which is said not sent', async () => {
			const items = markItems(sim, 'cmp_001', 100, 150);
			items[3] = { json: { ...items[3].json, version: 7 } };
			const error = await failure((await execute(sim, MARK, { items }))());
			expect(apiRequests(sim)).toHaveLength(1);
			expect((error as NodeOperationError).description).toContain(
				'Applied: items 0–2, 4–99. Not applied: item 3. Not sent: items 100–149.',
			);
			expect(payable(sim, 'cmp_001', 200).version).toBeUndefined();
		});

		test('a 5xx on a bulk call is not retried; the error says which items may have been applied; later calls are not sent', async () => {
			sim.injectFault({ route: 'updateBookkeepingStatus', kind: 'status', status: 503, times: 5 });
			const items = markItems(sim, 'cmp_002', 300, 150);
			const error = await failure((await execute(sim, MARK, { items }))());
			expect(apiRequests(sim).map((r) => r.status)).toEqual([503]);
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).toBe(
				'Spendesk could not complete Payable → Update Bookkeeping Status for company "cmp_002" (503) (bulk call for items 0–99, may have been applied)',
			);
			const { description } = error as NodeApiError;
			expect(description).toContain(
				'Applied for certain: none. May have been applied: items 0–99 (Spendesk did not confirm their bulk call after it was sent, and it was not retried). Not sent: items 100–149.',
			);
			expect(description).toContain(
				'Running items 0–99 again is safe: a payable that was already updated has a newer version, so Spendesk refuses it as changed since it was read',
			);
			expect(description).not.toContain('check in Spendesk before running it again');
		});

		test('a bulk call that may have been applied between an applied call and an unsent one: one story of applied, maybe applied, not sent and what to do', async () => {
			sim.injectFault({
				route: 'updateBookkeepingStatus',
				kind: 'status',
				status: 503,
				after: 1,
				times: 5,
			});
			const items = markItems(sim, 'cmp_004', 100, 250);
			const error = await failure((await execute(sim, MARK, { items }))());
			expect(apiRequests(sim).map((r) => r.status)).toEqual([200, 503]);
			expect(error.message).toBe(
				'Spendesk could not complete Payable → Update Bookkeeping Status for company "cmp_004" (503) (bulk call for items 100–199, may have been applied)',
			);
			const { description } = error as NodeApiError;
			const story = description!.slice(description!.indexOf('Applied:'));
			expect(story).toBe(
				'Applied: items 0–99. ' +
					'May have been applied: items 100–199 (Spendesk did not confirm their bulk call after it was sent, and it was not retried). ' +
					'Not sent: items 200–249. ' +
					'What to do: Running items 100–199 again is safe: a payable that was already updated has a newer version, so Spendesk refuses it as changed since it was read and does not change it twice. ' +
					'Run items 200–249 again: Spendesk has not applied them. ' +
					'Leave items 0–99 out of the next run. ' +
					"(Item numbers count from 0, as n8n's item index.)",
			);
			expect(description).not.toContain('Nothing was applied');
			expect(description).not.toContain('Nothing of this bulk call');
			expect(description).not.toContain('check in Spendesk before running it again');
			expect(payable(sim, 'cmp_004', 100).version).toBe(2);
			expect(payable(sim, 'cmp_004', 300).version).toBeUndefined();
		});

		test('answers in another order than sent are paired by payable ID: applied updates are results, a conflict stays its own item', async () => {
			sim.injectFault({ route: 'updateBookkeepingStatus', kind: 'reversedAnswers' });
			const items = markItems(sim, 'cmp_004', 400, 5);
			items[1] = { json: { ...items[1].json, version: 0 } };
			const out = await (await execute(sim, MARK, { items, continueOnFail: true }))();
			expect(apiRequests(sim).map((r) => r.fault)).toEqual(['reversedAnswers']);
			expect(out.map((o) => o.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
			for (const i of [0, 2, 3, 4])
				expect(out[i].json).toMatchObject({ id: items[i].json.id, status: 'updated', version: 2 });
			expect(out[1].json.error).toBe(
				`Payable "${String(items[1].json.id)}" has changed in Spendesk since it was read`,
			);
			expect(out.some((o) => String(o.json.error ?? '').includes('no result'))).toBe(false);
		});

		test('Version left empty: one Get per item without a version, then one bulk call with the versions read', async () => {
			const items = markItems(sim, 'cmp_003', 200, 5);
			// Item 1 was marked before: its version is 2 now, and the Get reads it.
			await (
				await execute(sim, MARK, { items: [items[1]] })
			)();
			items[1] = { json: { companyId: 'cmp_003', id: items[1].json.id } };
			items[3] = { json: { companyId: 'cmp_003', id: 'pay_unknown' } };
			items[4] = { json: { ...items[4].json, version: '' } };
			// MARK's Version is the default of the field: the input item's version.
			const out = await (await execute(sim, MARK, { items, continueOnFail: true }))();
			expect(apiRequests(sim).map((r) => [r.route, r.path])).toEqual([
				['getPayable', `/v1/payables/${String(items[1].json.id)}`],
				['getPayable', '/v1/payables/pay_unknown'],
				['getPayable', `/v1/payables/${String(items[4].json.id)}`],
				['updateBookkeepingStatus', '/v1/payables/bookkeeping-status'],
			]);
			const sent = (apiRequests(sim)[3].body as { payables: IDataObject[] }).payables;
			expect(sent.map((p) => [p.id, p.version])).toEqual([
				[items[0].json.id, 1],
				[items[1].json.id, 2],
				[items[2].json.id, 1],
				[items[4].json.id, 1],
			]);
			expect(out.map((o) => o.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
			expect(out[1].json).toMatchObject({ id: items[1].json.id, status: 'updated', version: 3 });
			expect(out[3].json.error).toBe('Payable "pay_unknown" was not found in company "cmp_003"');
			for (const i of [0, 2, 4])
				expect(out[i].json).toMatchObject({ id: items[i].json.id, status: 'updated', version: 2 });
		});

		test('Version left empty for every item of a call that cannot be read: no bulk call', async () => {
			const items = [{ json: { companyId: 'cmp_003', id: 'pay_gone' } }];
			const error = await failure((await execute(sim, MARK, { items }))());
			expect(error.message).toBe(
				'Input item 0: Payable "pay_gone" was not found in company "cmp_003"',
			);
			expect(apiRequests(sim).map((r) => r.route)).toEqual(['getPayable']);
		});

		test('Continue On Fail: a connection reset on the first bulk call makes its 100 items error items; the second call runs', async () => {
			sim.injectFault({ route: 'updateBookkeepingStatus', kind: 'reset' });
			const items = markItems(sim, 'cmp_002', 500, 150);
			const out = await (await execute(sim, MARK, { items, continueOnFail: true }))();
			expect(apiRequests(sim).map((r) => r.fault ?? r.status)).toEqual(['reset', 200]);
			expect(out).toHaveLength(150);
			for (let i = 0; i < 100; i++) {
				expect(out[i].pairedItem).toEqual({ item: i });
				expect(out[i].json.error).toContain('(bulk call for items 0–99, may have been applied)');
			}
			for (let i = 100; i < 150; i++)
				expect(out[i].json).toMatchObject({ id: items[i].json.id, status: 'updated' });
		});

		test('a 4xx on a bulk call says nothing of it was applied', async () => {
			sim.injectFault({
				route: 'updateBookkeepingStatus',
				kind: 'status',
				status: 400,
				detail: 'Bad entry',
				source: 'body.payables[0].id',
			});
			const items = markItems(sim, 'cmp_003', 10, 2);
			const error = await failure((await execute(sim, MARK, { items }))());
			expect(error.message).toContain('(bulk call for items 0–1, not applied)');
			expect((error as NodeApiError).description).toContain(
				'Nothing was applied. Not applied: items 0–1. What to do: Run items 0–1 again once the cause is fixed',
			);
		});

		test('bad input fails before any request; with Continue On Fail only its item is an error and the others are sent', async () => {
			const items = markItems(sim, 'cmp_003', 30, 4);
			items[2] = { json: { ...items[2].json, id: '  ' } };
			items[3] = { json: { ...items[3].json, version: 'two' } };
			await expectRefusedBeforeAnyRequest(
				sim,
				(await execute(sim, MARK, { items }))(),
				"'Payable' is empty",
			);
			const out = await (await execute(sim, MARK, { items, continueOnFail: true }))();
			expect(out.map((o) => o.json.error ?? o.json.status)).toEqual([
				'updated',
				'updated',
				"'Payable' is empty",
				'\'Version\' must be a whole number from 0; got "two"',
			]);
			expect((apiRequests(sim)[0].body as { payables: unknown[] }).payables).toHaveLength(2);
		});

		test('a company-level credential marks payables of its own company', async () => {
			const items = markItems(sim, 'cmp_001', 400, 2).map((i) => ({
				json: { ...i.json, companyId: '' },
			}));
			const out = await (await execute(sim, MARK, { items, kind: 'companyKey' }))();
			expect(out.map((o) => o.json.status)).toEqual(['updated', 'updated']);
			expect(apiRequests(sim)[0].companyId).toBe('cmp_001');
		});
	});

	describe('a write runs on one company: All Companies is never applied to it', () => {
		const WRITES: Array<[string, IDataObject]> = [
			[
				'Payable → Update Bookkeeping Status',
				{
					resource: 'payable',
					operation: 'updateBookkeepingStatus',
					payableId: locatorById('pay_001_000001'),
					version: 1,
				},
			],
			[
				'Settlement → Update Bookkeeping Status',
				{
					resource: 'settlement',
					operation: 'updateBookkeepingStatus',
					settlementId: locatorById('stl_001_000001'),
					bookkeepingStatus: 'exported',
				},
			],
			['Supplier → Create', { resource: 'supplier', operation: 'create', name: 'Acme' }],
			[
				'Supplier → Update',
				{
					resource: 'supplier',
					operation: 'update',
					supplierId: locatorById('sup_001_0001'),
					updateFields: { name: 'Acme' },
				},
			],
			[
				'Intake → Create',
				{
					resource: 'intake',
					operation: 'create',
					intake: '{"supplierName":"x","amount":1,"currency":"EUR"}',
				},
			],
		];
		test.each(WRITES)(
			'%s saved with All Companies (left from a read): n8n drops it, the write goes only to the Company it shows',
			async (_title, params) => {
				const run = await execute(
					sim,
					{ ...params, companies: 'all', company: 'cmp_002' },
					{ continueOnFail: true, items: [{ json: {} }, { json: {} }] },
				);
				await run();
				const sent = apiRequests(sim);
				expect(sent.length).toBeGreaterThan(0);
				expect(sent.map((r) => r.route)).not.toContain('getCompanies');
				expect(new Set(sent.map((r) => r.companyId))).toEqual(new Set(['cmp_002']));
			},
		);

		test.each(WRITES)(
			'%s handed All Companies as given (not by n8n) fails, even with Continue On Fail, and sends nothing',
			async (title, params) => {
				for (const continueOnFail of [false, true]) {
					const run = await execute(
						sim,
						{ ...params, companies: 'all' },
						{ continueOnFail, items: [{ json: {} }, { json: {} }], asGiven: true },
					);
					const error = await expectRefusedBeforeAnyRequest(
						sim,
						run(),
						`${title} writes to one company at a time: All Companies is not allowed`,
					);
					// The write shows no Companies field: the description names the one it shows.
					expect(error.description).toContain("Pick one company in 'Company'");
				}
			},
		);

		test('writes show the Company field alone, without a Companies choice; reads keep All Companies', () => {
			const properties = new Spendesk().description.properties;
			const shownFor = (name: string, resource: string, operation: string) =>
				properties.filter((p) => {
					const show = p.displayOptions?.show ?? {};
					return (
						p.name === name &&
						(show.resource as string[]).includes(resource) &&
						(!show.operation || (show.operation as string[]).includes(operation))
					);
				});
			for (const [, params] of WRITES) {
				const [resource, operation] = [String(params.resource), String(params.operation)];
				expect(shownFor('companies', resource, operation)).toHaveLength(0);
				const company = shownFor('company', resource, operation);
				expect(company).toHaveLength(1);
				expect(company[0].displayOptions?.show?.companies).toBeUndefined();
			}
			for (const [resource, operation] of [
				['payable', 'getAll'],
				['settlement', 'getAll'],
				['intake', 'getAll'],
				['invoice', 'getAll'],
			]) {
				const selectors = shownFor('companies', resource, operation);
				expect(selectors).toHaveLength(1);
				expect(selectors[0].options?.map((o) => (o as { value: string }).value)).toEqual([
					'all',
					'one',
				]);
				const company = shownFor('company', resource, operation);
				expect(company).toHaveLength(1);
				expect(company[0].displayOptions?.show?.companies).toEqual(['one']);
			}
		});
	});

	describe('Settlement → Update Bookkeeping Status', () => {
		test.each([
			['orgKey', 'cmp_002', 'cmp_002'],
			['companyKey', '', 'cmp_001'],
		] as const)(
			"%s: sets the bookkeeping status (the settlement's state) and returns the settlement",
			async (kind, company, target) => {
				const settlement = sim.data(target).settlements[1];
				const out = await (
					await execute(
						sim,
						{
							// Writes have no Companies parameter: the node reads One Company.
							resource: 'settlement',
							operation: 'updateBookkeepingStatus',
							company,
							settlementId: locatorById(` ${settlement.id} `),
							bookkeepingStatus: 'failedToExport',
						},
						{ kind },
					)
				)();
				expect(out).toEqual([
					{
						json: plain<IDataObject>({ ...settlement, state: 'failedToExport' }),
						pairedItem: { item: 0 },
					},
				]);
				expect(apiRequests(sim)).toMatchObject([
					{
						method: 'PUT',
						path: `/v1/settlements/${settlement.id}/state`,
						body: { state: 'failedToExport' },
						companyId: target,
					},
				]);
			},
		);

		test('a bare answer is read too', async () => {
			const settlement = sim.data('cmp_002').settlements[2];
			sim.injectFault({ route: 'updateSettlementState', kind: 'bareObject' });
			const out = await (
				await execute(sim, {
					resource: 'settlement',
					operation: 'updateBookkeepingStatus',
					...oneCompany('cmp_002'),
					settlementId: locatorById(settlement.id),
					bookkeepingStatus: 'failedToExport',
				})
			)();
			expect(apiRequests(sim).map((r) => r.body)).toEqual([{ state: 'failedToExport' }]);
			expect(out.map((o) => o.json)).toEqual([
				plain<IDataObject>({ ...settlement, state: 'failedToExport' }),
			]);
		});

		test('a Bookkeeping Status that is not one of Spendesk\'s values (e.g. "failedExport" from an expression) is refused before any request', async () => {
			const settlement = sim.data('cmp_002').settlements[2];
			const error = await expectRefusedBeforeAnyRequest(
				sim,
				(
					await execute(sim, {
						resource: 'settlement',
						operation: 'updateBookkeepingStatus',
						company: 'cmp_002',
						settlementId: locatorById(settlement.id),
						bookkeepingStatus: 'failedExport',
					})
				)(),
				`'Bookkeeping Status' must be "Exported" or "Failed to Export"; got "failedExport"`,
			);
			expect(error.description).toContain('"failedToExport"');
		});

		test('an unknown settlement is a clear 404; with Continue On Fail an error item', async () => {
			const params = {
				resource: 'settlement',
				operation: 'updateBookkeepingStatus',
				...oneCompany('cmp_002'),
				settlementId: locatorById('stl_nope'),
				bookkeepingStatus: 'exported',
			};
			const error = await failure((await execute(sim, params))());
			expect(error.message).toBe(
				'Spendesk found nothing for Settlement → Update Bookkeeping Status in company "cmp_002" (404)',
			);
			const out = await (await execute(sim, params, { continueOnFail: true }))();
			expect(out[0]).toMatchObject({ json: { error: error.message }, pairedItem: { item: 0 } });
			expect(out[0]).not.toHaveProperty('error');
			// Continue (using error output): n8n's own error field, what sends the item there.
			const routed = await (await execute(sim, params, { onError: 'continueErrorOutput' }))();
			expect(routed[0].error).toBeInstanceOf(NodeOperationError);
			expect(routed[0].error?.message).toBe(error.message);
			expect(routed[0].json).toEqual({ error: error.message });
		});

		test('safe to repeat: a 503 is retried and the state set', async () => {
			sim.injectFault({ route: 'updateSettlementState', kind: 'status', status: 503 });
			const settlement = sim.data('cmp_003').settlements[0];
			const out = await (
				await execute(sim, {
					resource: 'settlement',
					operation: 'updateBookkeepingStatus',
					...oneCompany('cmp_003'),
					settlementId: locatorById(settlement.id),
					bookkeepingStatus: 'exported',
				})
			)();
			expect(apiRequests(sim).map((r) => r.status)).toEqual([503, 200]);
			expect(out[0].json.state).toBe('exported');
		});

		test('an ID of ".." fails before any request', async () => {
			await expectRefusedBeforeAnyRequest(
				sim,
				(
					await execute(sim, {
						resource: 'settlement',
						operation: 'updateBookkeepingStatus',
						...oneCompany('cmp_002'),
						settlementId: locatorById('..'),
						bookkeepingStatus: 'exported',
					})
				)(),
				'\'Settlement\' holds "..", which is not a valid ID',
			);
		});
	});

	describe('Supplier → Create (batched) and Update', () => {
		const CREATE: IDataObject = {
			resource: 'supplier',
			operation: 'create',
			...oneCompany('cmp_004'),
			name: '={{ $json.name }}',
			additionalFields: {
				primaryEmail: '={{ $json.email }}',
				legalName: '={{ $json.legalName }}',
				vatNumber: 'fr 40303265045',
				address: '1 rue de la Paix',
				city: 'Paris',
				zipcode: '75002',
				country: 'fr',
				registrationNumber: '303265045',
				iban: 'FR76 3000 6000 0112 3456 7890 189',
				bic: 'bnpafrpp',
				bankCountry: 'FR',
			},
		};
		const suppliers = (from: number, count: number): INodeExecutionData[] =>
			Array.from({ length: count }, (_, i) => ({
				json: {
					name: `Supplier ${from + i}`,
					legalName: `Supplier ${from + i} SAS`,
					email: `billing${from + i}@example.com`,
				},
			}));
		const sent = (i = 0) => apiRequests(sim)[i].body as IDataObject[];

		test('splits 250 items into 3 bulk calls of 100, 100 and 50, each a JSON array in the nested shape; each item gets the supplier created for it', async () => {
			const items = suppliers(0, 250);
			const before = sim.data('cmp_004').suppliers.length;
			const out = await (await execute(sim, CREATE, { items }))();
			expect(apiRequests(sim).map((r) => (r.body as unknown[]).length)).toEqual([100, 100, 50]);
			expect(sent()[0]).toEqual({
				name: 'Supplier 0',
				primaryEmail: 'billing0@example.com',
				supplierDetails: {
					legalName: 'Supplier 0 SAS',
					vatNumber: 'FR40303265045',
					country: 'FR',
					city: 'Paris',
					zipcode: '75002',
					address: '1 rue de la Paix',
					registrationNumber: '303265045',
				},
				bankInfo: { iban: 'FR7630006000011234567890189', bic: 'BNPAFRPP', bankCountry: 'FR' },
			});
			expect(out).toHaveLength(250);
			const created = sim.data('cmp_004').suppliers.slice(before);
			out.forEach((o, i) => {
				expect(o.pairedItem).toEqual({ item: i });
				expect(o.json).toEqual(plain(created[i]));
				expect(o.json).toMatchObject({
					name: `Supplier ${i}`,
					primaryEmail: `billing${i}@example.com`,
				});
			});
			expect(created).toHaveLength(250);
		});

		test('suppliers answered in another order than sent are paired by name, each item with the supplier created for it', async () => {
			sim.injectFault({ route: 'createSuppliers', kind: 'reversedAnswers' });
			const items = suppliers(700, 3);
			const out = await (await execute(sim, CREATE, { items }))();
			expect(apiRequests(sim).map((r) => r.fault)).toEqual(['reversedAnswers']);
			expect(out.map((o) => [o.pairedItem, o.json.name])).toEqual([
				[{ item: 0 }, 'Supplier 700'],
				[{ item: 1 }, 'Supplier 701'],
				[{ item: 2 }, 'Supplier 702'],
			]);
			const created = sim.data('cmp_004').suppliers.slice(-3);
			expect(out.map((o) => o.json.id)).toEqual(created.map((c) => c.id));
		});

		test('suppliers answered out of order, one without its name, cannot be paired: the call fails saying so, and that they may have been created', async () => {
			sim.injectFault({ route: 'createSuppliers', kind: 'reversedAnswersOneUnnamed' });
			const out = await (
				await execute(sim, CREATE, { items: suppliers(710, 3), continueOnFail: true })
			)();
			expect(out).toHaveLength(3);
			// The names show the answer is out of order, and one result gives no name to pair it by.
			for (const o of out) {
				expect(String(o.json.error)).toBe(
					'Spendesk answered the suppliers in another order than sent, and one result gives no supplier name, so the node cannot tell which input item each supplier belongs to (bulk call for items 0–2, may have been applied)',
				);
				expect(String(o.json.description)).toContain('may have been created');
			}
		});

		test('only the name: nothing else is sent', async () => {
			const out = await (
				await execute(sim, { ...CREATE, additionalFields: {} }, { items: suppliers(50, 1) })
			)();
			expect(sent()).toEqual([{ name: 'Supplier 50' }]);
			expect(out[0].json).toMatchObject({ name: 'Supplier 50', primaryEmail: null });
		});

		test('one supplier, answered { item: supplier } (docs/api.md#bulk-writes), is the item', async () => {
			const out = await (await execute(sim, CREATE, { items: suppliers(60, 1) }))();
			expect(apiRequests(sim)).toHaveLength(1);
			expect(out).toEqual([
				{
					json: plain(sim.data('cmp_004').suppliers.at(-1)!),
					pairedItem: { item: 0 },
				},
			]);
			expect(out[0].json.name).toBe('Supplier 60');
		});

		test('an invalid IBAN, country or email fails before any request; with Continue On Fail only its item is an error', async () => {
			const items = suppliers(300, 4);
			const params = {
				...CREATE,
				additionalFields: {
					iban: '={{ $json.iban }}',
					country: '={{ $json.country }}',
					primaryEmail: '={{ $json.email }}',
				},
			};
			items[1] = { json: { ...items[1].json, iban: 'FR76 0000' } };
			items[2] = { json: { ...items[2].json, country: 'France' } };
			items[3] = { json: { ...items[3].json, email: 'billing at example' } };
			await expectRefusedBeforeAnyRequest(
				sim,
				(await execute(sim, params, { items }))(),
				'\'IBAN\' holds "FR760000", which is not a valid international bank account number',
			);
			const out = await (await execute(sim, params, { items, continueOnFail: true }))();
			expect(out.map((o) => o.json.error ?? o.json.name)).toEqual([
				'Supplier 300',
				'\'IBAN\' holds "FR760000", which is not a valid international bank account number',
				'\'Country\' holds "FRANCE", which is not a two-letter country code',
				'\'Email\' holds "billing at example", which is not an email address',
			]);
		});

		test('a refused bulk call (400) creates nothing and says so for each of its items', async () => {
			sim.injectFault({
				route: 'createSuppliers',
				kind: 'status',
				status: 400,
				detail: 'must NOT have additional properties',
				source: 'body[1].colour',
			});
			const before = sim.data('cmp_004').suppliers.length;
			const out = await (
				await execute(sim, CREATE, { items: suppliers(400, 2), continueOnFail: true })
			)();
			for (const o of out) expect(o.json.error).toContain('(bulk call for items 0–1, not applied)');
			expect(sim.data('cmp_004').suppliers).toHaveLength(before);
		});

		test('a supplier bulk call that may have been applied says which items to check before running again, and never that nothing was applied', async () => {
			sim.injectFault({ route: 'createSuppliers', kind: 'reset' });
			const error = await failure((await execute(sim, CREATE, { items: suppliers(600, 3) }))());
			expect(apiRequests(sim)).toHaveLength(1);
			const { description } = error as NodeApiError;
			expect(error.message).toContain('(bulk call for items 0–2, may have been applied)');
			expect(description!.slice(description!.indexOf('Applied'))).toBe(
				'Applied for certain: none. ' +
					'May have been applied: items 0–2 (Spendesk did not confirm their bulk call after it was sent, and it was not retried). ' +
					'What to do: Do not run items 0–2 again as they are, which may create the same suppliers twice: first search Spendesk for those suppliers by name (Supplier → Get Many), and run again only the ones it does not have. ' +
					"(Item numbers count from 0, as n8n's item index.)",
			);
			expect(description).not.toMatch(/Nothing was applied|run the items again/);
		});

		test('a 5xx is not retried and the error warns that running again may create duplicates', async () => {
			sim.injectFault({ route: 'createSuppliers', kind: 'status', status: 500, times: 3 });
			const error = await failure((await execute(sim, CREATE, { items: suppliers(500, 2) }))());
			expect(apiRequests(sim)).toHaveLength(1);
			expect((error as NodeApiError).description).toContain('may create the same suppliers twice');
		});

		test('Update: sends the fields given in the nested shape, clears a field left empty, returns the supplier', async () => {
			const supplier = sim.data('cmp_002').suppliers[0];
			const out = await (
				await execute(sim, {
					resource: 'supplier',
					operation: 'update',
					...oneCompany('cmp_002'),
					supplierId: locatorById(supplier.id),
					updateFields: {
						name: ' Renamed ',
						vatNumber: 'fr 40303265045',
						city: 'Lyon',
						bic: '',
						primaryEmail: 'ap@renamed.example',
					},
				})
			)();
			expect(apiRequests(sim)).toMatchObject([
				{
					method: 'PATCH',
					path: `/v1/suppliers/${supplier.id}`,
					body: {
						name: 'Renamed',
						primaryEmail: 'ap@renamed.example',
						supplierDetails: { vatNumber: 'FR40303265045', city: 'Lyon' },
						bankInfo: { bic: null },
					},
				},
			]);
			expect(Object.keys(apiRequests(sim)[0].body as IDataObject).sort()).toEqual([
				'bankInfo',
				'name',
				'primaryEmail',
				'supplierDetails',
			]);
			// The supplier as read (docs/api.md#suppliers-as-read).
			expect(out[0].json).toMatchObject({
				id: supplier.id,
				name: 'Renamed',
				vatNo: 'FR40303265045',
				bic: null,
				address: { city: 'Lyon' },
			});
			expect(out[0].pairedItem).toEqual({ item: 0 });
		});

		/** Supplier → Update on cmp_002. */
		const UPDATE_ON_2 = {
			resource: 'supplier',
			operation: 'update',
			...oneCompany('cmp_002'),
		};

		test('Update: a bare answer is read', async () => {
			const base = { ...UPDATE_ON_2, supplierId: locatorById(sim.data('cmp_002').suppliers[1].id) };
			sim.injectFault({ route: 'updateSupplier', kind: 'bareObject' });
			const out = await (await execute(sim, { ...base, updateFields: { city: 'Nantes' } }))();
			expect(out.map((o) => o.json)).toEqual([plain(sim.data('cmp_002').suppliers[1])]);
			expect(out[0].json).toMatchObject({ address: { city: 'Nantes' } });
		});

		test('Update: nothing to change fails before any request; an unknown supplier is a 404', async () => {
			const base = UPDATE_ON_2;
			const empty = await expectRefusedBeforeAnyRequest(
				sim,
				(
					await execute(sim, { ...base, supplierId: locatorById('sup_002_0001'), updateFields: {} })
				)(),
				"Nothing to update: add at least one field to 'Update Fields'",
			);
			expect(empty.description).toContain('Supplier → Archive');
			const unknown = await failure(
				(
					await execute(sim, {
						...base,
						supplierId: locatorById('sup_nope'),
						updateFields: { name: 'x' },
					})
				)(),
			);
			expect(unknown.message).toBe(
				'Spendesk found nothing for Supplier → Update in company "cmp_002" (404)',
			);
		});
	});
});
