/**
 * How a message names a call: by what the user chose, as the editor panel shows it ("Payable →
 * Get Many", "Custom API Call (GET /v1/payables)", "Spendesk Trigger (New Invoice)", "the list of
 * suppliers"), never by the endpoint catalogue's name for it, which the user never sees. Each
 * entry point (the node's run, a trigger, a list of the editor) says once what the calls made
 * with its context are for (`nameCalls`); every message about a call takes a CallName, and
 * `callName` is the only maker of one. A call that is one step of what the user chose (the
 * company list of All Companies) adds the step in words.
 */
import type { INode } from 'n8n-workflow';

declare const callNameBrand: unique symbol;

/** What a message calls a call: made by `callName` only. */
export type CallName = string & { readonly [callNameBrand]: true };

/** What the user chose, for one input item (undefined outside a node's run: a trigger, a list). */
export type Chosen = (itemIndex: number | undefined) => string;

const chosen = new WeakMap<object, Chosen>();

/** Says what the calls made with `ctx` are for, as the editor shows it. */
export function nameCalls(ctx: object, name: string | Chosen): void {
	chosen.set(ctx, typeof name === 'string' ? () => name : name);
}

/** What names a call beyond its context: its item, and the step it is of what the user chose. */
export interface Naming {
	itemIndex?: number;
	/** The step in words, e.g. "listing the companies for All Companies". */
	step?: string;
}

/**
 * The name of a call made with `ctx`, for messages: what the user chose (else the node, by
 * the name it has on the canvas), then the step in brackets.
 */
export function callName(ctx: { getNode(): INode }, naming: Naming = {}): CallName {
	const { itemIndex, step } = naming;
	let name: string | undefined;
	try {
		name = chosen.get(ctx)?.(itemIndex);
	} catch {
		// A parameter the name is read from cannot be read: the node's name instead.
	}
	name ||= `a call of the node "${ctx.getNode().name}"`;
	return (step ? `${name} (${step})` : name) as CallName;
}
