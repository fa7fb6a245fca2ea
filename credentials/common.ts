/** The fields both Spendesk credentials share: the environment and the access level. */
import type { INodeProperties } from 'n8n-workflow';
import { ENVIRONMENT_URLS, LOOPBACK_HOSTS } from '../nodes/Spendesk/transport/environment';

export const environmentProperties: INodeProperties[] = [
	{
		displayName: 'Environment',
		name: 'environment',
		type: 'options',
		options: [
			{
				name: 'Custom Base URL',
				value: 'custom',
				description: `A Spendesk API at another address: HTTPS only, except on this machine (${LOOPBACK_HOSTS.join(', ')})`,
			},
			{ name: 'Demo (Sandbox)', value: 'demo', description: ENVIRONMENT_URLS.demo },
			{ name: 'Production', value: 'production', description: ENVIRONMENT_URLS.production },
		],
		default: 'production',
	},
	{
		displayName: 'Base URL',
		name: 'baseUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://api.example.com',
		description: `The address of the API, starting with https:// (http:// only on this machine: ${LOOPBACK_HOSTS.join(', ')})`,
		required: true,
		displayOptions: { show: { environment: ['custom'] } },
	},
];

/**
 * Access Level and Company ID (docs/api.md#levels-and-company-placement): *Company* by default,
 * as the keys and connections Spendesk documents are company-level.
 */
export function accessLevelProperties(kind: 'API key' | 'connection'): INodeProperties[] {
	return [
		{
			displayName: 'Access Level',
			name: 'accessLevel',
			type: 'options',
			options: [
				{
					name: 'Company',
					value: 'company',
					description: `Most ${kind === 'API key' ? 'keys' : 'connections'}: the ${kind} reaches its own company`,
				},
				{
					name: 'Organisation',
					value: 'organisation',
					description: `Only if your Spendesk contact enabled organisation-level access for this ${kind}: it reaches every company of the organisation, and each call names its company`,
				},
			],
			default: 'company',
		},
		{
			displayName: 'Company ID',
			name: 'companyId',
			type: 'string',
			default: '',
			description: `Optional: the ID of the company of this ${kind}, as the address bar of the Spendesk app shows it. It names the company in items and messages; leave it empty if you do not know it.`,
			displayOptions: { show: { accessLevel: ['company'] } },
		},
	];
}
