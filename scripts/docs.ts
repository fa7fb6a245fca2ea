/**
 * `npm run docs`: writes the parts of docs/operations.md and docs/api.md that come from the endpoint
 * catalogue (nodes/Spendesk/transport/endpoints.ts), between their marker lines:
 * - docs/operations.md `operations`: the operations table (operation, endpoints, pages, scopes);
 * - docs/api.md `endpoints`: every call with method, path, company placement, pagination,
 *   page size, scope, retry and the source of its facts;
 * - docs/api.md `scopes`: every scope and what needs it;
 * - docs/api.md `features`: the scopes each Experimental Feature of the OAuth2 credential adds.
 *
 * `npm run docs -- --check` changes nothing and exits 1 when a file is stale (the unit test
 * test/unit/generated-docs.test.ts does the same check).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ENDPOINTS, EXPERIMENTAL_FEATURES } from '../nodes/Spendesk/transport/endpoints';
import type { Endpoint } from '../nodes/Spendesk/transport/endpoints';

const REPO_ROOT = path.resolve(__dirname, '..');

const entries = Object.entries(ENDPOINTS).map(([name, e]) => ({ name, ...e }));

/**
 * Every OAuth scope the catalogue names, in catalogue order: docs/api.md's scope list, and
 * what the OAuth2 credential's default scopes are checked against.
 */
export const CATALOGUE_SCOPES: readonly string[] = [
	...new Set(entries.map((e) => e.scope).filter((scope): scope is string => scope !== undefined)),
];

/** A Markdown table cell: pipes escaped, one line. */
function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

function row(cells: string[]): string {
	return `| ${cells.map(cell).join(' | ')} |`;
}

function pages(e: Endpoint): string {
	if (e.pagination === 'none') return '—';
	const style = {
		page: 'page',
		cursor: 'cursor',
		offset: 'offset',
		bodyCursor: 'body cursor',
		snapshot: 'snapshot pages',
	}[e.pagination];
	return e.pageSize ? `${style} (≤ ${e.pageSize.max.toLocaleString('en-US')})` : style;
}

function call(e: Endpoint): string {
	return `\`${e.method} ${e.path}\``;
}

const PLACEMENT_WORDS: Record<string, string> = {
	none: 'none',
	organisation: 'organisation only (no company)',
	header: '`X-Company-Id` header',
	path: 'company in the path',
};

/**
 * The operations table (docs/operations.md): one row per node operation ("Resource → Operation"), its calls in
 * catalogue order. The triggers' and credentials' calls are in docs/api.md's endpoint table.
 */
export function renderOperationsTable(): string {
	const byOperation = new Map<string, typeof entries>();
	for (const e of entries) {
		for (const operation of e.operations.filter((o) => o.includes(' → '))) {
			const list = byOperation.get(operation) ?? [];
			list.push(e);
			byOperation.set(operation, list);
		}
	}
	const lines = [row(['Operation', 'Calls', 'Pages', 'Scope']), '|---|---|---|---|'];
	const names = [...byOperation.keys()].sort((a, b) => a.localeCompare(b, 'en'));
	for (const operation of names) {
		const calls = byOperation.get(operation)!;
		const scopes = [...new Set(calls.map((e) => e.scope).filter((s): s is string => !!s))];
		const paging = [...new Set(calls.map(pages).filter((p) => p !== '—'))];
		lines.push(
			row([
				operation,
				calls.map(call).join(', '),
				paging.join(', ') || '—',
				scopes.map((s) => `\`${s}\``).join(', ') || '—',
			]),
		);
	}
	lines.push(
		row([
			'Custom API Call',
			'any method and path under the base URL',
			'any of the styles above',
			'the endpoint’s',
		]),
	);
	return lines.join('\n');
}

/** docs/api.md's endpoint table: every catalogue entry with every fact and its source. */
export function renderEndpointTable(): string {
	const lines = [
		row([
			'Call',
			'Method and path',
			'Company placement',
			'Pagination',
			'Page size',
			'Scope',
			'Retried',
			'Used by',
			'Source',
		]),
		'|---|---|---|---|---|---|---|---|---|',
	];
	for (const e of entries) {
		const size = e.pageSize
			? `\`${e.pageSize.param}\` default ${e.pageSize.default}, max ${e.pageSize.max.toLocaleString('en-US')}`
			: '—';
		lines.push(
			row([
				`${e.label} (\`${e.name}\`)`,
				call(e),
				PLACEMENT_WORDS[e.placement] ?? e.placement,
				e.pagination === 'none' ? '—' : pages(e).replace(/ \(.*\)$/, ''),
				size,
				e.scope ? `\`${e.scope}\`` : '—',
				e.idempotent ? 'yes' : 'no',
				e.operations.join('; '),
				e.source,
			]),
		);
	}
	return lines.join('\n');
}

/** docs/api.md's scope list: each scope and the operations that need it. */
export function renderScopeTable(): string {
	const lines = [row(['Scope', 'Needed by']), '|---|---|'];
	for (const scope of CATALOGUE_SCOPES) {
		const users = [
			...new Set(entries.filter((e) => e.scope === scope).flatMap((e) => e.operations)),
		];
		lines.push(row([`\`${scope}\``, users.join('; ')]));
	}
	return lines.join('\n');
}

/** docs/api.md's feature table: each Experimental Feature and the scopes it adds. */
export function renderFeatureTable(): string {
	const lines = [row(['Feature', 'Scopes added']), '|---|---|'];
	for (const f of EXPERIMENTAL_FEATURES) {
		lines.push(row([f.name, f.scopes.map((s) => `\`${s}\``).join(', ')]));
	}
	return lines.join('\n');
}

/** The generated parts of each file: file → marker → content. */
export function generatedParts(): Record<string, Record<string, string>> {
	return {
		'docs/operations.md': { operations: renderOperationsTable() },
		'docs/api.md': {
			endpoints: renderEndpointTable(),
			scopes: renderScopeTable(),
			features: renderFeatureTable(),
		},
	};
}

/** `text` with the lines between `<!-- NAME:begin -->` and `<!-- NAME:end -->` replaced. */
export function replaceBetweenMarkers(text: string, marker: string, content: string): string {
	const begin = `<!-- ${marker}:begin -->`;
	const end = `<!-- ${marker}:end -->`;
	const from = text.indexOf(begin);
	const to = text.indexOf(end);
	if (from < 0 || to < from) {
		throw new Error(`the markers ${begin} and ${end} are missing or out of order`);
	}
	return `${text.slice(0, from + begin.length)}\n${content}\n${text.slice(to)}`;
}

/** Each generated file as it is on disk and as it should be. */
export function generatedFiles(): Array<{ file: string; current: string; expected: string }> {
	return Object.entries(generatedParts()).map(([file, parts]) => {
		const current = readFileSync(path.join(REPO_ROOT, file), 'utf8');
		let expected = current;
		for (const [marker, content] of Object.entries(parts)) {
			try {
				expected = replaceBetweenMarkers(expected, marker, content);
			} catch (error) {
				throw new Error(`${file}: ${(error as Error).message}`);
			}
		}
		return { file, current, expected };
	});
}

if (require.main === module) {
	const check = process.argv.includes('--check');
	let stale = 0;
	for (const { file, current, expected } of generatedFiles()) {
		if (current === expected) continue;
		if (check) {
			stale++;
			console.error(`${file} is stale: run npm run docs`);
		} else {
			writeFileSync(path.join(REPO_ROOT, file), expected);
			console.log(`wrote ${file}`);
		}
	}
	process.exit(stale ? 1 : 0);
}
