/** The payable a write names, and its version (docs/api.md#payable-accounting): empty, read first. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import { fail, readRecordId, shown } from '../readers';
import { recordLocator } from '../recordId';

export function readPayableId(ctx: IExecuteFunctions, itemIndex: number): string {
	return readRecordId(
		ctx,
		itemIndex,
		'payableId',
		"'Payable'",
		'Pick the payable from the list, or give its ID, usually from an expression such as {{ $json.id }} (Payable → Get Many lists them).',
	);
}

/** The Payable field of a write, From List or By ID. */
export const payableLocator = (description: string): INodeProperties[] =>
	recordLocator({
		name: 'payableId',
		label: 'Payable',
		description,
		placeholder: 'e.g. pay_001_000123',
		searchListMethod: 'searchPayables',
	});

/** The Version field; `cost` says what reading the payable costs (e.g. "one more request"). */
export function versionProperty(cost: string): INodeProperties {
	return {
		displayName: 'Version',
		name: 'version',
		// Text, so that its default can be the input item's version (an expression, which gives
		// a number): digits typed in and a number are read the same.
		type: 'string',
		default: '={{ $json.version }}',
		placeholder: 'e.g. 3',
		description: `The version of the payable as read from Spendesk: by default the input item's version field. Left empty, the node reads the payable first (${cost}). Spendesk refuses the update when the payable changed since that version.`,
	};
}

/** The version given (digits as text too); empty: undefined, read from Spendesk. */
export function readGivenVersion(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const raw = ctx.getNodeParameter('version', itemIndex, '') as unknown;
	if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === ''))
		return undefined;
	const value = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
	if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
		fail(
			ctx,
			itemIndex,
			`'Version' must be a whole number from 0; got ${shown(raw)}`,
			'Give the version of the payable as read from Spendesk (Payable → Get, or the search), e.g. {{ $json.version }}. Spendesk refuses the update when the payable has changed since.',
		);
	return value;
}

/**
 * The payable as Spendesk holds it now (one Get) and its version, `given` first; a payable
 * Spendesk does not know throws `notFound()`, one without a version fails (`nothingSent`).
 */
export async function readCurrent(
	ctx: IExecuteFunctions,
	target: { company: string | undefined; payableId: string; itemIndex: number },
	given: number | undefined,
	errors: { notFound: () => Error; nothingSent: string },
): Promise<{ payable: IDataObject; version: number }> {
	const { company, payableId, itemIndex } = target;
	const response = await callSpendesk<IDataObject>(ctx, 'getPayable', {
		company,
		pathParams: { payableId },
		itemIndex,
		allowNotFound: true,
		step: "reading the payable's current version",
	});
	if (response.status === 404) throw errors.notFound();
	const payable = bodyItems(response.body)[0] ?? {};
	const read = payable.version;
	const version =
		given ??
		(typeof read === 'number' && Number.isSafeInteger(read) && read >= 0 ? read : undefined);
	if (version === undefined)
		fail(
			ctx,
			itemIndex,
			`Spendesk gave no version for payable "${payableId}", so it cannot be updated`,
			`${errors.nothingSent} Set 'Version' to the version of the payable as read from Spendesk, e.g. {{ $json.version }} after Payable → Get.`,
		);
	return { payable, version };
}

/** Spendesk refused a stale version: `name` is the payable as the message names it. */
export const staleVersionMessage = (name: string) =>
	`${name} has changed in Spendesk since it was read`;

/** What to do about a stale version: `done` by an earlier run, `said` by Spendesk. */
export const staleVersionAdvice = (version: unknown, done: string, said = '') =>
	`Spendesk did not update it: the payable changed after version ${String(version)} was read.${said} Read it again (Payable → Get) and use the version from that fresh Get, or leave 'Version' empty to have the node read it; if an earlier run already ${done} it, there is nothing to do.`;
