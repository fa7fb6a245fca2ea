/**
 * The record ID fields of the node's operations, as the editor reads them: every parameter
 * whose name ends in `Id` is a resource locator with a By ID mode that checks the ID (a regex
 * as `isOneIdSegment` checks it at run time), a From List mode, the default, wherever a list
 * search exists for the record, and no From List on the copy shown with All Companies (a list
 * cannot know which company to list then).
 */
import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';
import { ID_PATTERN } from '../../nodes/Spendesk/actions/recordId';
import { RESOURCES } from '../../nodes/Spendesk/actions/resources';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';

const node = new Spendesk();
const { properties } = node.description;
const listSearch = node.methods.listSearch as Record<string, unknown>;

/**
 * Parameters named …Id that are not a record picked for an operation: the payables search's
 * Payment IDs filter (several IDs as text), and a payable line's accounts, which no API lists
 * (entered as text, the label says "ID").
 */
const NOT_RECORD_IDS = new Set<string>(['paymentId', 'expenseAccountId', 'taxAccountId']);

/**
 * Every parameter, collections and fixed collections included, with the path to it; a field
 * inside a collection is shown where its collection is (its resource and operation).
 */
function walk(
	list: INodeProperties[],
	path = '',
	parent?: INodeProperties,
): Array<{ path: string; p: INodeProperties }> {
	return list.flatMap((field) => {
		const p: INodeProperties = parent
			? {
					...field,
					displayOptions: {
						...field.displayOptions,
						show: { ...parent.displayOptions?.show, ...field.displayOptions?.show },
					},
				}
			: field;
		const here = `${path}${p.name}`;
		const nested = (p.options ?? []).flatMap((o) => {
			if ('type' in o) return walk([o as INodeProperties], `${here}.`, p);
			if ('values' in o) return walk(o.values, `${here}.${o.name}.`, p);
			return [];
		});
		return [{ path: here, p }, ...nested];
	});
}

const shown = (p: INodeProperties, name: string) =>
	(p.displayOptions?.show?.[name] ?? []) as unknown[];
const where = (p: INodeProperties) =>
	`${shown(p, 'resource').join()} → ${shown(p, 'operation').join()}: ${p.name}${
		shown(p, 'companies').length ? ` (${shown(p, 'companies').join()})` : ''
	}`;
const mode = (p: INodeProperties, name: string): INodePropertyMode | undefined =>
	p.modes?.find((m) => m.name === name);

const recordIds = walk(properties)
	.filter(({ p }) => /Id$/.test(p.name) && !NOT_RECORD_IDS.has(p.name))
	// Operation fields only (collections' fields included): the trigger's and the company
	// selector's fields are not here.
	.filter(({ p }) => shown(p, 'operation').length > 0)
	.map(({ p }) => p);

/** Whether a list search exists for the record: the From List of any copy of the same field. */
function searchMethodOf(p: INodeProperties): string | undefined {
	const copies = recordIds.filter(
		(q) =>
			q.name === p.name &&
			shown(q, 'resource').join() === shown(p, 'resource').join() &&
			shown(q, 'operation').join() === shown(p, 'operation').join(),
	);
	for (const copy of copies) {
		const method = mode(copy, 'list')?.typeOptions?.searchListMethod;
		if (typeof method === 'string') return method;
	}
	return undefined;
}

describe('record ID fields of the operations', () => {
	test('the fields found are the record IDs of the operations', () => {
		expect([...new Set(recordIds.map((p) => `${shown(p, 'resource')} ${p.name}`))].sort()).toEqual([
			'accountingExport exportId',
			'accountingExport templateId',
			'analyticalField fieldId',
			'intake intakeId',
			'payable costCenterId',
			'payable fieldId',
			'payable payableId',
			'payable valueId',
			'purchaseOrder costCenterId',
			'purchaseOrder fieldId',
			'purchaseOrder purchaseOrderId',
			'purchaseOrder supplierId',
			'purchaseOrder userId',
			'purchaseOrder valueId',
			'settlement settlementId',
			'supplier supplierId',
			'user userId',
		]);
	});

	test.each(recordIds.map((p) => [where(p), p] as const))(
		'%s is a resource locator whose By ID checks the ID',
		(_, p) => {
			expect(p.type).toBe('resourceLocator');
			const byId = mode(p, 'id');
			expect(byId).toBeDefined();
			const [rule] = byId!.validation ?? [];
			expect(rule).toMatchObject({ type: 'regex', properties: { regex: ID_PATTERN } });
			const { regex, errorMessage } = (
				rule as unknown as { properties: { regex: string; errorMessage: string } }
			).properties;
			expect(errorMessage).toMatch(/^Enter one .+ ID \(/);
			expect(new RegExp(regex).test('pay_001_000042')).toBe(true);
			for (const bad of ['', 'a b', 'a/b', '..', 'a?b'])
				expect(new RegExp(regex).test(bad)).toBe(false);
		},
	);

	test.each(recordIds.map((p) => [where(p), p] as const))(
		'%s: From List is the default wherever a list exists, never with All Companies',
		(_, p) => {
			const method = searchMethodOf(p);
			const allCompanies = shown(p, 'companies').includes('all');
			const list = mode(p, 'list');
			if (!method || allCompanies) {
				expect(list).toBeUndefined();
				expect(p.default).toEqual({ mode: 'id', value: '' });
				return;
			}
			expect(listSearch[method]).toEqual(expect.any(Function));
			expect(list!.typeOptions).toEqual({ searchListMethod: method, searchable: true });
			expect(p.default).toEqual({ mode: 'list', value: '' });
		},
	);

	test('a field with a list, on a read that offers All Companies, has a copy for All Companies, By ID only', () => {
		for (const p of recordIds.filter((q) => mode(q, 'list'))) {
			const operation = RESOURCES.find((r) => r.value === shown(p, 'resource')[0])?.operations.find(
				(o) => o.value === shown(p, 'operation')[0],
			);
			if (!operation?.perCompany || operation.write) continue;
			const hidden = (p.displayOptions?.hide?.companies ?? []) as unknown[];
			expect([where(p), hidden]).toEqual([where(p), ['all']]);
			const copy = recordIds.find(
				(q) =>
					q !== p &&
					q.name === p.name &&
					shown(q, 'operation').join() === shown(p, 'operation').join() &&
					shown(q, 'companies').includes('all'),
			);
			expect(copy?.modes?.map((m) => m.name)).toEqual(['id']);
		}
		// The reads by ID that offer All Companies each have one.
		const copies = recordIds.filter((p) => shown(p, 'companies').includes('all')).map(where);
		expect(copies.sort()).toEqual([
			'analyticalField → getValues: fieldId (all)',
			'payable → get: payableId (all)',
			'payable → getAttachments: payableId (all)',
			'purchaseOrder → get: purchaseOrderId (all)',
			'supplier → get: supplierId (all)',
			'user → get: userId (all)',
		]);
	});
});
