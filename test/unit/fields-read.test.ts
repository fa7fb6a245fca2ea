/**
 * The package reads only what a source shows (docs/api.md#response-shapes): every field of the
 * inventory (test/schemas/fields-read.ts) is a field of its schema; every field of every schema
 * names its source; and each reader that can run alone touches exactly the fields it declares,
 * on a record of the simulator and on an empty one (so that its fallbacks are read too).
 */
import type { IDataObject } from 'n8n-workflow';
import { everyField, fieldPaths, SOURCE_WORDS } from '../schemas';
import { FIELDS_READ } from '../schemas/fields-read';
import * as listSearch from '../../nodes/Spendesk/methods/listSearch';
import * as recordSearch from '../../nodes/Spendesk/methods/recordSearch';
import { seedWorld } from '../simulator/seed';
import { payableDetail } from '../simulator/routes-reads';

const world = seedWorld({ companies: 1, deactivated: [] });
const data = world.data.get('cmp_001')!;

/** A record of the simulator (or of the documented examples) for each schema a probe reads. */
const SAMPLES: Record<string, IDataObject[]> = {
	'settlement.json': [data.settlements[0] as unknown as IDataObject],
	'user.json': [data.users[0] as unknown as IDataObject],
	'supplier.json': [data.suppliers[0] as unknown as IDataObject],
	'intake.json': [data.intakes[0] as IDataObject],
	'analytical-field.json': [
		{ id: 'af_1', name: 'Project', isArchived: false },
		{ id: 'af_2', value: 'Region' },
	],
	'analytical-field-value.json': [
		{ id: 'afv_1', name: 'Paris', isArchived: false },
		{ id: 'afv_2', value: 'Lyon' },
	],
	'cost-center.json': [data.costCenters[0] as unknown as IDataObject],
	'journal-template.json': [{ id: 'jt_1', name: 'Standard' }],
	'purchase-order.json': [
		{
			id: 'po_1',
			status: 'open',
			supplier: { id: 'sup_1', name: 'AWS' },
			amount: 120_050,
			currency: 'EUR',
		},
	],
	'payable.json': [
		payableDetail(data.payables[0]) as unknown as IDataObject,
		// Without the decided `supplier`: the counterparty's name is read instead.
		{ ...(payableDetail(data.payables[1]) as unknown as IDataObject), supplier: undefined },
	],
	'envelopes.json#/$defs/wrapped': [{ data: { id: 'x' } }],
	'token.json#/$defs/apiKey': [{ access_token: 't', token_type: 'Bearer', scope: 'user:read' }],
	'error.json': [
		{ errors: [{ code: 'NOT_FOUND', detail: 'Not found', source: 'id' }] },
		{ errors: [{ message: 'Not found' }] },
		{ error: 'invalid_client', error_description: 'Bad client' },
		{ message: 'Bad gateway' },
	],
};

const ARRAY_KEYS = new Set(Object.getOwnPropertyNames(Array.prototype));

/**
 * The value seen through a proxy that notes every field read (`a.b`, `list[].c`); the fields of
 * nested objects and arrays are noted with their path.
 */
function recording(value: unknown, path: string, touched: Set<string>): unknown {
	if (!value || typeof value !== 'object') return value;
	const isArray = Array.isArray(value);
	return new Proxy(value as object, {
		get(target, key, receiver) {
			const got: unknown = Reflect.get(target, key, receiver);
			if (typeof key === 'symbol') return got;
			if (isArray) {
				if (ARRAY_KEYS.has(key)) return got;
				if (/^\d+$/.test(key)) return recording(got, `${path}[]`, touched);
			}
			const at = path ? `${path}.${key}` : key;
			touched.add(at);
			return recording(got, at, touched);
		},
	});
}

describe('fields read (docs/api.md#response-shapes)', () => {
	test.each(FIELDS_READ.map((r) => [r.reader, r]))(
		'%s: every field it reads is a field of its schema',
		(_name, reader) => {
			const known = fieldPaths(reader.schema);
			expect(reader.fields.filter((field) => !known.has(field))).toEqual([]);
		},
	);

	test.each(FIELDS_READ.filter((r) => r.probe).map((r) => [r.reader, r]))(
		'%s: the reader touches exactly the fields declared',
		(_name, reader) => {
			const samples = SAMPLES[reader.schema];
			expect(samples?.length).toBeGreaterThan(0);
			const touched = new Set<string>();
			for (const record of [...samples, {}])
				reader.probe!(recording(structuredClone(record), '', touched) as IDataObject);
			expect([...touched].sort()).toEqual([...reader.fields].sort());
		},
	);

	test('every From List search of the editor is in the inventory, its label probed', () => {
		const methods = [recordSearch, listSearch]
			.flatMap((module) => Object.entries(module))
			.filter(([, value]) => typeof value === 'function' && 'list' in value)
			.map(([name, value]) => ({ name, value }));
		expect(methods.length).toBeGreaterThanOrEqual(8);
		const probed = new Set(FIELDS_READ.map((r) => r.picker).filter(Boolean));
		expect(methods.filter((m) => !probed.has(m.value)).map((m) => m.name)).toEqual([]);
	});

	test('the inventory covers every reader named once, with at least one field', () => {
		const names = FIELDS_READ.map((r) => r.reader);
		expect(new Set(names).size).toBe(names.length);
		expect(FIELDS_READ.every((r) => r.fields.length > 0)).toBe(true);
		// The number of fields declared, as the report counts them.
		const count = FIELDS_READ.reduce((n, r) => n + r.fields.length, 0);
		expect(count).toBeGreaterThan(100);
	});

	test('every field of every schema names its source in the words of docs/api.md#response-shapes', () => {
		const fields = everyField();
		expect(fields.length).toBeGreaterThan(200);
		const unsourced = fields
			.filter(({ node }) => {
				const text = typeof node.description === 'string' ? node.description : '';
				const source = /Source: (.+)$/.exec(text)?.[1] ?? '';
				return !SOURCE_WORDS.some((words) => source.includes(words));
			})
			.map(({ at }) => at);
		expect(unsourced).toEqual([]);
	});

	test('a field the schema does not have is refused (the check can fail)', () => {
		expect(fieldPaths('settlement.json').has('settledAt')).toBe(false);
		expect(fieldPaths('settlement.json').has('links[].bankFees')).toBe(true);
		expect(fieldPaths('wallet-summary.json').has('balance')).toBe(false);
		expect(fieldPaths('cost-center.json').has('ownerId')).toBe(false);
	});
});
