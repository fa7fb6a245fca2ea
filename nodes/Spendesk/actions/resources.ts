/** Every resource of the node and its operations (the editor shows them sorted by name). */
import { accountResource } from './account';
import { accountingExportResource } from './accountingExport';
import { analyticalFieldResource } from './analyticalField';
import { bankFeeResource } from './bankFee';
import { companyResource } from './company';
import { costCenterResource } from './costCenter';
import { customApiCallResource } from './customApiCall';
import { expenseCategoryResource } from './expenseCategory';
import { intakeResource } from './intake';
import { invoiceResource } from './invoice';
import { journalTemplateResource } from './journalTemplate';
import { payableResource } from './payable';
import { purchaseOrderResource } from './purchaseOrder';
import { settlementResource } from './settlement';
import { supplierResource } from './supplier';
import type { SpendeskResource } from './types';
import { userResource } from './user';
import { walletLoadResource } from './walletLoad';
import { walletSummaryResource } from './walletSummary';

export const RESOURCES: SpendeskResource[] = [
	accountResource,
	accountingExportResource,
	analyticalFieldResource,
	bankFeeResource,
	companyResource,
	costCenterResource,
	customApiCallResource,
	expenseCategoryResource,
	intakeResource,
	invoiceResource,
	journalTemplateResource,
	payableResource,
	purchaseOrderResource,
	settlementResource,
	supplierResource,
	userResource,
	walletLoadResource,
	walletSummaryResource,
];
