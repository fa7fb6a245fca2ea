/**
 * Settlement → Update State: marks one settlement exported or failed to export (PUT
 * /v1/settlements/{settlementId}/state). Spendesk's values are `exported` and `failedToExport`
 * (docs/api.md#endpoints); `failedExport`, the value of earlier versions, is sent as `failedToExport`.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/strategy';
import { callSpendesk } from '../../transport/request';
import type { SingleOperation } from '../types';
import { readRecordId, recordLocator } from '../recordId';

const ID_HINT =
	'Pick the settlement from the list, or give its ID, usually from an expression such as {{ $json.id }} (Settlement → Get Many lists them).';

export const updateSettlementState: SingleOperation = {
	value: 'updateState',
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
			displayName: 'State',
			name: 'state',
			type: 'options',
			options: [
				{
					name: 'Exported',
					value: 'exported',
					description: 'The settlement is in the accounting system',
				},
				{
					name: 'Failed Export',
					value: 'failedToExport',
					description: 'The export to the accounting system did not go through',
				},
			],
			default: 'exported',
			description: 'The state to set',
		},
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const settlementId = readRecordId(this, 'settlementId', 'Settlement ID', itemIndex, ID_HINT);
		const chosen = this.getNodeParameter('state', itemIndex, 'exported') as string;
		const state = chosen === 'failedExport' ? 'failedToExport' : chosen;
		if (state !== 'exported' && state !== 'failedToExport') {
			throw new NodeOperationError(
				this.getNode(),
				`'State' must be Exported or Failed Export; got "${String(chosen).slice(0, 40)}"`,
				{
					description:
						'Choose Exported or Failed Export (an expression must give "exported" or "failedToExport").',
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
