/**
 * Settlement → Update Bookkeeping Status: marks one settlement exported or failed to export
 * (PUT /v1/settlements/{settlementId}/state, the settlement's `state`). Spendesk's values are
 * `exported` and `failedToExport` (docs/api.md#bulk-writes), the words and the name of a
 * payable's bookkeeping status.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import type { SingleOperation } from '../types';
import { readRecordId, recordLocator } from '../recordId';

const ID_HINT =
	'Pick the settlement from the list, or give its ID, usually from an expression such as {{ $json.id }} (Settlement → Get Many lists them).';

export const updateSettlementBookkeepingStatus: SingleOperation = {
	value: 'updateBookkeepingStatus',
	perCompany: true,
	write: true,
	properties: [
		...recordLocator({
			name: 'settlementId',
			label: 'Settlement',
			description:
				'The settlement to update: pick it from the list, or enter its ID (usually from an expression)',
			placeholder: 'e.g. stl_001_000123',
			searchListMethod: 'searchSettlements',
		}),
		{
			displayName: 'Bookkeeping Status',
			name: 'bookkeepingStatus',
			type: 'options',
			options: [
				{
					name: 'Exported',
					value: 'exported',
					description: 'The settlement is in the accounting system',
				},
				{
					name: 'Failed to Export',
					value: 'failedToExport',
					description: 'The export to the accounting system did not go through',
				},
			],
			default: 'exported',
			description: 'The bookkeeping status to set',
		},
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const settlementId = readRecordId(this, 'settlementId', "'Settlement'", itemIndex, ID_HINT);
		const state = this.getNodeParameter('bookkeepingStatus', itemIndex, 'exported') as string;
		if (state !== 'exported' && state !== 'failedToExport') {
			throw new NodeOperationError(
				this.getNode(),
				`'Bookkeeping Status' must be "Exported" or "Failed to Export"; got "${String(state).slice(0, 40)}"`,
				{
					description:
						'Choose "Exported" or "Failed to Export" (an expression must give "exported" or "failedToExport").',
					itemIndex,
				},
			);
		}
		return async (company) => {
			const { body } = await callSpendesk<IDataObject>(this, 'updateSettlementState', {
				company,
				pathParams: { settlementId },
				body: { state },
				itemIndex,
			});
			return { items: bodyItems(body) };
		};
	},
};
