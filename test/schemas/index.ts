/**
 * The response shapes the package reads, written once as JSON Schemas (this folder, one file a
 * shape; docs/api.md#response-shapes). Every field names where its fact comes from. The
 * simulator's conformance test validates every answer against them, the fields-read test
 * checks that every field the package reads is one of them.
 *
 * Two readings: `open` (a schema as written: Spendesk may send more fields than any source
 * shows) and `closed` (every object allows only the fields written: what the simulator sends
 * must each have a source, so that no reader comes to depend on an invented field).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';

export const SCHEMA_DIR = __dirname;

type Json = Record<string, unknown>;

/** Every schema file of this folder, by file name (`settlement.json`). */
export const SCHEMAS: Readonly<Record<string, Json>> = Object.fromEntries(
	readdirSync(SCHEMA_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => [file, JSON.parse(readFileSync(path.join(SCHEMA_DIR, file), 'utf8')) as Json]),
);

/** The sources a field may name (docs/api.md#sources, in the words the schemas use). */
export const SOURCE_WORDS = [
	'vendor portal',
	'alpha OpenAPI document',
	'production client',
	'public sandbox client',
	'specification',
	'decided here',
] as const;

const isObject = (value: unknown): value is Json =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/** A copy of a schema where every object with `properties` and no `additionalProperties` is closed. */
function closed(node: unknown): unknown {
	if (Array.isArray(node)) return node.map(closed);
	if (!isObject(node)) return node;
	const copy: Json = {};
	// `properties` maps names to schemas: a property called `properties` is not a keyword.
	for (const [key, value] of Object.entries(node))
		copy[key] =
			key === 'properties' && isObject(value)
				? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, closed(v)]))
				: closed(value);
	if (isObject(node.properties) && !('additionalProperties' in node))
		copy.additionalProperties = false;
	return copy;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function compiler(shut: boolean): Ajv2020 {
	const ajv = new Ajv2020({
		allErrors: true,
		strict: true,
		// A `required` inside `anyOf` names a property of the enclosing object.
		strictRequired: false,
		allowUnionTypes: true,
	});
	ajv.addFormat(
		'date-time',
		(text: string) => DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)),
	);
	ajv.addFormat('date', (text: string) => DATE.test(text) && !Number.isNaN(Date.parse(text)));
	for (const schema of Object.values(SCHEMAS))
		ajv.addSchema(shut ? (closed(schema) as Json) : schema);
	return ajv;
}

const compilers = { open: compiler(false), closed: compiler(true) };
const compiled = new Map<string, ValidateFunction>();

/** A schema reference: `settlement.json`, or `envelopes.json#/$defs/page`. */
export type SchemaRef = string;

function validatorOf(ref: SchemaRef, mode: 'open' | 'closed'): ValidateFunction {
	const key = `${mode} ${ref}`;
	let validate = compiled.get(key);
	if (!validate) {
		validate = compilers[mode].getSchema(ref);
		if (!validate) throw new Error(`No schema ${ref}`);
		compiled.set(key, validate);
	}
	return validate;
}

const said = (errors: ErrorObject[] | null | undefined): string[] =>
	(errors ?? []).map((e) => {
		const extra =
			e.keyword === 'additionalProperties'
				? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})`
				: e.keyword === 'enum'
					? ` (${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)})`
					: '';
		return `${e.instancePath || '/'} ${e.message ?? e.keyword}${extra}`;
	});

/** What is wrong with `value` against the schema (an empty list: it conforms). */
export function violations(
	ref: SchemaRef,
	value: unknown,
	mode: 'open' | 'closed' = 'closed',
): string[] {
	const validate = validatorOf(ref, mode);
	return validate(value) ? [] : said(validate.errors);
}

/** The schema node a reference names (`file.json` or `file.json#/$defs/name`). */
function resolve(ref: string, from: string): { node: Json; file: string } {
	const [filePart, pointer = ''] = ref.split('#');
	const file = filePart || from;
	let node: unknown = SCHEMAS[file];
	if (!node) throw new Error(`No schema ${file}`);
	for (const part of pointer.split('/').filter(Boolean)) node = (node as Json)[part];
	if (!isObject(node)) throw new Error(`No schema at ${ref}`);
	return { node, file };
}

/**
 * The field paths a schema shows, with their schema nodes: `amount`, `links[].bankFees`,
 * `allocatedOnCards.physicalAmount`. References are followed (within and across files);
 * `anyOf`/`oneOf` branches add their fields.
 */
export function fieldPaths(ref: SchemaRef): Map<string, Json> {
	const paths = new Map<string, Json>();
	const walk = (node: Json, file: string, prefix: string, depth: number): void => {
		if (depth > 12) return;
		if (typeof node.$ref === 'string') {
			const target = resolve(node.$ref, file);
			walk(target.node, target.file, prefix, depth + 1);
		}
		for (const branch of [...((node.anyOf as Json[]) ?? []), ...((node.oneOf as Json[]) ?? [])])
			walk(branch, file, prefix, depth + 1);
		if (isObject(node.items)) walk(node.items, file, `${prefix}[]`, depth + 1);
		if (isObject(node.properties))
			for (const [name, child] of Object.entries(node.properties)) {
				const at = prefix ? `${prefix}.${name}` : name;
				if (isObject(child)) {
					paths.set(at, child);
					walk(child, file, at, depth + 1);
				}
			}
	};
	const start = resolve(ref, '');
	walk(start.node, start.file, '', 0);
	return paths;
}

/** Every schema node that describes a field (a member of some `properties`), with where it is. */
export function everyField(): Array<{ at: string; node: Json }> {
	const found: Array<{ at: string; node: Json }> = [];
	const walk = (node: unknown, at: string): void => {
		if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${at}/${i}`));
		if (!isObject(node)) return;
		for (const [key, value] of Object.entries(node)) {
			if (key === 'properties' && isObject(value))
				for (const [name, child] of Object.entries(value)) {
					found.push({ at: `${at}/properties/${name}`, node: child as Json });
					walk(child, `${at}/properties/${name}`);
				}
			else walk(value, `${at}/${key}`);
		}
	};
	for (const [file, schema] of Object.entries(SCHEMAS)) walk(schema, file);
	return found;
}
