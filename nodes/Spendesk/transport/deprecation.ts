/**
 * Deprecated endpoints answer with a `Deprecation` header, and later a `Sunset` header (the
 * date they stop working): an execution hint naming the endpoint, once per context and endpoint.
 */
import type { NodeExecutionHint } from 'n8n-workflow';
import type { CallName } from './callName';
import type { SpendeskContext } from './credential';
import type { Endpoint } from './endpoints';
import { headerText } from './limiter';

/** Warnings already given, per run context. */
const warned = new WeakMap<object, Set<string>>();

/** A header's value as short plain text (control characters dropped), or undefined when absent. */
function plainHeader(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headerText(headers, name);
	const printable = [...(value ?? '')].filter((c) => c >= ' ' && c !== '\x7f');
	return value === undefined ? undefined : printable.join('').slice(0, 100);
}

/** Surfaces a deprecated endpoint once per run context. */
export function noteDeprecation(
	ctx: SpendeskContext,
	endpoint: Endpoint,
	name: CallName,
	headers: Record<string, unknown>,
): void {
	const deprecation = plainHeader(headers, 'deprecation');
	const sunset = plainHeader(headers, 'sunset');
	if (deprecation === undefined && sunset === undefined) return;
	const call = `${endpoint.method} ${endpoint.path}`;
	warnOnce(ctx, `deprecated ${call}`, () => {
		// A Custom API Call's name says its method and path already.
		const what = name.includes(call)
			? `the endpoint of ${name}`
			: `the endpoint of ${name} (${call})`;
		const when = sunset ? `; it stops working on ${sunset}` : '';
		return `Spendesk marks ${what} as deprecated${when}. It still works for now: update the Spendesk node (or the Custom API Call's path) before then.`;
	});
}

/**
 * A warning in the output pane (in n8n's log where there is none: a trigger, a list), once per
 * run context and `key`; its message made only then.
 */
export function warnOnce(ctx: SpendeskContext, key: string, message: () => string): void {
	const seen = warned.get(ctx) ?? new Set<string>();
	warned.set(ctx, seen);
	if (seen.has(key)) return;
	seen.add(key);
	const hint: NodeExecutionHint = { message: message(), type: 'warning', location: 'outputPane' };
	const add = (ctx as { addExecutionHints?: (...hints: NodeExecutionHint[]) => void })
		.addExecutionHints;
	if (typeof add === 'function') add.call(ctx, hint);
	else ctx.logger?.warn(hint.message, { node: ctx.getNode().name });
}
