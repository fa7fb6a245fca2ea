/**
 * Deprecated endpoints answer with a `Deprecation` header, and later a `Sunset` header (the
 * date they stop working). The node surfaces them as an execution hint naming the endpoint,
 * once per run (per node execution) and endpoint; where there are no execution hints (the
 * trigger, the editor's lists), as a warning in n8n's log, once per context and endpoint.
 */
import type { NodeExecutionHint } from 'n8n-workflow';
import type { CallName } from './callName';
import type { SpendeskContext } from './credential';
import type { Endpoint } from './endpoints';

/** Endpoints already announced, per run context. */
const announced = new WeakMap<object, Set<string>>();

/** A header's value as short plain text (control characters dropped), or undefined when absent. */
function headerText(headers: Record<string, unknown>, name: string): string | undefined {
	const raw = headers[name];
	const value = Array.isArray(raw) ? raw[0] : raw;
	if (value === undefined || value === null || value === '') return undefined;
	const printable = [...String(value)].filter(
		(c) => c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127,
	);
	return printable.join('').slice(0, 100);
}

/** The hint for a deprecated endpoint, or undefined when the answer carries neither header. */
export function deprecationHint(
	endpoint: Endpoint,
	name: CallName,
	headers: Record<string, unknown>,
): NodeExecutionHint | undefined {
	const deprecation = headerText(headers, 'deprecation');
	const sunset = headerText(headers, 'sunset');
	if (deprecation === undefined && sunset === undefined) return undefined;
	// A Custom API Call's name says its method and path already.
	const call = `${endpoint.method} ${endpoint.path}`;
	const what = name.includes(call)
		? `the endpoint of ${name}`
		: `the endpoint of ${name} (${call})`;
	const when = sunset ? `; it stops working on ${sunset}` : '';
	return {
		message: `Spendesk marks ${what} as deprecated${when}. It still works for now: update the Spendesk node (or the Custom API Call's path) before then.`,
		type: 'warning',
		location: 'outputPane',
	};
}

/** Surfaces a deprecated endpoint once per run context. */
export function noteDeprecation(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	name: CallName,
	headers: Record<string, unknown>,
): void {
	const hint = deprecationHint(endpoint, name, headers);
	if (!hint) return;
	const key = `${endpoint.method} ${endpoint.path}`;
	let seen = announced.get(ctx);
	if (!seen) {
		seen = new Set();
		announced.set(ctx, seen);
	}
	if (seen.has(key)) return;
	seen.add(key);
	const add = (ctx as { addExecutionHints?: (...hints: NodeExecutionHint[]) => void })
		.addExecutionHints;
	if (typeof add === 'function') add.call(ctx, hint);
	else ctx.logger?.warn(hint.message, { node: ctx.getNode().name });
}
