/**
 * Node, the analytical field selector (listSearch `searchAnalyticalFields`): the fields of the
 * company chosen in the node, over real HTTP to the simulator; a page at a time, to the end; filtered by name or
 * ID; a company-level credential's own company when Company is empty; no list with All
 * Companies (fields belong to one company).
 */
import type { ILoadOptionsFunctions, IDataObject, INodeListSearchItems } from 'n8n-workflow';
import { searchAnalyticalFields } from '../../nodes/Spendesk/methods/listSearch';
import type { SpendeskSimulator } from '../simulator';
import { contextFor, failure, resetTransport, startSimulator } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { locatorFromList } from '../support/values';

async function search(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	parameters: IDataObject,
	filter?: string,
	paginationToken?: string,
) {
	const { context } = await contextFor(sim, kind, {
		parameters: { resource: 'analyticalField', operation: 'getValues', ...parameters },
	});
	sim.clearLog();
	return await searchAnalyticalFields.call(
		context as unknown as ILoadOptionsFunctions,
		filter,
		paginationToken,
	);
}

/** Every page of the list, as the editor loads them while the user scrolls. */
async function searchToTheEnd(
	sim: SpendeskSimulator,
	kind: CredentialKind,
	parameters: IDataObject,
) {
	const results: INodeListSearchItems[] = [];
	let requests = 0;
	let token: string | undefined;
	do {
		const page = await search(sim, kind, parameters, undefined, token);
		requests += sim.log.filter((r) => r.route.startsWith('listAnalyticalFields')).length;
		results.push(...page.results);
		token = page.paginationToken as string | undefined;
	} while (token !== undefined);
	return { results, requests };
}

describe('node: analytical field selector (searchAnalyticalFields)', () => {
	let sim: SpendeskSimulator;
	beforeAll(async () => {
		// 130 fields per company: two pages of the list (100 per page).
		sim = await startSimulator({
			seed: { sizes: { analyticalFields: 130, analyticalFieldValues: 1 } },
		});
	});
	afterAll(async () => sim.stop());
	beforeEach(() => resetTransport());

	test('lists every field of the chosen company, a page of 100 at a time, as "name (id)"', async () => {
		const parameters = { companyScope: 'one', company: locatorFromList('cmp_002') };
		const first = await search(sim, 'orgKey', parameters);
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toEqual(expect.any(String));
		expect(sim.requestsTo('listAnalyticalFields').map((r) => [r.status, r.companyId])).toEqual([
			[200, 'cmp_002'],
		]);
		const { results, requests } = await searchToTheEnd(sim, 'orgKey', parameters);
		const fields = sim.data('cmp_002').analyticalFields;
		expect(fields).toHaveLength(130);
		expect(results).toEqual(fields.map((f) => ({ name: `${f.name} (${f.id})`, value: f.id })));
		expect(requests).toBe(2);
	});

	test('filters by part of the name or the ID', async () => {
		const field = sim.data('cmp_001').analyticalFields[42];
		const byId = await search(
			sim,
			'orgKey',
			{ companyScope: 'one', company: locatorFromList('cmp_001') },
			field.id.toUpperCase(),
		);
		expect(byId.results.map((r) => r.value)).toContain(field.id);
		expect(
			byId.results.every((r) => String(r.value).toLowerCase().includes(field.id.toLowerCase())),
		).toBe(true);
		const byName = await search(
			sim,
			'orgKey',
			{ companyScope: 'one', company: locatorFromList('cmp_001') },
			field.name,
		);
		expect(byName.results.map((r) => r.value)).toContain(field.id);
	});

	test('a company-level credential with Company left empty lists its own company', async () => {
		const { results } = await searchToTheEnd(sim, 'companyKey', {
			companyScope: 'one',
			company: locatorFromList(''),
		});
		expect(results.map((r) => r.value)).toEqual(
			sim.data('cmp_001').analyticalFields.map((f) => f.id),
		);
		expect(sim.requestsTo('listAnalyticalFields').every((r) => r.companyId === 'cmp_001')).toBe(
			true,
		);
	});

	test('with All Companies there is no list: a clear error, no request', async () => {
		const error = await failure(search(sim, 'orgKey', { companyScope: 'all' }));
		expect(error.message).toBe(
			'Analytical fields belong to one company: choose One Company to pick from the list',
		);
		expect(sim.requestsTo('listAnalyticalFields')).toHaveLength(0);
	});

	test('an organisation credential with no company chosen gets the "Choose a company" error', async () => {
		const error = await failure(
			search(sim, 'orgKey', { companyScope: 'one', company: locatorFromList('') }),
		);
		expect(error.message).toBe(
			'Choose a company: organisation-level credentials must name the company on this call',
		);
	});
});
