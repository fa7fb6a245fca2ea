import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { webhookCompanyProperties } from './companies/description';
import { authenticationProperty, credentialTest, shownFor } from './authentication';
import { getCompanies, searchCompanies } from './methods/listSearch';
import { nameCalls } from './transport/callName';
import { receiveDelivery } from './webhook/delivery';
import { WEBHOOK_EVENTS } from './webhook/events';
import { checkExists, create, remove } from './webhook/registration';
import { optionsCollection } from './actions/sharedParams';

const eventNames = Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e.value, e.name]));

export class SpendeskWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Spendesk Webhook Trigger',
		name: 'spendeskWebhookTrigger',
		icon: { light: 'file:spendesk.svg', dark: 'file:spendesk.dark.svg' },
		group: ['trigger'],
		version: [1],
		defaultVersion: 1,
		// Event names ("Payable Created, Settlement Created"); a value not in the list, or the text
		// of an expression, shows as it is.
		subtitle: `={{ [].concat($parameter["events"]).map((e) => (${JSON.stringify(eventNames)})[e] || e).join(", ") }}`,
		description:
			'Starts the workflow the moment Spendesk creates or prepares a payable, or creates a settlement (experimental webhooks)',
		defaults: { name: 'Spendesk Webhook Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'spendeskApi', testedBy: 'spendeskApiTest', ...shownFor.apiKey },
			{ name: 'spendeskOAuth2Api', testedBy: 'spendeskOAuth2Test', ...shownFor.oAuth2 },
		],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			{
				displayName:
					'Spendesk webhooks are experimental: your Spendesk customer success contact must enable them (scopes experimental:webhooks:read and experimental:webhooks:write) for your organisation first',
				name: 'experimentalNotice',
				type: 'notice',
				default: '',
			},
			authenticationProperty,
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [...WEBHOOK_EVENTS],
				default: ['payables:created'],
				description:
					'Which Spendesk events start the workflow; each starts it with the event, which carries its companyId',
			},
			...webhookCompanyProperties,
			optionsCollection([
				{
					displayName: 'Fetch Full Object',
					name: 'fetchFullObject',
					type: 'boolean',
					default: false,
					description:
						"Whether to read the whole payable or settlement from Spendesk before the workflow starts, instead of passing on the event with its ID only (one more request per event; a settlement is looked up in its company's settlement list)",
				},
			]),
		],
	};

	methods = { credentialTest, listSearch: { searchCompanies }, loadOptions: { getCompanies } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await remove.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		nameCalls(this, 'Spendesk Webhook Trigger (Fetch Full Object)');
		return await receiveDelivery.call(this);
	}
}
