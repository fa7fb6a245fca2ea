/** Every resource of the node and its operations, in the order the editor shows them. */
import { getAllAccounts } from './account/getAll.operation';
import { getAllAnalyticalFields } from './analyticalField/getAll.operation';
import { getAnalyticalFieldValues } from './analyticalField/getValues.operation';
import { getAllCompanies } from './company/getAll.operation';
import { customApiCall } from './customApiCall/request.operation';
import { getAllExpenseCategories } from './expenseCategory/getAll.operation';
import { createIntake } from './intake/create.operation';
import { getAllIntakes } from './intake/getAll.operation';
import { getAllInvoices } from './invoice/getAll.operation';
import { getAllPayablesSnapshot } from './payable/getAllSnapshot.operation';
import { searchPayables } from './payable/search.operation';
import { getAllSettlements } from './settlement/getAll.operation';
import type { SpendeskResource } from './types';
import { getWalletSummary } from './walletSummary/get.operation';

export const RESOURCES: SpendeskResource[] = [
	{ value: 'account', name: 'Account', description: 'Bank, wallet and card accounts', operations: [getAllAccounts] },
	{
		value: 'analyticalField',
		name: 'Analytical Field',
		description: 'Analytical fields and their values',
		operations: [getAllAnalyticalFields, getAnalyticalFieldValues],
	},
	{ value: 'company', name: 'Company', description: 'Companies of the organisation', operations: [getAllCompanies] },
	{ value: 'customApiCall', name: 'Custom API Call', description: 'Any other Spendesk endpoint', operations: [customApiCall] },
	{ value: 'expenseCategory', name: 'Expense Category', description: 'Expense categories', operations: [getAllExpenseCategories] },
	{ value: 'intake', name: 'Intake', description: 'Incoming spend requests', operations: [getAllIntakes, createIntake] },
	{ value: 'invoice', name: 'Invoice', description: 'Supplier invoices', operations: [getAllInvoices] },
	{ value: 'payable', name: 'Payable', description: 'Payables (invoices, expense claims, card purchases)', operations: [searchPayables, getAllPayablesSnapshot] },
	{ value: 'settlement', name: 'Settlement', description: 'Settlements of payables', operations: [getAllSettlements] },
	{ value: 'walletSummary', name: 'Wallet Summary', description: 'Wallet balance of a company', operations: [getWalletSummary] },
];
