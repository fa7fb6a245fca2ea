/**
 * Messages name what the user chose, as the editor panel shows it: every operation of the node,
 * run against the simulator with every answer of the API refused or broken (a 400, a 403, a 500,
 * an HTML page instead of JSON, a dropped connection), fails with a message or description that
 * names its resource and operation as the panel does ("Payable → Get Many"; a Custom API Call by
 * its method and path) and never an endpoint's catalogue label ("Search payables"). The
 * parameters of each operation are those of the pinned workflows (test/fixtures/workflows/1.0/),
 * so a new operation is covered as soon as it is pinned. The same for the polling trigger and a
 * From List search. That no code reads a label at all is test/unit/call-names.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { ENDPOINTS } from '../../nodes/Spendesk/transport/endpoints';
import type { FaultSpec } from '../simulator/types';
import type { SpendeskSimulator } from '../simulator';
import { contextFor, failure, simulatorPerSuite, triggerFor } from '../support/fixtures';
import { prepareNode } from '../support/node';
import { locatorById, oneCompany, PDF_ITEM } from '../support/values';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'workflows', '1.0');
const DESCRIPTION = new Spendesk().description;

/** Every catalogue label: none may reach a message. */
const LABELS = [...new Set(Object.values(ENDPOINTS).map((e) => e.label))];

const options = (property: INodeProperties | undefined): INodePropertyOptions[] =>
	(property?.options ?? []).filter((o): o is INodePropertyOptions => 'value' in o);

/** Each operation of the node as the panel shows it: "Resource → Operation". */
function operationsAsShown(): Array<{ resource: string; operation: string; title: string }> {
	const resources = options(DESCRIPTION.properties.find((p) => p.name === 'resource'));
	return DESCRIPTION.properties
		.filter((p) => p.name === 'operation')
		.flatMap((list) => {
			const resource = resources.find((r) => r.value === list.displayOptions?.show?.resource?.[0])!;
			return options(list).map((o) => ({
				resource: String(resource.value),
				operation: String(o.value),
				title: `${resource.name} → ${o.name}`,
			}));
		});
}

/** The parameters of the first Spendesk node of the pinned workflows for each operation. */
function pinnedParameters(): Map<string, IDataObject> {
	const found = new Map<string, IDataObject>();
	for (const file of readdirSync(FIXTURES).sort()) {
		if (!file.endsWith('.json') || file.endsWith('.expected.json')) continue;
		const workflow = JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as {
			nodes: Array<{ type: string; parameters: IDataObject }>;
		};
		for (const node of workflow.nodes) {
			if (!node.type.endsWith('.spendesk')) continue;
			const key = `${String(node.parameters.resource)}.${String(node.parameters.operation)}`;
			if (!found.has(key)) found.set(key, node.parameters);
		}
	}
	return found;
}

/** Values the pinned workflows take from the item before (an expression): given here instead. */
const LITERAL: Record<string, IDataObject> = {
	'accountingExport.getJournal': { exportId: locatorById('exp_002_000001') },
	'payable.updateBookkeepingStatus': { payableId: locatorById('pay_002_000001') },
};

/** The operation's parameters on an organisation key: the pinned ones, the company named. */
function parametersOf(resource: string, operation: string, pinned: Map<string, IDataObject>) {
	const key = `${resource}.${operation}`;
	const given = pinned.get(key);
	if (!given) throw new Error(`no pinned workflow runs ${key}`);
	const parameters: IDataObject = { ...given, ...LITERAL[key] };
	if (resource !== 'company' && !parameters.company) parameters.company = locatorById('cmp_002');
	const expressions = JSON.stringify(parameters).includes('={{');
	if (expressions) throw new Error(`${key}: give the values of its expressions in LITERAL`);
	return parameters;
}

/** How a call may go wrong: refused, failing, answered by something that is not the API, cut off. */
const FAULTS: Array<{ name: string; fault: Omit<FaultSpec, 'route'> }> = [
	{ name: 'a 400', fault: { kind: 'status', status: 400, detail: 'Refused on purpose' } },
	{ name: 'a 403', fault: { kind: 'status', status: 403, detail: 'Forbidden on purpose' } },
	{ name: 'a 500', fault: { kind: 'status', status: 500 } },
	{ name: 'an HTML page', fault: { kind: 'htmlBody' } },
	{ name: 'a dropped connection', fault: { kind: 'reset' } },
];

/** The words of an error the user reads: its message and its description. */
function shown(error: Error): string {
	return `${error.message}\n${(error as { description?: string | null }).description ?? ''}`;
}

/** The catalogue labels a text holds, as written (an operation may be named like an endpoint in other case: "Update Bookkeeping Status"). */
function labelsIn(text: string): string[] {
	return LABELS.filter((label) => text.includes(label));
}

describe('messages name the operation as the panel shows it, never a catalogue label', () => {
	let sim: SpendeskSimulator;
	simulatorPerSuite({}, (started) => (sim = started));

	const pinned = pinnedParameters();
	const operations = operationsAsShown();

	test('every operation of the node is pinned, so every one is run below', () => {
		expect(operations.length).toBeGreaterThan(30);
		expect(operations.filter((o) => !pinned.has(`${o.resource}.${o.operation}`))).toEqual([]);
	});

	describe.each(FAULTS)('every API answer is $name', ({ fault }) => {
		test.each(operations)('$title', async ({ resource, operation, title }) => {
			const parameters = parametersOf(resource, operation, pinned);
			const { execute } = await prepareNode(sim, 'orgKey', parameters, { items: [PDF_ITEM] });
			sim.injectFault({ route: '*', times: 1000, ...fault });
			const error = await failure(execute());
			const text = shown(error);
			const expected =
				resource === 'customApiCall'
					? `Custom API Call (${String(parameters.method ?? 'GET')} ${String(parameters.path)})`
					: title;
			expect({ text, named: text.includes(expected) }).toEqual({ text, named: true });
			expect(labelsIn(text)).toEqual([]);
		});
	});

	test('the polling trigger names itself and its event', async () => {
		const trigger = await triggerFor(sim, {
			event: 'newInvoice',
			...oneCompany('cmp_002'),
		});
		sim.injectFault({ route: '*', times: 1000, kind: 'status', status: 400 });
		const error = await failure(trigger.raw());
		expect(shown(error)).toContain('Spendesk Trigger (New Invoice)');
		expect(labelsIn(shown(error))).toEqual([]);
	});

	test('a From List search names the list', async () => {
		const { context } = await contextFor(sim, 'orgKey', {
			description: DESCRIPTION,
			parameters: { resource: 'supplier', operation: 'get', company: locatorById('cmp_002') },
		});
		sim.injectFault({ route: '*', times: 1000, kind: 'status', status: 400 });
		const method = new Spendesk().methods.listSearch.searchSuppliers;
		const error = await failure(
			method.call(context as unknown as ILoadOptionsFunctions, undefined, undefined),
		);
		expect(shown(error)).toContain('the list of suppliers');
		expect(labelsIn(shown(error))).toEqual([]);
	});
});
