/** Every resource of the node and its operations, in the order the editor shows them. */
import { accountResource } from './account';
import { accountingExportResource } from './accountingExport';
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

export const RESOURCES: SpendeskResource[] = [
	accountResource,
	accountingExportResource,
	analyticalFieldResource,
	companyResource,
	customApiCallResource,
	expenseCategoryResource,
	intakeResource,
	invoiceResource,
	payableResource,
	settlementResource,
	walletSummaryResource,
];
