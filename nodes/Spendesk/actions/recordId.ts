/**
 * Record IDs (payable, supplier, settlement, intake, export…): the one place where an
 * operation reads and checks the ID of the record it acts on, and the rule the editor checks
 * an ID typed By ID against.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { isOneIdSegment } from '../transport/placement';
import { fail } from './writeFields';

/** The editor's check of an ID typed By ID: the rule of `isOneIdSegment` as a pattern. */
export const ID_PATTERN = '^(?!(\\.|%2[eE])(\\.|%2[eE])?$)[^\\s/\\\\?#]{1,128}$';

/**
 * The record ID of an item (parameter `name`, a resource locator or text), before any request:
 * text or a number, trimmed, not empty, one path segment (`isOneIdSegment`). Messages name the
 * field by `label`; `hint` says where the ID comes from.
 */
export function readRecordId(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	hint: string,
): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	const id =
		typeof raw === 'string'
			? raw.trim()
			: typeof raw === 'number' && Number.isFinite(raw)
				? String(raw)
				: undefined;
	if (id === undefined)
		fail(
			ctx,
			itemIndex,
			`${label} must be an ID (text); got ${Array.isArray(raw) ? 'a list' : typeof raw}`,
			hint,
		);
	if (!id) fail(ctx, itemIndex, `${label} is empty`, hint);
	if (!isOneIdSegment(id)) {
		fail(
			ctx,
			itemIndex,
			`${label} "${id.slice(0, 60)}" is not a valid ID`,
			`An ID is one word of at most 128 characters, without spaces, slashes, "?" or "#", and not "." or "..". ${hint}`,
		);
	}
	return id;
}
