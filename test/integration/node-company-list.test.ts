/**
 * Node, the company selector (listSearch `searchCompanies`): drains every page of Get
 * Companies (35 companies, cmp_035 deactivated → 34 over two pages of 30), filters by part
 * of a name or ID, and gives a company-level credential just its own company.
 */
import { searchCompanies } from '../../nodes/Spendesk/methods/listSearch';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import type { Company, SpendeskSimulator } from '../simulator';
import { simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { listSearch } from '../support/node';

const search = (sim: SpendeskSimulator, kind: CredentialKind, filter?: string) =>
	listSearch(sim, kind, searchCompanies, {}, filter);

describe('node: company selector (searchCompanies)', () => {
	let sim: SpendeskSimulator;
	let active: Company[];
	simulatorPerSuite(
		{
			seed: {
				companies: 35,
				sizes: {
					invoices: 1,
					accounts: 1,
					payables: 1,
					settlements: 1,
					analyticalFields: 1,
					analyticalFieldValues: 1,
					expenseCategories: 1,
					intakes: 1,
				},
			},
		},
		(started) => {
			sim = started;
			active = sim.companies().filter((c) => c.active);
		},
	);

	const matching = (needle: string) =>
		active
			.filter(
				(c) =>
					c.id.toLowerCase().includes(needle.toLowerCase()) ||
					c.name.toLowerCase().includes(needle.toLowerCase()),
			)
			.map((c) => c.id);

	test('the seed has 34 active companies (cmp_035 deactivated)', () => {
		expect(active).toHaveLength(34);
		expect(active.some((c) => c.id === 'cmp_035')).toBe(false);
	});

	test('the node exposes searchCompanies as its listSearch method', () => {
		expect(new Spendesk().methods.listSearch.searchCompanies).toBe(searchCompanies);
	});

	test.each(['orgKey', 'oauthOrg'] as const)(
		'%s: every page is drained: 34 companies from page 1 and page 2 of Get Companies',
		async (kind) => {
			const { results } = await search(sim, kind);
			expect(results.map((r) => r.value)).toEqual(active.map((c) => c.id));
			results.forEach((r, i) => {
				expect(r.name).toContain(active[i].name);
				expect(r.name).toContain(active[i].id);
			});
			const calls = sim.requestsTo('getCompanies');
			expect(calls).toHaveLength(2);
			expect(calls.map((r) => r.query.page)).toEqual(['1', '2']);
			for (const r of calls) {
				expect(r.status).toBe(200);
				expect(Number(r.query.pageSize)).toBe(30);
			}
		},
	);

	test.each([
		['Deutschland', ['cmp_002']],
		['acme uk', ['cmp_003']],
		['Subsidiary 03', ['cmp_030', 'cmp_031', 'cmp_032', 'cmp_033', 'cmp_034']],
		[
			'cmp_01',
			[
				'cmp_010',
				'cmp_011',
				'cmp_012',
				'cmp_013',
				'cmp_014',
				'cmp_015',
				'cmp_016',
				'cmp_017',
				'cmp_018',
				'cmp_019',
			],
		],
		['CMP_007', ['cmp_007']],
		['cmp_035', []],
		['no such company', []],
	] as const)(
		'orgKey: filter %j returns exactly the matching companies',
		async (filter, expected) => {
			const { results } = await search(sim, 'orgKey', filter);
			expect(results.map((r) => r.value)).toEqual(expected);
			expect(results.map((r) => r.value)).toEqual(matching(filter));
			// Filtering still drains every page: a match on page 2 is found.
			expect(sim.requestsTo('getCompanies')).toHaveLength(2);
		},
	);

	test('oauthOrg: filter on a company of the second page (cmp_033)', async () => {
		const { results } = await search(sim, 'oauthOrg', 'cmp_033');
		expect(results.map((r) => r.value)).toEqual(['cmp_033']);
	});

	test.each(['companyKey', 'oauthCompany'] as const)(
		'%s: a company-level credential gets just its own company, without listing companies',
		async (kind) => {
			const { results } = await search(sim, kind);
			expect(results.map((r) => r.value)).toEqual(['cmp_001']);
			expect(results[0].name).toContain('cmp_001');
			expect(sim.requestsTo('getCompanies')).toHaveLength(0);
		},
	);
});
