/**
 * The fields both Spendesk credentials share (environment, access level), the OAuth2 paths
 * and default scopes, and the base URL as an n8n expression for the values n8n resolves
 * itself (OAuth2 URLs, credential test requests).
 */
import type { INodeProperties } from 'n8n-workflow';
import { ENVIRONMENT_URLS } from '../nodes/Spendesk/transport/environment';

/** OAuth2 authorization-code (PKCE) endpoints, relative to the base URL. */
export const OAUTH2_PATHS = {
	consentPage: '/oauth2/authorize',
	codeExchange: '/oauth2/token',
} as const;

/** Scopes requested by default: everything the node and trigger use. */
export const DEFAULT_SCOPES = [
	'experimental:company:read',
	'experimental:invoice:read',
	'experimental:intake:read',
	'experimental:intake:write',
	'experimental:analytical-field:read',
	'experimental:expense-category:read',
	'wallet-summary:read',
	'settlement:read',
	'account:read',
	'payable:read',
] as const;

/**
 * The base URL `resolveBaseUrl` gives, as an n8n expression over the credential's own
 * fields, for properties n8n resolves itself (OAuth2 authorize and token URLs).
 */
export function baseUrlExpression(path: string): string {
	return (
		`={{ ($self["environment"] === "custom" ? String($self["baseUrl"] || "").trim().replace(/\\/+$/, "") : ` +
		`$self["environment"] === "demo" ? "${ENVIRONMENT_URLS.demo}" : "${ENVIRONMENT_URLS.production}") + "${path}" }}`
	);
}

/** Environment fields shared by both credentials. */
export const environmentProperties: INodeProperties[] = [
	{
		displayName: 'Environment',
		name: 'environment',
		type: 'options',
		options: [
			{ name: 'Production', value: 'production', description: ENVIRONMENT_URLS.production },
			{ name: 'Demo (Sandbox)', value: 'demo', description: ENVIRONMENT_URLS.demo },
			{ name: 'Custom Base URL', value: 'custom', description: 'A self-hosted test server such as the Spendesk simulator' },
		],
		default: 'production',
	},
	{
		displayName: 'Base URL',
		name: 'baseUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. http://127.0.0.1:8787',
		description: 'HTTPS is required, except for localhost or 127.0.0.1',
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
				{
					name: 'Organisation',
					value: 'organisation',
					description: `The ${kind} reaches every company of the organisation; each call names its company`,
				},
				{ name: 'Company', value: 'company', description: `The ${kind} reaches one company only` },
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

/** Base URL as an expression, for credential test requests. */
export const testBaseUrl = baseUrlExpression('');
