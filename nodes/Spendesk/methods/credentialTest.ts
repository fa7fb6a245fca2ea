/**
 * The API key credential's test (docs/api.md#testing-an-api-key): the token request, as
 * `preAuthentication` makes it, then one read any key can answer: a documented v1 list the
 * token's scopes allow (a 403 naming a scope still proves the key works), or Get Companies.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { redirectRefusal, sendLegacy } from '../transport/door';
import { ENDPOINTS } from '../transport/endpoints';
import type { Endpoint, EndpointName } from '../transport/endpoints';
import { resolveBaseUrl } from '../transport/environment';
import { NETWORK_WORDS, readErrorBody, redact } from '../transport/errors';
import { isOneIdSegment } from '../transport/placement';
import { transportSettings } from '../transport/settings';
import { abilities, readWords, tokenScopes } from './keyScopes';

/** Where the user finds the key's client ID, secret and scopes in Spendesk. */
const KEY_SETTINGS = 'Settings → Integrations → API access management';

/** The v1 lists a company key is tested with, by preference: page lists whose first page answers even empty. */
export const COMPANY_PROBES: readonly EndpointName[] = [
	'listSettlements',
	'listSuppliers',
	'listUsers',
	'listCostCenters',
	'listExpenseCategoriesV1',
	'listAnalyticalFieldsV1',
	'listBankFees',
	'listWalletLoads',
];

const LEVEL_CHECK = ENDPOINTS.getCompanies;

type Answer = { statusCode: number; body: unknown };

type Result = INodeCredentialTestResult;

export const failed = (message: string): Result => ({ status: 'Error', message });
const isResult = (value: object): value is Result => 'status' in value;

/** The network codes of a request cut for taking too long. */
const TIMED_OUT = new Set(['ETIMEDOUT', 'ECONNABORTED']);

const isOk = (status: number): boolean => status >= 200 && status < 300;

/** What Spendesk said in an error answer, safe to quote (secrets and tokens redacted). */
function said(body: unknown, secrets: string[]): string {
	const error = readErrorBody(body);
	const text = [error?.code, error?.detail].filter(Boolean).join(': ');
	if (!text) return '';
	const safe = redact(text, secrets);
	return ` Spendesk said: "${safe.length > 200 ? `${safe.slice(0, 200)}…` : safe}".`;
}

/** How messages name each request of the test: the user chose the Test, not an endpoint. */
function testStep(endpoint: Endpoint): string {
	if (endpoint === ENDPOINTS.token) return "the test's token request";
	if (endpoint === LEVEL_CHECK) return "the test's read of the company list";
	return `the test's read of ${readWords(endpoint.scope ?? '')}`;
}

/** One request within the token time limit: its answer, or the failure every step shares (redirect, time, network, 5xx, 429). */
async function exchange(
	ctx: ICredentialTestFunctions,
	endpoint: Endpoint,
	{ baseUrl, origin, secrets }: Settings,
	options: IDataObject,
): Promise<Answer | Result> {
	const timeoutMs = transportSettings.tokenTimeoutMs;
	const deadline = { signal: AbortSignal.timeout(timeoutMs), timeoutMs };
	const request = { method: endpoint.method, uri: baseUrl + endpoint.path, ...options, json: true };
	let answer: Answer;
	try {
		answer = await sendLegacy(ctx, request, deadline);
	} catch (error) {
		const redirect = redirectRefusal(error);
		if (redirect) {
			return failed(
				`Spendesk answered ${testStep(endpoint)} at ${origin} with a redirect (${redirect.status}) to ${redirect.target}, which was not followed: nothing was sent there. Spendesk's API never redirects: check 'Environment' (or 'Base URL') in the credential: it must be the API's own address, not a page or a proxy that forwards elsewhere. Then test again.`,
			);
		}
		const e = error as { code?: unknown; cause?: { code?: unknown } };
		const code = [e?.code, e?.cause?.code].find((c): c is string => typeof c === 'string');
		if (deadline.signal.aborted || TIMED_OUT.has(code ?? '')) {
			return failed(
				`Spendesk did not answer ${testStep(endpoint)} at ${origin} within ${Math.ceil(timeoutMs / 1000)} s (it sent too little, or nothing, in that time): check 'Environment' (or 'Base URL') in the credential and the network of your n8n instance, then test again.`,
			);
		}
		const words = NETWORK_WORDS[code ?? ''] ?? 'no connection';
		return failed(
			`Spendesk could not be reached at ${origin} (${words}${code ? `, ${code}` : ''}): check 'Environment' (or 'Base URL') in the credential and the network of your n8n instance, then test again.`,
		);
	}
	if (answer.statusCode >= 500) {
		return failed(
			`Spendesk could not answer ${testStep(endpoint)} at ${origin} (HTTP ${answer.statusCode}). The problem is on Spendesk's side: test again in a few minutes.${said(answer.body, secrets)}`,
		);
	}
	if (answer.statusCode === 429) {
		return failed(
			`Spendesk is limiting the requests of this key right now (HTTP 429 to ${testStep(endpoint)}): wait a minute, then test again.`,
		);
	}
	return answer;
}

/** The API's address, or what to fix in 'Environment' or 'Base URL' (both credentials' tests). */
export function baseUrlOf(data: IDataObject): string | Result {
	try {
		return resolveBaseUrl(data);
	} catch (error) {
		return failed(
			`${(error as Error).message}. Choose Production or Demo in 'Environment', or correct 'Base URL'.`,
		);
	}
}

/** The credential's fields, or what to fix before any request. */
function settingsOf(data: IDataObject) {
	const baseUrl = baseUrlOf(data);
	if (typeof baseUrl !== 'string') return baseUrl;
	const clientId = typeof data.clientId === 'string' ? data.clientId.trim() : '';
	const clientSecret = typeof data.clientSecret === 'string' ? data.clientSecret : '';
	if (!clientId || !clientSecret) {
		return failed(
			`Enter both 'Client ID' and 'Client Secret' of the API key (from Spendesk: ${KEY_SETTINGS}).`,
		);
	}
	// Company unless Organisation is chosen, as the transport reads it (transport/credential.ts).
	const level = data.accessLevel === 'organisation' ? 'organisation' : 'company';
	const companyId =
		level === 'company' && typeof data.companyId === 'string' ? data.companyId.trim() : '';
	if (companyId && !isOneIdSegment(companyId)) {
		return failed(
			`"${companyId}" is not a company ID: a Spendesk company ID is one word without spaces or slashes. Correct 'Company ID', or leave it empty (it is optional).`,
		);
	}
	const origin = new URL(baseUrl).origin;
	// `secrets`: the secret, then the token once issued: never quoted.
	return { baseUrl, origin, clientId, clientSecret, level, companyId, secrets: [clientSecret] };
}

type Settings = Exclude<ReturnType<typeof settingsOf>, Result>;

/** `scopes`: those the token answer lists; undefined when it lists none. */
type Token = { accessToken: string; scopes?: string[] };

/** Step 1, the Client ID and Client Secret: the token request as `preAuthentication` makes it. */
async function requestToken(ctx: ICredentialTestFunctions, s: Settings): Promise<Token | Result> {
	const answer = await exchange(ctx, ENDPOINTS.token, s, {
		auth: { user: s.clientId, pass: s.clientSecret },
		headers: { 'content-type': 'application/json', accept: 'application/json' },
		body: { grant_type: 'client_credentials' },
	});
	if (isResult(answer)) return answer;
	const { statusCode: status, body } = answer;
	if (status === 400 || status === 401 || status === 403) {
		return failed(
			`Spendesk refused 'Client ID' or 'Client Secret': check both fields (copy them again from Spendesk: ${KEY_SETTINGS}), that the key has not expired, and that 'Environment' is the one the key was created in (Production or Demo).${said(body, s.secrets)}`,
		);
	}
	const accessToken = (body as { access_token?: unknown } | undefined)?.access_token;
	if (!isOk(status) || typeof accessToken !== 'string' || !accessToken) {
		return failed(
			`Spendesk answered the token request with HTTP ${status}${isOk(status) ? ' but no access token' : ''}: check that 'Environment' (or 'Base URL') points at Spendesk's API, then test again.${said(body, s.secrets)}`,
		);
	}
	return { accessToken, scopes: tokenScopes(body) };
}

/** The company-level read: the first documented list the token's scopes allow, else the first. */
export function companyProbe(scopes: readonly string[] | undefined): Endpoint {
	const probes: Endpoint[] = COMPANY_PROBES.map((name) => ENDPOINTS[name]);
	return (scopes && probes.find((e) => e.scope && scopes.includes(e.scope))) || probes[0];
}

/** What the key can do, from its token's scopes, or what the test's read showed when it lists none. */
function whatItDoes(token: Token, probe: Endpoint, readAllowed: boolean): string {
	if (token.scopes) return abilities(token.scopes);
	const words = readWords(probe.scope!);
	return readAllowed
		? `Spendesk did not list the key's scopes: it reads ${words} at least; each operation needs its own scope (see the operations table).`
		: `Spendesk did not list the key's scopes: it does not read ${words} (scope ${probe.scope}); each operation needs its own scope (see the operations table).`;
}

/** Step 2 for Access Level Company: a documented v1 list answered. */
function companyOutcome(answer: Answer, s: Settings, token: Token, probe: Endpoint): Result {
	const { statusCode: status, body } = answer;
	const works = s.companyId
		? `The key works for its company ('Company ID' "${s.companyId}").`
		: 'The key works for its company.';
	if (isOk(status)) return { status: 'OK', message: `${works} ${whatItDoes(token, probe, true)}` };
	const error = readErrorBody(body);
	if (status === 403 && /scope/i.test([error?.code, error?.detail, error?.source].join(' '))) {
		// Refused for a scope: the key and its token work; the key does not read this list.
		return { status: 'OK', message: `${works} ${whatItDoes(token, probe, false)}` };
	}
	if (status === 400 && /x-company-id/i.test(JSON.stringify(body ?? ''))) {
		return failed(
			`'Client ID' and 'Client Secret' are valid, but the key is organisation-level: Spendesk asks which company each call is for. Set 'Access Level' to "Organisation".${said(body, s.secrets)}`,
		);
	}
	if (status === 403) {
		return failed(
			`Spendesk accepted 'Client ID' and 'Client Secret', but refused the key's company (HTTP 403 to ${testStep(probe)}): check in Spendesk (${KEY_SETTINGS}) that the key is still active, and ask your Spendesk contact if its company was deactivated.${said(body, s.secrets)}`,
		);
	}
	return otherOutcome(answer, probe, s);
}

/** Step 2 for Access Level Organisation: Get Companies answered. */
function organisationOutcome(answer: Answer, s: Settings, token: Token): Result {
	if (isOk(answer.statusCode)) {
		const total = (answer.body as { meta?: { pagination?: { total?: unknown } } } | undefined)?.meta
			?.pagination?.total;
		const reach =
			typeof total === 'number' && Number.isInteger(total) && total >= 0
				? `: it reaches ${total} ${total === 1 ? 'company' : 'companies'}`
				: '';
		const scopes = token.scopes ? ` ${abilities(token.scopes)}` : '';
		return { status: 'OK', message: `The key works at organisation level${reach}.${scopes}` };
	}
	if (answer.statusCode === 403) {
		return failed(
			`Spendesk accepted 'Client ID' and 'Client Secret', but this key has no organisation-level access (HTTP 403 to ${testStep(LEVEL_CHECK)}): set 'Access Level' to "Company" (most keys are company keys), or ask your Spendesk contact to enable organisation-level access for this key (scope ${LEVEL_CHECK.scope}).${said(answer.body, s.secrets)}`,
		);
	}
	return otherOutcome(answer, LEVEL_CHECK, s);
}

/** Step 2 answered with a status no case expects (a 401 for the token just issued, a 404…). */
function otherOutcome(answer: Answer, check: Endpoint, s: Settings): Result {
	const spendeskSaid = said(answer.body, s.secrets);
	if (answer.statusCode === 401) {
		return failed(
			`Spendesk accepted 'Client ID' and 'Client Secret' but then refused the token it issued (HTTP 401 to ${testStep(check)}): test again; if it persists, check that 'Environment' is the one the key was created in.${spendeskSaid}`,
		);
	}
	return failed(
		`'Client ID' and 'Client Secret' are valid, but Spendesk answered ${testStep(check)} with HTTP ${answer.statusCode}: check 'Access Level' in the credential ("Company" for most keys), then test again.${spendeskSaid}`,
	);
}

export async function spendeskApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<Result> {
	const s = settingsOf(credential.data ?? {});
	if (isResult(s)) return s;
	const token = await requestToken(this, s);
	if (isResult(token)) return token;
	s.secrets.push(token.accessToken);
	const check = s.level === 'organisation' ? LEVEL_CHECK : companyProbe(token.scopes);
	const answer = await exchange(this, check, s, {
		headers: { authorization: `Bearer ${token.accessToken}`, accept: 'application/json' },
		qs: { [check.pageSize!.param]: 1 },
	});
	if (isResult(answer)) return answer;
	return s.level === 'organisation'
		? organisationOutcome(answer, s, token)
		: companyOutcome(answer, s, token, check);
}
