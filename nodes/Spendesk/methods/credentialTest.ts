/**
 * The API key credential's test (the editor's "Test" button, and the check n8n runs on Save),
 * as a node-level credential test: every Spendesk node declares the API key credential with
 * `testedBy: 'spendeskApiTest'` and has this function under `methods.credentialTest`, so the
 * test is found whichever node the credential is opened from (n8n looks it up by credential
 * type). n8n calls it with the credential's data (defaults applied, expressions resolved) and
 * shows one message: OK, or an error saying what to do. docs/api.md#authentication.
 *
 * 1. The client ID and secret: the token request, as `preAuthentication` makes it.
 * 2. What the Access Level needs: an organisation-level key lists companies (the
 *    organisation-level endpoint); a company-level key reads its company's wallet summary,
 *    a documented v1 read.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { companyLabel } from '../companies/naming';
import { ENDPOINTS } from '../transport/endpoints';
import type { Endpoint } from '../transport/endpoints';
import { resolveBaseUrl } from '../transport/environment';
import { NETWORK_WORDS, readErrorBody, redact } from '../transport/errors';
import { transportSettings } from '../transport/settings';

/** Where the user finds the key's client ID, secret and scopes in Spendesk. */
const KEY_SETTINGS = 'Settings → Integrations → API access management';

const SCOPE_CHECK = ENDPOINTS.walletSummary;
const LEVEL_CHECK = ENDPOINTS.getCompanies;

interface Answer {
	statusCode: number;
	body: unknown;
}

type Exchange = { kind: 'answer'; answer: Answer } | { kind: 'unreachable'; code?: string };

const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/** One request with n8n's credential-test helper: any status is an answer; only a network failure is not. */
async function exchange(ctx: ICredentialTestFunctions, options: IDataObject): Promise<Exchange> {
	try {
		const answer = (await ctx.helpers.request({
			...options,
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			timeout: transportSettings.tokenTimeoutMs,
		})) as Answer;
		return { kind: 'answer', answer };
	} catch (error) {
		const e = error as { code?: unknown; cause?: { code?: unknown } };
		const code = [e?.code, e?.cause?.code].find((c): c is string => typeof c === 'string');
		return { kind: 'unreachable', code };
	}
}

/** What Spendesk said in an error answer, safe to quote (secrets and tokens redacted). */
function said(body: unknown, secrets: string[]): string {
	const error = readErrorBody(body);
	const text = [error?.code, error?.detail].filter(Boolean).join(': ');
	if (!text) return '';
	const safe = redact(text, secrets);
	return ` Spendesk said: "${safe.length > 200 ? `${safe.slice(0, 200)}…` : safe}".`;
}

/**
 * The answer of a step, or the failure every step shares: Spendesk unreachable, failing (5xx)
 * or limiting the key's requests (429).
 */
function answerOf(
	result: Exchange,
	endpoint: Endpoint,
	origin: string,
	secrets: string[],
): { answer: Answer } | { failure: INodeCredentialTestResult } {
	if (result.kind === 'unreachable') {
		const words = NETWORK_WORDS[result.code ?? ''] ?? 'connection failed';
		return {
			failure: failed(
				`Spendesk could not be reached at ${origin} (${words}${result.code ? `, ${result.code}` : ''}): check the credential's Environment (or Base URL) and the network of your n8n instance, then test again.`,
			),
		};
	}
	const { statusCode: status, body } = result.answer;
	if (status >= 500) {
		return {
			failure: failed(
				`Spendesk could not be reached: it answered HTTP ${status} to "${endpoint.label}" at ${origin}. The problem is on Spendesk's side: test again in a few minutes.${said(body, secrets)}`,
			),
		};
	}
	if (status === 429) {
		return {
			failure: failed(
				`Spendesk is limiting the requests of this key right now (HTTP 429 to "${endpoint.label}"): wait a minute, then test again.`,
			),
		};
	}
	return { answer: result.answer };
}

function isOk(status: number): boolean {
	return status >= 200 && status < 300;
}

/** The company a wallet summary answer belongs to, wrapped in `data` or bare. */
function companyOfAnswer(body: unknown): string | undefined {
	const object = body as { data?: { companyId?: unknown }; companyId?: unknown } | undefined;
	const id = object?.data?.companyId ?? object?.companyId;
	return typeof id === 'string' && id ? id : undefined;
}

interface Settings {
	baseUrl: string;
	origin: string;
	clientId: string;
	clientSecret: string;
	level: 'organisation' | 'company';
	companyId: string;
	/** Never quoted: the secret, then the token once issued. */
	secrets: string[];
}

/** The credential's fields, or what to fix before any request. */
function settingsOf(data: IDataObject): Settings | { failure: INodeCredentialTestResult } {
	let baseUrl: string;
	try {
		baseUrl = resolveBaseUrl(data);
	} catch (error) {
		return {
			failure: failed(
				`${(error as Error).message}. Choose Production or Demo as Environment, or fix the Base URL.`,
			),
		};
	}
	const clientId = typeof data.clientId === 'string' ? data.clientId.trim() : '';
	const clientSecret = typeof data.clientSecret === 'string' ? data.clientSecret : '';
	if (!clientId || !clientSecret) {
		return {
			failure: failed(
				`Enter both the Client ID and the Client Secret of the API key (from Spendesk: ${KEY_SETTINGS}).`,
			),
		};
	}
	const level = data.accessLevel === 'company' ? 'company' : 'organisation';
	const companyId = typeof data.companyId === 'string' ? data.companyId.trim() : '';
	if (level === 'company' && !companyId) {
		return {
			failure: failed(
				'Enter the Company ID of the company this key belongs to, or set Access Level to Organisation for an organisation-level key.',
			),
		};
	}
	const origin = new URL(baseUrl).origin;
	return { baseUrl, origin, clientId, clientSecret, level, companyId, secrets: [clientSecret] };
}

/** Step 1, the client ID and secret: the token request as `preAuthentication` makes it. */
async function requestToken(
	ctx: ICredentialTestFunctions,
	s: Settings,
): Promise<{ accessToken: string } | { failure: INodeCredentialTestResult }> {
	const token = answerOf(
		await exchange(ctx, {
			method: ENDPOINTS.token.method,
			uri: s.baseUrl + ENDPOINTS.token.path,
			auth: { user: s.clientId, pass: s.clientSecret },
			headers: { 'content-type': 'application/json', accept: 'application/json' },
			body: { grant_type: 'client_credentials' },
		}),
		ENDPOINTS.token,
		s.origin,
		s.secrets,
	);
	if ('failure' in token) return token;
	const { statusCode: status, body } = token.answer;
	if (status === 400 || status === 401 || status === 403) {
		return {
			failure: failed(
				`Spendesk refused the client ID or secret: check both fields (copy them again from Spendesk: ${KEY_SETTINGS}), that the key has not expired, and that Environment is the one the key was created in (Production or Demo).${said(body, s.secrets)}`,
			),
		};
	}
	const accessToken = (body as { access_token?: unknown } | undefined)?.access_token;
	if (!isOk(status) || typeof accessToken !== 'string' || !accessToken) {
		return {
			failure: failed(
				`Spendesk answered the token request with HTTP ${status}${isOk(status) ? ' but no access token' : ''}: check that Environment (or Base URL) points at Spendesk's API, then test again.${said(body, s.secrets)}`,
			),
		};
	}
	return { accessToken };
}

/** Step 2 for an organisation-level key: Get Companies answered. */
function organisationOutcome(answer: Answer, spendeskSaid: string): INodeCredentialTestResult {
	if (isOk(answer.statusCode))
		return { status: 'OK', message: 'The key works at organisation level.' };
	if (answer.statusCode === 403) {
		return failed(
			`Spendesk accepted the client ID and secret, but organisation-level access is not enabled for this key: set Access Level to Company (and enter the key's Company ID), or ask your Spendesk contact to enable organisation-level access (scope ${LEVEL_CHECK.scope}).${spendeskSaid}`,
		);
	}
	return otherOutcome(answer, LEVEL_CHECK, spendeskSaid);
}

/** Step 2 for a company-level key: the wallet summary answered. */
function companyOutcome(
	answer: Answer,
	companyId: string,
	spendeskSaid: string,
): INodeCredentialTestResult {
	const { statusCode: status, body } = answer;
	const company = companyLabel(companyId);
	const text = JSON.stringify(body ?? '');
	if (isOk(status)) {
		const own = companyOfAnswer(body);
		if (own && own !== companyId) {
			return failed(
				`The key is valid but belongs to ${companyLabel(own)}, not to ${company} given in the credential: set Company ID to ${own}.`,
			);
		}
		return { status: 'OK', message: `The key works for ${company}.` };
	}
	if (status === 400 && /x-company-id/i.test(text)) {
		return failed(
			`The client ID and secret are valid, but the key is organisation-level: Spendesk asks which company each call is for. Set Access Level to Organisation.${spendeskSaid}`,
		);
	}
	if (status === 403) {
		return failed(
			/scope/i.test(text)
				? `The key is valid for ${company}, but it lacks the scope ${SCOPE_CHECK.scope} that the test reads with (Wallet Summary → Get): add it to the key in Spendesk (${KEY_SETTINGS}). Operations whose scopes the key holds work meanwhile.${spendeskSaid}`
				: `The client ID and secret are valid, but Spendesk refused access to ${company} (HTTP 403 to "${SCOPE_CHECK.label}"): check the Company ID, and that the key holds the scope ${SCOPE_CHECK.scope}.${spendeskSaid}`,
		);
	}
	return otherOutcome(answer, SCOPE_CHECK, spendeskSaid, company);
}

/** Step 2 answered with a status no case expects (a 401 for the token just issued, a 404…). */
function otherOutcome(
	answer: Answer,
	check: Endpoint,
	spendeskSaid: string,
	company?: string,
): INodeCredentialTestResult {
	if (answer.statusCode === 401) {
		return failed(
			`Spendesk accepted the client ID and secret but then refused the token it issued (HTTP 401 to "${check.label}"): test again; if it persists, check that Environment is the one the key was created in.${spendeskSaid}`,
		);
	}
	return failed(
		`The client ID and secret are valid, but Spendesk answered "${check.label}" with HTTP ${answer.statusCode}${company ? ` for ${company}` : ''}: check the credential's Access Level and Company ID.${spendeskSaid}`,
	);
}

/** The test n8n runs for the Spendesk API key credential. */
export async function spendeskApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const s = settingsOf(credential.data ?? {});
	if ('failure' in s) return s.failure;
	const token = await requestToken(this, s);
	if ('failure' in token) return token.failure;
	s.secrets.push(token.accessToken);

	const check = s.level === 'organisation' ? LEVEL_CHECK : SCOPE_CHECK;
	const probe = answerOf(
		await exchange(this, {
			method: check.method,
			uri: s.baseUrl + check.path,
			headers: { authorization: `Bearer ${token.accessToken}`, accept: 'application/json' },
			...(s.level === 'organisation' ? { qs: { [LEVEL_CHECK.pageSize.param]: 1 } } : {}),
		}),
		check,
		s.origin,
		s.secrets,
	);
	if ('failure' in probe) return probe.failure;
	const spendeskSaid = said(probe.answer.body, s.secrets);
	return s.level === 'organisation'
		? organisationOutcome(probe.answer, spendeskSaid)
		: companyOutcome(probe.answer, s.companyId, spendeskSaid);
}
