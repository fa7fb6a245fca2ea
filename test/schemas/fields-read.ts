/**
 * Every field the package reads from a Spendesk answer, by reader: the schema of the answer
 * (a file of this folder, or a definition in it) and the fields read from it, as paths
 * (`links[].bankFees`, `meta.pagination.total`). test/unit/fields-read.test.ts checks that each
 * is a field of its schema, and, for the readers it can run alone (`probe`), that the reader
 * touches exactly the fields declared. The others are declared from their code; the
 * simulator answers only schema fields (test/simulator/conformance/response-shapes.test.ts), so a
 * reader that depends on another field fails its integration tests.
 *
 * When a reader changes, change its entry here with it (docs/api.md#response-shapes).
 */
import type { IDataObject } from 'n8n-workflow';
import { simplified } from '../../nodes/Spendesk/actions/output';
import {
	searchAnalyticalFields,
	searchAnalyticalFieldValues,
} from '../../nodes/Spendesk/methods/listSearch';
import {
	searchCostCenters,
	searchIntakeRecords,
	searchJournalTemplates,
	searchPurchaseOrders,
	searchSettlements,
	searchSuppliers,
	searchUsers,
} from '../../nodes/Spendesk/methods/recordSearch';
import type { RecordSearchMethod } from '../../nodes/Spendesk/methods/recordSearch';
import { tokenScopes } from '../../nodes/Spendesk/methods/keyScopes';
import { readErrorBody } from '../../nodes/Spendesk/transport/errors';
import { bodyItems, singleObject } from '../../nodes/Spendesk/transport/pagination/response';

export interface Reader {
	/** Where the reader is (a path under nodes/Spendesk/ or credentials/) and what it reads. */
	reader: string;
	/** The schema of what it reads: `settlement.json` or `envelopes.json#/$defs/page`. */
	schema: string;
	/** The fields it reads, as paths of the schema. */
	fields: readonly string[];
	/** Runs the reader on one record, for the readers that can run alone. */
	probe?: (record: IDataObject) => unknown;
	/** A From List search of the editor: its label is the probe. */
	picker?: RecordSearchMethod;
}

/** A From List search whose label is probed (recordSearch.ts). */
const picker = (method: RecordSearchMethod) => ({
	picker: method,
	probe: (record: IDataObject) => method.list?.label(record),
});

export const FIELDS_READ: readonly Reader[] = [
	// Pickers (methods/): the labels of the editor's From List.
	{
		reader: 'methods/recordSearch.ts searchSettlements label',
		schema: 'settlement.json',
		fields: ['amount', 'currency', 'createdAt', 'clearedAt'],
		...picker(searchSettlements),
	},
	{
		reader: 'methods/recordSearch.ts searchUsers label',
		schema: 'user.json',
		fields: ['firstName', 'lastName', 'email'],
		...picker(searchUsers),
	},
	{
		reader: 'methods/recordSearch.ts searchSuppliers label',
		schema: 'supplier.json',
		fields: ['name', 'vatNo', 'address', 'address.city'],
		...picker(searchSuppliers),
	},
	{
		reader: 'methods/recordSearch.ts searchIntakeRecords label',
		schema: 'intake.json',
		fields: ['supplierName', 'amount', 'currency'],
		...picker(searchIntakeRecords),
	},
	{
		reader: 'methods/recordSearch.ts searchPayables label',
		schema: 'payable.json',
		fields: ['description', 'amount', 'currency'],
	},
	{
		reader: 'methods/recordSearch.ts matching (every From List: the record ID)',
		schema: 'settlement.json',
		fields: ['id'],
	},
	{
		reader: 'methods/listSearch.ts searchAnalyticalFields label (labelOf)',
		schema: 'analytical-field.json',
		fields: ['name', 'value'],
		...picker(searchAnalyticalFields),
	},
	{
		reader: 'methods/listSearch.ts searchAnalyticalFieldValues label (labelOf)',
		schema: 'analytical-field-value.json',
		fields: ['name', 'value'],
		...picker(searchAnalyticalFieldValues),
	},
	{
		reader: 'methods/recordSearch.ts searchCostCenters label',
		schema: 'cost-center.json',
		fields: ['name'],
		...picker(searchCostCenters),
	},
	{
		reader: 'methods/recordSearch.ts searchJournalTemplates label',
		schema: 'journal-template.json',
		fields: ['name'],
		...picker(searchJournalTemplates),
	},
	{
		reader: 'methods/recordSearch.ts purchaseOrderLabel',
		schema: 'purchase-order.json',
		fields: ['supplier', 'supplier.name', 'amount', 'status'],
		...picker(searchPurchaseOrders),
	},
	{
		reader: 'companies/select.ts reachableCompanies; methods/listSearch.ts searchCompanies',
		schema: 'company.json',
		fields: ['id', 'name'],
	},
	// Output → Simplified (actions/output.ts); Selected Fields reads only the fields chosen.
	{
		reader: 'actions/output.ts Simplified payable',
		schema: 'payable.json',
		fields: [
			'id',
			'version',
			'description',
			'type',
			'bookkeepingStatus',
			'amount',
			'currency',
			'counterparty',
			'costCenterId',
			'payableDate',
		],
		probe: (record) => simplified('payable', record),
	},
	{
		reader: 'actions/output.ts Simplified purchase order',
		schema: 'purchase-order.json',
		fields: [
			'id',
			'status',
			'description',
			'supplier',
			'amount',
			'netAmount',
			'currency',
			'startDate',
			'endDate',
			'userId',
		],
		probe: (record) => simplified('purchaseOrder', record),
	},
	{
		reader: 'actions/output.ts Simplified supplier',
		schema: 'supplier.json',
		fields: [
			'id',
			'name',
			'legalName',
			'vatNo',
			'iban',
			'bic',
			'bankCountry',
			'address',
			'primaryEmail',
			'isArchived',
		],
		probe: (record) => simplified('supplier', record),
	},
	{
		reader: 'actions/output.ts Simplified settlement',
		schema: 'settlement.json',
		fields: [
			'id',
			'type',
			'medium',
			'paidFrom',
			'amount',
			'currency',
			'state',
			'createdAt',
			'clearedAt',
			'exportedAt',
		],
		probe: (record) => simplified('settlement', record),
	},
	// Operations that read a field of an answer (actions/).
	{
		reader: 'actions/analyticalField/getValues.operation.ts mapItem (name from value)',
		schema: 'analytical-field-value.json',
		fields: ['name', 'value'],
	},
	{
		reader: 'actions/payable/getAttachments.operation.ts',
		schema: 'attachment.json',
		fields: ['id', 'mimeType', 'fileName', 'downloadUrl', 'url', 'size'],
	},
	{
		reader: 'actions/payable/lineItems.ts lines read back from Get a payable',
		schema: 'payable.json',
		fields: [
			'lineItems',
			'lineItems[].financial',
			'lineItems[].financial.grossAmount',
			'lineItems[].financial.netAmount',
			'lineItems[].financial.vatAmount',
			'lineItems[].financial.vatAdjustmentAmount',
			'lineItems[].financial.vatAdjustementAmount',
			'lineItems[].expenseAccount',
			'lineItems[].expenseAccount.id',
			'lineItems[].vatAccount',
			'lineItems[].vatAccount.id',
			'lineItems[].costCenterId',
			'lineItems[].analyticalProperties',
			'lineItems[].analyticalProperties[].fieldId',
			'lineItems[].analyticalProperties[].valueId',
			'costCenterId',
			'version',
		],
	},
	{
		reader: 'actions/payable/update.operation.ts the new version',
		schema: 'write-answers.json#/$defs/payableAccountingUpdate',
		fields: ['item', 'item.version'],
	},
	{
		reader: 'actions/payable/updateBookkeepingStatus.operation.ts pairing by payable ID',
		schema: 'write-answers.json#/$defs/bookkeepingStatus',
		fields: ['data', 'data[].id', 'data[].status', 'data[].version'],
	},
	{
		reader: 'actions/payable/uploadReceipt.operation.ts the upload form',
		schema: 'write-answers.json#/$defs/receiptUploadForm',
		fields: ['method', 'url', 'fields'],
	},
	{
		reader: 'actions/supplier/bulk.ts pairing by name (several suppliers)',
		schema: 'write-answers.json#/$defs/supplierItems',
		fields: ['items', 'items[].outcome', 'items[].supplier'],
	},
	{
		reader: 'actions/supplier/bulk.ts one supplier',
		schema: 'write-answers.json#/$defs/supplierItem',
		fields: ['item'],
	},
	{
		reader: 'actions/supplier/bulk.ts the supplier of a result',
		schema: 'supplier.json',
		fields: ['id', 'name'],
	},
	{
		reader: 'actions/accountingExport/create.operation.ts status poll',
		schema: 'accounting-export.json',
		fields: ['id', 'status'],
	},
	{
		reader: 'actions/intake/upload.ts upload slot',
		schema: 'intake.json#/$defs/uploadSlot',
		fields: ['fileId', 'uploadUrl', 'method', 'headers'],
	},
	{
		reader: 'actions/intake/upload.ts confirmation',
		schema: 'intake.json#/$defs/uploadComplete',
		fields: ['status'],
	},
	// Envelopes (transport/pagination/).
	{
		reader: 'transport/pagination/page.ts; methods/recordSearch.ts page lists',
		schema: 'envelopes.json#/$defs/page',
		fields: [
			'data',
			'meta',
			'meta.pagination',
			'meta.pagination.total',
			'meta.pagination.pageSize',
		],
	},
	{
		reader: 'transport/pagination/cursor.ts; methods/recordSearch.ts cursor lists',
		schema: 'envelopes.json#/$defs/cursor',
		fields: [
			'data',
			'meta',
			'meta.pagination',
			'meta.pagination.hasNextPage',
			'meta.pagination.nextCursor',
			'meta.pagination.nextUrl',
		],
	},
	{
		reader: 'transport/pagination/offset.ts',
		schema: 'envelopes.json#/$defs/offset',
		fields: ['data', 'totalResults'],
	},
	{
		reader: 'transport/pagination/bodyCursor.ts; transport/ownCompany.ts; methods/recordSearch.ts',
		schema: 'envelopes.json#/$defs/search',
		fields: ['payables', 'data', 'nextCursor'],
	},
	{
		reader: 'transport/pagination/snapshot.ts create',
		schema: 'envelopes.json#/$defs/snapshotCreated',
		fields: ['key'],
	},
	{
		reader: 'transport/pagination/snapshot.ts status poll and result pages',
		schema: 'envelopes.json#/$defs/snapshot',
		fields: ['status', 'result', 'result.data', 'result.meta.pagination.total'],
	},
	{
		reader: 'transport/pagination/response.ts singleObject (a wrapped object)',
		schema: 'envelopes.json#/$defs/wrapped',
		fields: ['data'],
		probe: (record) => singleObject(record),
	},
	{
		reader: 'transport/pagination/response.ts bodyItems (a wrapped object or list)',
		schema: 'envelopes.json#/$defs/wrapped',
		fields: ['data'],
		probe: (record) => bodyItems(record),
	},
	// Company look-up, triggers and the webhook trigger.
	{
		reader: 'transport/ownCompany.ts the company of a payable',
		schema: 'payable.json',
		fields: ['id', 'companyId'],
	},
	{
		reader: 'trigger/companyPoll.ts, trigger/cursorState.ts cursors and dedupe keys',
		schema: 'invoice.json',
		fields: ['id', 'updatedAt', 'createdAt'],
	},
	{
		reader: 'webhook/registration.ts instance checks',
		schema: 'webhook-instance.json',
		fields: ['id', 'url', 'events', 'companyId', 'secret', 'disabled', 'status'],
	},
	{
		reader: 'webhook/delivery.ts the delivery body and its dedupe key',
		schema: 'webhook-delivery.json',
		fields: ['data', 'data.companyId', 'data.id', 'event', 'event.id', 'event.eventType'],
	},
	{
		reader: 'webhook/delivery.ts Fetch Full Object (settlements): the settlement by ID',
		schema: 'settlement.json',
		fields: ['id'],
	},
	// Credentials and errors.
	{
		reader: 'credentials/SpendeskApi.credentials.ts; methods/credentialTest.ts the access token',
		schema: 'token.json#/$defs/apiKey',
		fields: ['access_token'],
	},
	{
		reader: "methods/keyScopes.ts tokenScopes (what the key may read, from the token's scope)",
		schema: 'token.json#/$defs/apiKey',
		fields: ['scope'],
		probe: (record) => tokenScopes(record),
	},
	{
		reader: 'transport/oauth2.ts the code exchange and refresh',
		schema: 'token.json#/$defs/oauth2',
		fields: ['access_token', 'refresh_token'],
	},
	{
		reader: 'methods/credentialTest.ts organisationOutcome (the company count)',
		schema: 'envelopes.json#/$defs/page',
		fields: ['meta', 'meta.pagination', 'meta.pagination.total'],
	},
	{
		reader: 'transport/errors.ts readErrorBody (every error the package quotes)',
		schema: 'error.json',
		fields: [
			'errors',
			'errors[].code',
			'errors[].detail',
			'errors[].source',
			'errors[].message',
			'error',
			'error_description',
			'message',
		],
		probe: (record) => readErrorBody(record),
	},
];
