/**
 * Reading and checking the fields of write operations (versions, bank details, texts; record
 * IDs: recordId.ts):
 * bad input fails here, before any request, naming the field and the item.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * A field's label as messages write it (CONTRIBUTING.md: parameter names in single quotes): the
 * name as the panel shows it in quotes, after where it is ("Item 2, 'Name'"). A label already
 * written so is kept as it is.
 */
export function fieldLabel(label: string): string {
	if (label.includes("'")) return label;
	const at = label.lastIndexOf(', ');
	return at < 0 ? `'${label}'` : `${label.slice(0, at + 2)}'${label.slice(at + 2)}'`;
}

export function fail(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description: string,
): never {
	throw new NodeOperationError(ctx.getNode(), message, { description, itemIndex });
}

/** A payable's version: a whole number from 0 (a number, or its digits as text from an expression). */
export function readVersion(ctx: IExecuteFunctions, itemIndex: number): number {
	const raw = ctx.getNodeParameter('version', itemIndex, '') as unknown;
	const value = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
	if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
		fail(
			ctx,
			itemIndex,
			`'Version' must be a whole number from 0; got ${typeof raw === 'string' ? `"${raw.slice(0, 40)}"` : String(raw)}`,
			'Give the version of the payable as read from Spendesk (Payable → Get, or the search), e.g. {{ $json.version }}. Spendesk refuses the update when the payable has changed since.',
		);
	}
	return value;
}

/** Optional text: trimmed; empty gives undefined; longer than `max` fails. */
export function readText(
	ctx: IExecuteFunctions,
	value: unknown,
	label: string,
	max: number,
	itemIndex: number,
): string | undefined {
	if (value === undefined || value === null) return undefined;
	const field = fieldLabel(label);
	if (typeof value !== 'string' && typeof value !== 'number')
		fail(ctx, itemIndex, `${field} must be text`, `Enter ${field} as text.`);
	const text = String(value).trim();
	if (text.length > max)
		fail(
			ctx,
			itemIndex,
			`${field} is too long (${text.length} characters; at most ${max})`,
			`Shorten ${field}.`,
		);
	return text || undefined;
}

/** ISO 13616 check: the rearranged IBAN as a number, modulo 97, is 1. */
function ibanChecksumOk(iban: string): boolean {
	const rearranged = iban.slice(4) + iban.slice(0, 4);
	let remainder = 0;
	for (const char of rearranged) {
		const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
		for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
	}
	return remainder === 1;
}

/** An IBAN without spaces, in capitals, with a valid checksum. */
export function readIban(
	ctx: IExecuteFunctions,
	value: unknown,
	itemIndex: number,
): string | undefined {
	const text = readText(ctx, value, 'IBAN', 64, itemIndex)?.replace(/\s+/g, '').toUpperCase();
	if (text === undefined) return undefined;
	if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(text) || !ibanChecksumOk(text)) {
		fail(
			ctx,
			itemIndex,
			`'IBAN' holds "${text.slice(0, 40)}", which is not a valid international bank account number`,
			"Check 'IBAN': two letters for the country, two check digits, then the account number (spaces are allowed).",
		);
	}
	return text;
}

/** A BIC (SWIFT code): 8 or 11 letters and digits, in capitals. */
export function readBic(
	ctx: IExecuteFunctions,
	value: unknown,
	itemIndex: number,
): string | undefined {
	const text = readText(ctx, value, 'BIC', 16, itemIndex)?.replace(/\s+/g, '').toUpperCase();
	if (text === undefined) return undefined;
	if (!/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(text)) {
		fail(
			ctx,
			itemIndex,
			`'BIC' holds "${text}", which is not a valid SWIFT code`,
			"'BIC' takes a SWIFT code of 8 or 11 characters, e.g. BNPAFRPP or BNPAFRPPXXX.",
		);
	}
	return text;
}
