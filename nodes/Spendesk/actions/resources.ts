/** Every resource of the node and its operations (the editor shows them sorted by name). */
import { accountResource } from './account';
import { analyticalFieldResource } from './analyticalField';
import { companyResource } from './company';
import { customApiCallResource } from './customApiCall';
import { expenseCategoryResource } from './expenseCategory';
import { intakeResource } from './intake';
import { invoiceResource } from './invoice';
import { payableResource } from './payable';
import { settlementResource } from './settlement';
import { walletSummaryResource } from './walletSummary';
import type { SpendeskResource } from './types';
import { bankFeeResource } from './bankFee';
import { costCenterResource } from './costCenter';
import { supplierResource } from './supplier';
import { userResource } from './user';
import { walletLoadResource } from './walletLoad';

export const RESOURCES: SpendeskResource[] = [
	accountResource,
	analyticalFieldResource,
	companyResource,
	customApiCallResource,
	expenseCategoryResource,
	intakeResource,
	invoiceResource,
	payableResource,
	settlementResource,
	walletSummaryResource,
	bankFeeResource,
	costCenterResource,
	supplierResource,
	userResource,
	walletLoadResource,
];
