import { NodeConnectionTypes } from 'n8n-workflow';
import { authenticationProperty, credentialTest, shownFor } from './authentication';
import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { triggerCompanyProperties } from './companies/description';
import { getCompanies, searchCompanies } from './methods/listSearch';
import { pollInvoices } from './trigger/poll';
import { nameCalls } from './transport/callName';
import { optionsCollection } from './actions/sharedParams';
import { SPENDESK_DESCRIPTION } from './appDescription';

const EVENT_OPTIONS = [
	{
		name: 'New Invoice',
		value: 'newInvoice',
		description: 'Each invoice once, when it first appears',
	},
	{
		name: 'New or Updated Invoice',
		value: 'newOrUpdatedInvoice',
		description: 'Each invoice again after every update',
	},
];

/** Event value → name, for the subtitle (an expression's text shows as it is). */
const eventNames = Object.fromEntries(EVENT_OPTIONS.map((o) => [o.value, o.name]));

export class SpendeskTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Spendesk Trigger',
		name: 'spendeskTrigger',
		icon: { light: 'file:spendesk.svg', dark: 'file:spendesk.dark.svg' },
		group: ['trigger'],
		version: [1],
		defaultVersion: 1,
		subtitle: `={{ (${JSON.stringify(eventNames)})[$parameter["event"]] || $parameter["event"] }}`,
		// n8n's node panel shows this as the Spendesk app's description (appDescription.ts).
		description: SPENDESK_DESCRIPTION,
		defaults: { name: 'Spendesk Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'spendeskApi', testedBy: 'spendeskApiTest', ...shownFor.apiKey },
			{ name: 'spendeskOAuth2Api', testedBy: 'spendeskOAuth2Test', ...shownFor.oAuth2 },
		],
		properties: [
			authenticationProperty,
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				options: EVENT_OPTIONS,
				default: 'newInvoice',
			},
			...triggerCompanyProperties,
			{
				displayName: 'Start From',
				name: 'startFrom',
				type: 'options',
				options: [
					{
						name: 'A Date',
						value: 'date',
						description: 'On first activation, also emit invoices updated since a date',
					},
					{
						name: 'Now',
						value: 'now',
						description: 'Emit only invoices that appear after activation',
					},
				],
				default: 'now',
			},
			{
				displayName: 'Since',
				name: 'since',
				type: 'dateTime',
				default: '',
				required: true,
				displayOptions: { show: { startFrom: ['date'] } },
			},
			optionsCollection([
				{
					displayName: 'Overlap Window (Minutes)',
					name: 'overlapMinutes',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: 1440 },
					default: 5,
					description:
						'How far behind the newest invoice each poll re-reads, to catch invoices that show up late (0 still re-reads one second). Larger is safer; the default suits most accounts.',
				},
			]),
		],
	};

	methods = { credentialTest, listSearch: { searchCompanies }, loadOptions: { getCompanies } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// Messages name the trigger and its event as the panel shows them (transport/callName.ts).
		nameCalls(this, () => {
			const event = String(this.getNodeParameter('event', 'newInvoice'));
			return `Spendesk Trigger (${eventNames[event] ?? event})`;
		});
		return await pollInvoices.call(this);
	}
}
