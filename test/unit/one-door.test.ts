/**
 * One door out (nodes/Spendesk/transport/door.ts, docs/errors.md#redirects): every HTTP request
 * of the package leaves through that module, which never follows a redirect. Any other file of
 * nodes/ or credentials/ that reaches n8n's request helpers or another HTTP client fails this
 * test, whatever the call looks like:
 * - a network helper of n8n by name (`httpRequest`, `request` on helpers,
 *   `httpRequestWithAuthentication`, `requestWithAuthentication`, `requestOAuth2`, …), read as a
 *   property, by a string key or by destructuring;
 * - n8n's `helpers` object handed on, stored or destructured, or any of its members that is not
 *   one of the binary and item helpers listed below (a network helper n8n adds later is caught);
 * - `fetch`, `XMLHttpRequest`, `WebSocket`, `EventSource`;
 * - an import, `require` or `import()` of Node's HTTP and socket modules or of an HTTP client.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROOT, tsSources } from '../support/sources';

const DOOR = path.join('nodes', 'Spendesk', 'transport', 'door.ts');

/** n8n's request helpers, by name (IExecuteFunctions, ICredentialTestFunctions, IHttpRequestHelper, …). */
const NETWORK_HELPERS = new Set([
	'httpRequest',
	'httpRequestWithAuthentication',
	'httpRequestWithAuthenticationPaginated',
	'requestWithAuthentication',
	'requestWithAuthenticationPaginated',
	'requestOAuth1',
	'requestOAuth2',
	'request',
]);

/** The members of n8n's `helpers` that send nothing: binary data and items. */
const QUIET_HELPERS = new Set([
	'assertBinaryData',
	'binaryToBuffer',
	'binaryToString',
	'constructExecutionMetaData',
	'copyInputItems',
	'createDeferredPromise',
	'detectBinaryEncoding',
	'getBinaryDataBuffer',
	'getBinaryMetadata',
	'getBinaryStream',
	'normalizeItems',
	'prepareBinaryData',
	'returnJsonArray',
]);

const GLOBAL_CLIENTS = new Set(['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource']);

const NETWORK_MODULES = new Set([
	'http',
	'https',
	'http2',
	'net',
	'tls',
	'dgram',
	'axios',
	'undici',
	'node-fetch',
	'cross-fetch',
	'got',
	'request',
	'request-promise',
	'request-promise-native',
	'superagent',
	'ky',
	'follow-redirects',
	'needle',
	'form-data',
]);

const moduleName = (text: string) => text.replace(/^node:/, '').split('/')[0];

/** The name a property access or element access reads, when it is a plain name or a string key. */
function memberName(node: ts.Node): string | undefined {
	if (ts.isPropertyAccessExpression(node)) return node.name.text;
	if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression))
		return node.argumentExpression.text;
	return undefined;
}

function memberObject(node: ts.Node): ts.Expression | undefined {
	if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node))
		return node.expression;
	return undefined;
}

/** Whether an identifier stands for a value here (not a property name, a declaration's name or a type). */
function isValueUse(id: ts.Identifier): boolean {
	const parent = id.parent;
	if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false;
	if (ts.isPropertyAssignment(parent) && parent.name === id) return false;
	if (
		(ts.isMethodDeclaration(parent) ||
			ts.isPropertyDeclaration(parent) ||
			ts.isPropertySignature(parent) ||
			ts.isMethodSignature(parent) ||
			ts.isFunctionDeclaration(parent) ||
			ts.isVariableDeclaration(parent) ||
			ts.isParameter(parent) ||
			ts.isBindingElement(parent)) &&
		(parent as { name?: ts.Node }).name === id
	)
		return false;
	if (ts.isTypeReferenceNode(parent) || ts.isQualifiedName(parent)) return false;
	return true;
}

/** Every way `file` reaches the network outside the door, as "path:line: what". */
export function networkUses(file: string, text = readFileSync(file, 'utf8')): string[] {
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const at = (node: ts.Node, what: string) => {
		const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
		found.push(`${path.relative(ROOT, file)}:${line}: ${what}`);
	};
	const visit = (node: ts.Node) => {
		const name = memberName(node);
		if (name !== undefined) {
			const object = memberObject(node)!;
			const onHelpers = memberName(object) === 'helpers';
			if (NETWORK_HELPERS.has(name) && (name !== 'request' || onHelpers))
				at(node, `n8n's request helper "${name}"`);
			else if (onHelpers && !QUIET_HELPERS.has(name)) at(node, `n8n's helper "${name}"`);
			if (
				GLOBAL_CLIENTS.has(name) &&
				ts.isIdentifier(object) &&
				['globalThis', 'global', 'self', 'window'].includes(object.text)
			)
				at(node, `the global HTTP client "${name}"`);
			if (name === 'helpers') {
				const parent = node.parent;
				const readsMember = memberObject(parent) === node;
				if (!readsMember) at(node, "n8n's helpers object handed on");
			}
		}
		if (ts.isBindingElement(node)) {
			const key = node.propertyName ?? node.name;
			const text = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : undefined;
			if (text === 'helpers' || (text && NETWORK_HELPERS.has(text) && text !== 'request'))
				at(node, `"${text}" taken by destructuring`);
		}
		if (ts.isIdentifier(node) && GLOBAL_CLIENTS.has(node.text) && isValueUse(node))
			at(node, `the global HTTP client "${node.text}"`);
		const specifier =
			ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
				? node.moduleSpecifier
				: ts.isCallExpression(node) &&
					  (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
							(ts.isIdentifier(node.expression) && node.expression.text === 'require'))
					? node.arguments[0]
					: ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)
						? node.moduleReference.expression
						: undefined;
		if (
			specifier &&
			ts.isStringLiteralLike(specifier) &&
			NETWORK_MODULES.has(moduleName(specifier.text))
		)
			at(node, `the module "${specifier.text}"`);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

const shipped = () =>
	[...tsSources(path.join(ROOT, 'nodes')), ...tsSources(path.join(ROOT, 'credentials'))].filter(
		(file) => path.relative(ROOT, file) !== DOOR,
	);

describe('one door out (transport/door.ts)', () => {
	test('no file of nodes/ or credentials/ but the door reaches n8n request helpers or another HTTP client', () => {
		const files = shipped();
		expect(files.length).toBeGreaterThan(100);
		expect(files.flatMap((file) => networkUses(file))).toEqual([]);
	});

	test('the door itself is where the helpers are called', () => {
		const uses = networkUses(path.join(ROOT, DOOR));
		for (const helper of ['httpRequest', 'httpRequestWithAuthentication', 'request'])
			expect(uses.some((u) => u.includes(`"${helper}"`))).toBe(true);
	});

	test('the check sees every way round it', () => {
		const file = path.join(ROOT, 'nodes', 'Spendesk', 'transport', 'sample.ts');
		const caught = (code: string) => networkUses(file, code);
		for (const code of [
			'await ctx.helpers.httpRequest({ url });',
			"await this.helpers['httpRequestWithAuthentication'].call(this, 'spendeskApi', o);",
			'await ctx.helpers.request({ uri });',
			'await ctx.helpers.requestOAuth2.call(ctx, "x", o);',
			'await ctx.helpers.requestWithAuthentication.call(ctx, "x", o);',
			'const { httpRequest } = ctx.helpers;',
			'const { helpers } = ctx;',
			'const h = ctx.helpers; await h.request(o);',
			'send(this.helpers, o);',
			'await ctx.helpers.someNewNetworkHelper(o);',
			'await fetch(url);',
			'const f = globalThis.fetch;',
			"import http from 'node:http';",
			"import { request } from 'https';",
			"import axios from 'axios';",
			"const undici = require('undici');",
			"const m = await import('node:https');",
			"export { get } from 'http';",
			'new WebSocket(url);',
		])
			expect({ code, caught: caught(code).length > 0 }).toEqual({ code, caught: true });
		for (const code of [
			'await ctx.helpers.prepareBinaryData(bytes, name, type);',
			'ctx.helpers.returnJsonArray(items);',
			'const request = build(endpoint);',
			'options.request?.(this, itemIndex);',
			'interface Call { fetch: number }',
			"import { sendPlain } from './door';",
		])
			expect([code, caught(code)]).toEqual([code, []]);
	});
});
