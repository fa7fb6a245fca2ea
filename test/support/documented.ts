/**
 * The operations a company-level API key can run in the documented world
 * (docs/api.md#the-documented-profile), with the parameters of each and what it must give:
 * shared by the integration tests (test/integration/documented-world.test.ts) and the
 * end-to-end run in real n8n (test/e2e/documented.e2e.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import type { SpendeskSimulator } from '../simulator';
import { payableDetail } from '../simulator/routes-reads';
import { locatorById } from './values';

export const DOCUMENTED_SIZES = {
	invoices: 3,
	payables: 4,
	settlements: 3,
	accounts: 3,
	analyticalFields: 2,
	analyticalFieldValues: 33,
	expenseCategories: 31,
	intakes: 2,
	suppliers: 3,
	users: 3,
	costCenters: 2,
	bankFees: 2,
	walletLoads: 2,
};

export interface DocumentedCase {
	name: string;
	params: (sim: SpendeskSimulator) => IDataObject;
	expected: (sim: SpendeskSimulator) => unknown[];
	/** Every request path the operation must call (the documented v1 endpoints). */
	path: RegExp;
}

/** The company of the company-level key (`sim-company-client`). */
export const C = 'cmp_001';

export const DOCUMENTED: DocumentedCase[] = [
	{
		name: 'Wallet Summary → Get',
		params: () => ({ resource: 'walletSummary', operation: 'get' }),
		expected: (sim) => [sim.data(C).walletSummary],
		path: /^GET \/v1\/wallet-summary$/,
	},
	{
		name: 'Settlement → Get Many',
		params: () => ({ resource: 'settlement', operation: 'getAll', returnAll: true }),
		expected: (sim) => sim.data(C).settlements,
		path: /^GET \/v1\/settlements$/,
	},
	{
		name: 'Bank Fee → Get Many',
		params: () => ({ resource: 'bankFee', operation: 'getAll', returnAll: true }),
		expected: (sim) => sim.data(C).bankFees,
		path: /^GET \/v1\/bank-fees$/,
	},
	{
		name: 'Wallet Load → Get Many',
		params: () => ({ resource: 'walletLoad', operation: 'getAll', returnAll: true }),
		expected: (sim) => sim.data(C).walletLoads,
		path: /^GET \/v1\/wallet-loads$/,
	},
	{
		name: 'User → Get Many',
		params: () => ({ resource: 'user', operation: 'getAll', returnAll: true }),
		expected: (sim) => sim.data(C).users,
		path: /^GET \/v1\/users$/,
	},
	{
		name: 'User → Get (answered bare)',
		params: (sim) => ({
			resource: 'user',
			operation: 'get',
			userId: locatorById(sim.data(C).users[1].id),
		}),
		expected: (sim) => [sim.data(C).users[1]],
		path: /^GET \/v1\/users\/[^/]+$/,
	},
	{
		name: 'Supplier → Get Many',
		params: () => ({ resource: 'supplier', operation: 'getAll', returnAll: true }),
		expected: (sim) => sim.data(C).suppliers,
		path: /^GET \/v1\/suppliers$/,
	},
	{
		name: 'Supplier → Get (answered bare)',
		params: (sim) => ({
			resource: 'supplier',
			operation: 'get',
			supplierId: locatorById(sim.data(C).suppliers[2].id),
		}),
		expected: (sim) => [sim.data(C).suppliers[2]],
		path: /^GET \/v1\/suppliers\/[^/]+$/,
	},
	{
		name: 'Cost Center → Get Many',
		params: () => ({ resource: 'costCenter', operation: 'getAll', returnAll: true }),
		expected: (sim) => sim.data(C).costCenters,
		path: /^GET \/v1\/cost-centers$/,
	},
	{
		name: 'Payable → Get (answered bare)',
		params: (sim) => ({
			resource: 'payable',
			operation: 'get',
			payableId: locatorById(sim.data(C).payables[1].id),
		}),
		expected: (sim) => [payableDetail(sim.data(C).payables[1])],
		path: /^GET \/v1\/payables\/[^/]+$/,
	},
	{
		name: 'Payable → Get Many as Snapshot',
		params: () => ({
			resource: 'payable',
			operation: 'getAllSnapshot',
			filterMode: 'fields',
			filters: {},
			options: { maxWait: 20 },
			returnAll: true,
		}),
		expected: (sim) => sim.data(C).payables.map(payableDetail),
		path: /^(POST|GET) \/v1\/snapshots\/payables(\/[^/]+)?$/,
	},
	{
		name: 'Analytical Field → Get Many: GET /v1/analytical-fields, page-based',
		params: () => ({ resource: 'analyticalField', operation: 'getAll', returnAll: true }),
		expected: (sim) =>
			sim.data(C).analyticalFields.map(({ id, name }) => ({ id, name, isArchived: false })),
		path: /^GET \/v1\/analytical-fields$/,
	},
	{
		name: 'Analytical Field → Get Many Values: 2 pages of 30, the label given as name too',
		params: (sim) => ({
			resource: 'analyticalField',
			operation: 'getValues',
			fieldId: locatorById(sim.data(C).analyticalFields[1].id),
			returnAll: true,
		}),
		expected: (sim) =>
			sim.data(C).analyticalFields[1].values.map(({ id, name }) => ({
				id,
				value: name,
				isArchived: false,
				name,
			})),
		path: /^GET \/v1\/analytical-fields\/[^/]+\/values$/,
	},
	{
		name: 'Expense Category → Get Many: 2 pages of 30',
		params: () => ({ resource: 'expenseCategory', operation: 'getAll', returnAll: true }),
		expected: (sim) => sim.data(C).expenseCategories,
		path: /^GET \/v1\/expense-categories$/,
	},
];
