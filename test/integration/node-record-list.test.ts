/**
 * Node, the payable and intake selectors (listSearch `searchPayables`, `searchIntakeRecords`)
 * of Payable → Get / Get Attachments and Intake → Upload File: payables up to the first 200 (all
 * pages), intakes one API page per list page (its cursor is the pagination token), filtered by
 * text or ID, the company chosen in the node; no list with All Companies.
 */
import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';
import { searchIntakeRecords, searchPayables } from '../../nodes/Spendesk/methods/recordSearch';
import type { SpendeskSimulator } from '../simulator';
import { contextFor, failure, resetTransport, startSimulator } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { locatorFromList } from '../support/values';

type Method = typeof searchIntakeRecords | typeof searchPayables;

async function search(
	sim: SpendeskSimulator,
	method: Method,
	kind: CredentialKind,
	parameters: IDataObject,
	filter?: string,
	token?: string,
) {
	const { context } = await contextFor(sim, kind, { parameters });
	sim.clearLog();
	return await (method as typeof searchIntakeRecords).call(
		context as unknown as ILoadOptionsFunctions,
		filter,
		token,
	);
}

describe('node: payable and intake selectors', () => {
	let sim: SpendeskSimulator;
	beforeAll(async () => {
		sim = await startSimulator({ seed: { sizes: { invoices: 3, payables: 130, intakes: 4 } } });
	});
	afterAll(async () => sim.stop());
	beforeEach(() => resetTransport());

	test('payables: every page up to 200, as "description, amount currency (id)"', async () => {
		const { results } = await search(sim, searchPayables, 'orgKey', {
			companyScope: 'one',
			company: locatorFromList('cmp_002'),
		});
		const payables = sim.data('cmp_002').payables;
		expect(payables).toHaveLength(130);
		expect(results[0]).toEqual({
			// The search gives minor units (amount × 100); the label shows major units.
			name: `${payables[0].description}, ${payables[0].amount.toFixed(2)} ${payables[0].currency} (${payables[0].id})`,
			value: payables[0].id,
		});
		expect(results.map((r) => r.value)).toEqual(payables.map((p) => p.id));
		expect(sim.requestsTo('searchPayables').every((r) => r.companyId === 'cmp_002')).toBe(true);
	});

	test('payables filtered by ID; intakes of a company-level credential own company', async () => {
		const { results } = await search(
			sim,
			searchPayables,
			'orgKey',
			{ companyScope: 'one', company: locatorFromList('cmp_001') },
			'PAY_001_000007',
		);
		expect(results.map((r) => r.value)).toEqual(['pay_001_000007']);
		const intakes = await search(sim, searchIntakeRecords, 'companyKey', {
			companyScope: 'one',
			company: locatorFromList(''),
		});
		expect(intakes.results.map((r) => r.value)).toEqual(
			sim.data('cmp_001').intakes.map((i) => i.id),
		);
		expect(sim.requestsTo('listIntakes')[0]).toMatchObject({
			path: '/v2/companies/cmp_001/intakes',
			query: { limit: '100' },
		});
	});

	test('no list with All Companies: records belong to one company', async () => {
		const error = await failure(
			search(sim, searchIntakeRecords, 'orgKey', { companyScope: 'all' }),
		);
		expect(error.message).toBe(
			'Intakes belong to one company: choose One Company to pick from the list',
		);
		expect(sim.log).toHaveLength(0);
	});
});
