import { SpendeskSimulator } from '../server';
import { api, type ApiResponse, err, ids, token } from './helpers';

describe('body-cursor lists (docs/api.md#body-cursor-lists): Search payables', () => {
	let sim: SpendeskSimulator;
	let org: string;
	const C = 'cmp_003';

	beforeAll(async () => {
		sim = new SpendeskSimulator({ seed: { sizes: { invoices: 3, payables: 45 } } });
		await sim.start();
		org = await token(sim, sim.credentials.orgKey);
	});
	afterAll(async () => {
		await sim.stop();
	});

	const search = (body: Record<string, unknown>, companyId = C): Promise<ApiResponse> =>
		api(sim, org, '/v1/payables/search', { method: 'POST', companyId, body });

	async function drain(
		filters: Record<string, unknown>,
	): Promise<{ items: string[]; calls: ApiResponse[] }> {
		const items: string[] = [];
		const calls: ApiResponse[] = [];
		let cursor: string | null = null;
		for (let i = 0; i < 100; i++) {
			const res = await search(cursor === null ? { ...filters } : { ...filters, cursor });
			if (res.status !== 200)
				throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
			calls.push(res);
			items.push(...ids(res.body.payables));
			cursor = res.body.nextCursor;
			if (cursor === null) return { items, calls };
		}
		throw new Error('runaway');
	}

	test('the limit in the JSON body sets the page size and nextCursor is top-level', async () => {
		const res = await search({ limit: 10 });
		expect(res.status).toBe(200);
		expect(res.body.payables).toHaveLength(10);
		expect(typeof res.body.nextCursor).toBe('string');
		expect(res.body.meta).toBeUndefined();
		expect(res.body).not.toHaveProperty('data');
	});

	test('the default limit is 20', async () => {
		const res = await search({});
		expect(res.status).toBe(200);
		expect(res.body.payables).toHaveLength(20);
		expect(typeof res.body.nextCursor).toBe('string');
	});

	test('the cursor is sent back in the body; union of pages equals the company’s payables', async () => {
		const { items, calls } = await drain({ limit: 10 });
		expect(calls).toHaveLength(5);
		expect(items).toHaveLength(45);
		expect(new Set(items).size).toBe(45);
		expect([...items].sort()).toEqual(ids(sim.data(C).payables).sort());
	});

	test('nextCursor is null on the last page', async () => {
		const { calls } = await drain({ limit: 20 });
		expect(calls).toHaveLength(3);
		const last = calls[2].body;
		expect(last.payables).toHaveLength(5);
		expect(last.nextCursor).toBeNull();
		expect(calls[1].body.nextCursor).not.toBeNull();
	});

	/** The documented filter grammar: an AND (or OR) of equality subfilters, each value a list. */
	const where = (operator: 'and' | 'or', subfilters: Array<[string, unknown[]]>) => ({
		filters: {
			operator,
			subfilters: subfilters.map(([field, value]) => ({ field, operator: '=', value })),
		},
	});

	test('requestor and type subfilters (AND) are respected on every page', async () => {
		// The requester of the most payables, read a payable a page.
		const counts = new Map<string, number>();
		for (const p of sim.data(C).payables) counts.set(p.userId, (counts.get(p.userId) ?? 0) + 1);
		const [requestor] = [...counts].sort((x, y) => y[1] - x[1])[0];
		const { items } = await drain({ limit: 1, ...where('and', [['requestor', [requestor]]]) });
		const expected = sim.data(C).payables.filter((p) => p.userId === requestor);
		expect(expected.length).toBeGreaterThan(1);
		expect([...items].sort()).toEqual(ids(expected).sort());
		const type = expected[0].type;
		const both = await drain({
			limit: 4,
			...where('and', [
				['requestor', [requestor]],
				['type', [type]],
			]),
		});
		const expectedBoth = sim
			.data(C)
			.payables.filter((p) => p.userId === requestor && p.type === type);
		expect(expectedBoth.length).toBeGreaterThan(0);
		expect([...both.items].sort()).toEqual(ids(expectedBoth).sort());
	});

	test('a paymentId subfilter finds the payables of a card payment', async () => {
		const card = sim.data(C).payables.find((p) => p.paymentId !== undefined)!;
		const res = await search({ limit: 5, ...where('and', [['paymentId', [card.paymentId]]]) });
		expect(res.status).toBe(200);
		expect(ids(res.body.payables)).toEqual([card.id]);
		const none = await search({ limit: 5, ...where('and', [['paymentId', ['pmt_none']]]) });
		expect(none.body.payables).toEqual([]);
	});

	test('bookkeepingStatus takes the search’s words: toPrepare, toExport, exported; rows carry their state', async () => {
		const [a, b, c, d] = sim.data(C).payables;
		a.bookkeepingStatus = 'prepared';
		b.bookkeepingStatus = 'exportedManually';
		c.bookkeepingStatus = 'unprepared';
		try {
			const only = (ids: string[]) =>
				where('and', [
					['id', ids],
					['bookkeepingStatus', ['toPrepare']],
				]);
			const toPrepare = await search({ limit: 10, ...only([a.id, b.id, c.id, d.id]) });
			expect(ids(toPrepare.body.payables)).toEqual([c.id, d.id]);
			expect(toPrepare.body.payables.map((p: { state: string }) => p.state)).toEqual([
				'toPrepare',
				'toPrepare',
			]);
			const rest = await search({
				limit: 10,
				...where('and', [
					['id', [a.id, b.id, c.id, d.id]],
					['bookkeepingStatus', ['toExport', 'exported']],
				]),
			});
			expect(rest.body.payables.map((p: { id: string; state: string }) => [p.id, p.state])).toEqual(
				[
					[a.id, 'toExport'],
					[b.id, 'exported'],
				],
			);
			// Get a payable's words are not the search's.
			const getWords = await search({
				limit: 10,
				...where('and', [['bookkeepingStatus', ['created']]]),
			});
			expect(getWords.status).toBe(400);
			expect(err(getWords).source).toBe('body.filters.subfilters[0].value');
		} finally {
			for (const p of [a, b, c]) delete p.bookkeepingStatus;
		}
	});

	test.each(['payableType', 'status'])(
		'a %s subfilter (no source shows one) is a 400',
		async (field) => {
			const res = await search({ limit: 10, ...where('and', [[field, ['x']]]) });
			expect(res.status).toBe(400);
			expect(err(res).source).toBe('body.filters.subfilters[0].field');
		},
	);

	test('OR of subfilters; a value list matches any of its values; id and bookkeepingStatus filter', async () => {
		const [a, b, c] = sim.data(C).payables;
		const res = await search({
			limit: 100,
			...where('or', [
				['id', [a.id, b.id]],
				['id', [c.id]],
			]),
		});
		expect(ids(res.body.payables)).toEqual([a.id, b.id, c.id]);
		const none = await search({
			limit: 100,
			...where('and', [
				['id', [a.id]],
				['bookkeepingStatus', ['exported']],
			]),
		});
		expect(none.body.payables).toEqual([]);
		const notExported = await search({
			limit: 100,
			...where('and', [
				['id', [a.id]],
				['bookkeepingStatus', ['toPrepare']],
			]),
		});
		expect(ids(notExported.body.payables)).toEqual([a.id]);
	});

	test('amounts: major units in a filter, minor units in the answer', async () => {
		const payable = sim.data(C).payables[4];
		const res = await search({
			limit: 100,
			...where('and', [['amount', [payable.amount / 100]]]),
		});
		expect(res.status).toBe(200);
		const found = res.body.payables.find((p: { id: string }) => p.id === payable.id);
		expect(found).toBeDefined();
		// The filter takes major units: 1234 minor units are 12.34.
		expect(found.amount).toBe(payable.amount);
		expect(found).toMatchObject({ version: 1, currency: payable.currency });
	});

	test('sort "desc" lists the newest payables first', async () => {
		const res = await search({ limit: 5, sort: 'desc' });
		expect(ids(res.body.payables)).toEqual(ids(sim.data(C).payables.slice(-5).reverse()));
	});

	test.each([
		['the old flat filters', { status: 'settled' }, 'body.status'],
		[
			'a filters object of another shape',
			{ filters: { status: ['settled'] } },
			'body.filters.status',
		],
		[
			'another operator',
			{ filters: { operator: 'and', subfilters: [{ field: 'id', operator: '!=', value: ['x'] }] } },
			'body.filters.subfilters[0].operator',
		],
		[
			'a value that is not a list',
			{ filters: { operator: 'and', subfilters: [{ field: 'id', operator: '=', value: 'x' }] } },
			'body.filters.subfilters[0].value',
		],
		[
			'an unknown field',
			{
				filters: {
					operator: 'and',
					subfilters: [{ field: 'colour', operator: '=', value: ['x'] }],
				},
			},
			'body.filters.subfilters[0].field',
		],
		['an unknown sort', { sort: 'newest' }, 'body.sort'],
	])('%s is a 400 naming where it is', async (_label, body, source) => {
		const res = await search(body);
		expect(res.status).toBe(400);
		expect(err(res).source).toBe(source);
	});

	test('returned items carry the requested type, each the payable Get a payable answers plus its state', async () => {
		const res = await search({ limit: 100, ...where('and', [['type', ['invoicePurchase']]]) });
		expect(res.status).toBe(200);
		const expected = sim.data(C).payables.filter((p) => p.type === 'invoicePurchase');
		expect(expected.length).toBeGreaterThan(0);
		expect(ids(res.body.payables)).toEqual(ids(expected));
		for (const row of res.body.payables) {
			const one = await api(sim, org, `/v1/payables/${row.id}`, { companyId: C });
			expect(row).toEqual({ ...one.body, state: 'toPrepare' });
		}
		expect(res.body.nextCursor).toBeNull();
	});

	test('the company is placed in X-Company-Id: another company, its own payables', async () => {
		const res = await search({ limit: 100 }, 'cmp_001');
		expect(res.status).toBe(200);
		expect(ids(res.body.payables).sort()).toEqual(ids(sim.data('cmp_001').payables).sort());
	});
});
