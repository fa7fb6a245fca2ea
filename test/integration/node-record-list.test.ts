/**
 * Node, the record selectors (listSearch `searchPayables`, `searchSettlements`,
 * `searchIntakeRecords`) of Payable → Get / Get Attachments / Update Bookkeeping Status,
 * Settlement → Update Bookkeeping Status and Intake → Upload File: a page of the list at a time (API pages
 * read until 100 records match, 10 at most), the token of the next API page as the pagination
 * token so the editor reads on to the end; filtered by text or ID, the company chosen in the
 * node; no list with All Companies.
 */
import type { IDataObject } from 'n8n-workflow';
import {
	searchIntakeRecords,
	searchPayables,
	searchSettlements,
} from '../../nodes/Spendesk/methods/recordSearch';
import type { SpendeskSimulator } from '../simulator';
import { expectRefusedBeforeAnyRequest, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { locatorFromList, oneCompany } from '../support/values';
import { listSearch } from '../support/node';

type Method = typeof searchIntakeRecords | typeof searchPayables | typeof searchSettlements;

const search = (
	sim: SpendeskSimulator,
	method: Method,
	kind: CredentialKind,
	parameters: IDataObject,
	filter?: string,
	token?: string,
) => listSearch(sim, kind, method, { parameters }, filter, token);

describe('node: payable and intake selectors', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite(
		{
			seed: { sizes: { invoices: 3, payables: 130, intakes: 4, settlements: 400 } },
		},
		(started) => (sim = started),
	);

	test('payables: a page of the list at a time, to the end, as "description, amount currency (id)"', async () => {
		const company = oneCompany(locatorFromList('cmp_002'));
		const first = await search(sim, searchPayables, 'orgKey', company);
		const payables = sim.data('cmp_002').payables;
		expect(payables).toHaveLength(130);
		// The seed's currencies have two decimals.
		expect(['EUR', 'USD', 'GBP']).toContain(payables[0].currency);
		const major = (minor: number) =>
			(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
		expect(first.results[0]).toEqual({
			// The search gives minor units (1234); the label shows major units (EUR 12.34).
			name: `${payables[0].description}, ${payables[0].currency} ${major(payables[0].amount)} (${payables[0].id})`,
			value: payables[0].id,
		});
		// One API page of 100 fills the list's first page; its cursor is the token of the next.
		expect(first.results.map((r) => r.value)).toEqual(payables.slice(0, 100).map((p) => p.id));
		expect(sim.requestsTo('searchPayables')).toHaveLength(1);
		expect(first.paginationToken).toEqual(expect.any(String));
		const second = await search(
			sim,
			searchPayables,
			'orgKey',
			company,
			undefined,
			first.paginationToken as string,
		);
		expect(second.results.map((r) => r.value)).toEqual(payables.slice(100).map((p) => p.id));
		expect(second.paginationToken).toBeUndefined();
		expect(sim.requestsTo('searchPayables')).toHaveLength(1);
		expect(sim.requestsTo('searchPayables')[0].body).toMatchObject({
			limit: 100,
			cursor: first.paginationToken,
		});
		expect(sim.requestsTo('searchPayables').every((r) => r.companyId === 'cmp_002')).toBe(true);
	});

	test('settlements (page list): pages of 30 read until 100 match, the next page number as the token, to the end', async () => {
		const company = oneCompany(locatorFromList('cmp_001'));
		const settlements = sim.data('cmp_001').settlements;
		expect(settlements).toHaveLength(400);
		const seen: string[] = [];
		const calls: number[] = [];
		let token: string | undefined;
		do {
			const page = await search(sim, searchSettlements, 'orgKey', company, undefined, token);
			seen.push(...page.results.map((r) => String(r.value)));
			calls.push(sim.requestsTo('listSettlements').length);
			token = page.paginationToken as string | undefined;
		} while (token !== undefined);
		expect(seen).toEqual(settlements.map((s) => s.id));
		// 4 pages (120 settlements) a list page, until the last 40.
		expect(calls).toEqual([4, 4, 4, 2]);
		const [first] = (await search(sim, searchSettlements, 'orgKey', company)).results;
		expect(first).toEqual({
			// Minor units shown in major ones with the currency first (EUR, GBP, USD: two digits).
			name: `${settlements[0].currency} ${(settlements[0].amount / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}, ${settlements[0].createdAt.slice(0, 10)} (${settlements[0].id})`,
			value: settlements[0].id,
		});
	});

	test('a filter that matches few: at most 10 API pages a list page, and the list goes on from there', async () => {
		const company = oneCompany(locatorFromList('cmp_001'));
		const last = sim.data('cmp_001').settlements[399].id;
		const first = await search(sim, searchSettlements, 'orgKey', company, last);
		expect(first.results).toEqual([]);
		expect(sim.requestsTo('listSettlements')).toHaveLength(10);
		expect(first.paginationToken as string).toBe('11');
		const rest = await search(
			sim,
			searchSettlements,
			'orgKey',
			company,
			last,
			first.paginationToken as string,
		);
		expect(rest.results.map((r) => r.value)).toEqual([last]);
		expect(rest.paginationToken).toBeUndefined();
	});

	test('payables filtered by ID; intakes of a company-level credential own company', async () => {
		const { results } = await search(
			sim,
			searchPayables,
			'orgKey',
			oneCompany(locatorFromList('cmp_001')),
			'PAY_001_000007',
		);
		expect(results.map((r) => r.value)).toEqual(['pay_001_000007']);
		const intakes = await search(
			sim,
			searchIntakeRecords,
			'companyKey',
			oneCompany(locatorFromList('')),
		);
		expect(intakes.results.map((r) => r.value)).toEqual(
			sim.data('cmp_001').intakes.map((i) => i.id),
		);
		expect(sim.requestsTo('listIntakes')[0]).toMatchObject({
			path: '/v2/companies/cmp_001/intakes',
			query: { limit: '100' },
		});
	});

	test('no list with All Companies: records belong to one company', async () => {
		await expectRefusedBeforeAnyRequest(
			sim,
			search(sim, searchIntakeRecords, 'orgKey', { companies: 'all' }),
			'Intakes belong to one company: choose One Company to pick from the list',
		);
	});
});
