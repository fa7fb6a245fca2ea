/**
 * Where the API lives: the environments a credential can choose, the OAuth2 paths, and the
 * rule that a base URL must be HTTPS unless it points at this machine (the simulator).
 * Credentials and transport both read this file, so these are decided in one place.
 */
import type { INodeProperties } from 'n8n-workflow';

export const ENVIRONMENT_URLS = {
	production: 'https://public-api.spendesk.com',
	demo: 'https://public-api.demo.spendesk.com',
} as const;

export type Environment = keyof typeof ENVIRONMENT_URLS | 'custom';

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

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export class BaseUrlError extends Error {}

/** The base URL of a credential, without a trailing slash; refuses plain HTTP except on loopback. */
export function resolveBaseUrl(credentials: { environment?: unknown; baseUrl?: unknown }): string {
	const environment = (credentials.environment ?? 'production') as Environment;
	if (environment !== 'custom') {
		const url = ENVIRONMENT_URLS[environment];
		if (!url) throw new BaseUrlError(`Unknown Spendesk environment "${String(environment)}"`);
		return url;
	}
	const raw = typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '';
	if (!URL.canParse(raw)) {
		throw new BaseUrlError(`The custom base URL "${raw}" is not a valid URL: enter e.g. https://public-api.spendesk.com`);
	}
	const url = new URL(raw);
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
		throw new BaseUrlError(
			`The custom base URL "${raw}" must use HTTPS: plain HTTP is only accepted for localhost or 127.0.0.1 (a local test server such as the Spendesk simulator)`,
		);
	}
	return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The same base URL as an n8n expression over the credential's own fields, for properties
 * n8n resolves itself (OAuth2 authorize and token URLs).
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
