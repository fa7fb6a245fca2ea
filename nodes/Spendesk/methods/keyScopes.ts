/** What a key may do, in the words of the editor panel, from its token's scopes (docs/api.md#testing-an-api-key). */
import { EXPERIMENTAL_FEATURES } from '../transport/endpoints';

/** The read scopes, each with what it reads, in the order the message lists them. */
export const READ_WORDS: ReadonlyArray<readonly [scope: string, words: string]> = [
	['settlement:read', 'settlements'],
	['payable:read', 'payables'],
	['payable-attachment:read', 'payable attachments'],
	['supplier:read', 'suppliers'],
	['user:read', 'users'],
	['cost-center:read', 'cost centers'],
	['expense-category:read', 'expense categories'],
	['analytical-field:read', 'analytical fields'],
	['bank-fee:read', 'bank fees'],
	['wallet-load:read', 'wallet loads'],
	['wallet-summary:read', 'the wallet summary'],
	['account:read', 'accounts'],
];

/** The scopes of a token answer's `scope` (space-separated, or a list); undefined when it carries none. */
export function tokenScopes(answer: unknown): string[] | undefined {
	const scope = (answer as { scope?: unknown } | undefined)?.scope;
	const parts =
		typeof scope === 'string'
			? scope.split(/[\s,]+/)
			: Array.isArray(scope)
				? scope.filter((s): s is string => typeof s === 'string')
				: undefined;
	const scopes = parts?.map((s) => s.trim()).filter(Boolean);
	return scopes?.length ? [...new Set(scopes)] : undefined;
}

/** "a", "a and b", "a, b and c". */
function joinedWithAnd(words: readonly string[]): string {
	if (words.length <= 1) return words.join('');
	return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** What a read scope reads ("settlements"), or the scope itself when the panel has no word for it. */
export function readWords(scope: string): string {
	return READ_WORDS.find(([s]) => s === scope)?.[1] ?? scope;
}

/** "It reads settlements and users; experimental features: Payables Search, Purchase Orders (partly)." */
export function abilities(scopes: readonly string[]): string {
	const held = new Set(scopes);
	const reads = READ_WORDS.filter(([scope]) => held.has(scope)).map(([, words]) => words);
	const known = new Set(READ_WORDS.map(([scope]) => scope));
	const features: string[] = [];
	for (const feature of EXPERIMENTAL_FEATURES) {
		const own = feature.scopes.filter((scope) => scope.startsWith('experimental:'));
		for (const scope of own) known.add(scope);
		const count = own.filter((scope) => held.has(scope)).length;
		if (count > 0) features.push(count === own.length ? feature.name : `${feature.name} (partly)`);
	}
	const others = scopes.filter((scope) => !known.has(scope));
	return (
		`It reads ${reads.length ? joinedWithAnd(reads) : 'nothing of the documented API'}; ` +
		`experimental features: ${features.length ? features.join(', ') : 'none'}` +
		`${others.length ? `; other scopes: ${others.join(', ')}` : ''}.`
	);
}
