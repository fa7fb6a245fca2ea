/**
 * Payable → Update Bookkeeping Status: marks payables exported (or failed export) in bulk
 * calls of up to 100 (PUT /v1/payables/bookkeeping-status). Each payable carries the version
 * it was read at; a stale version (`conflict`) or an unknown payable (`not_found`) is the
 * error of its own item only.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { companyLabel } from '../../companies/naming';
import { callSpendesk } from '../../transport/request';
import { readRecordId } from '../recordId';
import type { BatchEntry, BatchedOperation, EntryResult } from '../types';
import { readText, readVersion } from '../writeFields';

const ID_HINT =
	'Give the ID of the payable, usually from an expression such as {{ $json.id }} (Payable → Search lists them).';

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
		const description = `Spendesk did not update it: the payable changed after version ${String(sent.version)} was read.${current} Read the payable again (Payable → Get) and send its current version; if an earlier run already marked it, there is nothing to do.`;
		return {
			ok: false,
			error: new NodeOperationError(
				node,
				`${capitalised(entry.label)} has changed since it was read (conflict)`,
				{ description, itemIndex },
			),
		};
	}
	if (answer.status === 'not_found') {
		const description = `Check the Payable ID (e.g. {{ $json.id }}) and that the payable belongs to the company chosen in the node.`;
		return {
			ok: false,
			error: new NodeOperationError(
				node,
				`${capitalised(entry.label)} was not found in ${companyLabel(company)}`,
				{ description, itemIndex },
			),
		};
	}
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

function capitalised(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function prepareEntry(this: IExecuteFunctions, itemIndex: number): BatchEntry {
	const id = readRecordId(this, 'payableId', 'Payable ID', itemIndex, ID_HINT);
	const version = readVersion(this, itemIndex);
	const status = this.getNodeParameter('bookkeepingStatus', itemIndex, 'exported') as string;
	if (status !== 'exported' && status !== 'failedExport') {
		throw new NodeOperationError(
			this.getNode(),
			`Bookkeeping Status must be Exported or Failed Export; got "${String(status).slice(0, 40)}"`,
			{
				description:
					'Choose Exported or Failed Export (an expression must give "exported" or "failedExport").',
				itemIndex,
			},
		);
	}
	const body: IDataObject = { id, version, bookkeepingStatus: status };
	if (status === 'failedExport') {
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

async function send(
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
		{
			displayName: 'Payable ID',
			name: 'payableId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. pay_001_000123',
			description:
				'ID of the payable to mark, usually from an expression. Each input item marks one payable.',
		},
		{
			displayName: 'Version',
			name: 'version',
			type: 'number',
			required: true,
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			description:
				'The version of the payable as read from Spendesk (its version field), usually from an expression. Spendesk refuses the update (conflict) when the payable changed since.',
		},
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
					name: 'Failed Export',
					value: 'failedExport',
					description: 'The export to the accounting system failed',
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
			description: 'Why the export failed, shown in Spendesk (at most 1000 characters)',
			displayOptions: { show: { bookkeepingStatus: ['failedExport'] } },
		},
	],
	batch: {
		size: 100,
		prepareEntry,
		send,
		replayAdvice: (items) =>
			`Running ${items} again is safe: a payable that was already updated answers "conflict" (its version moved on) and is not changed twice.`,
	},
};
