/**
 * The endpoint catalogue (nodes/Spendesk/transport/endpoints.ts) is the one place that knows
 * the API's paths, pages and scopes: the operations table of docs/operations.md, docs/api.md's endpoint and
 * scope tables and the OAuth2 credential's scopes are checked against it, and no other shipped
 * file writes an API path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import {
	DEFAULT_SCOPES,
	ENDPOINTS,
	EXPERIMENTAL_FEATURES,
} from '../../nodes/Spendesk/transport/endpoints';
import { DOCUMENTED_READ_SCOPES, VENDOR_EXPERIMENTAL_SCOPES } from '../support/vendorScopes';
import { CATALOGUE_SCOPES, generatedFiles, renderOperationsTable } from '../../scripts/docs';
import { approvalAddress } from '../../nodes/Spendesk/transport/oauth2';

const ROOT = path.resolve(__dirname, '../..');

test('docs/operations.md and docs/api.md hold what `npm run docs` generates from the catalogue', () => {
	for (const { file, current, expected } of generatedFiles()) {
		expect({ file, text: current }).toEqual({ file, text: expected });
	}
});

test('every operation the catalogue names exists in the node, and every node operation is in the catalogue', () => {
	const properties = new Spendesk().description.properties;
	const options = (p: INodeProperties) => (p.options ?? []) as INodePropertyOptions[];
	const resources = options(properties.find((p) => p.name === 'resource')!);
	const inNode = new Set<string>();
	for (const list of properties.filter((p) => p.name === 'operation')) {
		const resourceValue = (list.displayOptions?.show?.resource ?? [])[0];
		const resource = resources.find((r) => r.value === resourceValue);
		for (const operation of options(list)) inNode.add(`${resource?.name} → ${operation.name}`);
	}
	// A name may add a qualifier in parentheses: "Intake → Create (Attach File)".
	const named = new Set(
		Object.values(ENDPOINTS)
			.flatMap((e) => e.operations)
			.filter((o) => o.includes(' → '))
			.map((o) => (inNode.has(o) ? o : o.replace(/ \([^)]*\)$/, ''))),
	);
	expect([...named].filter((o) => !inNode.has(o))).toEqual([]);
	// Custom API Call reaches any endpoint: it has no catalogue entry of its own.
	expect([...inNode].filter((o) => !named.has(o) && !o.startsWith('Custom API Call'))).toEqual([]);
	expect(renderOperationsTable()).toContain('| Supplier → Create |');
});

test('the OAuth2 credential asks by default for the documented read scopes only, and for any other scope of the catalogue only through a feature', () => {
	const isExperimental = (s: string) => s.startsWith('experimental:');
	// Default: exactly the documented read scopes, each one used by the catalogue.
	expect([...DEFAULT_SCOPES]).toEqual([...DOCUMENTED_READ_SCOPES]);
	expect(DEFAULT_SCOPES.filter((s) => !CATALOGUE_SCOPES.includes(s))).toEqual([]);
	expect(DEFAULT_SCOPES.filter(isExperimental)).toEqual([]);
	// What the approval link of a credential without Experimental Features asks for.
	const link = approvalAddress({
		clientId: 'c',
		clientSecret: 's',
		redirectUri: 'https://x.test/cb',
	});
	expect(new URL(link!).searchParams.get('scope')!.split(' ')).toEqual([...DEFAULT_SCOPES]);
	// Every other scope of the catalogue is reachable through exactly one feature.
	const features = (scope: string) =>
		EXPERIMENTAL_FEATURES.filter((f) => f.scopes.includes(scope)).map((f) => f.name);
	for (const scope of CATALOGUE_SCOPES.filter((s) => !DEFAULT_SCOPES.includes(s)))
		expect({ scope, features: features(scope).length }).toEqual({ scope, features: 1 });
	// A feature asks only for scopes the catalogue or the vendor names, never a default one.
	const known = new Set([...CATALOGUE_SCOPES, ...VENDOR_EXPERIMENTAL_SCOPES]);
	const asked = EXPERIMENTAL_FEATURES.flatMap((f) => f.scopes);
	expect(asked.filter((s) => !known.has(s) || DEFAULT_SCOPES.includes(s))).toEqual([]);
	expect(asked.filter((s) => !isExperimental(s))).toEqual(['account:read']);
	// docs/api.md#scopes names every vendor scope the credential may ask for.
	const docs = readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8');
	const scopesSection = docs.slice(docs.indexOf('\n## Scopes'));
	expect(
		[...DOCUMENTED_READ_SCOPES, ...VENDOR_EXPERIMENTAL_SCOPES].filter(
			(s) => !scopesSection.includes(`\`${s}\``),
		),
	).toEqual([]);
	const used = new Set(Object.values(ENDPOINTS).map((e) => (e as { scope?: string }).scope));
	expect(CATALOGUE_SCOPES.every((s) => used.has(s))).toBe(true);
});

/** Source files under a folder, recursively. */
function sources(folder: string): string[] {
	return readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true })
		.filter((f) => f.isFile() && f.name.endsWith('.ts'))
		.map((f) => path.relative(ROOT, path.join(f.parentPath, f.name)));
}

test('no shipped file but the catalogue writes an API path (comments aside)', () => {
	const API_PATH = /\/(v[0-9]+|oauth2)\/[a-z{]/;
	const offenders = [...sources('nodes'), ...sources('credentials')]
		.filter((file) => !file.endsWith(path.join('transport', 'endpoints.ts')))
		.flatMap((file) => {
			const code = readFileSync(path.join(ROOT, file), 'utf8')
				.replace(/\/\*[\s\S]*?\*\//g, '')
				.replace(/^\s*\/\/.*$/gm, '');
			return code
				.split('\n')
				.filter((line) => API_PATH.test(line))
				.map((line) => `${file}: ${line.trim()}`);
		});
	expect(offenders).toEqual([]);
});
