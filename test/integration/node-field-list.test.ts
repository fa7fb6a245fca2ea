/**
 * Node, the analytical field selector (listSearch `searchAnalyticalFields`): the fields of the
 * company chosen in the node, over real HTTP to the simulator; a page at a time, to the end; filtered by name or
 * ID; a company-level credential's own company when Company is empty; no list with All
 * Companies (fields belong to one company). And the value selector beside it
 * (`searchAnalyticalFieldValues`): the values of the field chosen in the same row.
 */
import type { IDataObject, INodeListSearchItems } from 'n8n-workflow';
import {
	searchAnalyticalFields,
	searchAnalyticalFieldValues,
} from '../../nodes/Spendesk/methods/listSearch';
import type { SpendeskSimulator } from '../simulator';
import { expectRefusedBeforeAnyRequest, failure, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { locatorById, locatorFromList, oneCompany } from '../support/values';
import { listSearch } from '../support/node';

const search = (
	sim: SpendeskSimulator,
	kind: CredentialKind,
	parameters: IDataObject,
	filter?: string,
	paginationToken?: string,
) =>
	listSearch(
		sim,
		kind,
		searchAnalyticalFields,
		{ parameters: { resource: 'analyticalField', operation: 'getValues', ...parameters } },
		filter,
		paginationToken,
	);

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
	// 130 fields per company: two pages of the list (100 per page).
	simulatorPerSuite(
		{
			seed: { sizes: { analyticalFields: 130, analyticalFieldValues: 1 } },
		},
		(started) => (sim = started),
	);

	test('lists every field of the chosen company, a page of 100 at a time, as "name (id)"', async () => {
		const parameters = oneCompany(locatorFromList('cmp_002'));
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
			oneCompany(locatorFromList('cmp_001')),
			field.id.toUpperCase(),
		);
		expect(byId.results.map((r) => r.value)).toContain(field.id);
		expect(
			byId.results.every((r) => String(r.value).toLowerCase().includes(field.id.toLowerCase())),
		).toBe(true);
		const byName = await search(sim, 'orgKey', oneCompany(locatorFromList('cmp_001')), field.name);
		expect(byName.results.map((r) => r.value)).toContain(field.id);
	});

	test('a company-level credential with Company left empty lists its own company', async () => {
		const { results } = await searchToTheEnd(sim, 'companyKey', oneCompany(locatorFromList('')));
		expect(results.map((r) => r.value)).toEqual(
			sim.data('cmp_001').analyticalFields.map((f) => f.id),
		);
		expect(sim.requestsTo('listAnalyticalFields').every((r) => r.companyId === 'cmp_001')).toBe(
			true,
		);
	});

	test('with All Companies there is no list: a clear error, no request', async () => {
		await expectRefusedBeforeAnyRequest(
			sim,
			search(sim, 'orgKey', { companies: 'all' }),
			'Analytical fields belong to one company: choose One Company to pick from the list',
		);
	});

	test('an organisation credential with no company chosen gets the "Choose a company" error', async () => {
		const error = await failure(search(sim, 'orgKey', oneCompany(locatorFromList(''))));
		expect(error.message).toBe(
			'Choose a company: organisation-level credentials must name the company on this call',
		);
	});
});

describe('node: analytical field value selector (searchAnalyticalFieldValues)', () => {
	let sim: SpendeskSimulator;
	// 140 values per field.
	simulatorPerSuite(
		{
			seed: { sizes: { analyticalFields: 3, analyticalFieldValues: 140 } },
		},
		(started) => (sim = started),
	);

	/**
	 * The values listed for the Value of row `row` of a parameter, as the editor asks for them:
	 * the method runs for that Value (`path`), and reads the row's field beside it.
	 */
	const values = (
		kind: CredentialKind,
		parameters: IDataObject,
		path: string,
		filter?: string,
		paginationToken?: string,
	) =>
		listSearch(
			sim,
			kind,
			searchAnalyticalFieldValues,
			{ parameters, path },
			filter,
			paginationToken,
		);

	const PURCHASE_ORDER = { resource: 'purchaseOrder', operation: 'create', company: 'cmp_002' };
	const customFields = (...fieldIds: string[]) => ({
		customFields: {
			field: fieldIds.map((id) => ({ fieldId: locatorFromList(id), valueId: locatorFromList('') })),
		},
	});

	test('Purchase Order → Create: the values of the row\'s own field, as "name (id)" (an API page holds up to 1,000)', async () => {
		const [first, second] = sim.data('cmp_002').analyticalFields;
		const parameters = { ...PURCHASE_ORDER, ...customFields(first.id, second.id) };
		const page = await values('orgKey', parameters, 'parameters.customFields.field[1].valueId');
		expect(second.values).toHaveLength(140);
		expect(page.results).toEqual(
			second.values.map((v) => ({ name: `${v.name} (${v.id})`, value: v.id })),
		);
		expect(page.paginationToken).toBeUndefined();
		expect(sim.requestsTo('listAnalyticalFieldValues').map((r) => [r.path, r.companyId])).toEqual([
			[`/v2/analytical-fields/${second.id}/values`, 'cmp_002'],
		]);
	});

	test('Payable → Update: the row of Analytical Values inside a change; a field By ID, filtered by the text typed', async () => {
		const field = sim.data('cmp_001').analyticalFields[2];
		const wanted = field.values[41];
		const parameters = {
			resource: 'payable',
			operation: 'update',
			company: '',
			lineItemsMode: 'changeSome',
			lineChanges: {
				change: [
					{
						applyTo: 'everyLine',
						analyticalValues: {
							value: [{ fieldId: locatorById(` ${field.id} `), valueId: locatorFromList('') }],
						},
					},
				],
			},
		};
		const page = await values(
			'companyKey',
			parameters,
			'parameters.lineChanges.change[0].analyticalValues.value[0].valueId',
			wanted.id.toUpperCase(),
		);
		expect(page.results).toEqual([{ name: `${wanted.name} (${wanted.id})`, value: wanted.id }]);
		expect(
			sim.requestsTo('listAnalyticalFieldValues').every((r) => r.companyId === 'cmp_001'),
		).toBe(true);
	});

	test.each([
		[
			'no field chosen in the row',
			locatorFromList(''),
			'Pick the analytical field of this row first: its values are listed here',
		],
		[
			'a field from an expression',
			locatorById('={{ $json.fieldId }}'),
			'The analytical field of this row comes from an expression, so its values cannot be listed here',
		],
	])('%s: a message saying what to do, no request', async (_, fieldId, message) => {
		const parameters = {
			...PURCHASE_ORDER,
			customFields: { field: [{ fieldId, valueId: locatorFromList('') }] },
		};
		await expectRefusedBeforeAnyRequest(
			sim,
			values('orgKey', parameters, 'parameters.customFields.field[0].valueId'),
			message,
		);
	});
});
