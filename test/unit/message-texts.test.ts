/**
 * The words of every message the package builds at run time (errors and their descriptions,
 * execution hints, the credential Test's answers), as n8n's guidelines for verified community
 * nodes ask and CONTRIBUTING.md repeats: a parameter is named as the panel shows it, in single
 * quotes ('Company', 'Return All'); no "error" or "failed" wording where a neutral one exists.
 *
 * The texts are collected from the source with TypeScript's checker, not listed by hand: the
 * message and description of every `new NodeOperationError` / `new NodeApiError`, every object
 * literal with a `message` (what a builder returns, a hint, a restated error), every argument
 * given to a parameter named `message` or `description`; followed through constants, variables,
 * conditionals, concatenations, lists joined, and the string-returning functions a template
 * calls (across files). What a template inserts at run time shows as "…". The check itself is
 * tested on samples.
 */
import path from 'node:path';
import ts from 'typescript';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { SpendeskTrigger } from '../../nodes/Spendesk/SpendeskTrigger.node';
import { SpendeskWebhookTrigger } from '../../nodes/Spendesk/SpendeskWebhookTrigger.node';
import { SpendeskApi } from '../../credentials/SpendeskApi.credentials';
import { SpendeskOAuth2Api } from '../../credentials/SpendeskOAuth2Api.credentials';
import { CHECKER_OPTIONS, ROOT, tsSources } from '../support/sources';

/** Where a run-time text stands: the parameter names that take a message. */
const MESSAGE_PARAMETERS = new Set(['message', 'description']);

interface Text {
	where: string;
	text: string;
}

/**
 * The texts of `expression`: every way it can read, its run-time insertions as "…". Follows
 * identifiers to their constant or variable, and calls to the functions they name.
 */
function textsOf(
	expression: ts.Expression,
	checker: ts.TypeChecker,
	seen = new Set<ts.Node>(),
): string[] {
	if (seen.has(expression)) return ['…'];
	seen.add(expression);
	const of = (e: ts.Expression) => textsOf(e, checker, seen);
	if (ts.isStringLiteralLike(expression)) return [expression.text];
	if (ts.isTemplateExpression(expression)) {
		// Each insertion: its own texts when they are known words, else "…"; spans cross-joined
		// up to a bound (a template with many branches is read branch by branch in its parts).
		let out = [expression.head.text];
		for (const span of expression.templateSpans) {
			const inner = of(span.expression);
			const parts = inner.length > 4 ? ['…', ...inner] : inner;
			const next: string[] = [];
			for (const before of out)
				for (const part of parts) next.push(before + part + span.literal.text);
			out = next.slice(0, 64);
		}
		return out;
	}
	if (
		ts.isParenthesizedExpression(expression) ||
		ts.isAsExpression(expression) ||
		ts.isNonNullExpression(expression) ||
		ts.isSatisfiesExpression(expression)
	)
		return of(expression.expression);
	if (ts.isConditionalExpression(expression))
		return [...of(expression.whenTrue), ...of(expression.whenFalse)];
	if (ts.isBinaryExpression(expression)) {
		const op = expression.operatorToken.kind;
		if (op === ts.SyntaxKind.PlusToken) {
			const left = of(expression.left);
			const right = of(expression.right);
			return left.flatMap((l) => right.map((r) => l + r)).slice(0, 64);
		}
		if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken)
			return [...of(expression.left), ...of(expression.right)];
		if (op === ts.SyntaxKind.AmpersandAmpersandToken) return of(expression.right);
		return ['…'];
	}
	if (ts.isArrayLiteralExpression(expression)) {
		return expression.elements.flatMap((e) => (ts.isSpreadElement(e) ? of(e.expression) : of(e)));
	}
	if (ts.isCallExpression(expression)) {
		const callee = expression.expression;
		// `[…].filter(Boolean).join(' ')`, `text.trim()`: the texts of what they are called on.
		if (ts.isPropertyAccessExpression(callee)) {
			const method = callee.name.text;
			if (['join', 'filter', 'trim', 'slice', 'replace', 'concat'].includes(method))
				return of(callee.expression);
		}
		const body = functionBody(callee, checker);
		if (body) return returnsOf(body).flatMap(of);
		return ['…'];
	}
	if (ts.isIdentifier(expression) || ts.isPropertyAccessExpression(expression)) {
		const initializer = initializerOf(expression, checker);
		if (initializer) return of(initializer);
		return ['…'];
	}
	return ['…'];
}

/** The declaration a name stands for (through imports). */
function declarationOf(node: ts.Node, checker: ts.TypeChecker): ts.Declaration | undefined {
	let symbol = checker.getSymbolAtLocation(node);
	if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
	if (!symbol) return undefined;
	if (ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node) {
		const value = checker.getShorthandAssignmentValueSymbol(node.parent);
		return value?.valueDeclaration ?? value?.declarations?.[0];
	}
	return symbol.valueDeclaration ?? symbol.declarations?.[0];
}

/** The value a constant or variable is given where it is declared, when it is a text of the source. */
function initializerOf(node: ts.Expression, checker: ts.TypeChecker): ts.Expression | undefined {
	const declaration = declarationOf(
		ts.isPropertyAccessExpression(node) ? node.name : node,
		checker,
	);
	if (!declaration) return undefined;
	if (declaration.getSourceFile().isDeclarationFile) return undefined;
	if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
		const init = declaration.initializer;
		// A function held in a variable is not a text.
		if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return undefined;
		return init;
	}
	if (ts.isPropertyAssignment(declaration)) return declaration.initializer;
	return undefined;
}

/** The body of the function a callee names, when it is one of the source. */
function functionBody(callee: ts.Expression, checker: ts.TypeChecker): ts.Node | undefined {
	const declaration = declarationOf(
		ts.isPropertyAccessExpression(callee) ? callee.name : callee,
		checker,
	);
	if (!declaration || declaration.getSourceFile().isDeclarationFile) return undefined;
	if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration))
		return declaration.body;
	if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
		const init = declaration.initializer;
		if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init.body;
	}
	return undefined;
}

/** What a function body returns (a concise arrow body is its one return). */
function returnsOf(body: ts.Node): ts.Expression[] {
	if (!ts.isBlock(body)) return ts.isExpression(body) ? [body] : [];
	const found: ts.Expression[] = [];
	const visit = (node: ts.Node): void => {
		if (ts.isFunctionLike(node)) return;
		if (ts.isReturnStatement(node) && node.expression) found.push(node.expression);
		ts.forEachChild(node, visit);
	};
	ts.forEachChild(body, visit);
	return found;
}

/** A parameter's name at position `index` of the function `callee` names. */
function parameterName(
	callee: ts.Expression,
	index: number,
	checker: ts.TypeChecker,
): string | undefined {
	const signature = checker.getResolvedSignature(callee.parent as ts.CallExpression);
	const parameter = signature?.parameters[index];
	return parameter?.name;
}

/** Every run-time text of `files`, with where it is written. */
function messageTexts(program: ts.Program, files: readonly string[]): Text[] {
	const checker = program.getTypeChecker();
	const found: Text[] = [];
	for (const file of files) {
		const source = program.getSourceFile(file);
		if (!source) throw new Error(`not compiled: ${file}`);
		const add = (node: ts.Expression) => {
			const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
			const where = `${path.relative(ROOT, file)}:${line + 1}`;
			for (const text of textsOf(node, checker)) found.push({ where, text });
		};
		const addObject = (object: ts.ObjectLiteralExpression) => {
			for (const property of object.properties) {
				const key = property.name && ts.isIdentifier(property.name) ? property.name.text : '';
				if (!MESSAGE_PARAMETERS.has(key)) continue;
				if (ts.isPropertyAssignment(property)) add(property.initializer);
				else if (ts.isShorthandPropertyAssignment(property)) add(property.name);
			}
		};
		const visit = (node: ts.Node): void => {
			if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
				const kind = node.expression.text;
				const args = node.arguments ?? [];
				if (kind === 'NodeOperationError' && args[1] && !isCause(args[1], checker)) add(args[1]);
				if (kind === 'NodeOperationError' || kind === 'NodeApiError') {
					const options = args[2];
					if (options && ts.isObjectLiteralExpression(options)) addObject(options);
				}
			} else if (ts.isObjectLiteralExpression(node)) {
				const keys = node.properties.map((p) =>
					p.name && ts.isIdentifier(p.name) ? p.name.text : '',
				);
				// A message with its description, a hint: not a node's parameter (those have a displayName).
				if (keys.includes('message') && !keys.includes('displayName')) addObject(node);
			} else if (ts.isCallExpression(node) && !makesParameter(node, checker)) {
				node.arguments.forEach((argument, index) => {
					const name = parameterName(node.expression, index, checker);
					if (name && MESSAGE_PARAMETERS.has(name) && !isCause(argument, checker)) add(argument);
				});
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found;
}

/**
 * A call that builds a parameter of the node's panel (its description is the editor's text,
 * checked by description-rules.test.ts), not a message: what it gives has a displayName.
 */
function makesParameter(call: ts.CallExpression, checker: ts.TypeChecker): boolean {
	let type = checker.getTypeAtLocation(call);
	const element = checker.getIndexTypeOfType(type, ts.IndexKind.Number);
	if (element) type = element;
	return Boolean(checker.getPropertyOfType(type, 'displayName'));
}

/** An error handed on (its own message already counted where it was made), not a text. */
function isCause(node: ts.Expression, checker: ts.TypeChecker): boolean {
	const type = checker.getTypeAtLocation(node);
	return !(type.flags & ts.TypeFlags.StringLike) && !checker.getPropertyOfType(type, 'length');
}

/** Words that say "error" or "failure" where a neutral word would do. */
const ALARM_WORDS = /\b(errors?|fail|fails|failed|failing|failure)\b/i;

/** A text with what it quotes ('…' and "…") taken out: a quoted name is as it should be. */
function unquoted(text: string): string {
	return text.replace(/'[^'\n]*'/g, "''").replace(/"[^"\n]*"/g, '""');
}

/**
 * The names of the panels: display names of parameters (every level: collections, fixed
 * collections) and credential fields, and the names of their choices (options, modes).
 */
function panelNames(): { parameters: string[]; choices: string[] } {
	const names = new Set<string>();
	const choices = new Set<string>();
	const walk = (properties: readonly INodeProperties[] | undefined) => {
		for (const property of properties ?? []) {
			if (property.type === 'notice') continue;
			names.add(property.displayName);
			for (const mode of property.modes ?? []) choices.add(mode.displayName);
			for (const option of property.options ?? []) {
				if ('displayName' in option && 'values' in option) {
					names.add(option.displayName);
					walk(option.values as INodeProperties[]);
				} else if ('displayName' in option) walk([option as INodeProperties]);
				else if ('name' in option) choices.add(option.name);
			}
		}
	};
	const descriptions: INodeTypeDescription[] = [
		new Spendesk().description,
		new SpendeskTrigger().description,
		new SpendeskWebhookTrigger().description,
	];
	for (const description of descriptions) walk(description.properties);
	walk(new SpendeskApi().properties);
	walk(new SpendeskOAuth2Api().properties);
	const usable = (n: string) => Boolean(n) && !/[<>]/.test(n);
	return {
		parameters: [...names].filter(usable),
		choices: [...choices].filter((c) => usable(c) && !names.has(c)),
	};
}

/** "Payable → Get Many as Snapshot": an operation named as the panel shows it, not a parameter. */
const OPERATION =
	/[A-Z][\w]*(?: [A-Z][\w]*)* → [A-Z][\w]*(?: (?:[A-Z][\w]*|as|or|and|to|of|a|an|the))*/g;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const longestFirst = (names: readonly string[]) => [...names].sort((a, b) => b.length - a.length);

/**
 * A parameter's name in the open: written as the panel shows it (its case), a whole word, not
 * inside quotes, and not where the same words start a sentence as plain words ("Since …").
 */
function unquotedNames(text: string, names: Names): string[] {
	// Operations and choices ("All Companies", "From List") are not parameters: masked first, so
	// that a parameter inside them ("Companies") is not taken for one; so is each name found.
	let open = unquoted(text).replace(OPERATION, '§');
	for (const choice of longestFirst(names.choices))
		open = open.replace(new RegExp(`(?<![\\w])${escape(choice)}(?![\\w])`, 'g'), '§');
	const found: string[] = [];
	for (const name of longestFirst(names.parameters)) {
		// Not inside a word or a header name ("X-Company-Id").
		const pattern = new RegExp(`(^|[^\\w'"…-])${escape(name)}(?![\\w'"-])`, 'g');
		for (const match of open.matchAll(pattern)) {
			const at = (match.index ?? 0) + match[1].length;
			const before = open.slice(0, at);
			const after = open.slice(at + name.length);
			// The start of a sentence: one word is then an ordinary word ("Name each line", "Company
			// "cmp_1" is deactivated", "Line 2"), not the field, unless the field is what the
			// sentence is about ("Currency must be …").
			const fieldVerb = /^\s+(must|is|holds|has|needs|cannot|takes|allows)\b/.test(after);
			if (!name.includes(' ') && /(^|[.:;!?]\s+)$/.test(before) && !fieldVerb) continue;
			found.push(name);
			break;
		}
		open = open.replace(pattern, '$1§');
	}
	return found;
}

interface Names {
	parameters: readonly string[];
	choices: readonly string[];
}

/** What is wrong, once per place and word (a text with many variants shows its first). */
function offences(texts: readonly Text[], names: Names): string[] {
	const out = new Map<string, string>();
	const note = (key: string, line: string) => {
		if (!out.has(key)) out.set(key, line);
	};
	for (const { where, text } of texts) {
		const alarm = ALARM_WORDS.exec(unquoted(text));
		if (alarm) note(`${where} ${alarm[0]}`, `${where}: "${alarm[0]}" in: ${text}`);
		for (const name of unquotedNames(text, names))
			note(`${where} '${name}'`, `${where}: '${name}' unquoted in: ${text}`);
	}
	return [...out.values()];
}

function compile(files: string[], extra?: { file: string; text: string }): ts.Program {
	if (!extra) return ts.createProgram(files, CHECKER_OPTIONS);
	const host = ts.createCompilerHost(CHECKER_OPTIONS);
	const read = host.readFile.bind(host);
	host.readFile = (file) => (file === extra.file ? extra.text : read(file));
	const exists = host.fileExists.bind(host);
	host.fileExists = (file) => file === extra.file || exists(file);
	const getSource = host.getSourceFile.bind(host);
	host.getSourceFile = (file, language) =>
		file === extra.file
			? ts.createSourceFile(file, extra.text, language, true)
			: getSource(file, language);
	return ts.createProgram(files, CHECKER_OPTIONS, host);
}

describe('message texts (CONTRIBUTING.md: names in single quotes, no "error"/"fail")', () => {
	const names = panelNames();

	test('the names checked are those of the panels', () => {
		expect(names.parameters).toEqual(
			expect.arrayContaining([
				'Company',
				'Companies',
				'Return All',
				'Limit',
				'Client ID',
				'Environment',
			]),
		);
		expect(names.choices).toEqual(expect.arrayContaining(['All Companies', 'From List', 'By ID']));
	});

	test('every message of nodes/ and credentials/ names parameters in quotes and says no "error" or "failed"', () => {
		const files = [
			...tsSources(path.join(ROOT, 'nodes')),
			...tsSources(path.join(ROOT, 'credentials')),
		];
		const texts = messageTexts(compile(files), files);
		expect(texts.length).toBeGreaterThan(300);
		expect(offences(texts, names)).toEqual([]);
	});

	test('what a message quotes in single quotes is a name of the panels', () => {
		const files = [
			...tsSources(path.join(ROOT, 'nodes')),
			...tsSources(path.join(ROOT, 'credentials')),
		];
		const known = new Set([...names.parameters, ...names.choices]);
		const quoted = new Set<string>();
		// A name inserted at run time ('…') is checked where it is written.
		for (const { where, text } of messageTexts(compile(files), files))
			for (const match of text.matchAll(/(?<![\w])'([^'\n]+)'(?![\w])/g))
				if (match[1] !== '…' && !known.has(match[1])) quoted.add(`${where}: '${match[1]}'`);
		expect([...quoted]).toEqual([]);
	});

	test('the check finds texts however they are built (samples)', () => {
		const file = path.join(ROOT, 'nodes', 'Spendesk', '__message_sample__.ts');
		const text = [
			"import { NodeApiError, NodeOperationError } from 'n8n-workflow';",
			"import type { INode } from 'n8n-workflow';",
			"const HELP = 'Set the Company field.';",
			"function more(ok: boolean): string { return ok ? '' : ' The call failed.'; }",
			'export function samples(node: INode, ok: boolean, error: Error) {',
			'\tconst fail = (message: string, description: string) => new NodeOperationError(node, message, { description });',
			"\tconst message = ok ? 'Turn on Return All' : `Check the 'Limit'${more(ok)}`;",
			'\treturn [',
			"\t\tnew NodeOperationError(node, 'Spendesk had a server error', { description: HELP }),",
			"\t\tnew NodeApiError(node, {}, { message, description: ['Raise Max File Size (MB).', 'Fine.'].join(' ') }),",
			"\t\tfail('Check the Payable ID', `'Client ID' is fine${ok ? '' : ' (connection failed)'}`),",
			"\t\t{ message: 'Since the start, all is well. Limit must be set.', type: 'warning' },",
			'\t\tnew NodeOperationError(node, error, { description: "Quoted: \'Company\', \\"failed\\"" }),',
			'\t];',
			'}',
		].join('\n');
		const program = compile([file], { file, text });
		const found = offences(messageTexts(program, [file]), {
			parameters: [
				'Company',
				'Return All',
				'Limit',
				'Max File Size (MB)',
				'Payable ID',
				'Client ID',
				'Since',
			],
			choices: [],
		}).map((line) => line.replace(/^[^:]+:/, ''));
		expect(found).toEqual([
			'9: "error" in: Spendesk had a server error',
			"9: 'Company' unquoted in: Set the Company field.",
			"10: 'Return All' unquoted in: Turn on Return All",
			'10: "failed" in: Check the \'Limit\' The call failed.',
			"10: 'Max File Size (MB)' unquoted in: Raise Max File Size (MB).",
			"11: 'Payable ID' unquoted in: Check the Payable ID",
			'11: "failed" in: \'Client ID\' is fine (connection failed)',
			"12: 'Limit' unquoted in: Since the start, all is well. Limit must be set.",
		]);
	});
});
