/**
 * How a message names a call: by what the user chose, as the editor panel shows it ("Payable →
 * Get Many", "Spendesk Trigger (New Invoice)"), never by the catalogue's name for it. Each entry
 * point says once what the calls made with its context are for (`nameCalls`); `callName` is the
 * only maker of a CallName, which every message about a call takes.
 */
import type { INode } from 'n8n-workflow';

declare const callNameBrand: unique symbol;

/** What a message calls a call: made by `callName` only. */
export type CallName = string & { readonly [callNameBrand]: true };

/** What the user chose, for one input item (undefined outside a node's run: a trigger, a list). */
export type Chosen = (itemIndex: number | undefined) => string;

const chosen = new WeakMap<object, Chosen>();

/**
 * Says what the calls made with `ctx` are for, as the editor shows it. An item's name is worked
 * out once (its parameters do not change within a run): a list asks it for every page.
 */
export function nameCalls(ctx: object, name: string | Chosen): void {
	if (typeof name === 'string') return void chosen.set(ctx, () => name);
	const names = new Map<number | undefined, string>();
	chosen.set(ctx, (itemIndex) => {
		let known = names.get(itemIndex);
		if (known === undefined) names.set(itemIndex, (known = name(itemIndex)));
		return known;
	});
}

/** The name of a call for messages: what the user chose (else the node), then the step in brackets. */
export function callName(
	ctx: { getNode(): INode },
	{ itemIndex, step }: { itemIndex?: number; step?: string } = {},
): CallName {
	let name: string | undefined;
	try {
		name = chosen.get(ctx)?.(itemIndex);
	} catch {
		// A parameter the name is read from cannot be read: the node's name instead.
	}
	name ||= `a call of the node "${ctx.getNode().name}"`;
	return (step ? `${name} (${step})` : name) as CallName;
}
