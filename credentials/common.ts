/**
 * The fields the Spendesk credentials share (environment, access level), the OAuth2 paths,
 * and the base URL as an n8n expression for the values n8n resolves
 * itself (the OAuth2 URLs), with the same HTTPS rule and normalisation
 * as the transport.
 */
import type { INodeProperties } from 'n8n-workflow';
import {
	BASE_URL_PATTERN,
	DOT_SEGMENT,
	ENVIRONMENT_URLS,
	LOOPBACK_HOSTS,
} from '../nodes/Spendesk/transport/environment';
import { ENDPOINTS } from '../nodes/Spendesk/transport/endpoints';

/** OAuth2 authorization-code (PKCE) endpoints, relative to the base URL (from the catalogue). */
export const OAUTH2_PATHS = {
	consentPage: ENDPOINTS.oauth2Authorize.path,
	codeExchange: ENDPOINTS.oauth2Token.path,
} as const;

/**
 * What the OAuth2 URLs become when the custom base URL is refused. n8n checks both URLs when
 * Connect is clicked, before it saves or sends anything, and refuses a protocol other than
 * HTTP(S) naming it ("OAuth url must use HTTP or HTTPS protocol. Invalid protocol: …"), so the
 * reason reaches the user. Neither carries the secret, and neither is empty (n8n lets an empty
 * URL through).
 */
export const REFUSED_BASE_URL = {
	plainHttp: 'spendesk-custom-base-url-needs-https-except-localhost:',
	invalid: 'spendesk-custom-base-url-is-not-a-valid-url:',
} as const;

/**
 * The custom base URL as `resolveBaseUrl` gives it, as JavaScript over `u` (the trimmed
 * field), built from the same patterns: refused (one of REFUSED_BASE_URL) or normalised.
 */
const CUSTOM_BASE_URL_CODE =
	`((m) => !m || Number(m[3] || 0) > 65535 || /${DOT_SEGMENT.source}/i.test(m[4]) ? "${REFUSED_BASE_URL.invalid}" : ` +
	`m[1].toLowerCase() === "http" && !${JSON.stringify(LOOPBACK_HOSTS)}.includes(m[2].toLowerCase()) ? "${REFUSED_BASE_URL.plainHttp}" : ` +
	`m[1].toLowerCase() + "://" + m[2].toLowerCase() + (m[3] === undefined ? "" : ":" + m[3]) + m[4].replace(/\\/+$/, ""))` +
	`(u.match(/${BASE_URL_PATTERN.source}/i))`;

/** The base URL `resolveBaseUrl` gives, as JavaScript over the credential's own fields. */
const BASE_URL_CODE =
	`((e, u) => e === "custom" ? ${CUSTOM_BASE_URL_CODE} : e === "demo" ? "${ENVIRONMENT_URLS.demo}" : "${ENVIRONMENT_URLS.production}")` +
	`($self["environment"], String($self["baseUrl"] || "").trim())`;

/** True when the base URL code gave one of the refusals (then nothing is appended to it). */
const REFUSED_CODE = `/^spendesk-custom-base-url-/.test(base)`;

/**
 * The base URL plus a path, as an n8n expression, for properties n8n resolves itself
 * (the OAuth2 authorize URL).
 */
export function baseUrlExpression(path: string): string {
	return `={{ ((base) => ${REFUSED_CODE} ? base : base + "${path}")(${BASE_URL_CODE}) }}`;
}

/**
 * The OAuth2 token URL. Spendesk requires `client_id` and `client_secret` as query
 * parameters of every refresh POST (a refresh without them is answered 400), and n8n
 * refreshes by POSTing to this URL with its query kept, so the query carries both,
 * URL-encoded, from the credential's own fields. The code exchange goes to the same URL.
 * The secret is resolved on the n8n server only: the stored field is this expression.
 */
export const tokenUrlExpression =
	`={{ ((base) => ${REFUSED_CODE} ? base : base + "${OAUTH2_PATHS.codeExchange}" + ` +
	`"?client_id=" + encodeURIComponent(String($self["clientId"] || "")) + ` +
	`"&client_secret=" + encodeURIComponent(String($self["clientSecret"] || "")))(${BASE_URL_CODE}) }}`;

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

/**
 * The Access Level and Company ID fields every Spendesk credential shares
 * (docs/api.md#levels-and-company-placement). *Company* is the default: the keys and
 * connections Spendesk documents are company-level, and a company-level credential needs
 * nothing more. *Organisation* is the explicit other choice, for credentials Spendesk enabled
 * organisation-level access for. The Company ID is optional: it names the company in items and
 * messages, and saves the look-up of the company's own ID for the calls that carry it in
 * their path (docs/api.md#the-companys-own-id).
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

/** The base URL alone as an expression, built as the OAuth2 URLs are (tests compare it with `resolveBaseUrl`). */
export const testBaseUrl = baseUrlExpression('');
