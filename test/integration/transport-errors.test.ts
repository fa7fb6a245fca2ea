/**
 * Transport core, errors: every case of docs/api.md#errors maps to a message that says
 * what happened (naming the company) and what to do, and no error carries a secret, an
 * access token or an authorization header.
 */
import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';
import { ENDPOINTS } from '../../nodes/Spendesk/transport/endpoints';
import { callName, nameCalls } from '../../nodes/Spendesk/transport/callName';
import { apiError, describeFailure } from '../../nodes/Spendesk/transport/errors';
import { callSpendesk } from '../../nodes/Spendesk/transport/request';
import type { SpendeskContext } from '../../nodes/Spendesk/transport/request';
import type { SpendeskSimulator } from '../simulator';
import { apiFailure, storeFor, ctxFor, simulatorPerSuite } from '../support/fixtures';
import { CredentialStore } from '../support/n8n-context';

/** No client secret, no access token, no authorization header in the error or its description. */
function expectNoSecrets(sim: SpendeskSimulator, error: NodeApiError): void {
	const { orgKey, companyKey, orgKeyNoExperimental, oauthClient } = sim.credentials;
	const texts = [JSON.stringify(error), error.description ?? '', error.message];
	for (const text of texts) {
		for (const secret of [
			orgKey.clientSecret,
			companyKey.clientSecret,
			orgKeyNoExperimental.clientSecret,
			oauthClient.clientSecret,
		]) {
			expect(text).not.toContain(secret);
		}
		expect(text).not.toContain('sat_');
		expect(text).not.toContain('srt_');
		expect(text).not.toContain('Bearer ');
		expect(text).not.toMatch(/authorization/i);
	}
}

describe('transport: errors (docs/api.md#errors)', () => {
	let sim: SpendeskSimulator;
	let org: SpendeskContext;
	simulatorPerSuite({}, (started) => (sim = started));
	beforeEach(async () => {
		org = await ctxFor(sim, 'orgKey');
		await callSpendesk(org, 'walletSummary', { company: 'cmp_001' });
		sim.clearLog();
	});

	test('403 company not in organisation, header route: message names the company', async () => {
		const error = await apiFailure(callSpendesk(org, 'walletSummary', { company: 'cmp_999' }));
		expect(error.message).toBe('Company "cmp_999" does not belong to your organisation');
		expect(error.description).toBe(
			"Check the company ID, or pick the company from the list in 'Company'. Newly created companies can take up to 20 minutes to become visible.",
		);
		expect(error.httpCode).toBe('403');
		const log = sim.requestsTo('walletSummary');
		expect(log.map((r) => r.status)).toEqual([403]);
		expect(log[0].headers['x-company-id']).toBe('cmp_999');
		expectNoSecrets(sim, error);
	});

	test('403 company not in organisation, path route: message names the company', async () => {
		const error = await apiFailure(callSpendesk(org, 'listInvoices', { company: 'cmp_999' }));
		expect(error.message).toBe('Company "cmp_999" does not belong to your organisation');
		expect(error.httpCode).toBe('403');
		const log = sim.requestsTo('listInvoices');
		expect(log.map((r) => r.status)).toEqual([403]);
		expect(log[0].path).toBe('/v2/companies/cmp_999/invoices');
		expectNoSecrets(sim, error);
	});

	test('403 "User does not belong to this company" for an OAuth2 organisation token', async () => {
		const ctx = await ctxFor(sim, 'oauthOrg');
		const owner = sim.user('u_owner')!;
		const memberships = [...owner.companyIds];
		sim.removeUserFromCompany('u_owner', 'cmp_002');
		try {
			sim.clearLog();
			for (const name of ['walletSummary', 'listInvoices'] as const) {
				const error = await apiFailure(callSpendesk(ctx, name, { company: 'cmp_002' }));
				expect(error.message).toBe(
					'The user who approved the OAuth2 connection is not a member of company "cmp_002"',
				);
				expect(error.description).toBe(
					'An organisation-level OAuth2 connection acts as the user who approved it. Ask an admin to add that user back to the company, or reconnect the credential as a user who is a member of every company you need.',
				);
				expect(error.httpCode).toBe('403');
				expectNoSecrets(sim, error);
			}
			expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([403]);
			expect(sim.requestsTo('listInvoices').map((r) => r.status)).toEqual([403]);
			expect(sim.requestsTo('oauthTokenRefresh')).toHaveLength(0);
			// Other companies still work.
			expect((await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' })).status).toBe(200);
		} finally {
			owner.companyIds = memberships;
		}
	});

	test("403 company-level token on another company's path (credential without company id, no pre-check)", async () => {
		const store = await storeFor(sim, 'companyKey');
		store.set('spendeskApi', { ...store.get('spendeskApi'), companyId: '' });
		const ctx = await ctxFor(sim, 'companyKey', { store });
		sim.clearLog();
		const error = await apiFailure(callSpendesk(ctx, 'listInvoices', { company: 'cmp_002' }));
		expect(error.message).toBe(
			'The company-level credential "Spendesk API key" cannot reach company "cmp_002"',
		);
		expect(error.description).toBe(
			"A company-level credential reaches only its own company. Leave 'Company' empty in the node and check 'Company ID' in the credential (or leave it empty too: the node then looks the company up), or use an organisation-level credential to work across companies.",
		);
		expect(error.httpCode).toBe('403');
		const log = sim.requestsTo('listInvoices');
		expect(log.map((r) => r.status)).toEqual([403]);
		expect(log[0].path).toBe('/v2/companies/cmp_002/invoices');
		expectNoSecrets(sim, error);
	});

	test('403 company-level token on Get Companies (credential wrongly set to organisation level)', async () => {
		const store = await storeFor(sim, 'companyKey');
		store.set('spendeskApi', {
			...store.get('spendeskApi'),
			accessLevel: 'organisation',
			companyId: '',
		});
		const ctx = await ctxFor(sim, 'companyKey', { store });
		sim.clearLog();
		const error = await apiFailure(callSpendesk(ctx, 'getCompanies'));
		expect(error.message).toBe(
			'a call of the node "Spendesk" needs an organisation-level credential; "Spendesk API key" is company-level',
		);
		expect(error.httpCode).toBe('403');
		expect(sim.requestsTo('getCompanies').map((r) => r.status)).toEqual([403]);
		expectNoSecrets(sim, error);
	});

	test("403 on the experimental API: the operation belongs to Spendesk's experimental API, the scope to ask the Spendesk contact for", async () => {
		const limited = sim.credentials.orgKeyNoExperimental;
		const store = new CredentialStore();
		store.set('spendeskApi', {
			environment: 'custom',
			baseUrl: sim.baseUrl,
			clientId: limited.clientId,
			clientSecret: limited.clientSecret,
			accessLevel: 'organisation',
			companyId: '',
		});
		const ctx = await ctxFor(sim, 'orgKey', { store });
		sim.clearLog();
		const error = await apiFailure(callSpendesk(ctx, 'listInvoices', { company: 'cmp_001' }));
		expect(error.message).toBe(
			'a call of the node "Spendesk" uses Spendesk\'s experimental API, and the credential "Spendesk API key" has no access to it for company "cmp_001"',
		);
		expect(error.description).toBe(
			'Ask your Spendesk contact to enable experimental access for this key (scope "experimental:invoice:read"), then add the scope to the API key in Spendesk (or to the OAuth2 credential\'s scopes and reconnect); or use an operation of Spendesk\'s generally available API, which needs no experimental access.',
		);
		expect(error.httpCode).toBe('403');
		expect(sim.requestsTo('listInvoices').map((r) => r.status)).toEqual([403]);
		expectNoSecrets(sim, error);
		// The same key still reads non-experimental endpoints.
		expect((await callSpendesk(ctx, 'walletSummary', { company: 'cmp_001' })).status).toBe(200);
	});

	test('403 deactivated company (header and path routes)', async () => {
		for (const name of ['walletSummary', 'listInvoices'] as const) {
			const error = await apiFailure(callSpendesk(org, name, { company: 'cmp_005' }));
			expect(error.message).toBe('Company "cmp_005" is deactivated');
			expect(error.description).toBe(
				'Spendesk no longer serves deactivated companies. Remove it from the selection; the company list can show it for up to 20 minutes after deactivation.',
			);
			expect(error.httpCode).toBe('403');
			expectNoSecrets(sim, error);
		}
		expect(sim.requestsTo('walletSummary').map((r) => r.status)).toEqual([403]);
		expect(sim.requestsTo('listInvoices').map((r) => r.status)).toEqual([403]);
	});

	test('404 names the operation and the company', async () => {
		const error = await apiFailure(
			callSpendesk(org, 'getPayablesSnapshot', {
				company: 'cmp_001',
				pathParams: { key: 'no-such-snapshot' },
			}),
		);
		expect(error.message).toBe(
			'Spendesk found nothing for a call of the node "Spendesk" in company "cmp_001" (404)',
		);
		expect(error.description).toBe(
			"Spendesk said: Snapshot not found. Check the IDs given to this operation, and 'Environment' (or 'Base URL') in the credential.",
		);
		expect(error.httpCode).toBe('404');
		expect(sim.requestsTo('getPayablesSnapshot').map((r) => r.status)).toEqual([404]);
		expectNoSecrets(sim, error);
	});

	test('404 on a later page of a page-based list is an error unless allowed', async () => {
		const error = await apiFailure(
			callSpendesk(org, 'listSettlements', { company: 'cmp_001', qs: { page: 9, pageSize: 30 } }),
		);
		expect(error.message).toBe(
			'Spendesk found nothing for a call of the node "Spendesk" in company "cmp_001" (404)',
		);
		expect(error.httpCode).toBe('404');
		const allowed = await callSpendesk(org, 'listSettlements', {
			company: 'cmp_001',
			qs: { page: 9, pageSize: 30 },
			allowNotFound: true,
		});
		expect(allowed.status).toBe(404);
		expectNoSecrets(sim, error);
	});

	test('400 missing X-Company-Id maps to "Choose a company" (describeFailure / apiError)', () => {
		// Named as the node's run names its calls (transport/callName.ts).
		const named = { getNode: () => ({ name: 'Spendesk' }) as INode };
		nameCalls(named, 'Wallet Summary → Get');
		const call = {
			endpoint: ENDPOINTS.walletSummary,
			name: callName(named),
			status: 400,
			error: {
				code: 'missing_company_id',
				detail: 'X-Company-Id header is required for organisation tokens',
				source: 'headers.x-company-id',
			},
			level: 'organisation' as const,
			credentialName: 'Spendesk API key',
		};
		expect(describeFailure(call)).toEqual({
			message:
				'Choose a company: organisation-level credentials must name the company on this call',
			description:
				"Wallet Summary → Get works on one company at a time. Choose it in 'Company' (from the list or by ID), or All Companies in 'Companies' where the operation offers it. Spendesk said: X-Company-Id header is required for organisation tokens",
		});
		// Recognised by its source alone, too.
		expect(describeFailure({ ...call, error: { source: 'headers.x-company-id' } }).message).toBe(
			'Choose a company: organisation-level credentials must name the company on this call',
		);
		const node: INode = {
			id: 'n',
			name: 'Spendesk',
			type: 'n8n-nodes-spendesk.spendesk',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const error = apiError(node, call);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(
			'Choose a company: organisation-level credentials must name the company on this call',
		);
		expect(error.httpCode).toBe('400');
		expectNoSecrets(sim, error);
	});
});
