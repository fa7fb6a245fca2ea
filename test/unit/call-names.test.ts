/**
 * Messages name a call by what the user chose, as the editor panel shows it ("Payable → Get
 * Many", "Custom API Call (GET /v1/payables)"), never by the endpoint catalogue's `label` (the
 * API's name for an endpoint, "Search payables", which the user never sees). The catalogue keeps
 * its labels for docs/api.md only (scripts/docs.ts); no code of nodes/ or credentials/ may read
 * one, whatever the read looks like: a property, a string key, a destructuring. The check reads
 * the types (TypeScript's checker), so a label reached through any variable, list or function
 * of catalogue entries is caught; the check itself is tested on samples of each way round it.
 * What the messages say instead is tested at run time: test/integration/message-names.test.ts.
 */
import path from 'node:path';
import ts from 'typescript';
import { CHECKER_OPTIONS, ROOT, tsSources } from '../support/sources';

const CATALOGUE = path.join(ROOT, 'nodes', 'Spendesk', 'transport', 'endpoints.ts');

/** A type whose values are catalogue entries: it has a path, a company placement and a pagination style. */
function isCatalogueEntry(type: ts.Type, checker: ts.TypeChecker): boolean {
	const parts = type.isUnion() ? type.types : [type];
	return parts.some((part) =>
		['path', 'placement', 'pagination'].every((name) => checker.getPropertyOfType(part, name)),
	);
}

/** Every read of `label` from a catalogue entry in `files`, as `file:line: text`. */
function labelReads(program: ts.Program, files: readonly string[]): string[] {
	const checker = program.getTypeChecker();
	const found: string[] = [];
	for (const file of files) {
		const source = program.getSourceFile(file);
		if (!source) throw new Error(`not compiled: ${file}`);
		const report = (node: ts.Node) => {
			const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
			found.push(`${path.relative(ROOT, file)}:${line + 1}: ${node.getText(source).slice(0, 80)}`);
		};
		const entryAt = (node: ts.Expression) =>
			isCatalogueEntry(checker.getTypeAtLocation(node), checker);
		const visit = (node: ts.Node): void => {
			if (
				ts.isPropertyAccessExpression(node) &&
				node.name.text === 'label' &&
				entryAt(node.expression)
			)
				report(node);
			else if (
				ts.isElementAccessExpression(node) &&
				ts.isStringLiteralLike(node.argumentExpression) &&
				node.argumentExpression.text === 'label' &&
				entryAt(node.expression)
			)
				report(node);
			else if (ts.isElementAccessExpression(node) && entryAt(node.expression)) {
				// A computed key that may be 'label' (`entry[key]` with key: keyof Endpoint).
				const key = checker.getTypeAtLocation(node.argumentExpression);
				const keys = key.isUnion() ? key.types : [key];
				if (
					keys.some((k) => k.isStringLiteral() && k.value === 'label') ||
					keys.some((k) => k.flags & ts.TypeFlags.String)
				)
					report(node);
			} else if (ts.isObjectBindingPattern(node)) {
				const from = node.parent;
				const source =
					ts.isVariableDeclaration(from) && from.initializer
						? checker.getTypeAtLocation(from.initializer)
						: ts.isParameter(from)
							? checker.getTypeAtLocation(from)
							: undefined;
				if (source && isCatalogueEntry(source, checker)) {
					for (const element of node.elements) {
						const key = element.propertyName ?? element.name;
						if ((ts.isIdentifier(key) || ts.isStringLiteralLike(key)) && key.text === 'label')
							report(element);
						if (element.dotDotDotToken) report(element);
					}
				}
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found;
}

describe('messages never name a call by the catalogue label', () => {
	test('no code of nodes/ or credentials/ reads a catalogue entry’s label', () => {
		const files = [
			...tsSources(path.join(ROOT, 'nodes')),
			...tsSources(path.join(ROOT, 'credentials')),
		].filter((file) => file !== CATALOGUE);
		expect(files.length).toBeGreaterThan(100);
		const program = ts.createProgram(files, CHECKER_OPTIONS);
		expect(labelReads(program, files)).toEqual([]);
	});

	test('the check finds every way round it (samples)', () => {
		const sample = path.join(ROOT, 'nodes', 'Spendesk', 'transport', '__label_sample__.ts');
		const text = [
			"import { ENDPOINTS, endpointForLevel } from './endpoints';",
			'const direct = ENDPOINTS.searchPayables.label;',
			"const keyed = ENDPOINTS['searchPayables']['label'];",
			'const entry = ENDPOINTS.getCompanies;',
			'const { label } = entry;',
			'const { label: renamed } = ENDPOINTS.token;',
			'const { ...rest } = ENDPOINTS.token;',
			'const listed = Object.values(ENDPOINTS).map((e) => e.label);',
			"const key = 'label' as 'label' | 'path';",
			'const computed = ENDPOINTS.token[key];',
			'function named({ label: l }: typeof ENDPOINTS.token) { return l; }',
			'const path = ENDPOINTS.token.path;',
			"const resolved = endpointForLevel('searchPayables', 'company').path;",
			'export { direct, keyed, label, renamed, rest, listed, computed, named, path, resolved };',
		].join('\n');
		const host = ts.createCompilerHost(CHECKER_OPTIONS);
		const read = host.readFile.bind(host);
		host.readFile = (file) => (file === sample ? text : read(file));
		host.fileExists = (
			(exists) => (file: string) =>
				file === sample || exists(file)
		)(host.fileExists.bind(host));
		const getSource = host.getSourceFile.bind(host);
		host.getSourceFile = (file, language) =>
			file === sample ? ts.createSourceFile(file, text, language, true) : getSource(file, language);
		const program = ts.createProgram([sample], CHECKER_OPTIONS, host);
		const found = labelReads(program, [sample]).map((line) => line.replace(/^[^:]+:/, ''));
		expect(found).toEqual([
			'2: ENDPOINTS.searchPayables.label',
			"3: ENDPOINTS['searchPayables']['label']",
			'5: label',
			'6: label: renamed',
			'7: ...rest',
			'8: e.label',
			'10: ENDPOINTS.token[key]',
			'11: label: l',
		]);
	});
});
