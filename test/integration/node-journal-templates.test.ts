/**
 * Accounting Export → Create with a journal template (docs/api.md#journal-templates),
 * in both profiles (the documented profile's keys hold the experimental scope once granted):
 * the Template list (`searchJournalTemplates`), a template picked from it or given by ID, the
 * default template when empty, and a template the company does not have refused with a clear
 * error.
 */
import type { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import { searchJournalTemplates } from '../../nodes/Spendesk/methods/recordSearch';
import type { SpendeskSimulator } from '../simulator';
import { JOURNAL_TEMPLATES } from '../simulator/fileRoutes';
import { expectRefusedBeforeAnyRequest, failure, simulatorPerSuite } from '../support/fixtures';
import type { CredentialKind } from '../support/fixtures';
import { apiRequests, listSearch, runNode } from '../support/node';
import { locatorById, locatorFromList, oneCompany } from '../support/values';

const SCOPES = ['experimental:accounting-export:read'];
const CREATE = {
	resource: 'accountingExport',
	operation: 'create',
	companies: 'one',
	from: '2026-01-01T00:00:00.000Z',
	to: '2026-01-01T02:00:00.000Z',
};
const withTemplate = (templateId: IDataObject) => ({ options: { maxWait: 30, templateId } });

describe.each(['specification', 'documented'] as const)(
	'node: journal templates (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		simulatorPerSuite(
			{
				profile,
				exportPendingPolls: 1,
				rateLimit: 10_000,
				seed: { companies: 3, sizes: { invoices: 1, payables: 10 } },
				grantScopes: { 'sim-org-client': SCOPES, 'sim-company-client': SCOPES },
			},
			(started) => (sim = started),
		);

		const search = (kind: CredentialKind, parameters: IDataObject, filter?: string) =>
			listSearch(sim, kind, searchJournalTemplates, { parameters }, filter);

		test.each([
			['orgKey', oneCompany(locatorFromList('cmp_002')), 'cmp_002'],
			['companyKey', oneCompany(), 'cmp_001'],
		] as const)(
			'%s: the list shows the company\'s templates as "name (id)", filtered by the text typed',
			async (kind, parameters, company) => {
				const all = await search(kind, parameters);
				expect(all.results).toEqual(
					JOURNAL_TEMPLATES.map((t) => ({ name: `${t.name} (${t.id})`, value: t.id })),
				);
				expect(apiRequests(sim).map((r) => `${r.method} ${r.path} ${r.companyId}`)).toEqual([
					`GET /v1/accounting/journal-templates ${company}`,
				]);
				const datev = await search(kind, parameters, 'datev');
				expect(datev.results.map((r) => r.value)).toEqual(['tpl_datev']);
			},
		);

		test('with All Companies the list says to enter the ID', async () => {
			await expectRefusedBeforeAnyRequest(
				sim,
				search('orgKey', { companies: 'all' }),
				'Journal templates belong to one company: choose One Company to pick from the list',
			);
		});

		test.each([
			['From List', locatorFromList('tpl_datev'), 'tpl_datev'],
			['By ID', locatorById(' tpl_sage '), 'tpl_sage'],
		])('a template %s is sent as templateId', async (_, templateId, sent) => {
			const { out } = await runNode(sim, 'orgKey', {
				...CREATE,
				company: 'cmp_002',
				...withTemplate(templateId),
			});
			expect(sim.requestsTo('createAccountingExport')[0].body).toEqual({
				from: CREATE.from,
				to: CREATE.to,
				templateId: sent,
			});
			expect(out[0].json).toMatchObject({ status: 'COMPLETE', templateId: sent });
		});

		test.each([
			['an empty From List', locatorFromList('')],
			['an empty By ID', locatorById('  ')],
		])('%s exports with the default template (no templateId sent)', async (_, templateId) => {
			const { out } = await runNode(sim, 'companyKey', {
				...CREATE,
				company: '',
				...withTemplate(templateId),
			});
			expect(sim.requestsTo('createAccountingExport')[0].body).toEqual({
				from: CREATE.from,
				to: CREATE.to,
			});
			expect(out[0].json.status).toBe('COMPLETE');
		});

		test('a template the company does not have: a clear error naming it and the company, nothing started', async () => {
			const error = await failure(
				runNode(sim, 'orgKey', {
					...CREATE,
					company: 'cmp_002',
					...withTemplate(locatorById('tpl_unknown')),
				}),
			);
			expect(error.message).toBe(
				'Company "cmp_002" has no journal template "tpl_unknown", so no export was started',
			);
			expect((error as NodeApiError).description).toContain(
				"Pick the template from the list in 'Template'",
			);
			expect(apiRequests(sim).map((r) => r.route)).toEqual(['createAccountingExport']);
		});

		test('a template ID that is not an ID fails before any request', async () => {
			await expectRefusedBeforeAnyRequest(
				sim,
				runNode(sim, 'orgKey', {
					...CREATE,
					company: 'cmp_002',
					...withTemplate(locatorById('a/b')),
				}),
				'\'Template\' holds "a/b", which is not a valid ID',
			);
		});
	},
);
