import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import type { SpendeskSimulator } from '../simulator';
import { contextFor, simulatorPerSuite } from '../support/fixtures';
import { prepareNode } from '../support/node';
import { locatorFromList, oneCompany } from '../support/values';

describe('node smoke', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({ seed: { sizes: { invoices: 30 } } }, (started) => (sim = started));

	test('all companies invoices with limit 5', async () => {
		const { context, hints } = await contextFor(sim, 'orgKey', {
			parameters: {
				resource: 'invoice',
				operation: 'getAll',
				companies: 'all',
				returnAll: false,
				limit: 5,
				filters: '{}',
			},
		});
		const [out] = await new Spendesk().execute.call(context as never);
		const active = sim.companies().filter((c) => c.active);
		expect(out).toHaveLength(5 * active.length);
		for (const c of active) {
			const mine = out.filter((o) => o.json.companyId === c.id);
			expect(mine.map((o) => o.json.id)).toEqual(
				sim
					.invoicesSorted(c.id, 'updatedAt', 'desc')
					.slice(0, 5)
					.map((i) => i.id),
			);
			expect(mine[0].json.companyName).toBe(c.name);
		}
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(hints).toHaveLength(1);
	});

	test('the harness hands the node its parameters as n8n resolves them: defaults filled in, fields not shown left out', async () => {
		const { context } = await prepareNode(sim, 'orgKey', {
			resource: 'invoice',
			operation: 'getAll',
			...oneCompany('cmp_001'),
			returnAll: true,
			// Not shown with Return All on, nor is an option the description does not have.
			limit: 7,
			sortBy: 'createdAt',
			options: { notAnOption: true },
			sort: { rule: { field: 'createdAt', direction: 'asc' } },
		});
		const read = (name: string) => context.getNodeParameter(name, 0, 'absent');
		expect(read('limit')).toBe('absent');
		expect(read('sortBy')).toBe('absent');
		expect(read('options')).toBe('absent');
		expect(read('sort')).toEqual({ rule: { field: 'createdAt', direction: 'asc' } });
		expect(read('filters')).toBe('{}');
		expect(read('companies')).toBe('one');
	});

	test('the harness reads extractValue as n8n does: a locator gives its value, a field not shown is an error', async () => {
		const base = { resource: 'invoice', operation: 'getAll', returnAll: true, filters: '{}' };
		const one = await prepareNode(sim, 'orgKey', {
			...base,
			...oneCompany(locatorFromList('cmp_002')),
		});
		expect(one.context.getNodeParameter('company', 0, '', { extractValue: true })).toBe('cmp_002');
		// With All Companies the Company field is not shown: n8n fails even with a fallback.
		const all = await prepareNode(sim, 'orgKey', { ...base, companies: 'all' });
		expect(() => all.context.getNodeParameter('company', 0, '', { extractValue: true })).toThrow(
			'Could not find property',
		);
	});

	test("the harness evaluates the item's expressions with n8n's engine: inside locators too, and undefined stays undefined", async () => {
		const { context, execute } = await prepareNode(
			sim,
			'orgKey',
			{
				resource: 'invoice',
				operation: 'getAll',
				companies: 'one',
				company: { __rl: true, mode: 'id', value: '={{ $json.companies[1] }}' },
				returnAll: false,
				limit: '={{ $json.n * 2 }}',
				sort: { rule: { field: '={{ $json.missing }}', direction: 'desc' } },
				filters: '{}',
			},
			{ items: [{ json: { companies: ['cmp_001', 'cmp_002'], n: 3 } }] },
		);
		expect(context.getNodeParameter('company', 0, '', { extractValue: true })).toBe('cmp_002');
		expect(context.getNodeParameter('limit', 0, 50)).toBe(6);
		// An expression that gives undefined is not replaced by the fallback (n8n-core's behaviour).
		expect(context.getNodeParameter('sort.rule.field', 0, 'createdAt')).toBeUndefined();
		const out = await execute();
		expect(out[0]).toHaveLength(6);
		expect(sim.log.filter((r) => r.route === 'listInvoices').map((r) => r.companyId)).toEqual([
			'cmp_002',
		]);
	});
});
