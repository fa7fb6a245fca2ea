/**
 * The endpoint catalogue (nodes/Spendesk/transport/endpoints.ts) is the one place that knows
 * the API's paths, pages and scopes: the README operations table, docs/api.md's endpoint and
 * scope tables and the OAuth2 credential's default scopes come from it, and no other shipped
 * file writes an API path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { SpendeskOAuth2Api } from '../../credentials/SpendeskOAuth2Api.credentials';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { CATALOGUE_SCOPES, ENDPOINTS } from '../../nodes/Spendesk/transport/endpoints';
import { generatedFiles, renderOperationsTable } from '../../scripts/docs';

const ROOT = path.resolve(__dirname, '../..');

test('README.md and docs/api.md hold what `npm run docs` generates from the catalogue', () => {
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

test('the OAuth2 credential asks by default for exactly the scopes of the catalogue', () => {
	const scope = new SpendeskOAuth2Api().properties.find((p) => p.name === 'scope');
	expect(String(scope?.default).split(' ')).toEqual([...CATALOGUE_SCOPES]);
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
