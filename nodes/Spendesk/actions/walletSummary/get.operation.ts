import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { bodyItems } from '../../transport/pagination/response';
import { callSpendesk } from '../../transport/request';
import type { SpendeskOperation } from '../types';

export const getWalletSummary: SpendeskOperation = {
	value: 'get',
	perCompany: true,
	properties: [],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		return async (company) => {
			const { body } = await callSpendesk<IDataObject>(this, 'walletSummary', {
				company,
				itemIndex,
			});
			return { items: bodyItems(body) };
		};
	},
};
