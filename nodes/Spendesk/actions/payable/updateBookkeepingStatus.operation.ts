/**
 * Payable → Update Bookkeeping Status, in bulk calls of up to 100 (docs/api.md#bulk-writes).
 * The answer's shape is unverified: a 2xx that does not report on a payable is that item's
 * success with a note, never a failure of a write Spendesk accepted.
 */
import type { IDataObject, IExecuteFunctions, NodeOperationError } from 'n8n-workflow';
import { companyLabel } from '../../companies/label';
import { callSpendesk } from '../../transport/request';
import { bookkeepingStatusField } from '../sharedParams';
import type { BatchEntry, BatchedOperation, EntryResult } from '../types';
import {
	payableLocator,
	readGivenVersion,
	readCurrent,
	readPayableId,
	staleVersionAdvice,
	staleVersionMessage,
	versionProperty,
} from './version';
import { isObject } from '../../transport/pagination/response';
import { readBookkeepingStatus, readText } from '../readers';
import { itemError } from '../errorItem';

/** Words of a per-payable result that say the payable was not changed. */
const REFUSED = /fail|error|reject|invalid|denied|forbidden|refused/i;

const unpairedNote = (status: number) =>
	`Spendesk accepted the call (HTTP ${status}) but its answer did not report on this payable, so the node cannot confirm it: the bookkeeping status is most likely set. Check it with Payable → Get before relying on it; running the node again is safe.`;

/** The item of a payable marked as asked, with what Spendesk answered for it (`answer`) or a note. */
function marked(sent: IDataObject, answer: IDataObject, note?: string): EntryResult {
	const json: IDataObject = { ...answer, id: sent.id, bookkeepingStatus: sent.bookkeepingStatus };
	if (sent.failureReason !== undefined) json.failureReason = sent.failureReason;
	if (note) json.note = note;
	return { ok: true, json };
}

/** What Spendesk answered for one payable: `updated`, or a refusal (`conflict`, `not_found`, a word that says so). */
function resultOf(
	ctx: IExecuteFunctions,
	entry: BatchEntry,
	answer: IDataObject | undefined,
	call: { company: string | undefined; httpStatus: number },
): EntryResult {
	const sent = entry.body;
	const refused = (message: string, description: string): EntryResult => ({
		ok: false,
		error: itemError(ctx, entry.itemIndex, message, description),
	});
	if (!answer) return marked(sent, {}, unpairedNote(call.httpStatus));
	const status = typeof answer.status === 'string' && answer.status ? answer.status : undefined;
	if (status === 'updated') return marked(sent, answer);
	if (status === 'conflict') {
		const current =
			typeof answer.version === 'number' ? ` Its current version is ${answer.version}.` : '';
		return refused(
			staleVersionMessage(`Payable "${String(sent.id)}"`),
			staleVersionAdvice(sent.version, 'marked', current),
		);
	}
	if (status === 'not_found' || status === 'notFound')
		return { ok: false, error: notFoundError(ctx, entry, call.company) };
	if (status !== undefined && REFUSED.test(status))
		return refused(
			`Spendesk answered "${status}" for ${entry.label}`,
			'Spendesk did not update it. Check the payable in Spendesk.',
		);
	const word = status === undefined ? 'no result word' : `"${status}"`;
	return marked(
		sent,
		answer,
		`Spendesk accepted the call (HTTP ${call.httpStatus}) and answered ${word} for this payable, which the node does not know: the bookkeeping status is most likely set. Check it with Payable → Get before relying on it.`,
	);
}

function notFoundError(
	ctx: IExecuteFunctions,
	entry: BatchEntry,
	company: string | undefined,
): NodeOperationError {
	return itemError(
		ctx,
		entry.itemIndex,
		`Payable "${String(entry.body.id)}" was not found in ${companyLabel(company)}`,
		"Check the ID in 'Payable' (e.g. {{ $json.id }}) and that the payable belongs to the company chosen in the node.",
	);
}

function prepareEntry(this: IExecuteFunctions, itemIndex: number): BatchEntry {
	const id = readPayableId(this, itemIndex);
	const version = readGivenVersion(this, itemIndex);
	const status = readBookkeepingStatus(this, itemIndex);
	const body: IDataObject = { id, bookkeepingStatus: status };
	if (version !== undefined) body.version = version;
	if (status === 'failedToExport') {
		const reason = readText(
			this,
			itemIndex,
			this.getNodeParameter('failureReason', itemIndex, ''),
			'Failure Reason',
			1000,
		);
		if (reason !== undefined) body.failureReason = reason;
	}
	return { itemIndex, body, label: `payable "${id}"` };
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
		const target = { company, payableId: String(entry.body.id), itemIndex: entry.itemIndex };
		const read = await readCurrent(this, target, undefined, {
			notFound: () => notFoundError(this, entry, company),
			nothingSent: 'Nothing was sent for this payable.',
		}).catch((error: Error) => ({ error }));
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
	const response = await callSpendesk<unknown>(this, 'updateBookkeepingStatus', {
		company,
		body: { payables },
		itemIndex: entries[0].itemIndex,
	});
	// Paired by payable ID, whatever the order of the answers; the same payable sent twice
	// takes its answers in order.
	const byId = new Map<string, IDataObject[]>();
	// The per-payable results are the answer's `data` (docs/api.md#bulk-writes); another shape gives none.
	const data = isObject(response.body) ? response.body.data : undefined;
	for (const answer of Array.isArray(data) ? (data as unknown[]) : []) {
		if (!isObject(answer)) continue;
		const { id } = answer;
		if (typeof id !== 'string' && typeof id !== 'number') continue;
		byId.set(String(id), [...(byId.get(String(id)) ?? []), answer]);
	}
	const call = { company, httpStatus: response.status };
	const results = entries.map((entry) =>
		resultOf(this, entry, byId.get(String(entry.body.id))?.shift(), call),
	);
	const unconfirmed = results.filter((r) => r.ok && r.json.note !== undefined).length;
	if (unconfirmed)
		this.addExecutionHints({
			message: `Spendesk accepted the bookkeeping status of ${unconfirmed === 1 ? 'one payable' : `${unconfirmed} payables`} without confirming ${unconfirmed === 1 ? 'it' : 'each one'} in its answer (see "note" on the items): check them with Payable → Get before relying on them.`,
			type: 'warning',
			location: 'outputPane',
		});
	return results;
}

export const updateBookkeepingStatus: BatchedOperation = {
	value: 'updateBookkeepingStatus',
	perCompany: true,
	write: true,
	properties: [
		...payableLocator(
			'The payable to mark: pick it from the list, or enter its ID (usually from an expression). Each input item marks one payable.',
		),
		versionProperty('one more request per item'),
		bookkeepingStatusField(
			'The payable is in the accounting system',
			'The payable could not be exported to the accounting system',
		),
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
