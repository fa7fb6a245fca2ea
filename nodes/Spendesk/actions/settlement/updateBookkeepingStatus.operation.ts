/** Settlement → Update Bookkeeping Status: the settlement's `state` (docs/api.md#bulk-writes). */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import type { SingleOperation } from '../types';
import { recordLocator } from '../recordId';
import { bookkeepingStatusField } from '../sharedParams';
import { readBookkeepingStatus, readRecordId } from '../readers';

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
		bookkeepingStatusField(
			'The settlement is in the accounting system',
			'The export to the accounting system did not go through',
		),
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const settlementId = readRecordId(this, itemIndex, 'settlementId', "'Settlement'", ID_HINT);
		const state = readBookkeepingStatus(this, itemIndex);
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
