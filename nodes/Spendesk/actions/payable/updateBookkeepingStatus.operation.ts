/**
 * Payable → Update Bookkeeping Status: marks payables exported (or failed to export) in bulk
 * calls of up to 100 (PUT /v1/payables/bookkeeping-status, docs/api.md#bulk-writes). Each
 * payable carries the version it was read at: by default the input item's `version`; an item
 * without one has its payable read first (one Get each). A stale version (`conflict`) or an
 * unknown payable (`not_found`) is the error of its own item only.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { companyLabel } from '../../companies/naming';
import { callSpendesk } from '../../transport/request';
import { recordLocator } from '../recordId';
import type { BatchEntry, BatchedOperation, EntryResult } from '../types';
import { readText } from '../writeFields';
import {
	noVersionError,
	readGivenVersion,
	readPayable,
	readPayableId,
	staleVersionAdvice,
	staleVersionMessage,
	versionIn,
	versionProperty,
} from './version';

/** What Spendesk answered for one payable, as its item's result or its error. */
function resultOf(
	ctx: IExecuteFunctions,
	entry: BatchEntry,
	answer: IDataObject | undefined,
	company: string | undefined,
): EntryResult {
	const sent = entry.body;
	const node = ctx.getNode();
	const { itemIndex } = entry;
	if (!answer || answer.id !== sent.id) {
		const description =
			'The answer did not list this payable: check its bookkeeping status in Spendesk; running it again is safe.';
		return {
			ok: false,
			error: new NodeOperationError(node, `Spendesk gave no result for ${entry.label}`, {
				description,
				itemIndex,
			}),
		};
	}
	if (answer.status === 'updated') {
		const json: IDataObject = { ...answer, bookkeepingStatus: sent.bookkeepingStatus };
		if (sent.failureReason !== undefined) json.failureReason = sent.failureReason;
		return { ok: true, json };
	}
	if (answer.status === 'conflict') {
		const current =
			typeof answer.version === 'number' ? ` Its current version is ${answer.version}.` : '';
		const description = staleVersionAdvice(sent.version, 'marked', current);
		return {
			ok: false,
			error: new NodeOperationError(node, staleVersionMessage(capitalised(entry.label)), {
				description,
				itemIndex,
			}),
		};
	}
	if (answer.status === 'not_found')
		return { ok: false, error: notFoundError(ctx, entry, company) };
	const description = 'Spendesk did not update it. Check the payable in Spendesk.';
	return {
		ok: false,
		error: new NodeOperationError(
			node,
			`Spendesk answered "${String(answer.status)}" for ${entry.label}`,
			{ description, itemIndex },
		),
	};
}

function notFoundError(
	ctx: IExecuteFunctions,
	entry: BatchEntry,
	company: string | undefined,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`${capitalised(entry.label)} was not found in ${companyLabel(company)}`,
		{
			description:
				'Check the Payable ID (e.g. {{ $json.id }}) and that the payable belongs to the company chosen in the node.',
			itemIndex: entry.itemIndex,
		},
	);
}

function capitalised(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function prepareEntry(this: IExecuteFunctions, itemIndex: number): BatchEntry {
	const id = readPayableId(this, itemIndex);
	const version = readGivenVersion(this, itemIndex);
	const status = this.getNodeParameter('bookkeepingStatus', itemIndex, 'exported') as string;
	if (status !== 'exported' && status !== 'failedToExport') {
		throw new NodeOperationError(
			this.getNode(),
			`Bookkeeping Status must be Exported or Failed to Export; got "${String(status).slice(0, 40)}"`,
			{
				description:
					'Choose Exported or Failed to Export (an expression must give "exported" or "failedToExport").',
				itemIndex,
			},
		);
	}
	const body: IDataObject = { id, bookkeepingStatus: status };
	if (version !== undefined) body.version = version;
	if (status === 'failedToExport') {
		const reason = readText(
			this,
			this.getNodeParameter('failureReason', itemIndex, ''),
			'Failure Reason',
			1000,
			itemIndex,
		);
		if (reason !== undefined) body.failureReason = reason;
	}
	return { itemIndex, body, label: `payable "${id}"` };
}

/**
 * The current version of an entry's payable, read with one Get; undefined with the entry's
 * error when the payable is not found or has no version.
 */
async function currentVersion(
	ctx: IExecuteFunctions,
	company: string | undefined,
	entry: BatchEntry,
): Promise<{ version: number } | { error: Error }> {
	const payable = await readPayable(ctx, company, String(entry.body.id), entry.itemIndex);
	if (!payable) return { error: notFoundError(ctx, entry, company) };
	const version = versionIn(payable);
	if (version !== undefined) return { version };
	const nothingSent = 'Nothing was sent for this payable.';
	return { error: noVersionError(ctx, entry.label, entry.itemIndex, nothingSent) };
}

async function send(
	this: IExecuteFunctions,
	company: string | undefined,
	all: BatchEntry[],
): Promise<EntryResult[]> {
	// Items without a version: their payable read first, one Get each; a payable that cannot
	// be read (not found, or the Get refused) is its item's error, and the others are sent.
	const unread = new Map<BatchEntry, Error>();
	for (const entry of all) {
		if (entry.body.version !== undefined) continue;
		const read = await currentVersion(this, company, entry).catch((error: Error) => ({ error }));
		if ('error' in read) unread.set(entry, read.error);
		else entry.body.version = read.version;
	}
	const entries = all.filter((entry) => !unread.has(entry));
	const sent = entries.length ? await sendBulk.call(this, company, entries) : [];
	return all.map((entry) => {
		const error = unread.get(entry);
		return error ? { ok: false, error } : sent[entries.indexOf(entry)];
	});
}

async function sendBulk(
	this: IExecuteFunctions,
	company: string | undefined,
	entries: BatchEntry[],
): Promise<EntryResult[]> {
	const payables = entries.map((entry) => entry.body);
	const { body } = await callSpendesk<IDataObject>(this, 'updateBookkeepingStatus', {
		company,
		body: { payables },
		itemIndex: entries[0].itemIndex,
	});
	const answers = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
	// Paired by payable ID, whatever the order of the answers; the same payable sent twice
	// takes its answers in order.
	const byId = new Map<string, IDataObject[]>();
	for (const answer of answers) {
		if (!answer || typeof answer !== 'object') continue;
		const key = String(answer.id);
		byId.set(key, [...(byId.get(key) ?? []), answer]);
	}
	return entries.map((entry) =>
		resultOf(this, entry, byId.get(String(entry.body.id))?.shift(), company),
	);
}

export const updateBookkeepingStatus: BatchedOperation = {
	value: 'updateBookkeepingStatus',
	perCompany: true,
	write: true,
	properties: [
		...recordLocator({
			name: 'payableId',
			label: 'Payable',
			description:
				'The payable to mark: pick it from the list, or enter its ID (usually from an expression). Each input item marks one payable.',
			placeholder: 'e.g. pay_001_000123',
			searchListMethod: 'searchPayables',
		}),
		versionProperty('one more request per item'),
		{
			displayName: 'Bookkeeping Status',
			name: 'bookkeepingStatus',
			type: 'options',
			options: [
				{
					name: 'Exported',
					value: 'exported',
					description: 'The payable is in the accounting system',
				},
				{
					name: 'Failed to Export',
					value: 'failedToExport',
					description: 'The payable could not be exported to the accounting system',
				},
			],
			default: 'exported',
			description: 'The bookkeeping status to set',
		},
		{
			displayName: 'Failure Reason',
			name: 'failureReason',
			type: 'string',
			default: '',
			placeholder: 'e.g. Unknown supplier account in the ledger',
			description:
				'Why the payable could not be exported, shown in Spendesk (at most 1000 characters)',
			displayOptions: { show: { bookkeepingStatus: ['failedToExport'] } },
		},
	],
	batch: {
		size: 100,
		prepareEntry,
		send,
		replayAdvice: (items) =>
			`Running ${items} again is safe: a payable that was already updated has a newer version, so Spendesk refuses it as changed since it was read and does not change it twice.`,
	},
};
