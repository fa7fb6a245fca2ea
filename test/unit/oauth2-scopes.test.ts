/**
 * The scopes the OAuth2 credential asks for (docs/api.md#oauth2, #scopes): computed from the
 * Experimental Features choice, and the hidden `scope` expression n8n evaluates on Connect
 * (n8n-workflow's own expression engine) gives the same string.
 */
import { SpendeskOAuth2Api } from '../../credentials/SpendeskOAuth2Api.credentials';
import {
	DEFAULT_SCOPES,
	DOCUMENTED_READ_SCOPES,
	EXPERIMENTAL_FEATURES,
	scopesFor,
} from '../../credentials/scopes';
import { authorizeScope } from '../support/n8n-credentials';

const property = (name: string) => new SpendeskOAuth2Api().properties.find((p) => p.name === name);
const values = EXPERIMENTAL_FEATURES.map((f) => f.value);

test('no feature chosen: the documented read scopes, nothing experimental', () => {
	const scope = scopesFor([]);
	expect(scope.split(' ').slice(0, DOCUMENTED_READ_SCOPES.length)).toEqual([
		...DOCUMENTED_READ_SCOPES,
	]);
	expect(scope).not.toContain('experimental:');
	expect(scope.split(' ')).toEqual([...DEFAULT_SCOPES]);
});

test('each feature adds its scopes, once each, after the default ones', () => {
	expect(scopesFor(['webhooks'])).toBe(
		`${DEFAULT_SCOPES.join(' ')} experimental:webhooks:read experimental:webhooks:write`,
	);
	expect(scopesFor(['accountingWriteBack', 'organisationAccess']).split(' ').slice(-5)).toEqual([
		'experimental:company:read',
		'experimental:analytical-field:read',
		'experimental:expense-category:read',
		'experimental:accounting:update',
		'experimental:settlement:update',
	]);
	const all = scopesFor(values).split(' ');
	expect(new Set(all).size).toBe(all.length);
	expect(all).toEqual(
		expect.arrayContaining([
			'experimental:invoice:read',
			'experimental:intake:write',
			'experimental:supplier:manage',
			'experimental:payable-search:read',
			'experimental:accounting-export:read',
			'experimental:purchase-order:write',
		]),
	);
});

test('the credential shows the choice and hides the scope, whose expression n8n resolves to the same string', () => {
	expect(property('experimentalFeatures')).toMatchObject({ type: 'multiOptions', default: [] });
	expect(property('scope')).toMatchObject({ type: 'hidden' });
	const choices = [[], ...values.map((v) => [v]), values, ['invoicesIntakes', 'webhooks']];
	for (const chosen of choices) {
		const sent = authorizeScope({
			environment: 'production',
			clientId: 'app',
			clientSecret: 's',
			experimentalFeatures: chosen,
		});
		expect({ chosen, sent }).toEqual({ chosen, sent: scopesFor(chosen) });
		// n8n splits the scope on commas: there must be none.
		expect(sent).not.toContain(',');
	}
	// A credential saved before the field existed: as if nothing was chosen.
	expect(authorizeScope({ environment: 'production' })).toBe(scopesFor([]));
});

test('a credential saved with a typed scope: n8n drops it on Connect and asks for the computed scopes', () => {
	const typed = 'experimental:company:read experimental:invoice:read wallet-summary:read';
	expect(authorizeScope({ environment: 'production', scope: typed })).toBe(scopesFor([]));
	expect(
		authorizeScope({
			environment: 'production',
			scope: typed,
			experimentalFeatures: ['organisationAccess', 'invoicesIntakes'],
		}),
	).toBe(scopesFor(['organisationAccess', 'invoicesIntakes']));
});
