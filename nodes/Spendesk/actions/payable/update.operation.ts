/**
 * Payable → Update (docs/api.md#payable-accounting): Spendesk replaces every line at each
 * update, so Change Some reads the payable first and sends all its lines. Never repeated after
 * a 5xx (a replay of an applied one would be refused as a stale version).
 */
import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';
import { companyLabel } from '../../companies/label';
import type { EndpointName } from '../../transport/endpoints';
import { readErrorBody } from '../../transport/errors';
import { singleObject } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import { apiError } from '../errorItem';
import type { SingleOperation } from '../types';
import {
	applyChange,
	fieldName,
	lineFromPayable,
	lineItemFields,
	readChanges,
	readLines,
} from './lineItems';
import type { LineChange, LineItem } from './lineItems';
import {
	payableLocator,
	readGivenVersion,
	readCurrent,
	readPayableId,
	staleVersionAdvice,
	staleVersionMessage,
	versionProperty,
} from './version';
import { fail } from '../readers';

type Target = { payableId: string; company: string | undefined; itemIndex: number };

const payableName = (target: Target) =>
	`Payable "${target.payableId}" in ${companyLabel(target.company)}`;

function notFound(ctx: IExecuteFunctions, endpoint: EndpointName, target: Target): NodeApiError {
	return apiError(
		ctx,
		endpoint,
		404,
		target.company,
		target.itemIndex,
		`Payable "${target.payableId}" was not found in ${companyLabel(target.company)}`,
		'Nothing was changed. Check the payable ID (e.g. {{ $json.id }}) and that the payable belongs to the company chosen in the node.',
	);
}

/** What Spendesk answered when it refused the update: nothing was changed. */
function refusal(
	ctx: IExecuteFunctions,
	target: Target,
	status: number,
	body: unknown,
	version: number,
): NodeApiError {
	const refused = (message: string, description: string) =>
		apiError(
			ctx,
			'updatePayableAccounting',
			status,
			target.company,
			target.itemIndex,
			message,
			description,
		);
	const error = readErrorBody(body);
	const detail = error?.detail ? ` Spendesk said: ${error.detail.slice(0, 300)}.` : '';
	if (status === 404) return notFound(ctx, 'updatePayableAccounting', target);
	if (status === 409 && /export/i.test(error?.detail ?? ''))
		return refused(
			`${payableName(target)} is already exported: its accounting can no longer change`,
			`Nothing was changed.${detail} Leave this payable out, or change its accounting in your accounting system.`,
		);
	if (status === 409)
		return refused(
			staleVersionMessage(payableName(target)),
			staleVersionAdvice(version, 'updated', detail),
		);
	const where = fieldName(error?.source);
	return refused(
		`Spendesk refused the accounting of payable "${target.payableId}" in ${companyLabel(target.company)}${where ? ` (${where})` : ''}`,
		`Nothing was changed.${detail} Check ${where ? `${where} in 'Lines' or 'Changes'` : 'the lines'}: the gross amounts must add up to the payable's amount (in minor units), and cost centers and analytical values must be the company's (Cost Center → Get Many, Analytical Field → Get Many Values).`,
	);
}

/** The lines as read cannot be sent back: none, or line `unreadable` (from 1) without a usable amount. */
function noLinesFromSpendesk(ctx: IExecuteFunctions, target: Target, unreadable?: number): never {
	fail(
		ctx,
		target.itemIndex,
		unreadable
			? `Spendesk gave line ${unreadable} of payable "${target.payableId}" without a readable gross amount (in minor units), so it cannot be updated`
			: `Spendesk gave no line items for payable "${target.payableId}", so it cannot be updated`,
		"Nothing was sent. Choose Replace All under 'Line Items' and give every line.",
	);
}

/** Change Some: the payable's lines as read, with the changes applied in order. */
function mergedLines(
	ctx: IExecuteFunctions,
	target: Target,
	payable: IDataObject,
	changes: LineChange[],
): LineItem[] {
	const read: unknown[] = Array.isArray(payable.lineItems) ? payable.lineItems : [];
	const lines = read.map((line) => lineFromPayable(line, payable.costCenterId));
	if (!lines.length) noLinesFromSpendesk(ctx, target);
	const unreadable = lines.findIndex((line) => !line);
	if (unreadable !== -1) noLinesFromSpendesk(ctx, target, unreadable + 1);
	let result = lines as LineItem[];
	for (const change of changes) {
		if (change.line !== undefined && change.line > result.length)
			fail(
				ctx,
				target.itemIndex,
				`Change ${change.position}: payable "${target.payableId}" has no line ${change.line} (it has ${result.length})`,
				"Nothing was sent. Set 'Line Number' to a line of the payable (from 1, in the order Payable → Get lists them), or apply the change to every line.",
			);
		result = applyChange(result, change);
	}
	return result;
}

async function update(
	ctx: IExecuteFunctions,
	target: Target,
	given: { version?: number; lines?: LineItem[]; changes?: LineChange[] },
): Promise<IDataObject> {
	let { version, lines } = given;
	if (given.changes || version === undefined) {
		const current = await readCurrent(ctx, target, version, {
			notFound: () => notFound(ctx, 'getPayable', target),
			nothingSent: 'Nothing was sent.',
		});
		version = current.version;
		if (given.changes) lines = mergedLines(ctx, target, current.payable, given.changes);
	}
	const response = await callSpendesk<IDataObject>(ctx, 'updatePayableAccounting', {
		company: target.company,
		pathParams: { payableId: target.payableId },
		body: { version, lineItems: lines as unknown as IDataObject[] },
		itemIndex: target.itemIndex,
		allowNotFound: true,
		acceptStatus: [400, 409, 422],
	});
	if (response.status < 200 || response.status >= 300)
		throw refusal(ctx, target, response.status, response.body, version);
	const item = (singleObject(response.body)?.item ?? singleObject(response.body)) as IDataObject;
	return {
		id: target.payableId,
		version: typeof item?.version === 'number' ? item.version : version + 1,
		lineItems: lines as unknown as IDataObject[],
	};
}

export const updatePayable: SingleOperation = {
	value: 'update',
	perCompany: true,
	write: true,
	properties: [
		...payableLocator(
			'The payable whose accounting to update, before it is exported: pick it from the list, or enter its ID (usually from an expression)',
		),
		versionProperty('one more request'),
		...lineItemFields,
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const payableId = readPayableId(this, itemIndex);
		const version = readGivenVersion(this, itemIndex);
		const mode = this.getNodeParameter('lineItemsMode', itemIndex, 'changeSome') as string;
		const given =
			mode === 'replaceAll'
				? { version, lines: readLines(this, itemIndex) }
				: { version, changes: readChanges(this, itemIndex) };
		return async (company) => ({
			items: [await update(this, { payableId, company, itemIndex }, given)],
		});
	},
};
