/**
 * What the Spendesk app does, as n8n's node panel shows it: the node and the polling trigger
 * both carry it, as the panel shows the description of a trigger named after the node as the app's.
 */
export const SPENDESK_DESCRIPTION =
	'Read, create and update Spendesk data (payables with their receipts, bookkeeping status, suppliers, invoices, settlements, users, accounting exports, intakes and more) for one company or every company of an organisation, and start workflows on new invoices';
