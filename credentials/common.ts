/** The fields both Spendesk credentials share: the environment and the access level. */
import type { INodeProperties } from 'n8n-workflow';
import { ENVIRONMENT_URLS, LOOPBACK_HOSTS } from '../nodes/Spendesk/transport/environment';

/** Environment fields shared by both credentials. */
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

/** Access level fields shared by both credentials. */
export function accessLevelProperties(kind: 'API key' | 'connection'): INodeProperties[] {
	return [
		{
			displayName: 'Access Level',
			name: 'accessLevel',
			type: 'options',
			options: [
				{ name: 'Company', value: 'company', description: `The ${kind} reaches one company only` },
				{
					name: 'Organisation',
					value: 'organisation',
					description: `The ${kind} reaches every company of the organisation; each call names its company`,
				},
			],
			default: 'organisation',
		},
		{
			displayName: 'Company ID',
			name: 'companyId',
			type: 'string',
			default: '',
			required: true,
			description: `ID of the company this ${kind} belongs to; used for calls with the company in their path`,
			displayOptions: { show: { accessLevel: ['company'] } },
		},
	];
}
