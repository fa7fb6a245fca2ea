/** The app's description in n8n's panel: the node and the polling trigger (shown as the app's) both carry it. */
export const SPENDESK_DESCRIPTION =
	'Read, create and update Spendesk data (payables with their receipts, bookkeeping status, suppliers, invoices, settlements, users, accounting exports, intakes and more) for one company or every company of an organisation, and start workflows on new invoices';
