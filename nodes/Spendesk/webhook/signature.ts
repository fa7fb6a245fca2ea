/**
 * The signature of a delivery: header `x-spendesk-webhook-signature`, HMAC-SHA256 of the raw
 * request body with the instance's secret, as lowercase hex (base64 accepted too). Compared
 * in constant time, so the answer's timing says nothing about the expected value.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-spendesk-webhook-signature';

/** The 32 bytes a header value stands for, in hex (either case) or base64; undefined when it is neither. */
function digestOf(header: string): Buffer | undefined {
	const value = header.trim().replace(/^sha256=/i, '');
	if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
	if (/^[A-Za-z0-9+/]{43}=?$/.test(value) || /^[A-Za-z0-9_-]{43}$/.test(value)) {
		const bytes = Buffer.from(
			value,
			value.includes('-') || value.includes('_') ? 'base64url' : 'base64',
		);
		return bytes.length === 32 ? bytes : undefined;
	}
	return undefined;
}

export function isValidSignature(body: Buffer, header: unknown, secret: string): boolean {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' || !secret) return false;
	const given = digestOf(value);
	if (!given) return false;
	const expected = createHmac('sha256', secret).update(body).digest();
	return timingSafeEqual(given, expected);
}
