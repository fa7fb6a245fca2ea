/**
 * What the Spendesk app does, as n8n's node panel shows it. The node and the polling trigger
 * both carry it: the panel lists a trigger named after the node (`spendesk` + `Trigger`)
 * under the node's app, and shows that trigger's description as the app's (n8n 2.8 and 2.41).
 * The trigger's own events are described by its Trigger On options.
 */
export const SPENDESK_DESCRIPTION =
	'Read, create and update Spendesk data (payables with their receipts, bookkeeping status, suppliers, invoices, settlements, users, accounting exports, intakes and more) for one company or every company of an organisation, and start workflows on new invoices';
